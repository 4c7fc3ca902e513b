// The measuring loop (NVBench's method, our code; README "Measurement"):
// temp storage allocated outside the timed region; before every sample the
// input is restored from a pristine copy and L2 is flushed, both untimed;
// CUDA events bracket the sort alone; a short probe after each sample reads
// the SM clock so throttled samples are discarded; sampling stops on noise
// (relative standard error of the mean) or the time budget. Then, where NVML
// can be read, one sort's energy over a window of back-to-back sorts
// (sortbench/energy.hpp), less that of the input restores between them.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <memory>
#include <vector>

#include "sortbench/device.hpp"
#include "sortbench/energy.hpp"
#include "sortbench/device_buffer.hpp"
#include "sortbench/measure_loop.hpp"
#include "sortbench/plan.hpp"
#include "sortbench/stats.hpp"

namespace sortbench {
namespace {

// Spins ~50 us and reports SM cycles and nanoseconds elapsed: the SM clock
// right after a sample.
__global__ void sm_clock_probe(unsigned long long* out) {
  unsigned long long t0, t1;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
  const long long c0 = clock64();
  do {
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t1));
  } while (t1 - t0 < 50000);
  const long long c1 = clock64();
  out[0] = (unsigned long long)(c1 - c0);
  out[1] = t1 - t0;
}

// The first launch of a sort, timed after the dispatch's sample or alone
// (sample_cost_us).
__global__ void first_launch_of_sort() {}

// Operations of an energy window: a batch long enough (kEnergyBatchMs) that
// the host's launches keep the GPU busy between them.
constexpr double kEnergyBatchMs = 5;
std::size_t energy_batch(double op_ms) {
  return std::size_t(std::clamp(std::ceil(kEnergyBatchMs / std::max(op_ms, 1e-4)), 1.0, 100000.0));
}

// A batch enqueued on `stream` as an energy window's operation, two in
// flight, each ending on one of the two events the window polls.
energy::Ops batches(const std::function<void()>& enqueue, cudaStream_t stream, const cudaEvent_t* done) {
  return energy::Ops{[=](std::size_t i) {
                       enqueue();
                       cuda_check(cudaEventRecord(done[i % 2], stream), "event");
                     },
                     [=](std::size_t i) {
                       const cudaError_t e = cudaEventQuery(done[i % 2]);
                       if (e == cudaErrorNotReady) return false;
                       cuda_check(e, "energy window");
                       return true;
                     },
                     2};
}

}  // namespace

struct Runner::State {
  MeasureSettings m;
  DeviceInfo info;
  cudaStream_t stream = nullptr;
  cudaEvent_t start = nullptr, stop = nullptr;
  cudaEvent_t batch_done[2] = {nullptr, nullptr};  // the energy window's batches in flight
  DeviceBuffer flush;
  MappedHost<unsigned long long> clock;  // the SM clock probe's two words

  Workload w;
  std::string workload_skip;  // why the prepared workload cannot run
  DeviceBuffer pristine_keys, pristine_values, keys_in, keys_out, values_in, values_out;
  std::vector<char> host_pristine_keys, host_keys_in, host_keys_out;
  std::vector<char> host_pristine_values, host_values_in, host_values_out;
  bool host_copy_ready = false;
  std::string input_class;  // the prepared workload's, as the dispatch's sample sees it
  double sample_us = -1;    // the prepared workload's (sample_cost_us)
  // The workload's class and sample_cost_us count in it: made once on this runner's GPU.
  std::unique_ptr<MappedSampleCounts> sample_counts;
  MappedSampleCounts& counts() {
    if (!sample_counts) sample_counts = std::make_unique<MappedSampleCounts>();
    return *sample_counts;
  }
  energy::Counter counter;  // this GPU's (info.energy_missing says why it cannot be read)
  // One input restore's energy on the prepared workload, measured once; why not where it failed.
  double restore_joules = -1;
  std::string restore_missing;
};

