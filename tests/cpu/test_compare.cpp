// sortbench compare: the rank test against scipy's values, the verdict rule,
// matching, missing points, validation failures, clocks, the exit code and the
// markdown summary. Planted slowdowns run on the committed H200 report.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "sortbench/compare.hpp"
#include "sortbench/stats.hpp"

#include "committed_reports.hpp"

using namespace sortbench;
using sortbench::test::kQuickReport;

namespace {


PointResult timed_point(const std::string& variant, std::vector<double> samples, std::size_t n = 1 << 20) {
  PointResult r;
  r.variant = variant;
  r.family = variant.substr(0, variant.find('.'));
  r.key = KeyType::u32;
  r.n = n;
  r.distribution = "uniform";
  r.seed = 1;
  r.status = Status::ok;
  r.validation = {true, true, true, false, false, -1, ""};
  r.time_ms = summarize(samples);
  r.stop_reason = "noise";
  r.sm_clock_mhz = 1980;
  return r;
}

// Samples around `median` with a relative spread of about `spread`, fixed by `seed`.
std::vector<double> noisy(double median, double spread, std::size_t k, unsigned seed) {
  std::mt19937 gen(seed);
  std::normal_distribution<double> d(0.0, spread);
  std::vector<double> v;
  for (std::size_t i = 0; i < k; ++i) v.push_back(median * (1.0 + d(gen)));
  return v;
}

void scale_samples(PointResult& r, double factor) {
  for (double& v : r.time_ms.raw) v *= factor;
  r.time_ms = summarize(r.time_ms.raw);
}

Report report_of(std::vector<PointResult> points) {
  Report rep;
  rep.context = {{"device", {{"name", "NVIDIA H200"}, {"sm_clock_peak_mhz", 1980}}}};
  rep.results = std::move(points);
  return rep;
}

const PointComparison& only_point(const Comparison& c) {
  EXPECT_EQ(c.points.size(), 1u);
  return c.points.front();
}

}  // namespace

// Reference values: scipy.stats.mannwhitneyu(x, y, alternative="two-sided",
// method="asymptotic", use_continuity=True), scipy 1.10.
TEST(RankTest, MatchesScipyAsymptotic) {
  struct Case {
    std::vector<double> x, y;
    double u, p;
  };
  const std::vector<Case> cases = {
      {{1, 2, 3, 4, 5}, {6, 7, 8, 9, 10}, 0.0, 0.012185780355344813},
      {{1, 2, 2, 3, 3, 3}, {2, 3, 4, 4, 5}, 5.5, 0.08871369199677616},  // ties
      {{19, 22, 16, 29, 24}, {20, 11, 17, 12}, 17.0, 0.11134688653314041},
      {{1.0, 1.1, 1.2, 1.3, 1.4, 1.5, 1.6, 1.7, 1.8, 1.9},
       {1.55, 1.65, 1.75, 1.85, 1.95, 2.05, 2.15, 2.25, 2.35, 2.45},
       10.0,
       0.0028272720911168077},
  };
  for (const auto& c : cases) {
    const RankTest t = mann_whitney_u(c.x, c.y);
    EXPECT_DOUBLE_EQ(t.u, c.u);
    EXPECT_NEAR(t.p, c.p, 1e-12);
  }
}

TEST(RankTest, IdenticalOrAllTiedSamplesGiveNoEvidence) {
  const std::vector<double> a = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
  EXPECT_DOUBLE_EQ(mann_whitney_u(a, a).u, 50.0);
  EXPECT_DOUBLE_EQ(mann_whitney_u(a, a).p, 1.0);
  EXPECT_DOUBLE_EQ(mann_whitney_u({5, 5, 5}, {5, 5, 5, 5}).p, 1.0);
  EXPECT_DOUBLE_EQ(mann_whitney_u({}, {1.0}).p, 1.0);
}

TEST(RankTest, IsSymmetric) {
  const auto x = noisy(1.0, 0.01, 12, 1), y = noisy(1.02, 0.01, 9, 2);
  const RankTest a = mann_whitney_u(x, y), b = mann_whitney_u(y, x);
  EXPECT_DOUBLE_EQ(a.u + b.u, 12.0 * 9.0);
  EXPECT_NEAR(a.p, b.p, 1e-15);
}

