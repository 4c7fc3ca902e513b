// Measuring across GPUs (issue 16; README "Measurement across GPUs"), over
// the GPUs of gpu_group.hpp (NCCL's bootstrap, gathers, the group clock) and
// the link of link_measurement.hpp. The method is the single-GPU runner's
// (sortbench/measure_loop.hpp): inputs restored and L2 flushed on every GPU
// outside the timed region, noise-based stopping, every result validated
// (here globally: summarize_part on each GPU, combine_parts over all). The
// timed region runs from the first GPU's start to the last GPU's finish.
#include <algorithm>

#include "sortbench/config.hpp"
#include "sortbench/device.hpp"
#include "sortbench/distributed.hpp"
#include "sortbench/device_buffer.hpp"
#include "sortbench/measure_loop.hpp"
#include "sortbench/nccl.hpp"
#include "sortbench/plan.hpp"
#include "sortbench/stats.hpp"

#include "gpu_group.hpp"
#include "link_measurement.hpp"

namespace sortbench {

struct DistributedRunner::State : GpuGroup {
  MeasureSettings m;
  std::vector<DeviceBuffer> flush;

  Workload w;
  std::string workload_skip;
  std::vector<DeviceBuffer> pristine_keys, pristine_values, keys, values;
  std::vector<std::size_t> shard_n;
  LinkMeasurement link;  // at the prepared workload's shard size
};

DistributedRunner::DistributedRunner(const MeasureSettings& m, std::vector<int> devices)
    : st_(std::make_unique<State>()) {
  st_->m = m;
  st_->devices = std::move(devices);
  st_->world_size = int(st_->devices.size());
  init();
}

DistributedRunner::DistributedRunner(const MeasureSettings& m, int device, int world, int rank, std::string id_file)
    : st_(std::make_unique<State>()) {
  st_->m = m;
  st_->devices = {device};
  st_->one_per_process = true;
  st_->world_size = world;
  st_->my_rank = rank;
  st_->id_file = std::move(id_file);
  init();
}

void DistributedRunner::init() {
  State& s = *st_;
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    cudaGetLastError();
    count = 0;
  }
  std::vector<int> sorted = s.devices;
  std::sort(sorted.begin(), sorted.end());
  if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end()) {
    unavailable_ = "GPUs " + gpu_list_text(s.devices) + ": a GPU is named twice";
    return;
  }
  if (sorted.empty() || sorted.back() >= count) {
    unavailable_ = "needs GPU" + std::string(s.devices.size() == 1 ? " " : "s ") + gpu_list_text(s.devices) +
                   "; this machine has " + std::to_string(count) + (count == 1 ? " GPU" : " GPUs");
    return;
  }
  std::string why;
  if (!nccl::available(&why)) {
    unavailable_ = why;
    return;
  }
  const std::size_t g = s.devices.size();  // local members
  s.team.world = s.world_size;
  s.team.local.resize(g);
  s.start.resize(g);
  s.stop.resize(g);
  s.flush.resize(g);
  for (auto* v : {&s.pristine_keys, &s.pristine_values, &s.keys, &s.values}) v->resize(g);
  for (std::size_t i = 0; i < g; ++i) {
    s.set(i);
    auto& mbr = s.team.local[i];
    mbr.device = s.devices[i];
    mbr.rank = s.one_per_process ? s.my_rank : int(i);
    cuda_check(cudaStreamCreateWithFlags(&mbr.stream, cudaStreamNonBlocking), "stream");
    cuda_check(cudaEventCreate(&s.start[i]), "event");
    cuda_check(cudaEventCreate(&s.stop[i]), "event");
    cudaDeviceProp prop{};
    cuda_check(cudaGetDeviceProperties(&prop, s.devices[i]), "cudaGetDeviceProperties");
    if (!s.flush[i].alloc(s.devices[i], std::max<std::size_t>(std::size_t(prop.l2CacheSize), 1 << 20)))
      throw CudaError(cudaErrorMemoryAllocation, "L2 flush buffer");
    // Peer access is NCCL's to enable (enabling it first makes NCCL's own
    // call fail, which compute-sanitizer reports); cudaMemcpyPeer needs none.
  }
  try {
    s.init_comms();
  } catch (const nccl::Error& e) {
    unavailable_ = std::string("NCCL: ") + e.what();
  }
}