Runner::Runner(const MeasureSettings& m, const DeviceInfo& info) : st_(std::make_unique<State>()) {
  st_->m = m;
  st_->info = info;
  cuda_check(cudaSetDevice(info.ordinal), "cudaSetDevice");
  cuda_check(cudaStreamCreateWithFlags(&st_->stream, cudaStreamNonBlocking), "runner stream");
  cuda_check(cudaEventCreate(&st_->start), "runner events");
  cuda_check(cudaEventCreate(&st_->stop), "runner events");
  for (cudaEvent_t& e : st_->batch_done) cuda_check(cudaEventCreateWithFlags(&e, cudaEventDisableTiming), "runner events");
  // A write of an L2-sized buffer evicts whatever the previous sample left there.
  if (!st_->flush.alloc(std::max<std::size_t>(info.l2_bytes, 1 << 20)))
    throw CudaError(cudaErrorMemoryAllocation, "L2 flush buffer");
  st_->clock = MappedHost<unsigned long long>(2, "clock probe buffer");
  if (m.energy_window_s > 0) st_->counter = energy::Counter::open(info.pci_bus_id);
}

Runner::~Runner() {
  if (!st_) return;
  cudaSetDevice(st_->info.ordinal);
  release();
  cudaEventDestroy(st_->start);
  cudaEventDestroy(st_->stop);
  for (cudaEvent_t e : st_->batch_done) cudaEventDestroy(e);
  cudaStreamDestroy(st_->stream);
}

void Runner::release() {
  State& s = *st_;
  cudaSetDevice(s.info.ordinal);
  for (DeviceBuffer* b : {&s.pristine_keys, &s.pristine_values, &s.keys_in, &s.keys_out, &s.values_in, &s.values_out})
    b->reset();
  s.host_copy_ready = false;
}

std::string Runner::prepare(const Workload& w) {
  State& s = *st_;
  cuda_check(cudaSetDevice(s.info.ordinal), "cudaSetDevice");
  s.w = w;
  s.host_copy_ready = false;
  s.input_class.clear();
  s.restore_joules = -1;
  s.restore_missing.clear();
  s.workload_skip.clear();
  for (DeviceBuffer* b : {&s.pristine_keys, &s.pristine_values, &s.keys_in, &s.keys_out, &s.values_in, &s.values_out})
    b->reset();
  if (!lost_.empty()) return s.workload_skip = "CUDA context lost earlier: " + lost_;
  if (auto why = plan::workload_skip_reason(w); !why.empty()) return s.workload_skip = why;
  const std::size_t kb = w.n * key_bytes(w.key), vb = w.n * value_bytes(w.value);
  const std::size_t need = 3 * (kb + vb);
  std::size_t free_b = 0, total_b = 0;
  cuda_check(cudaMemGetInfo(&free_b, &total_b), "cudaMemGetInfo");
  if (double(need) > 0.95 * double(free_b))
    return s.workload_skip = "needs " + gib(double(need)) + " GiB for input and output buffers, " +
                             gib(double(free_b)) + " GiB free";
  if (!s.pristine_keys.alloc(kb) || !s.keys_in.alloc(kb) || !s.keys_out.alloc(kb) ||
      !s.pristine_values.alloc(vb) || !s.values_in.alloc(vb) || !s.values_out.alloc(vb))
    return s.workload_skip = "out of device memory allocating " + gib(double(need)) + " GiB of buffers";
  try {
    generate_keys(w, s.pristine_keys.p, s.stream);
    fill_index_values(s.pristine_values.p, w.value, w.n, s.stream);
    cuda_check(cudaStreamSynchronize(s.stream), "workload generation");
    count_sample(w.key, s.pristine_keys.p, w.n, s.counts(), s.stream);
    s.input_class = to_string(wait_for_sample(w.key, w.n, s.counts().mapped.host(), s.stream).cls);
    s.sample_us = sample_cost_us();
  } catch (const CudaError&) {
    throw;
  } catch (const std::exception& e) {
    return s.workload_skip = e.what();
  }
  return {};
}

