// The harness's device side, callable from host code: device facts,
// workload generation, validation, and the measuring runner.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include <cuda_runtime_api.h>

#include "sortbench/result.hpp"
#include "sortbench/types.hpp"
#include "sortbench/variant.hpp"

namespace sortbench {

struct DeviceInfo {
  int ordinal = 0;
  std::string name, uuid;
  int sm_count = 0, cc_major = 0, cc_minor = 0;
  std::size_t l2_bytes = 0, total_mem = 0, free_mem = 0;
  int sm_clock_peak_mhz = 0, mem_clock_peak_mhz = 0, mem_bus_width_bits = 0;
  int driver_version = 0, runtime_version = 0;
  std::string cccl_version;
  double copy_gb_per_s = 0;  // measured device-to-device copy, bytes read + written
};

// True if a CUDA device is usable; otherwise *why says what the runtime said.
bool gpu_available(std::string* why);
// Facts about the current device; measures copy bandwidth when asked (about 0.2 s).
DeviceInfo query_device(bool measure_copy_bandwidth);
std::string device_model_slug(const std::string& name);  // "NVIDIA H100 80GB HBM3" -> "h100-80gb-hbm3"

struct Workload {
  KeyType key = KeyType::u32;
  ValueType value = ValueType::none;
  Order order = Order::ascending;
  std::size_t n = 0;
  Distribution dist;
  std::uint64_t seed = 1;
  Problem problem() const { return {key, value, order, n}; }
};

// Why `dist` cannot produce keys of type `k` (empty if it can).
std::string distribution_skip_reason(const Distribution& d, KeyType k);
// Fills d_keys[0..n) on the GPU (files are read on the host and copied).
// Throws std::runtime_error for unreadable or short files, CudaError for CUDA errors.
void generate_keys(const Workload& w, void* d_keys, cudaStream_t s);
// d_values[i] = i, as u32 or u64 values (nothing for ValueType::none).
void fill_index_values(void* d_values, ValueType v, std::size_t n, cudaStream_t s);

// Checks d_out (and d_out_values, the original indices as p.value, for pairs) against
// the pristine input: sorted in the requested order, a permutation of the
// input, and stable when check_stable. Synchronizes the stream.
Validation validate_sort(const Problem& p, const void* d_pristine_keys, const void* d_out_keys,
                         const void* d_out_values, bool check_stable, cudaStream_t s);

// Measures every variant on prepared workloads with NVBench's method.
class Runner {
 public:
  Runner(const MeasureSettings& m, const DeviceInfo& info);
  ~Runner();
  Runner(const Runner&) = delete;
  Runner& operator=(const Runner&) = delete;
  // Generates the pristine input. Empty on success, otherwise why every point
  // of the workload is skipped.
  std::string prepare(const Workload& w);
  // Measures one variant on the prepared workload (never throws for the
  // variant's own failures: they become failed or skipped results).
  PointResult measure(const VariantInfo& v);
  // Set when a fault left the CUDA context unusable: later points are skipped.
  const std::string& context_lost() const { return lost_; }

 private:
  struct State;
  std::unique_ptr<State> st_;
  std::string lost_;
};

}  // namespace sortbench
