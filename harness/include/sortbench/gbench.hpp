// Export of a report in Google Benchmark's JSON shape, so tools built for it
// read sortbench results unchanged: compare.py from Debian's libbenchmark-tools
// (with its U test) and github-action-benchmark (tool: googlecpp).
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "sortbench/report.hpp"

namespace sortbench {

enum class GbenchSamples {
  // One "iteration" entry per raw sample (repetition_index 0..k-1) followed by
  // mean, median, stddev and cv aggregates: what a Google Benchmark run with
  // --benchmark_repetitions=k writes. compare.py runs its U test on these.
  all,
  // One "iteration" entry per point whose time is the median: a unique name per
  // point, which github-action-benchmark needs (it charts every entry).
  median,
};

// "cub.radix_sort.off64/u32/pairs:u32/uniform/n:1048576" (order and seed only when
// not the defaults): unique per variant, params (in the label) and workload.
std::string gbench_name(const PointResult& r);

// Failed and skipped points have no time and are left out, and with
// GbenchSamples::all so are points without raw samples; `left_out` counts
// them. `time_unit` is "ms", "us" or "ns" (Google Benchmark's units). "us" is
// the default of `sortbench export`: compare.py prints times as whole numbers
// of the unit, so GPU sorts of 0.04 to 300 ms read as 0 in "ms".
nlohmann::json to_gbench(const Report& report, GbenchSamples samples, const std::string& time_unit = "us",
                         std::size_t* left_out = nullptr);
// Milliseconds per unit: 1 for "ms", 1e-3 for "us", 1e-6 for "ns"; 0 for anything else.
double gbench_ms_per_unit(const std::string& time_unit);

}  // namespace sortbench