// What dispatch.sort's look at the keys (dispatch_sort.cpp) adds to a sort
// of the prepared workload: its kernel, the host's wait for the counts in
// mapped memory and the sort's first launch after that, against the first
// launch alone. Each from a flushed L2, between two events; the difference
// of the medians of kSampleCostRuns each. The tune weighs it (docs/tune.md,
// "Input classes").
double Runner::sample_cost_us() {
  State& s = *st_;
  if (s.w.n < 2) return 0;
  constexpr int kSampleCostRuns = 15;
  const MappedSampleCounts& counts = s.counts();
  auto median_us = [&](bool sampled) {
    std::vector<double> us;
    for (int i = 0; i < kSampleCostRuns; ++i) {
      cuda_check(cudaMemsetAsync(s.flush.p, i & 0xff, s.flush.bytes, s.stream), "L2 flush");
      cuda_check(cudaEventRecord(s.start, s.stream), "event");
      if (sampled) {
        count_sample(s.w.key, s.pristine_keys.p, s.w.n, counts, s.stream);
        wait_for_sample(s.w.key, s.w.n, counts.mapped.host(), s.stream);
      }
      first_launch_of_sort<<<1, 32, 0, s.stream>>>();
      cuda_check(cudaGetLastError(), "sample cost: first launch");
      cuda_check(cudaEventRecord(s.stop, s.stream), "event");
      cuda_check(cudaEventSynchronize(s.stop), "sample cost");
      float ms = 0;
      cuda_check(cudaEventElapsedTime(&ms, s.start, s.stop), "sample cost");
      us.push_back(1e3 * double(ms));
    }
    std::nth_element(us.begin(), us.begin() + kSampleCostRuns / 2, us.end());
    return us[kSampleCostRuns / 2];
  };
  return std::max(0.0, median_us(true) - median_us(false));
}