TEST(Verdict, RuleNeedsSignificanceAndSize) {
  CompareOptions o;  // alpha 0.01, 2 %
  const auto base = noisy(1.0, 0.005, 30, 11);
  EXPECT_EQ(judge_samples(base, noisy(1.05, 0.005, 30, 12), o).verdict, Verdict::slow);
  EXPECT_EQ(judge_samples(base, noisy(0.95, 0.005, 30, 13), o).verdict, Verdict::fast);
  // 1 %: real (significant) but under the minimum change.
  const TimingVerdict small = judge_samples(base, noisy(1.01, 0.005, 30, 14), o);
  EXPECT_LT(small.p, o.alpha);
  EXPECT_EQ(small.verdict, Verdict::same);
  // 5 % within 20 % noise and few samples: cannot tell.
  EXPECT_EQ(judge_samples(noisy(1.0, 0.2, 6, 15), noisy(1.05, 0.2, 6, 16), o).verdict, Verdict::unsure);
  // A stricter minimum change turns the 5 % slowdown into SAME.
  CompareOptions loose = o;
  loose.min_change = 0.10;
  EXPECT_EQ(judge_samples(base, noisy(1.05, 0.005, 30, 12), loose).verdict, Verdict::same);
  // Clock scaling: NEW at 95 % of BASE's clock and 5 % slower is SAME once scaled.
  EXPECT_EQ(judge_samples(base, noisy(1.05, 0.005, 30, 12), o, 0.95).verdict, Verdict::same);
}

TEST(Compare, MatchesByVariantParamsAndWorkload) {
  PointResult a = timed_point("radix.x", noisy(1.0, 0.005, 20, 1));
  a.params = {{"radix_bits", "rb", "8"}};
  PointResult b = a;
  b.params = {{"radix_bits", "rb", "4"}};  // same label, other params: another point
  PointResult c = a;
  c.seed = 2;  // another workload
  PointResult d = a;
  d.value = ValueType::u32;
  const Comparison cmp = compare_reports(report_of({a}), report_of({b, c, d, a}), {});
  ASSERT_EQ(cmp.points.size(), 4u);
  EXPECT_EQ(cmp.points[0].verdict, Verdict::same);  // a matched a, whatever the order
  EXPECT_EQ(cmp.points[0].params, "radix_bits=8");
  EXPECT_EQ(cmp.count(Verdict::missing), 3u);
  for (std::size_t i = 1; i < 4; ++i) {
    EXPECT_FALSE(cmp.points[i].in_base);
    EXPECT_NE(cmp.points[i].note.find("absent from BASE"), std::string::npos);
  }
  EXPECT_EQ(cmp.points[3].workload, "u32+u32 pairs, uniform, n=2^20");
}

TEST(Compare, MissingPointsFailUnlessAllowed) {
  const PointResult a = timed_point("cub.radix_sort", noisy(1.0, 0.005, 20, 1));
  const PointResult b = timed_point("thrust.sort", noisy(1.0, 0.005, 20, 2));
  PointResult b_skipped = b;
  b_skipped.status = Status::skipped;
  b_skipped.reason = "needs 6.00 GiB for input and output buffers, 4.12 GiB free";
  CompareOptions o;
  const Comparison gone = compare_reports(report_of({a, b}), report_of({a}), o);
  EXPECT_EQ(gone.count(Verdict::missing), 1u);
  EXPECT_EQ(gone.points[1].note, "absent from NEW");
  EXPECT_EQ(gone.exit_code(), 1);
  const Comparison skipped = compare_reports(report_of({a, b}), report_of({a, b_skipped}), o);
  EXPECT_EQ(skipped.points[1].verdict, Verdict::missing);
  EXPECT_NE(skipped.points[1].note.find("skipped in NEW: needs 6.00 GiB"), std::string::npos);
  EXPECT_EQ(skipped.exit_code(), 1);
  o.allow_missing = true;
  EXPECT_EQ(compare_reports(report_of({a, b}), report_of({a}), o).exit_code(), 0);
  EXPECT_EQ(compare_reports(report_of({a}), report_of({a, b}), o).exit_code(), 0);
  // Skipped on both sides is nothing to compare, and no failure.
  const Comparison both = compare_reports(report_of({b_skipped}), report_of({b_skipped}), {});
  EXPECT_EQ(only_point(both).verdict, Verdict::skipped);
  EXPECT_EQ(both.exit_code(), 0);
}

