// Regression tracking: compares two reports point by point and decides, from
// the raw samples, whether NEW is FAST, SLOW, SAME or UNSURE against BASE.
// Host code, tested on the CPU (tests/cpu/test_compare.cpp). README
// "Regression tracking" documents the rule and the exit code.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "sortbench/report.hpp"

namespace sortbench {

// Two-sided Mann-Whitney U test, normal approximation with tie correction and
// a continuity correction of 1/2 (scipy.stats.mannwhitneyu(x, y,
// method="asymptotic") gives the same U and p).
struct RankTest {
  double u = 0;  // U of the first sample: pairs (x, y) with x > y, ties counting 1/2
  double z = 0;  // |U - n1 n2 / 2| less the continuity correction, over its standard deviation
  double p = 1;  // two-sided; 1 when every value is tied or a sample is empty
};
RankTest mann_whitney_u(const std::vector<double>& x, const std::vector<double>& y);

// What is compared: each point's time (its raw samples), or one sort's
// energy (its NVML window, README "Energy").
enum class CompareMetric { time, energy };

struct CompareOptions {
  CompareMetric metric = CompareMetric::time;
  double alpha = 0.01;             // significance of the rank test (energy: of the normal test)
  double min_change = 0.02;        // smallest change of the median that counts (0.02 = 2 %)
  double clock_tolerance = 0.03;   // SM clocks differing by more than this are taken into account
  bool allow_missing = false;      // points present on one side only do not fail the comparison
  // Energy: the relative error taken for one run's energy of a point beyond
  // its window's own, for what changes between runs (temperature, power
  // state); two runs of one build agreed within 2.6-4.1 % (docs/experiments/energy.md).
  double energy_drift = 0.02;
};

enum class Verdict {
  fast,     // significantly faster by at least min_change
  slow,     // significantly slower by at least min_change: a regression
  same,     // change under min_change (significant or not)
  unsure,   // change of at least min_change that the test cannot tell from noise, or clocks explain it
  failed,   // NEW failed validation: a regression whatever the timing
  missing,  // measured on one side only (absent, or skipped in NEW while BASE measured it)
  fixed,    // BASE failed validation, NEW passes: no timing to compare
  skipped,  // skipped on both sides, or skipped in BASE: nothing to compare
};
std::string to_string(Verdict v);  // "FAST", "SLOW", ...

struct PointComparison {
  std::string variant;
  std::string workload;  // "u32 keys, uniform, n=2^20" (README wording)
  std::string params;    // "radix_bits=8 items_per_thread=16"; empty without params
  Verdict verdict = Verdict::same;
  bool in_base = false, in_new = false;
  std::size_t base_samples = 0, new_samples = 0;
  double base_median_ms = 0, new_median_ms = 0;  // as measured
  double base_joules = 0, new_joules = 0;        // one sort's energy, where measured
  bool judged = false;     // both sides measured in the compared metric: change and p are set
  double change = 0;       // NEW median / BASE median - 1 after any clock scaling; + is slower
  double p = 1;            // rank test p-value (timed pairs only)
  double base_clock_mhz = 0, new_clock_mhz = 0;
  bool clocks_differ = false;  // by more than clock_tolerance
  std::string note;            // why, for anything other than a plain verdict
};

struct Comparison {
  CompareOptions options;
  std::string base_path, new_path;
  std::string base_about, new_about;  // "NVIDIA H200, commit 9504a81, 2026-11-21T23:24:28Z"
  std::vector<std::string> warnings;  // run-level: other GPU, incomplete report, duplicates
  std::vector<PointComparison> points;  // BASE order, then points only in NEW

  std::size_t count(Verdict v) const;
  // What makes CI fail: SLOW, failed in NEW, or missing without allow_missing.
  bool regression() const;
  int exit_code() const { return regression() ? 1 : 0; }
};

// Matches results by variant, params and workload (key, value, order, n,
// distribution, seed) and judges each pair.
Comparison compare_reports(const Report& base, const Report& next, const CompareOptions& options,
                           const std::string& base_path = "BASE", const std::string& new_path = "NEW");

// The verdict for one pair of sample sets, exposed for tests. `clock_ratio` is
// NEW's SM clock over BASE's; 1 when they agree within the tolerance.
struct TimingVerdict {
  Verdict verdict = Verdict::same;
  double change = 0, p = 1;
};
TimingVerdict judge_samples(const std::vector<double>& base_ms, const std::vector<double>& new_ms,
                            const CompareOptions& options, double clock_ratio = 1.0);
// The verdict for one pair of energies with their relative errors (each
// window's own and options.energy_drift in quadrature): the same rule as for
// time, with a two-sided normal test of ln(NEW / BASE) in place of the rank test.
TimingVerdict judge_energy(double base_joules, double base_rel_error, double new_joules, double new_rel_error,
                           const CompareOptions& options);

// Plain text for the terminal: one line per point (all, or only those that are
// not SAME) and a closing line with the counts and the outcome.
std::string comparison_text(const Comparison& c, bool changes_only);
// Markdown for a CI job summary ($GITHUB_STEP_SUMMARY): outcome, counts, the
// points that need attention, and every point in a collapsed table.
std::string comparison_markdown(const Comparison& c);

}  // namespace sortbench