PointResult Runner::measure(const VariantInfo& v) {
  State& s = *st_;
  cuda_check(cudaSetDevice(s.info.ordinal), "cudaSetDevice");
  const Problem p = s.w.problem();
  PointResult r = result_for(v, s.w, p);
  r.cold_l2 = s.m.cold_l2 && !v.host;
  r.input_class = s.input_class;
  r.sample_us = s.sample_us;

  auto skip = [&](const std::string& why) {
    r.status = Status::skipped;
    r.reason = why;
    return r;
  };
  if (!lost_.empty()) return skip("CUDA context lost earlier: " + lost_);
  if (!s.workload_skip.empty()) return skip(s.workload_skip);
  if (auto why = v.skip_reason(p); !why.empty()) return skip(why);

  const bool pairs = p.value != ValueType::none;
  const std::size_t kb = p.n * key_bytes(p.key), vb = p.n * value_bytes(p.value);
  DeviceBuffer temp;
  try {
    // Buffers as the variant sees them; restore() puts the pristine input
    // where the variant reads it.
    Buffers b;
    std::function<void()> restore;
    if (v.host) {
      if (!s.host_copy_ready) {
        s.host_pristine_keys.resize(kb);
        s.host_pristine_values.resize(vb);
        cuda_check(cudaMemcpy(s.host_pristine_keys.data(), s.pristine_keys.p, kb, cudaMemcpyDeviceToHost), "host copy");
        if (pairs)
          cuda_check(cudaMemcpy(s.host_pristine_values.data(), s.pristine_values.p, vb, cudaMemcpyDeviceToHost), "host copy");
        s.host_keys_in.resize(kb);
        s.host_keys_out.resize(kb);
        s.host_values_in.resize(s.host_pristine_values.size());
        s.host_values_out.resize(s.host_pristine_values.size());
        s.host_copy_ready = true;
      }
      b = {s.host_keys_in.data(), s.host_keys_out.data(), pairs ? s.host_values_in.data() : nullptr,
           pairs ? s.host_values_out.data() : nullptr};
      restore = [&, b] {
        std::memcpy(v.in_place ? b.keys_out : b.keys_in, s.host_pristine_keys.data(), kb);
        if (pairs) std::memcpy(v.in_place ? b.values_out : b.values_in, s.host_pristine_values.data(), vb);
      };
    } else {
      b = {s.keys_in.p, s.keys_out.p, pairs ? s.values_in.p : nullptr, pairs ? s.values_out.p : nullptr};
      restore = [&, b] {
        if (kb) cuda_check(cudaMemcpyAsync(v.in_place ? b.keys_out : b.keys_in, s.pristine_keys.p, kb,
                                           cudaMemcpyDeviceToDevice, s.stream), "restore input");
        if (vb) cuda_check(cudaMemcpyAsync(v.in_place ? b.values_out : b.values_in, s.pristine_values.p, vb,
                                           cudaMemcpyDeviceToDevice, s.stream), "restore input");
      };
    }
    // Validation reads the device output buffers; host results are copied there.
    auto check = [&]() {
      if (v.host) {
        if (kb) cuda_check(cudaMemcpy(s.keys_out.p, b.keys_out, kb, cudaMemcpyHostToDevice), "host result");
        if (vb) cuda_check(cudaMemcpy(s.values_out.p, b.values_out, vb, cudaMemcpyHostToDevice), "host result");
      }
      return validate_sort(p, s.pristine_keys.p, s.keys_out.p, s.values_out.p, v.stable, s.stream);
    };

    auto inst = v.make(p);
    restore();
    r.temp_bytes = inst->temp_bytes(b, s.stream);
    cuda_check(cudaStreamSynchronize(s.stream), "temp storage query");
    std::size_t free_b = 0, total_b = 0;
    cuda_check(cudaMemGetInfo(&free_b, &total_b), "cudaMemGetInfo");
    if (double(r.temp_bytes) > 0.95 * double(free_b))
      return skip("needs " + gib(double(r.temp_bytes)) + " GiB of temporary storage, " + gib(double(free_b)) +
                  " GiB free");
    if (!temp.alloc(r.temp_bytes)) return skip("out of device memory allocating " + gib(double(r.temp_bytes)) + " GiB of temporary storage");

    std::vector<double> clocks;
    const double peak = double(s.info.sm_clock_peak_mhz);
    std::size_t sample_no = 0;
    MeasureSteps steps;
    steps.warmup_runs = s.m.warmup_runs;
    steps.warm_up = [&] {
      restore();
      inst->run(b, temp.p, temp.bytes, s.stream);
      cuda_check(cudaStreamSynchronize(s.stream), "warm-up run");
    };
    steps.check = check;
    steps.sample = [&]() -> std::optional<double> {
      restore();
      if (v.host) {
        const auto h0 = std::chrono::steady_clock::now();
        inst->run(b, nullptr, 0, s.stream);
        return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - h0).count();
      }
      if (s.m.cold_l2)
        cuda_check(cudaMemsetAsync(s.flush.p, int(sample_no & 0xff), s.flush.bytes, s.stream), "L2 flush");
      cuda_check(cudaEventRecord(s.start, s.stream), "event");
      inst->run(b, temp.p, temp.bytes, s.stream);
      cuda_check(cudaEventRecord(s.stop, s.stream), "event");
      sm_clock_probe<<<1, 1, 0, s.stream>>>(s.clock.device());
      cuda_check(cudaGetLastError(), "clock probe");
      cuda_check(cudaStreamSynchronize(s.stream), "sample");
      float ms = 0;
      cuda_check(cudaEventElapsedTime(&ms, s.start, s.stop), "event time");
      const double ns = double(s.clock.host()[1]);
      const double mhz = ns > 0 ? double(s.clock.host()[0]) / ns * 1e3 : 0;
      if (peak > 0 && mhz < s.m.throttle_ratio * peak) return std::nullopt;
      ++sample_no;
      clocks.push_back(mhz);
      return double(ms);
    };
    const auto samples = measure_samples(s.m, steps, r);
    r.dispatch = inst->dispatched();
    if (!samples) return r;
    r.time_ms = summarize(*samples);
    if (!clocks.empty()) r.sm_clock_mhz = summarize(clocks).median;
    const double sec = r.time_ms.median * 1e-3;
    if (sec > 0) {
      r.gkeys_per_s = double(p.n) / sec / 1e9;
      r.gb_per_s = r.bytes_per_key * double(p.n) / sec / 1e9;
      if (s.info.copy_gb_per_s > 0) r.fraction_of_copy_bw = r.gb_per_s / s.info.copy_gb_per_s;
    }
    r.status = Status::ok;
    if (s.m.energy_window_s > 0) r.energy = measure_energy(v, *inst, b, temp.p, temp.bytes, restore, r.time_ms.median);
  } catch (const CudaError& e) {
    r.status = e.code() == cudaErrorMemoryAllocation ? Status::skipped : Status::failed;
    r.reason = e.what();
    cudaGetLastError();  // clears errors that do not poison the context
    const cudaError_t sticky = cudaDeviceSynchronize();
    if (sticky != cudaSuccess) {
      lost_ = v.label + ": " + cudaGetErrorName(sticky);
      r.reason += " (the CUDA context is lost; later points are skipped)";
    }
  } catch (const std::exception& e) {
    r.status = Status::failed;
    r.reason = e.what();
  }
  return r;
}