TEST(Compare, ValidationFailureInNewFails) {
  const PointResult ok = timed_point("merge.x", noisy(1.0, 0.005, 20, 1));
  PointResult bad = ok;
  bad.status = Status::failed;
  bad.reason = "validation: not sorted at index 17";
  bad.validation = {true, false, true, false, false, 17, "not sorted"};
  bad.time_ms = {};
  const Comparison c = compare_reports(report_of({ok}), report_of({bad}), {});
  EXPECT_EQ(only_point(c).verdict, Verdict::failed);
  EXPECT_NE(only_point(c).note.find("not sorted at index 17"), std::string::npos);
  EXPECT_EQ(c.exit_code(), 1);
  CompareOptions allow;
  allow.allow_missing = true;  // does not excuse a failure
  EXPECT_EQ(compare_reports(report_of({ok}), report_of({bad}), allow).exit_code(), 1);
  // Failed in BASE only: fixed, not a regression.
  const Comparison fixed = compare_reports(report_of({bad}), report_of({ok}), {});
  EXPECT_EQ(only_point(fixed).verdict, Verdict::fixed);
  EXPECT_EQ(fixed.exit_code(), 0);
}

TEST(Compare, ClockDifferenceMustNotExplainTheVerdict) {
  const PointResult base = timed_point("cub.radix_sort", noisy(1.0, 0.004, 30, 1));
  // 6 % slower at a 5 % lower clock: the clock could explain it.
  PointResult slow_clock = timed_point("cub.radix_sort", noisy(1.06, 0.004, 30, 2));
  slow_clock.sm_clock_mhz = 1881;
  const Comparison c = compare_reports(report_of({base}), report_of({slow_clock}), {});
  EXPECT_EQ(only_point(c).verdict, Verdict::unsure);
  EXPECT_TRUE(only_point(c).clocks_differ);
  EXPECT_NE(only_point(c).note.find("SLOW as measured, SAME scaled to BASE's clock"), std::string::npos);
  EXPECT_EQ(c.exit_code(), 0);
  // 6 % slower at a 5 % higher clock: slower whichever way it is read.
  PointResult fast_clock = slow_clock;
  fast_clock.sm_clock_mhz = 2079;
  const Comparison d = compare_reports(report_of({base}), report_of({fast_clock}), {});
  EXPECT_EQ(only_point(d).verdict, Verdict::slow);
  EXPECT_NE(only_point(d).note.find("verdict holds"), std::string::npos);
  EXPECT_EQ(d.exit_code(), 1);
  // Within the tolerance the clocks are not mentioned.
  PointResult near = slow_clock;
  near.sm_clock_mhz = 1960;  // -1 %
  EXPECT_FALSE(only_point(compare_reports(report_of({base}), report_of({near}), {})).clocks_differ);
}

TEST(Compare, WarnsAboutOtherGpusAndIncompleteReports) {
  const PointResult a = timed_point("cub.radix_sort", noisy(1.0, 0.005, 20, 1));
  Report other = report_of({a});
  other.context["device"]["name"] = "NVIDIA H100 80GB HBM3";
  other.complete = false;
  const Comparison c = compare_reports(report_of({a}), other, {}, "base.json", "new.json");
  ASSERT_EQ(c.warnings.size(), 2u);
  EXPECT_NE(c.warnings[0].find("different GPUs"), std::string::npos);
  EXPECT_NE(c.warnings[1].find("new.json is incomplete"), std::string::npos);
}

// The committed H200 report against copies of itself.
TEST(CompareQuickReport, IdenticalCopyIsSame) {
  const Report r = read_report(kQuickReport);
  const Comparison c = compare_reports(r, r, {});
  EXPECT_EQ(c.points.size(), r.results.size());
  EXPECT_EQ(c.count(Verdict::same), r.results.size());
  EXPECT_EQ(c.exit_code(), 0);
}

TEST(CompareQuickReport, SmallNoiseIsSame) {
  const Report base = read_report(kQuickReport);
  Report noisy_copy = base;
  std::mt19937 gen(7);
  std::normal_distribution<double> jitter(0.0, 0.003);  // 0.3 % per sample
  for (auto& p : noisy_copy.results) {
    for (double& v : p.time_ms.raw) v *= 1.0 + jitter(gen);
    p.time_ms = summarize(p.time_ms.raw);
  }
  const Comparison c = compare_reports(base, noisy_copy, {});
  EXPECT_EQ(c.count(Verdict::slow), 0u);
  EXPECT_EQ(c.count(Verdict::fast), 0u);
  EXPECT_EQ(c.exit_code(), 0);
}

