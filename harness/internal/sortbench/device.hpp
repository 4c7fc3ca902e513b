// The harness's device side, callable from host code: device facts,
// workload generation, validation, and the measuring runner.
#pragma once

#include <cstdint>
#include <map>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <cuda_runtime_api.h>

#include "sortbench/device/mapped_flag.hpp"
#include "sortbench/input_class.hpp"
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
  // NVML's energy counter (sortbench/energy.hpp): energy_missing says why it
  // cannot be read (empty when it can); the draw with no work of this process
  // (NVML's reading when queried; a sweep's Measurer measures it from the
  // counter over 1 s), and the enforced power limit.
  std::string pci_bus_id, energy_missing;
  double idle_w = 0, power_limit_w = 0;
};

// True if a CUDA device is usable; otherwise *why says what is missing, in
// sortbench/gpu_status.hpp's words (host code, gpu_status.cpp).
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
  // The GPUs (CUDA ordinals) of the point: empty for the current one. With
  // several, distributed variants sort across them and single-GPU variants
  // run on the first with all n keys (the one-GPU baseline).
  std::vector<int> devices;
  int gpus() const { return devices.size() > 1 ? int(devices.size()) : 1; }
  Problem problem() const { return {key, value, order, n, gpus()}; }
};

// A result naming what runs: the variant on the workload (as problem p), before any outcome.
inline PointResult result_for(const VariantInfo& v, const Workload& w, const Problem& p) {
  PointResult r;
  r.variant = v.label;
  r.family = v.family;
  r.params = v.params;
  r.claims_stable = v.stable;
  r.key = p.key;
  r.value = p.value;
  r.order = p.order;
  r.n = p.n;
  r.distribution = w.dist.name();
  r.seed = w.seed;
  r.bytes_per_key = v.bytes_per_key(p);
  return r;
}

// Why `dist` cannot produce keys of type `k` (empty if it can).
std::string distribution_skip_reason(const Distribution& d, KeyType k);
// Fills d_keys[0..n) on the GPU (files are read on the host and copied).
// Throws std::runtime_error for unreadable or short files, CudaError for CUDA errors.
void generate_keys(const Workload& w, void* d_keys, cudaStream_t s);
// The keys of global indices [first, first + count) of the workload's w.n
// (a shard of a distributed point): the same keys generate_keys puts there.
void generate_key_range(const Workload& w, std::size_t first, std::size_t count, void* d_keys, cudaStream_t s);
// d_values[i] = first + i, as u32 or u64 values (nothing for ValueType::none).
void fill_index_values(void* d_values, ValueType v, std::size_t n, cudaStream_t s, std::size_t first = 0);

// The dispatch's look at the keys (sortbench/input_class.hpp): count_sample
// enqueues one kernel that counts kClassSamplePairs adjacent pairs of
// keys[0..n) into `counts` (host memory mapped for the device), setting its
// `done` last; wait_for_sample spins on it (no stream synchronization) and
// classifies the counts. n < 2: nothing. One sample at a time per counts.
struct MappedSampleCounts {
  MappedHost<SampleCounts> mapped;
  void* tables = nullptr;  // device memory the kernel counts in, zero between samples
  MappedSampleCounts();
  ~MappedSampleCounts();
  MappedSampleCounts(const MappedSampleCounts&) = delete;
  MappedSampleCounts& operator=(const MappedSampleCounts&) = delete;
};
void count_sample(KeyType key, const void* keys, std::size_t n, const MappedSampleCounts& counts, cudaStream_t s);
InputFeatures wait_for_sample(KeyType key, std::size_t n, const SampleCounts* mapped, cudaStream_t s);
// Both, with counts of its own (untimed, one-off uses: tests).
InputFeatures classify_keys(KeyType key, const void* keys, std::size_t n, cudaStream_t s);
// The same look at a workload's keys without the workload: only the sampled
// pairs are generated (generate_key_range, each a pure function of its
// index) and classified on the host (input_features), so the class is the
// one the runner records once it has generated them all. best:FAMILY takes
// it for a distribution its best.json's tune did not measure.
InputFeatures classify_workload(const Workload& w);

// Checks d_out (and d_out_values, the original indices as p.value, for pairs) against
// the pristine input: sorted in the requested order, a permutation of the
// input, and stable when check_stable. Synchronizes the stream.
Validation validate_sort(const Problem& p, const void* d_pristine_keys, const void* d_out_keys,
                         const void* d_out_values, bool check_stable, cudaStream_t s);

// Measures every variant on prepared workloads with NVBench's method, on the
// GPU that was current when it was made (info.ordinal).
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
  // Frees the prepared workload's buffers (another runner needs the memory).
  void release();

 private:
  // One sort's energy after the timed samples (sortbench/energy.hpp), or why there is none.
  EnergyResult measure_energy(const VariantInfo& v, Instance& inst, const Buffers& b, void* temp,
                              std::size_t temp_bytes, const std::function<void()>& restore, double sort_ms);
  double sample_cost_us();
  struct State;
  std::unique_ptr<State> st_;
  std::string lost_;
};

