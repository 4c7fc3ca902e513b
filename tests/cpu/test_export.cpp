// sortbench export --format gbench: Google Benchmark's JSON shape. compare.py
// itself runs on the export in the ctest `export.gbench_compare_py`.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "sortbench/gbench.hpp"
#include "sortbench/stats.hpp"

#include "committed_reports.hpp"

using namespace sortbench;
using sortbench::test::kQuickReport;

TEST(GbenchExport, NamesAreUniquePerPoint) {
  const Report r = read_report(kQuickReport);
  std::set<std::string> names;
  for (const auto& p : r.results) names.insert(gbench_name(p));
  EXPECT_EQ(names.size(), r.results.size());
  EXPECT_TRUE(names.count("cub.radix_sort.off64/u32/pairs:u32/uniform/n:1048576"));
  EXPECT_TRUE(names.count("thrust.sort/u64/entropy:0.201/n:65536"));
}

TEST(GbenchExport, ParamsNotInTheLabelAreNamed) {
  PointResult p;
  p.variant = "radix.x";
  p.params = {{"radix_bits", "rb", "8"}};
  p.n = 16;
  p.distribution = "uniform";
  p.seed = 3;
  p.order = Order::descending;
  EXPECT_EQ(gbench_name(p), "radix.x/u32/descending/uniform/seed:3/radix_bits:8/n:16");
  p.variant = "radix.x.rb8";
  EXPECT_EQ(gbench_name(p), "radix.x.rb8/u32/descending/uniform/seed:3/n:16");
}

TEST(GbenchExport, RepetitionsAndAggregates) {
  const Report r = read_report(kQuickReport);
  std::size_t left_out = 7;
  const auto j = to_gbench(r, GbenchSamples::all, "ms", &left_out);
  EXPECT_EQ(left_out, 0u);
  ASSERT_TRUE(j.contains("context"));
  EXPECT_EQ(j["context"]["library_build_type"], "release");
  EXPECT_EQ(j["context"]["sortbench_device"], "NVIDIA H200");
  // The same count for every point, whatever its raw samples (1 to 806 here).
  const std::size_t R = kGbenchRepetitions;
  ASSERT_EQ(j["benchmarks"].size(), r.results.size() * (R + 4));
  const PointResult& first = r.results.front();
  const auto& e0 = j["benchmarks"][0];
  EXPECT_EQ(e0["name"], gbench_name(first));
  EXPECT_EQ(e0["run_name"], gbench_name(first));
  EXPECT_EQ(e0["run_type"], "iteration");
  EXPECT_EQ(e0["time_unit"], "ms");
  EXPECT_EQ(e0["iterations"], 1);
  EXPECT_EQ(e0["repetitions"], R);
  EXPECT_EQ(e0["repetition_index"], 0);
  std::vector<double> sorted = first.time_ms.raw;
  std::sort(sorted.begin(), sorted.end());
  const double q0 = quantile(sorted, 0.5 / double(R));
  EXPECT_DOUBLE_EQ(e0["real_time"].get<double>(), q0);
  EXPECT_DOUBLE_EQ(e0["items_per_second"].get<double>(), double(first.n) / (q0 * 1e-3));
  const auto& median = j["benchmarks"][R + 1];
  EXPECT_EQ(median["name"], gbench_name(first) + "_median");
  EXPECT_EQ(median["run_type"], "aggregate");
  EXPECT_EQ(median["aggregate_name"], "median");
  EXPECT_DOUBLE_EQ(median["real_time"].get<double>(), first.time_ms.median);
  EXPECT_EQ(median["repetitions"], R);
}

namespace {
PointResult point_with(const std::string& variant, const std::vector<double>& raw_ms) {
  PointResult p;
  p.variant = variant;
  p.distribution = "uniform";
  p.n = 1000;
  p.seed = 1;
  p.time_ms = summarize(raw_ms);
  return p;
}
std::vector<double> iteration_times(const nlohmann::json& j, const std::string& name) {
  std::vector<double> out;
  for (const auto& e : j["benchmarks"])
    if (e["name"] == name && e["run_type"] == "iteration") out.push_back(e["real_time"].get<double>());
  return out;
}
}  // namespace