DistributedRunner::~DistributedRunner() {
  if (!st_) return;
  State& s = *st_;
  release();
  s.destroy_comms(!lost_.empty());
  s.free_scratch();
  for (std::size_t i = 0; i < s.team.local.size(); ++i) {
    cudaSetDevice(s.devices[i]);
    s.flush[i].reset();
    cudaEventDestroy(s.start[i]);
    cudaEventDestroy(s.stop[i]);
    cudaStreamDestroy(s.team.local[i].stream);
  }
}

void DistributedRunner::release() {
  State& s = *st_;
  for (auto* v : {&s.pristine_keys, &s.pristine_values, &s.keys, &s.values})
    for (auto& b : *v) b.reset();
}

std::string DistributedRunner::prepare(const Workload& w) {
  State& s = *st_;
  s.w = w;
  s.workload_skip.clear();
  s.link = LinkMeasurement{};
  release();
  if (!unavailable_.empty()) return s.workload_skip = unavailable_;
  if (!lost_.empty()) return s.workload_skip = "CUDA context lost earlier: " + lost_;
  if (auto why = plan::workload_skip_reason(w); !why.empty()) return s.workload_skip = why;
  const int g = s.g();
  const std::size_t L = s.local();
  s.shard_n.assign(L, 0);
  const std::size_t kb = key_bytes(w.key), vb = value_bytes(w.value);
  for (std::size_t i = 0; i < L; ++i) s.shard_n[i] = shard_size(w.n, g, s.rank_of(i));
  // The link first, at this workload's shard size, while the memory is free.
  if (g > 1 && w.n) s.link = measure_link(shard_size(w.n, g, 0) * (kb + vb));
  std::string why;
  for (std::size_t i = 0; i < L && why.empty(); ++i) {
    const int r = s.rank_of(i);
    const std::size_t n = s.shard_n[i];
    const int dev = s.devices[i];
    std::size_t free_b = 0, total_b = 0;
    s.set(i);
    cuda_check(cudaMemGetInfo(&free_b, &total_b), "cudaMemGetInfo");
    const std::size_t need = 2 * n * (kb + vb);
    if (double(need) > 0.95 * double(free_b)) {
      why = "GPU " + std::to_string(dev) + " needs " + gib(double(need)) + " GiB for its shard's input buffers, " +
            gib(double(free_b)) + " GiB free";
    } else if (!s.pristine_keys[i].alloc(dev, n * kb) || !s.keys[i].alloc(dev, n * kb) ||
               !s.pristine_values[i].alloc(dev, n * vb) || !s.values[i].alloc(dev, n * vb)) {
      why = "GPU " + std::to_string(dev) + ": out of device memory allocating " + gib(double(need)) + " GiB of shard buffers";
    } else {
      try {
        generate_key_range(w, shard_first(w.n, g, r), n, s.pristine_keys[i].p, s.team.local[i].stream);
        fill_index_values(s.pristine_values[i].p, w.value, n, s.team.local[i].stream, shard_first(w.n, g, r));
      } catch (const CudaError&) {
        throw;
      } catch (const std::exception& e) {
        why = e.what();
      }
    }
  }
  s.sync_all();
  // Every rank skips when one must (one per process: the ranks agree first).
  if (s.max_over_ranks(why.empty() ? 0 : 1) > 0 && why.empty()) why = "another rank could not prepare its shard";
  if (!why.empty()) release();
  return s.workload_skip = why;
}

