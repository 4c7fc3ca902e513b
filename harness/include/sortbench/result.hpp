// Plain records shared by the measuring code (device side) and the report
// code (host side). No JSON and no CUDA types here.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "sortbench/types.hpp"
#include "sortbench/variant.hpp"

namespace sortbench {

// How one point is measured (NVBench's method; see README "Measurement").
struct MeasureSettings {
  int warmup_runs = 1;             // untimed runs before sampling
  int min_samples = 10;            // never stop before this many samples
  int max_samples = 10000;         // hard cap
  double max_rel_stderr = 0.005;   // stop once stdev/sqrt(k)/mean is at most this
  double budget_s = 3.0;           // per point, wall time of the sampling loop
  bool cold_l2 = true;             // flush L2 before every sample (--hot turns it off)
  double throttle_ratio = 0.75;    // a sample whose SM clock is under this fraction of peak is discarded
  // Energy (sortbench/energy.hpp): after the timed samples, back-to-back
  // sorts over a window of at least this long between two steps of NVML's
  // counter; 0: no energy.
  double energy_window_s = 1.0;
};

struct SampleStats {
  std::size_t samples = 0;
  double median = 0, mean = 0, min = 0, max = 0, stdev = 0, q1 = 0, q3 = 0;
  double rel_stderr = 0;  // stdev / sqrt(samples) / mean
  std::vector<double> raw;  // milliseconds, in measurement order
};

struct Validation {
  bool checked = false;
  bool sorted = false;
  bool permutation = false;
  bool stability_checked = false;  // needs values (the original index)
  bool stable = false;
  std::int64_t first_bad_index = -1;  // first index that breaks the check that failed
  std::string message;              // empty when the result is valid
  bool ok() const { return checked && sorted && permutation && (!stability_checked || stable); }
};

// The fastest baseline of one group on a workload, and this result's speedup over it.
struct BaselineRatio {
  std::string baseline;  // the label of that library call
  double speedup = 0;    // its median / this median
};

// A point that ran on several GPUs against the library on one (issue 16):
// the fastest baseline of the same workload on one GPU, and the fastest
// baseline sorting one GPU's share (n/g keys) alone, when the sweep measured it.
struct Scaling {
  std::string one_gpu_baseline;
  double one_gpu_ms = 0;
  double speedup = 0;     // one_gpu_ms / this median
  double efficiency = 0;  // speedup / gpus
  std::string ideal_baseline;
  std::size_t ideal_n = 0;
  double ideal_ms = 0;           // each GPU sorting its n/g keys alone, with no exchange
  double fraction_of_ideal = 0;  // ideal_ms / this median
};

// Energy of one sort from NVML's counter (README "Energy"): the window's
// energy over the sorts in it, less that of their input restores (measured
// alone over a window of their own). `missing` says why there is none.
struct EnergyResult {
  bool measured = false;
  double joules = 0;          // one sort
  double joules_per_gkey = 0;
  double watts_mean = 0;      // over the sorts' window, restores included
  double power_reading_w = 0; // NVML's power reading over the window: a cross-check of watts_mean (0: none)
  double window_s = 0;        // the sorts' window, between two steps of the counter
  std::size_t sorts = 0;      // sorts in that window (rounded: the batches at its ends count by their share)
  double restore_joules = 0;  // one input restore, subtracted
  // The window's own relative error: each end is timed to within the polls
  // of the counter around it, as a share of the batch of sorts it cut.
  double rel_error = 0;
  std::string method;
  std::string missing;        // why not measured (no NVML, no permission, a host variant, ...)
};

enum class Status { ok, failed, skipped };
std::string to_string(Status s);
Status parse_status(const std::string& s);

struct PointResult {
  // What ran.
  std::string variant, family;
  Params params;
  bool claims_stable = false;
  KeyType key = KeyType::u32;
  ValueType value = ValueType::none;
  Order order = Order::ascending;
  std::size_t n = 0;
  std::string distribution;
  std::uint64_t seed = 0;
  // Outcome.
  Status status = Status::ok;
  std::string reason;  // why it failed or was skipped
  Validation validation;
  // Timing (status ok only).
  SampleStats time_ms;
  std::string stop_reason;  // "noise", "budget", "max_samples", "throttled"
  std::size_t throttled_samples = 0;  // discarded for a low SM clock
  double sm_clock_mhz = 0;            // median SM clock over kept samples
  bool throttled = false;
  bool cold_l2 = true;
  std::size_t temp_bytes = 0;
  double bytes_per_key = 0;
  double gkeys_per_s = 0;
  double gb_per_s = 0;
  double fraction_of_copy_bw = 0;
  std::map<std::string, double> speedup;  // baseline label -> baseline median / this median
  // Baseline group -> the group's fastest baseline on this workload (README
  // "Baselines"): a library ("cub", "thrust") and a library call
  // ("cub.radix_sort", "cub.merge_sort", ...), each over its measured forms.
  std::map<std::string, BaselineRatio> vs;
  // Where it ran: the CUDA ordinals of its GPUs (one for single-GPU variants;
  // empty in reports written before issue 16).
  std::vector<int> gpus;
  // Distributed points: keys in each rank's part of the output (load balance),
  // the median time of each phase over a few untimed runs, and the scaling
  // against one GPU (compute_speedups).
  std::vector<std::size_t> part_sizes;
  std::vector<std::pair<std::string, double>> phases_ms;
  std::string local_sort;  // DistributedInstance::local_sort(); empty where the design has none
  // The workload's class as a dispatch sees it (sortbench/input_class.hpp),
  // from the pristine input; empty where not sampled (distributed points).
  std::string input_class;
  // What dispatch.sort's look at these keys adds to a sort, in microseconds
  // (Runner's sample_cost_us); negative where not measured.
  double sample_us = -1;
  // What a variant that picks its path at run time (dispatch.sort,
  // radix.two_digit_msd_local_lsd) ran on its last timed run, and why.
  std::string dispatch;
  // The best:FAMILY selectors of the sweep that named this variant for this
  // workload ("best:radix"), so a report tells its pick from the variants
  // named outright.
  std::vector<std::string> selected_by;
  bool has_scaling = false;
  Scaling scaling;
  // The exchange against the link: the bytes the busiest GPU sent to others
  // over its exchange phase's median time, and the harness's NCCL all-to-all
  // of this point's shard size on the same GPUs (LinkMeasurement).
  double exchange_gb_per_s = 0;
  double link_alltoall_gb_per_s = 0;
  EnergyResult energy;

  std::string workload_key() const;  // key|value|order|n|distribution|seed
  // "|gpus:0,1" for a point across GPUs, empty for one GPU: with the variant
  // and workload_key, what tells two results of a report apart.
  std::string placement_key() const;
};

}  // namespace sortbench