// The link between the GPUs of a device set, as measured by the harness:
// `nvidia-smi topo -m`, and timed transfers of `bytes` per GPU (NCCL
// all-to-all among all of them, and a peer copy from the first to the second).
struct LinkMeasurement {
  std::vector<int> devices;
  std::string topology;       // nvidia-smi topo -m, as printed; empty if it could not run
  std::string error;          // why a measurement is missing
  std::size_t bytes = 0;      // per GPU
  bool peer_access = false;   // cudaDeviceCanAccessPeer(first, second)
  // All-to-all: each GPU sends bytes*(g-1)/g and receives as much; GB/s is
  // the bytes each GPU sends to others over the median time.
  double alltoall_ms = 0, alltoall_gb_per_s = 0;
  double alltoall_unaligned_gb_per_s = 0;  // buffers 4 bytes past 256-byte boundaries
  double peer_copy_ms = 0, peer_copy_gb_per_s = 0;  // first -> second, `bytes`
  double bidir_peer_copy_gb_per_s = 0;              // both directions at once, per direction
};

// Measures distributed variants on a device set, in this process (one NCCL
// communicator per GPU, ncclCommInitAll). Timing (README "Measurement across
// GPUs"): every shard restored and every L2 flushed before a sample, all
// untimed; the sample runs from an event on the first GPU that every other
// GPU's stream waits on, to an event on the first GPU recorded after it has
// waited for every other GPU's last work.
class DistributedRunner {
 public:
  DistributedRunner(const MeasureSettings& m, std::vector<int> devices);
  // One rank of `world`, one process per GPU (a launcher's tasks): this
  // process drives `device` as `rank`; rank 0 writes NCCL's unique id to
  // id_file (on a file system every rank sees) and the others read it
  // (ncclCommInitRank). Every rank calls prepare, measure and measure_link
  // in the same order; the results are the same on every rank.
  DistributedRunner(const MeasureSettings& m, int device, int world, int rank, std::string id_file);
  ~DistributedRunner();
  DistributedRunner(const DistributedRunner&) = delete;
  DistributedRunner& operator=(const DistributedRunner&) = delete;
  // Why no point on this device set can run (too few GPUs, NCCL missing or
  // failing): empty when it can.
  const std::string& unavailable() const { return unavailable_; }
  std::string prepare(const Workload& w);
  PointResult measure(const VariantInfo& v);
  void release();
  LinkMeasurement measure_link(std::size_t bytes_per_gpu);
  // The link as prepare() measured it at the workload's shard size.
  const LinkMeasurement& prepared_link() const;
  const std::string& context_lost() const { return lost_; }

 private:
  void init();
  struct State;
  std::unique_ptr<State> st_;
  std::string unavailable_, lost_;
};

// Checks the parts of a distributed sort against its shards: each part
// sorted, each part's first key ordered after the previous non-empty part's
// last, the part sizes summing to n, the union a permutation of the input
// (keys: multiset hashes summed over GPUs; pairs: hashes of (key, value) and
// of the values, which are the global indices), and stability within and
// across parts when check_stable. first_bad_index is a global position.
// Two steps, so ranks in different processes can share the work: each rank
// summarizes its shard and part on its GPU (a plain record, to be gathered),
// and every summary in rank order makes the verdict.
struct DeviceSpan {
  int device = 0;
  const void* keys = nullptr;
  const void* values = nullptr;
  std::size_t n = 0;
};
struct PartSummary {
  unsigned long long in[4], out[4];  // multiset hashes of the shard and of the part (sums mod 2^64)
  unsigned long long n;
  unsigned long long first_unsorted, first_unstable;  // within the part; ULLONG_MAX when none
  unsigned long long first_bits, first_value, last_bits, last_value;  // the part's ends (ordered key bits)
};
PartSummary summarize_part(const Problem& p, const DeviceSpan& shard, const DeviceSpan& part, bool check_stable);
Validation combine_parts(const Problem& p, const std::vector<PartSummary>& parts, bool check_stable);

// Every runner a sweep needs, made when first used: a Runner per GPU for the
// single-GPU variants, a DistributedRunner per device set. A workload is
// prepared on the runner that measures it when its first point comes.
class Measurer {
 public:
  explicit Measurer(const MeasureSettings& m);
  ~Measurer();
  PointResult measure(const VariantInfo& v, const Workload& w);
  // Facts of a GPU (the copy bandwidth measured once).
  const DeviceInfo& device(int ordinal);
  // Every link measurement made so far (one per multi-GPU workload prepared).
  const std::vector<LinkMeasurement>& links() const;
  // Frees the prepared workload's buffers on every GPU.
  void release();
  std::string context_lost() const;

 private:
  struct State;
  std::unique_ptr<State> st_;
};

}  // namespace sortbench
