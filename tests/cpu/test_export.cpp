// sortbench export --format gbench: Google Benchmark's JSON shape. compare.py
// itself runs on the export in the ctest `export.gbench_compare_py`.
#include <gtest/gtest.h>

#include <set>

#include "sortbench/gbench.hpp"

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
  std::size_t expected = 0;
  for (const auto& p : r.results) expected += p.time_ms.raw.size() + 4;
  ASSERT_EQ(j["benchmarks"].size(), expected);
  const PointResult& first = r.results.front();
  const auto& e0 = j["benchmarks"][0];
  EXPECT_EQ(e0["name"], gbench_name(first));
  EXPECT_EQ(e0["run_name"], gbench_name(first));
  EXPECT_EQ(e0["run_type"], "iteration");
  EXPECT_EQ(e0["time_unit"], "ms");
  EXPECT_EQ(e0["iterations"], 1);
  EXPECT_EQ(e0["repetitions"], first.time_ms.raw.size());
  EXPECT_EQ(e0["repetition_index"], 0);
  EXPECT_DOUBLE_EQ(e0["real_time"].get<double>(), first.time_ms.raw[0]);
  EXPECT_DOUBLE_EQ(e0["items_per_second"].get<double>(), double(first.n) / (first.time_ms.raw[0] * 1e-3));
  const auto& median = j["benchmarks"][first.time_ms.raw.size() + 1];
  EXPECT_EQ(median["name"], gbench_name(first) + "_median");
  EXPECT_EQ(median["run_type"], "aggregate");
  EXPECT_EQ(median["aggregate_name"], "median");
  EXPECT_DOUBLE_EQ(median["real_time"].get<double>(), first.time_ms.median);
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