TEST(CompareQuickReport, PlantedFivePercentSlowdownIsSlow) {
  const Report base = read_report(kQuickReport);
  Report slowed = base;
  for (auto& p : slowed.results)
    if (p.variant == "cub.radix_sort.off64") scale_samples(p, 1.05);
  const Comparison c = compare_reports(base, slowed, {});
  std::size_t radix_points = 0, radix_slow = 0;
  for (const auto& p : c.points) {
    if (p.variant != "cub.radix_sort.off64") {
      EXPECT_EQ(p.verdict, Verdict::same) << p.variant << " " << p.workload;
      continue;
    }
    ++radix_points;
    EXPECT_NEAR(p.change, 0.05, 1e-9);
    // Every point with at least 10 samples a side is SLOW; fewer cannot reach alpha 0.01.
    if (p.base_samples >= 10) EXPECT_EQ(p.verdict, Verdict::slow) << p.workload;
    else EXPECT_EQ(p.verdict, Verdict::unsure) << p.workload;
    radix_slow += p.verdict == Verdict::slow;
  }
  EXPECT_EQ(radix_points, 32u);  // the default sweep's 32 workloads
  EXPECT_GE(radix_slow, 30u);
  EXPECT_EQ(c.exit_code(), 1);
  // A 5 % slowdown is FAST the other way round.
  EXPECT_EQ(compare_reports(slowed, base, {}).count(Verdict::fast), radix_slow);
  // And SAME with a 10 % minimum change.
  CompareOptions loose;
  loose.min_change = 0.10;
  EXPECT_EQ(compare_reports(base, slowed, loose).exit_code(), 0);
}

TEST(CompareOutput, MarkdownAndText) {
  const PointResult a = timed_point("cub.radix_sort", noisy(1.0, 0.004, 30, 1));
  const PointResult b = timed_point("thrust.sort", noisy(1.0, 0.004, 30, 2));
  PointResult a_slow = a;
  scale_samples(a_slow, 1.05);
  Report base = report_of({a, b});
  base.context["build"] = {{"git_commit", "9504a81138ad1959d27c91ed185a295a4b83f3f4"}, {"git_dirty", false}};
  const Comparison c = compare_reports(base, report_of({a_slow, b}), {}, "base.json", "new.json");
  const std::string md = comparison_markdown(c);
  EXPECT_NE(md.find("## sortbench compare: ❌ regression: 1 SLOW"), std::string::npos) << md;
  EXPECT_NE(md.find("- BASE `base.json`: NVIDIA H200, commit 9504a81"), std::string::npos) << md;
  EXPECT_NE(md.find("### Points to look at"), std::string::npos);
  EXPECT_NE(md.find("| **SLOW** | `cub.radix_sort` | u32 keys, uniform, n=2^20 |"), std::string::npos) << md;
  EXPECT_NE(md.find("| SAME | `thrust.sort` |"), std::string::npos);
  EXPECT_NE(md.find("<details><summary>All 2 points</summary>"), std::string::npos);
  EXPECT_NE(md.find("+5.0%"), std::string::npos);
  const std::string text = comparison_text(c, false);
  EXPECT_NE(text.find("2 points: 1 SLOW, 0 FAST, 0 UNSURE, 1 SAME -> regression: 1 SLOW (exit 1)"), std::string::npos)
      << text;
  // --changes-only leaves the SAME point out.
  EXPECT_EQ(comparison_text(c, true).find("thrust.sort"), std::string::npos);
  const std::string clean = comparison_markdown(compare_reports(base, base, {}));
  EXPECT_NE(clean.find("## sortbench compare: ✅ no regression"), std::string::npos);
  EXPECT_EQ(clean.find("### Points to look at"), std::string::npos);
}

namespace {
PointResult with_energy(PointResult r, double joules, double rel_error = 0.001) {
  r.energy.measured = true;
  r.energy.joules = joules;
  r.energy.rel_error = rel_error;
  return r;
}
}  // namespace

