// A sweep planned before it runs (run --dry-run, tune --dry-run): which points
// will be skipped, in the words the runner records, and how long the rest will
// take. The runners take their host-side decisions from here too
// (workload_skip_reason, then VariantInfo::skip_reason), so the reasons a dry
// run prints cannot drift from those a report records. Host code.
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "sortbench/device.hpp"

namespace sortbench::plan {

// Why values of type v cannot be the original indices of n keys (u32 past
// 2^32); empty if they can. Flags that ask for such points are refused
// (run: exit 2); a config's are skipped with this reason.
std::string value_index_skip_reason(ValueType v, std::size_t n);

// Why no variant can run w, known before any GPU work (values that cannot
// hold its indices, a distribution that does not apply to the key type). Runner::prepare and
// DistributedRunner::prepare record it for every point of the workload; they
// check free memory after it, which a plan cannot know.
std::string workload_skip_reason(const Workload& w);

// The problem v is measured on for w: a single-GPU variant runs on the
// point's first GPU with all n keys (Measurer), so its problem names one GPU.
Problem problem_for(const VariantInfo& v, const Workload& w);

struct Point {
  bool skip = false;
  std::string reason;     // skip: the reason the report will record
  std::string unchecked;  // to measure: what the variant's own check threw (it needs the GPU)
};

// What the runner decides before it measures: the workload's reason, then the
// variant's (declared types, order and cap, then its own check). An own check
// that throws (it queries a GPU there is none of) leaves the point to measure,
// with `unchecked` set: it may still be skipped when it runs.
Point classify(const VariantInfo& v, const Workload& w);

struct Tally {
  std::size_t points = 0, to_measure = 0, skipped = 0, unchecked = 0;
  std::vector<std::pair<std::string, std::size_t>> skip_reasons;  // each reason and its count, first seen first
  void add(const Point& p);
};

// An upper bound on the measuring: each point stops sampling at the budget
// (workload generation, warm-up and validation come on top, well under a
// second a point at the default sizes).
double measure_bound_s(std::size_t points, double budget_s);
// One point's energy window at most: the window, and a step of NVML's counter
// (up to 0.1 s on an H200) at each end; 0 without energy.
double energy_window_bound_s(double window_s);

// The compiling of on-demand points: the mean of the compile times the cache
// recorded (on_demand::recorded_compile_times), else kDefaultCompileS, with
// `jobs` compilers at a time.
inline constexpr double kDefaultCompileS = 12;  // README "On-demand points": a point for u32 and u64 keys
struct CompileEstimate {
  std::size_t points = 0;
  unsigned jobs = 1;
  double per_point_s = 0;
  std::size_t recorded = 0;  // compiles the mean is of; 0: kDefaultCompileS
  double wall_s = 0;
  // "0 to compile", or "3 to compile, est. 24s (12 s a point, the mean of 17 compiles the cache recorded; 2 jobs)"
  std::string text() const;
};
CompileEstimate estimate_compile(std::size_t points, const std::vector<double>& recorded_s, unsigned jobs);

// The last line of run --dry-run: "dry run: 120 points: 107 to measure, 13
// skipped (8: REASON; 5: REASON), est. measuring <= 5m21s (107 x 3 s budget), 0 to compile".
// energy_s: the time each point's energy window adds (0: none).
std::string summary_line(const Tally& t, double budget_s, const CompileEstimate& c, double energy_s = 0);

// Shard `shard` of `shards` of a sweep's workloads (sortbench run --shard), in
// their order: dealt largest first (n x bytes a key and value) in snake order
// (0..N-1, N-1..0, ...), so every shard gets a like mix of sizes and the
// shards of one sweep take about as long.
std::vector<Workload> shard_of(const std::vector<Workload>& workloads, std::size_t shard, std::size_t shards);

}  // namespace sortbench::plan
