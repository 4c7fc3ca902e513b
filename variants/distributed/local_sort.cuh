// The local sort of the distributed family (issue 16): what each GPU sorts
// its own keys with, this GPU's tuned radix point through the registry, and
// why the family cannot run here.
#pragma once

#include <exception>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "sortbench/device.hpp"
#include "sortbench/distributed.hpp"
#include "sortbench/nccl.hpp"
#include "radix/common/radix_common.cuh"

namespace sortbench::distributed {

// The current GPU's model; empty without a GPU (a dry run plans without one:
// the local sort is the default point).
inline std::string current_gpu_model() {
  int dev = 0;
  cudaDeviceProp prop{};
  if (cudaGetDevice(&dev) == cudaSuccess && cudaGetDeviceProperties(&prop, dev) == cudaSuccess)
    return device_model_slug(prop.name);
  cudaGetLastError();
  return {};
}

// What each GPU sorts its keys with (sortbench/distributed.hpp).
inline const VariantInfo* local_sort_variant(const Problem& p) {
  return sortbench::local_sort_variant(p, current_gpu_model());
}

// Why the family cannot run here (NCCL missing, no local radix sort for the
// problem); empty when it can.
inline std::string unavailable(const Problem& p) {
  std::string why;
  if (!nccl::available(&why)) return why;
  return local_sort_unavailable(p, current_gpu_model());
}

// Keys moved through device memory per key, end to end, for GB/s: each pass
// of the local sort, the partition or merge, and the bytes sent.
inline double key_value_bytes(const Problem& p) { return double(key_bytes(p.key) + value_bytes(p.value)); }

using Layout = radix::TempLayout;  // offsets into one temp allocation, 256-byte aligned


// local_sort_variant(p) sorting `n` keys on one GPU, one instance per size
// (the sizes of a run repeat in every sample). Chosen once for the problem, so
// every GPU of a process and every size sorts with the same point.
class LocalSort {
 public:
  explicit LocalSort(const Problem& p) : base_(p) {
    base_.gpus = 1;
    v_ = local_sort_variant(p);
    if (!v_) throw std::runtime_error("no radix family default point (the local sort)");
  }
  std::size_t temp_bytes(std::size_t n) { return n ? instance(n).temp_bytes(Buffers{}, nullptr) : 0; }
  void run(std::size_t n, void* kin, void* kout, void* vin, void* vout, void* temp, std::size_t temp_bytes,
           cudaStream_t s) {
    if (!n) return;
    instance(n).run(Buffers{kin, kout, vin, vout}, temp, temp_bytes, s);
  }
  const std::string& label() const { return v_->label; }

 private:
  // One instance per GPU and size: an instance sets its kernels' shared
  // memory limits on the GPU that is current when it is made, and a GPU of
  // the process may get a size no other does. A size past the pick's cap (a
  // shard after an uneven exchange) sorts with the family's default point,
  // which takes every size.
  Instance& instance(std::size_t n) {
    int dev = 0;
    cuda_check(cudaGetDevice(&dev), "local sort: cudaGetDevice");
    std::lock_guard<std::mutex> lock(mu_);  // the GPUs of a process may sort from threads of their own
    auto& slot = by_n_[{dev, n}];
    if (!slot) {
      Problem p = base_;
      p.n = n;
      const VariantInfo* v = v_;
      if (!v->skip_reason(p).empty())
        if (const VariantInfo* d = Registry::instance().family_default("radix"); d && d->skip_reason(p).empty()) v = d;
      slot = v->make(p);
    }
    return *slot;
  }
  Problem base_;
  const VariantInfo* v_ = nullptr;
  std::mutex mu_;
  std::map<std::pair<int, std::size_t>, std::unique_ptr<Instance>> by_n_;
};

// fn(m) for every local member of the team, with its GPU current: from a
// host thread each where the process drives several GPUs, so a local sort
// that waits on the host (the two-digit design reads its sample back) holds
// up its own GPU only, not the GPUs after it (four H200s, 2^28 u32 pairs:
// the local sorts ran one after another, 4.75 ms where one takes 1.2).
template <class Fn>
void on_each_gpu(const Team& team, Fn&& fn) {
  const std::size_t members = team.local.size();
  auto one = [&](std::size_t m) {
    cuda_check(cudaSetDevice(team.local[m].device), "cudaSetDevice");
    fn(m);
  };
  if (members == 1) return one(0);
  std::vector<std::exception_ptr> errors(members);
  std::vector<std::thread> threads;
  for (std::size_t m = 0; m < members; ++m)
    threads.emplace_back([&, m] {
      try {
        one(m);
      } catch (...) {
        errors[m] = std::current_exception();
      }
    });
  for (auto& t : threads) t.join();
  for (auto& e : errors)
    if (e) std::rethrow_exception(e);
}

}  // namespace sortbench::distributed