// --metric energy: the same rule (minimum change and significance at alpha),
// with a normal test of ln(NEW J / BASE J) whose error holds each window's own
// and the drift between runs.
TEST(CompareEnergy, MinimumChangeAndSignificance) {
  CompareOptions o;
  o.metric = CompareMetric::energy;
  o.energy_drift = 0.02;
  // sigma = sqrt(2) x 2 % = 2.83 %: +10 % is z = 3.37, p = 0.00075 < 0.01.
  TimingVerdict more = judge_energy(1.0, 0, 1.10, 0, o);
  EXPECT_EQ(more.verdict, Verdict::slow);
  EXPECT_NEAR(more.change, 0.10, 1e-12);
  EXPECT_NEAR(more.p, std::erfc(std::log(1.1) / (std::sqrt(2.0) * 0.02) / std::sqrt(2.0)), 1e-12);
  EXPECT_EQ(judge_energy(1.0, 0, 0.90, 0, o).verdict, Verdict::fast);
  // +5 %: above the minimum change, but within the runs' drift.
  EXPECT_EQ(judge_energy(1.0, 0, 1.05, 0, o).verdict, Verdict::unsure);
  // +1.5 %: under the minimum change, whatever the errors.
  o.energy_drift = 0;
  EXPECT_EQ(judge_energy(1.0, 0.0001, 1.015, 0.0001, o).verdict, Verdict::same);
  // A noisy window alone makes +10 % unsure.
  EXPECT_EQ(judge_energy(1.0, 0.05, 1.10, 0.05, o).verdict, Verdict::unsure);
}

TEST(CompareEnergy, ReportsAreJudgedByJoulesAndMissingEnergyIsUnsure) {
  CompareOptions o;
  o.metric = CompareMetric::energy;
  const auto samples = noisy(1.0, 0.005, 50, 3);
  // The same time, 20 % more energy: MORE-J fails the comparison; time alone would pass it.
  const Report base = report_of({with_energy(timed_point("radix.a", samples), 0.010),
                                 with_energy(timed_point("radix.b", samples), 0.010)});
  PointResult b_new = timed_point("radix.b", samples);
  b_new.energy.missing = "no NVML";
  const Report next = report_of({with_energy(timed_point("radix.a", samples), 0.012), b_new});
  const Comparison c = compare_reports(base, next, o);
  ASSERT_EQ(c.points.size(), 2u);
  EXPECT_EQ(c.points[0].verdict, Verdict::slow);
  EXPECT_DOUBLE_EQ(c.points[0].base_joules, 0.010);
  EXPECT_DOUBLE_EQ(c.points[0].new_joules, 0.012);
  EXPECT_EQ(c.points[1].verdict, Verdict::unsure);
  EXPECT_EQ(c.points[1].note, "no energy in NEW: no NVML");
  EXPECT_EQ(c.exit_code(), 1);
  const std::string text = comparison_text(c, false);
  EXPECT_NE(text.find("MORE-J"), std::string::npos) << text;
  EXPECT_NE(text.find("BASE J"), std::string::npos) << text;
  EXPECT_NE(text.find("+20.0%"), std::string::npos) << text;
  EXPECT_NE(comparison_markdown(c).find("| **MORE-J** | `radix.a`"), std::string::npos);
  o.metric = CompareMetric::time;
  EXPECT_EQ(compare_reports(base, next, o).exit_code(), 0);
}

// One run with a hot L2 and the other cold is no comparison, by time or by energy.
TEST(Compare, HotAgainstColdL2IsUnsure) {
  const auto samples = noisy(1.0, 0.005, 50, 5);
  PointResult hot = with_energy(timed_point("radix.a", samples), 0.010);
  hot.cold_l2 = false;
  scale_samples(hot, 1.2);
  const Report base = report_of({with_energy(timed_point("radix.a", samples), 0.010)});
  const Report next = report_of({hot});
  for (CompareMetric m : {CompareMetric::time, CompareMetric::energy}) {
    CompareOptions o;
    o.metric = m;
    const Comparison c = compare_reports(base, next, o);
    const PointComparison& p = only_point(c);
    EXPECT_EQ(p.verdict, Verdict::unsure);
    EXPECT_NE(p.note.find("L2 cold in BASE, hot in NEW: not comparable"), std::string::npos) << p.note;
  }
}