TEST(GbenchExport, RepetitionsAreInterpolatedQuantiles) {
  Report r;
  // Out of order, as measured: the quantiles are of the sorted samples.
  r.results = {point_with("ten", {70, 10, 100, 40, 20, 90, 30, 60, 50, 80}), point_with("one", {3}),
               point_with("three", {9, 1, 5})};
  const auto j = to_gbench(r, GbenchSamples::all, "ms", nullptr, 5);
  ASSERT_EQ(j["benchmarks"].size(), 3u * (5 + 4));
  // (i+0.5)/5 = 0.1, 0.3, ..., 0.9 of 10 samples: positions 0.9, 2.7, 4.5, 6.3, 8.1 between 10, 20, ..., 100.
  const std::vector<double> ten = iteration_times(j, "ten/u32/uniform/n:1000");
  ASSERT_EQ(ten.size(), 5u);
  const double want_ten[] = {19, 37, 55, 73, 91};
  for (std::size_t i = 0; i < 5; ++i) EXPECT_NEAR(ten[i], want_ten[i], 1e-9) << "repetition " << i;
  // One sample is every quantile; 1, 5, 9 at positions 0.2, 0.6, 1, 1.4, 1.8.
  EXPECT_EQ(iteration_times(j, "one/u32/uniform/n:1000"), std::vector<double>(5, 3.0));
  const std::vector<double> three = iteration_times(j, "three/u32/uniform/n:1000");
  ASSERT_EQ(three.size(), 5u);
  const double want_three[] = {1.8, 3.4, 5, 6.6, 8.2};
  for (std::size_t i = 0; i < 5; ++i) EXPECT_NEAR(three[i], want_three[i], 1e-9) << "repetition " << i;
  // The aggregates stay the report's statistics of the raw samples.
  for (const auto& e : j["benchmarks"])
    if (e["name"] == "ten/u32/uniform/n:1000_mean") EXPECT_DOUBLE_EQ(e["real_time"].get<double>(), 55.0);
  for (std::size_t i = 0; i < 5; ++i) EXPECT_EQ(j["benchmarks"][i]["repetition_index"], i);
  EXPECT_THROW(to_gbench(r, GbenchSamples::all, "ms", nullptr, 0), std::invalid_argument);
  EXPECT_EQ(to_gbench(r, GbenchSamples::median, "ms", nullptr, 0)["benchmarks"].size(), 3u);
}

TEST(GbenchExport, EveryPointWeighsAlikeInTheGeomean) {
  // compare.py's OVERALL_GEOMEAN takes every non-aggregate entry: with one entry
  // per sample, 100 samples of 1 ms against 4 of 16 ms would read about 1.1 ms.
  Report r;
  r.results = {point_with("many", std::vector<double>(100, 1.0)), point_with("few", std::vector<double>(4, 16.0))};
  const auto j = to_gbench(r, GbenchSamples::all, "ms");
  double log_sum = 0;
  std::size_t entries = 0;
  for (const auto& e : j["benchmarks"])
    if (e["run_type"] == "iteration") {
      log_sum += std::log(e["real_time"].get<double>());
      ++entries;
    }
  ASSERT_EQ(entries, 2 * kGbenchRepetitions);
  EXPECT_NEAR(std::exp(log_sum / double(entries)), 4.0, 1e-9);
}

TEST(GbenchExport, MiddleRepetitionIsTheMedian) {
  // The default R is odd, so its middle quantile is 0.5: the report's median.
  static_assert(kGbenchRepetitions % 2 == 1 && kGbenchRepetitions >= 9 && kGbenchRepetitions <= 10);
  const Report r = read_report(kQuickReport);
  const auto j = to_gbench(r, GbenchSamples::all, "ms");
  const std::size_t R = kGbenchRepetitions;
  for (std::size_t p = 0; p < r.results.size(); ++p) {
    const auto& rep = r.results[p].time_ms;
    auto time = [&](std::size_t i) { return j["benchmarks"][p * (R + 4) + i]["real_time"].get<double>(); };
    for (std::size_t i = 0; i < R; ++i) {
      EXPECT_GE(time(i), rep.min);
      EXPECT_LE(time(i), rep.max);
      if (i) EXPECT_GE(time(i), time(i - 1)) << "quantiles ascend";
    }
    EXPECT_DOUBLE_EQ(time(R / 2), rep.median) << gbench_name(r.results[p]);
  }
}

TEST(GbenchExport, MedianModeHasOneEntryPerPoint) {
  Report r = read_report(kQuickReport);
  r.results[1].status = Status::failed;
  r.results[2].status = Status::skipped;
  std::size_t left_out = 0;
  const auto j = to_gbench(r, GbenchSamples::median, "us", &left_out);
  EXPECT_EQ(left_out, 2u);
  ASSERT_EQ(j["benchmarks"].size(), r.results.size() - 2);
  std::set<std::string> names;
  for (const auto& e : j["benchmarks"]) {
    names.insert(e["name"].get<std::string>());
    EXPECT_EQ(e["run_type"], "iteration");
  }
  EXPECT_EQ(names.size(), r.results.size() - 2);  // github-action-benchmark charts every entry by name
  EXPECT_EQ(j["benchmarks"][0]["time_unit"], "us");
  EXPECT_DOUBLE_EQ(j["benchmarks"][0]["real_time"].get<double>(), r.results[0].time_ms.median * 1e3);
  EXPECT_DOUBLE_EQ(j["benchmarks"][0]["items_per_second"].get<double>(),
                   double(r.results[0].n) / (r.results[0].time_ms.median * 1e-3));
  EXPECT_THROW(to_gbench(r, GbenchSamples::median, "min"), std::invalid_argument);
}
