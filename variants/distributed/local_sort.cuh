// The local sort of the distributed family (issue 16): what each GPU sorts
// its own keys with, this GPU's tuned radix point through the registry, and
// why the family cannot run here.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <utility>

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
  std::map<std::pair<int, std::size_t>, std::unique_ptr<Instance>> by_n_;
};

}  // namespace sortbench::distributed