PointResult DistributedRunner::measure(const VariantInfo& v) {
  State& s = *st_;
  Problem p = s.w.problem();
  p.gpus = s.g();
  PointResult r = result_for(v, s.w, p);
  r.gpus = s.one_per_process ? s.gather_values(s.devices) : s.devices;
  r.cold_l2 = s.m.cold_l2;
  auto skip = [&](const std::string& why) {
    r.status = Status::skipped;
    r.reason = why;
    return r;
  };
  if (!lost_.empty()) return skip("CUDA context lost earlier: " + lost_);
  if (!s.workload_skip.empty()) return skip(s.workload_skip);
  if (auto why = v.skip_reason(p); !why.empty()) return skip(why);
  if (!v.distributed()) return skip("sorts on one GPU");

  const std::size_t L = s.local();
  const bool pairs = p.value != ValueType::none;
  const std::size_t kb = key_bytes(p.key), vb = value_bytes(p.value);
  std::vector<DeviceBuffer> temp(L);
  try {
    auto inst = v.make_distributed(p);
    std::vector<Shard> shards(L);
    std::string why;
    for (std::size_t u = 0; u < L && why.empty(); ++u) {
      const std::size_t bytes = inst->temp_bytes(s.rank_of(u));
      r.temp_bytes = std::max(r.temp_bytes, bytes);
      s.set(u);
      std::size_t free_b = 0, total_b = 0;
      cuda_check(cudaMemGetInfo(&free_b, &total_b), "cudaMemGetInfo");
      if (double(bytes) > 0.95 * double(free_b))
        why = "GPU " + std::to_string(s.devices[u]) + " needs " + gib(double(bytes)) + " GiB of temporary storage, " +
              gib(double(free_b)) + " GiB free";
      else if (!temp[u].alloc(s.devices[u], bytes))
        why = "GPU " + std::to_string(s.devices[u]) + ": out of device memory allocating " + gib(double(bytes)) +
              " GiB of temporary storage";
      shards[u] = {s.keys[u].p, pairs ? s.values[u].p : nullptr, s.shard_n[u], temp[u].p, temp[u].bytes};
    }
    if (s.max_over_ranks(why.empty() ? 0 : 1) > 0) return skip(why.empty() ? "another rank could not allocate its temporary storage" : why);
    auto restore = [&](bool flush) {
      for (std::size_t u = 0; u < L; ++u) {
        s.set(u);
        const cudaStream_t st = s.team.local[u].stream;
        if (s.shard_n[u]) {
          cuda_check(cudaMemcpyAsync(s.keys[u].p, s.pristine_keys[u].p, s.shard_n[u] * kb, cudaMemcpyDeviceToDevice, st),
                     "restore input");
          if (pairs)
            cuda_check(cudaMemcpyAsync(s.values[u].p, s.pristine_values[u].p, s.shard_n[u] * vb,
                                       cudaMemcpyDeviceToDevice, st), "restore input");
        }
        if (flush) cuda_check(cudaMemsetAsync(s.flush[u].p, int(u) & 0xff, s.flush[u].bytes, st), "L2 flush");
      }
      s.sync_all();
    };
    // Each rank summarizes its shard and part; the summaries of every rank make the verdict.
    auto check = [&]() {
      const auto parts = inst->parts();
      std::vector<PartSummary> mine;
      std::vector<std::uint64_t> sizes;
      for (std::size_t u = 0; u < L; ++u) {
        const DeviceSpan in{s.devices[u], s.pristine_keys[u].p, pairs ? s.pristine_values[u].p : nullptr, s.shard_n[u]};
        const DeviceSpan out{s.devices[u], parts.at(u).keys, parts.at(u).values, parts.at(u).n};
        mine.push_back(summarize_part(p, in, out, v.stable));
        sizes.push_back(parts.at(u).n);
      }
      r.part_sizes.clear();
      for (std::uint64_t n : s.gather_values(sizes)) r.part_sizes.push_back(std::size_t(n));
      return combine_parts(p, s.gather_values(mine), v.stable);
    };

    MeasureSteps steps;
    steps.warmup_runs = std::max(1, s.m.warmup_runs);
    steps.warm_up = [&] {
      restore(false);
      inst->run(s.team, shards);
      s.sync_all();
    };
    steps.check = check;
    steps.sample = [&]() -> std::optional<double> {
      restore(s.m.cold_l2);
      s.record_start();
      inst->run(s.team, shards);
      return double(s.record_stop_and_wait());
    };
    // One per process: the times are the same on every rank, the wall clocks not; any rank's stop stops all.
    if (s.one_per_process)
      steps.agree_stop = [&](const std::string& mine) {
        return s.max_over_ranks(mine.empty() ? 0 : 1) > 0 && mine.empty() ? std::string("budget") : mine;
      };
    const auto samples = measure_samples(s.m, steps, r);
    if (!samples) return r;
    r.time_ms = summarize(*samples);
    // Phases and bytes sent, from a few more runs (their events would perturb the timed ones).
    std::vector<std::vector<double>> phase_samples;
    std::vector<std::string> phase_names;
    std::size_t sent = 0;
    for (int k = 0; k < 5; ++k) {
      restore(s.m.cold_l2);
      inst->run(s.team, shards);
      s.sync_all();
      const auto ph = inst->phases();
      if (phase_names.empty())
        for (const auto& [name, ms] : ph) phase_names.push_back(name), phase_samples.emplace_back();
      for (std::size_t j = 0; j < ph.size() && j < phase_samples.size(); ++j)
        phase_samples[j].push_back(s.max_over_ranks(ph[j].second));
      std::size_t mine = 0;
      for (std::size_t b : inst->bytes_sent()) mine = std::max(mine, b);
      sent = std::max(sent, std::size_t(s.max_over_ranks(double(mine))));
    }
    r.phases_ms.clear();
    for (std::size_t j = 0; j < phase_names.size(); ++j)
      r.phases_ms.emplace_back(phase_names[j], summarize(phase_samples[j]).median);
    for (const auto& [name, ms] : r.phases_ms)
      if (name == "exchange" && ms > 0) r.exchange_gb_per_s = double(sent) / (ms * 1e-3) / 1e9;
    r.link_alltoall_gb_per_s = s.link.alltoall_gb_per_s;
    r.local_sort = inst->local_sort();
    const double sec = r.time_ms.median * 1e-3;
    if (sec > 0) {
      r.gkeys_per_s = double(p.n) / sec / 1e9;
      r.gb_per_s = r.bytes_per_key * double(p.n) / sec / 1e9;
    }
    r.status = Status::ok;
  } catch (const CudaError& e) {
    r.status = e.code() == cudaErrorMemoryAllocation ? Status::skipped : Status::failed;
    r.reason = e.what();
    cudaGetLastError();
    for (std::size_t i = 0; i < L; ++i) {
      cudaSetDevice(s.devices[i]);
      const cudaError_t sticky = cudaDeviceSynchronize();
      if (sticky != cudaSuccess && lost_.empty()) {
        lost_ = v.label + ": " + cudaGetErrorName(sticky);
        r.reason += " (the CUDA context is lost; later points are skipped)";
      }
    }
  } catch (const nccl::Error& e) {
    // A communicator that failed may hang the next collective: make new ones.
    r.status = Status::failed;
    r.reason = std::string("NCCL: ") + e.what();
    s.sync_all();
    s.destroy_comms(true);
    try {
      s.init_comms();
    } catch (const nccl::Error& again) {
      unavailable_ = std::string("NCCL: ") + again.what();
    }
  } catch (const std::exception& e) {
    r.status = Status::failed;
    r.reason = e.what();
    try {
      s.sync_all();
    } catch (const CudaError&) {
    }
  }
  return r;
}

const LinkMeasurement& DistributedRunner::prepared_link() const { return st_->link; }

LinkMeasurement DistributedRunner::measure_link(std::size_t bytes) { return time_link(*st_, bytes, unavailable_); }

}  // namespace sortbench