EnergyResult Runner::measure_energy(const VariantInfo& v, Instance& inst, const Buffers& b, void* temp,
                                    std::size_t temp_bytes, const std::function<void()>& restore, double sort_ms) {
  State& s = *st_;
  EnergyResult e;
  if (v.host) {
    e.missing = "a host variant: the GPU's counter does not see it";
    return e;
  }
  if (!s.counter.available()) {
    e.missing = s.counter.why_not().empty() ? s.info.energy_missing : s.counter.why_not();
    return e;
  }
  const double window = s.m.energy_window_s;
  std::string why;
  // The restores alone, once per workload: their energy is subtracted from each sort's.
  if (s.restore_joules < 0 && s.restore_missing.empty()) {
    cuda_check(cudaEventRecord(s.start, s.stream), "event");
    restore();
    cuda_check(cudaEventRecord(s.stop, s.stream), "event");
    cuda_check(cudaStreamSynchronize(s.stream), "restore");
    float restore_ms = 0;
    cuda_check(cudaEventElapsedTime(&restore_ms, s.start, s.stop), "event time");
    const std::size_t k = energy_batch(restore_ms);
    const auto w = energy::measure_window(s.counter, batches([&] {
      for (std::size_t i = 0; i < k; ++i) restore();
    }, s.stream, s.batch_done), window, &why);
    if (w) s.restore_joules = w->joules_per_op() / double(k);
    else s.restore_missing = "the restores' window: " + why;
  }
  if (!s.restore_missing.empty()) {
    e.missing = s.restore_missing;
    return e;
  }
  const std::size_t k = energy_batch(sort_ms);
  const auto w = energy::measure_window(s.counter, batches([&] {
    for (std::size_t i = 0; i < k; ++i) {
      restore();
      inst.run(b, temp, temp_bytes, s.stream);
    }
  }, s.stream, s.batch_done), window, &why);
  if (!w) {
    e.missing = why;
    return e;
  }
  const double sorts = w->ops * double(k);
  e.measured = true;
  e.sorts = std::max<std::size_t>(1, std::size_t(std::llround(sorts)));
  e.window_s = w->seconds;
  e.watts_mean = w->watts_mean();
  e.power_reading_w = w->power_reading_w;
  e.restore_joules = s.restore_joules;
  e.joules = std::max(0.0, w->joules / sorts - s.restore_joules);
  e.joules_per_gkey = s.w.n ? e.joules / (double(s.w.n) / 1e9) : 0;
  e.rel_error = w->rel_error;
  e.method = "NVML total energy between two steps of the counter over >= " + std::to_string(window).substr(0, 4) +
             " s of back-to-back sorts in batches of " + std::to_string(k) +
             " (each from a restored input, L2 not flushed; the batches the steps cut counted by their share), "
             "less one restore's energy measured alone";
  return e;
}

}  // namespace sortbench
