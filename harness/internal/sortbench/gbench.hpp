// Export of a report in Google Benchmark's JSON shape, so tools built for it
// read sortbench results unchanged: compare.py from Debian's libbenchmark-tools
// (with its U test) and github-action-benchmark (tool: googlecpp).
#pragma once

#include <cstddef>
#include <string>

#include <nlohmann/json.hpp>

#include "sortbench/report.hpp"

namespace sortbench {

enum class GbenchSamples {
  // R "iteration" entries per point (repetition_index 0..R-1), the (i+0.5)/R
  // quantiles of its raw samples, followed by mean, median, stddev and cv
  // aggregates of the raw samples (the report's own statistics): what a Google
  // Benchmark run with --benchmark_repetitions=R writes. compare.py runs its
  // U test on the R entries.
  //
  // Why quantiles and not the raw samples: compare.py's OVERALL_GEOMEAN is the
  // geometric mean over every non-aggregate entry of a file, so a point counts
  // as many times as it has entries. Reports stop sampling a point when its
  // noise is low enough, so the counts differ by point and by run (60 to 1172
  // samples against 60 to 289 in two runs of configs/ci.json that `sortbench
  // compare` calls equal), and the two geomeans then weigh the points
  // differently: +22.8 % between those runs with one entry per sample. With R
  // entries for every point in every export, each geomean is that of the
  // points' own geomeans, and equal runs read near zero.
  //
  // The quantiles interpolate between order statistics (summarize's rule).
  // compare.py's U test takes the R entries for R measurements: for a point
  // with fewer raw samples than R its p-value is more confident than the
  // samples warrant, and for one with many more it is more cautious than a
  // test of them all (`sortbench compare` tests the raw samples). compare.py
  // pairs repetition i of one file with repetition i of the other, so its
  // per-entry rows compare like quantiles.
  all,
  // One "iteration" entry per point whose time is the median: a unique name per
  // point, which github-action-benchmark needs (it charts every entry).
  median,
};

// R of GbenchSamples::all unless `sortbench export --repetitions` says
// otherwise. At least compare.py's UTEST_OPTIMAL_REPETITIONS (9), below which
// its U test row says "Results unreliable"; at most measure.min_samples' default
// (10), so a point measured with default settings has as many raw samples as
// repetitions unless its time budget ran out; odd, so the middle repetition,
// the 0.5 quantile, is the report's median.
inline constexpr std::size_t kGbenchRepetitions = 9;
// The most `sortbench export --repetitions` takes: every repetition is one more
// entry per point, and a thousand quantiles already draw the whole distribution.
inline constexpr std::size_t kGbenchMaxRepetitions = 1000;
// The least: compare.py runs no U test on fewer than 2 (UTEST_MIN_REPETITIONS).
inline constexpr std::size_t kGbenchMinRepetitions = 2;

// "cub.radix_sort.off64/u32/pairs:u32/uniform/n:1048576" (order and seed only when
// not the defaults): unique per variant, params (in the label) and workload.
std::string gbench_name(const PointResult& r);

// Failed and skipped points have no time and are left out, and with
// GbenchSamples::all so are points without raw samples; `left_out` counts
// them. `time_unit` is "ms", "us" or "ns" (Google Benchmark's units). "us" is
// the default of `sortbench export`: compare.py prints times as whole numbers
// of the unit, so GPU sorts of 0.04 to 300 ms read as 0 in "ms".
// `repetitions` is R of GbenchSamples::all (at least 1; std::invalid_argument
// otherwise), unused by GbenchSamples::median.
nlohmann::json to_gbench(const Report& report, GbenchSamples samples, const std::string& time_unit = "us",
                         std::size_t* left_out = nullptr, std::size_t repetitions = kGbenchRepetitions);
// Milliseconds per unit: 1 for "ms", 1e-3 for "us", 1e-6 for "ns"; 0 for anything else.
double gbench_ms_per_unit(const std::string& time_unit);

}  // namespace sortbench
