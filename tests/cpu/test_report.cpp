#include <gtest/gtest.h>

#include <filesystem>
#include <functional>
#include <fstream>
#include <sstream>

#include "sortbench/config.hpp"
#include "sortbench/report.hpp"
#include "sortbench/stats.hpp"

using namespace sortbench;
namespace fs = std::filesystem;
using nlohmann::json;

namespace {
PointResult ok_point(const std::string& variant, double median, std::size_t n = 1024) {
  PointResult r;
  r.variant = variant;
  r.family = variant.substr(0, variant.find('.'));
  r.params = {{"radix_bits", "rb", "8"}, {"scan", "", "single_pass_lookback"}};
  r.claims_stable = true;
  r.key = KeyType::u64;
  r.value = ValueType::u32;
  r.order = Order::descending;
  r.n = n;
  r.distribution = "entropy:0.544";
  r.seed = 3;
  r.status = Status::ok;
  r.validation = {true, true, true, true, true, -1, ""};
  r.time_ms = summarize({median, median * 1.01, median * 0.99});
  r.stop_reason = "noise";
  r.sm_clock_mhz = 1980;
  r.temp_bytes = 4096;
  r.bytes_per_key = 36;
  r.gkeys_per_s = double(n) / (median * 1e-3) / 1e9;
  r.gb_per_s = 1.5;
  r.fraction_of_copy_bw = 0.25;
  return r;
}

fs::path temp_dir() {
  const fs::path d = fs::temp_directory_path() / ("sortbench_test_" + std::to_string(::getpid()));
  fs::create_directories(d);
  return d;
}
}  // namespace

TEST(Report, WriteReadRoundTrip) {
  Report rep;
  rep.context = {{"device", {{"name", "Test GPU"}}}, {"command_line", "sortbench run"}};
  rep.results.push_back(ok_point("radix.x", 2.0));
  rep.results.back().selected_by = {"best:radix"};  // a best:FAMILY selector named it
  PointResult skipped;
  skipped.variant = "network.odd_even";
  skipped.family = "network";
  skipped.distribution = "uniform";
  skipped.status = Status::skipped;
  skipped.reason = "n = 5 above the variant's cap of 4";
  rep.results.push_back(skipped);
  PointResult failed = ok_point("merge.y", 1.0);
  failed.status = Status::failed;
  failed.reason = "validation: not sorted";
  failed.validation = {true, false, true, false, false, 17, "not sorted: key 17 is out of order"};
  rep.results.push_back(failed);
  // Energy (schema version 3): measured, or why not.
  PointResult with_energy = ok_point("radix.z", 3.0);
  with_energy.energy = {true, 0.012, 11.7, 512.5, 505.0, 1.03, 420, 0.002, 0.0011, "NVML ...", ""};
  rep.results.push_back(with_energy);
  PointResult without_energy = ok_point("radix.w", 3.0);
  without_energy.energy.missing = "nvmlDeviceGetTotalEnergyConsumption: Insufficient Permissions";
  rep.results.push_back(without_energy);
  compute_speedups(rep.results, {"radix.x"});

  const fs::path path = temp_dir() / "sub" / "r.json";
  write_report_atomic(rep, path.string());
  const Report back = read_report(path.string());
  EXPECT_EQ(report_to_json(back), report_to_json(rep));
  ASSERT_EQ(back.results.size(), 5u);
  EXPECT_TRUE(back.results[3].energy.measured);
  EXPECT_DOUBLE_EQ(back.results[3].energy.joules_per_gkey, 11.7);
  EXPECT_EQ(back.results[3].energy.sorts, 420u);
  EXPECT_DOUBLE_EQ(back.results[3].energy.rel_error, 0.0011);
  EXPECT_DOUBLE_EQ(back.results[3].energy.power_reading_w, 505.0);
  EXPECT_FALSE(back.results[4].energy.measured);
  EXPECT_EQ(back.results[4].energy.missing, without_energy.energy.missing);
  EXPECT_EQ(back.results[0].selected_by, std::vector<std::string>{"best:radix"});
  EXPECT_FALSE(report_to_json(rep)["results"][1].contains("selected_by"));
  EXPECT_EQ(back.results[0].params[0].name, "radix_bits");
  EXPECT_EQ(back.results[0].params[0].value, "8");
  EXPECT_EQ(back.results[1].reason, skipped.reason);
  EXPECT_EQ(back.results[2].validation.first_bad_index, 17);
  EXPECT_EQ(back.results[2].status, Status::failed);
  // Numbers in params are written as JSON numbers.
  EXPECT_TRUE(report_to_json(rep)["results"][0]["params"]["radix_bits"].is_number());
  // No temporary file is left beside the report.
  int files = 0;
  for (const auto& e : fs::directory_iterator(path.parent_path())) {
    (void)e;
    ++files;
  }
  EXPECT_EQ(files, 1);
  fs::remove_all(temp_dir());
}

TEST(Report, ReadErrorsNameTheFile) {
  const fs::path d = temp_dir();
  const fs::path p = d / "bad.json";
  std::ofstream(p) << "{\"schema\": \"something-else\"}";
  try {
    read_report(p.string());
    FAIL() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(p.string() + ": not a sortbench report"), std::string::npos);
  }
  std::ofstream(p) << "{ not json";
  EXPECT_THROW(read_report(p.string()), std::runtime_error);
  EXPECT_THROW(read_report((d / "missing.json").string()), std::runtime_error);
  fs::remove_all(d);
}

TEST(Report, SpeedupsUseTheSameWorkloadOnly) {
  std::vector<PointResult> rs = {ok_point("cub.radix_sort.off64", 2.0), ok_point("radix.a", 1.0),
                                 ok_point("radix.a", 4.0, 2048), ok_point("thrust.sort", 8.0, 2048)};
  compute_speedups(rs, {"cub.*", "thrust.*"});
  EXPECT_DOUBLE_EQ(rs[1].speedup.at("cub.radix_sort.off64"), 2.0);
  EXPECT_EQ(rs[1].speedup.count("thrust.sort"), 0u);  // thrust ran a different n
  EXPECT_DOUBLE_EQ(rs[2].speedup.at("thrust.sort"), 2.0);
  EXPECT_EQ(rs[2].speedup.count("cub.radix_sort.off64"), 0u);
  EXPECT_DOUBLE_EQ(rs[0].speedup.at("cub.radix_sort.off64"), 1.0);
  // A failed baseline is no reference.
  rs[0].status = Status::failed;
  compute_speedups(rs, {"cub.*"});
  EXPECT_TRUE(rs[1].speedup.empty());
  EXPECT_TRUE(rs[1].vs.empty());
}

TEST(Report, BaselineGroups) {
  EXPECT_EQ(baseline_groups("cub.radix_sort.off32"), (std::vector<std::string>{"cub", "cub.radix_sort"}));
  EXPECT_EQ(baseline_groups("cub.radix_sort.double_buffer.off64"), (std::vector<std::string>{"cub", "cub.radix_sort"}));
  EXPECT_EQ(baseline_groups("thrust.sort"), (std::vector<std::string>{"thrust", "thrust.sort"}));
  EXPECT_TRUE(is_baseline("cub.merge_sort.off64", {"thrust.*", "cub.*"}));
  EXPECT_FALSE(is_baseline("radix.onesweep.rb8", {"thrust.*", "cub.*"}));
}

// Every speedup against a library is against its fastest call on that
// workload, and names it; each call's own ratio is kept too.
TEST(Report, VsTakesTheFastestCallOfEachLibrary) {
  std::vector<PointResult> rs = {ok_point("cub.radix_sort.off32", 2.0), ok_point("cub.radix_sort.off64", 1.6),
                                 ok_point("cub.merge_sort.off32", 4.0), ok_point("cub.merge_sort.off64", 4.4),
                                 ok_point("thrust.sort", 2.2),          ok_point("thrust.sort_comparator", 5.0),
                                 ok_point("radix.a", 1.0),              ok_point("radix.a", 1.0, 4096)};
  compute_speedups(rs, {"cub.*", "thrust.*"});
  const PointResult& a = rs[6];
  EXPECT_EQ(a.speedup.size(), 6u);
  EXPECT_DOUBLE_EQ(a.speedup.at("cub.radix_sort.off32"), 2.0);
  ASSERT_EQ(a.vs.size(), 6u);  // cub, cub.radix_sort, cub.merge_sort, thrust, thrust.sort, thrust.sort_comparator
  EXPECT_EQ(a.vs.at("cub").baseline, "cub.radix_sort.off64");
  EXPECT_DOUBLE_EQ(a.vs.at("cub").speedup, 1.6);
  EXPECT_EQ(a.vs.at("cub.radix_sort").baseline, "cub.radix_sort.off64");
  EXPECT_EQ(a.vs.at("cub.merge_sort").baseline, "cub.merge_sort.off32");
  EXPECT_DOUBLE_EQ(a.vs.at("cub.merge_sort").speedup, 4.0);
  EXPECT_EQ(a.vs.at("thrust").baseline, "thrust.sort");
  EXPECT_DOUBLE_EQ(a.vs.at("thrust.sort_comparator").speedup, 5.0);
  // A baseline is measured against the others too: off32 is 0.8x the fastest CUB call.
  EXPECT_DOUBLE_EQ(rs[0].vs.at("cub").speedup, 0.8);
  EXPECT_TRUE(rs[7].vs.empty());  // no baseline at that size
  // Only the globs given are baselines.
  compute_speedups(rs, {"cub.merge_sort.*"});
  EXPECT_EQ(rs[6].vs.at("cub").baseline, "cub.merge_sort.off32");
  // The report keeps them.
  const PointResult back = result_from_json(result_to_json(rs[6]), "x");
  EXPECT_EQ(back.vs.at("cub").baseline, "cub.merge_sort.off32");
  EXPECT_DOUBLE_EQ(back.vs.at("cub").speedup, 4.0);
}

TEST(Report, SummaryTableSaysWhoWonAndByHowMuch) {
  std::vector<PointResult> rs = {ok_point("cub.radix_sort.off32", 2.0), ok_point("cub.radix_sort.off64", 3.0),
                                 ok_point("radix.a", 1.0), ok_point("radix.b", 1.5), ok_point("thrust.sort", 4.0),
                                 // n = 2048: the library wins; n = 4096: within noise
                                 ok_point("cub.radix_sort.off64", 1.0, 2048), ok_point("radix.a", 1.25, 2048),
                                 ok_point("cub.radix_sort.off64", 1.0, 4096), ok_point("radix.a", 1.001, 4096),
                                 ok_point("radix.a", 1.0, 8192)};
  rs.back().status = Status::failed;
  rs[2].energy.measured = true;  // radix.a at 2^10: 0.25 J a GKey
  rs[2].energy.joules_per_gkey = 0.25;
  const std::vector<std::string> globs = {"cub.*", "thrust.*"};
  compute_speedups(rs, globs);
  const std::string t = summary_table(rs, globs);
  std::istringstream lines(t);
  std::string header, l1, l2, l3, l4;
  std::getline(lines, header);
  std::getline(lines, l1);
  std::getline(lines, l2);
  std::getline(lines, l3);
  std::getline(lines, l4);
  EXPECT_NE(header.find("fastest library call"), std::string::npos);
  EXPECT_NE(header.find("GKeys/J"), std::string::npos);
  EXPECT_NE(l1.find("   4.000  "), std::string::npos) << l1;  // GKeys per joule where energy was measured
  EXPECT_NE(l2.find("       -  "), std::string::npos) << l2;   // and "-" where not
  EXPECT_NE(l1.find("u64/u32 n=2^10 entropy:0.544 desc"), std::string::npos) << l1;
  EXPECT_NE(l1.find("radix.a"), std::string::npos);
  EXPECT_NE(l1.find("cub.radix_sort.off32"), std::string::npos);
  EXPECT_NE(l1.find("ours 2.00x"), std::string::npos) << l1;
  EXPECT_NE(l2.find("library 1.25x"), std::string::npos) << l2;
  EXPECT_NE(l3.find("tie (1.00x)"), std::string::npos) << l3;
  EXPECT_NE(l4.find("1/0"), std::string::npos) << l4;  // failed, nothing ok
}

// Reports are read through one typed layer: every error names the file, the
// JSON path and what was expected (bad input, exit 2 in the CLI).
TEST(Report, ReadingNamesTheFileThePathAndWhatWasExpected) {
  Report rep;
  rep.context = {{"device", {{"name", "Test GPU"}, {"model", "test"}}}};
  rep.results.push_back(ok_point("radix.x", 2.0));
  const json good = report_to_json(rep);
  auto error = [&](const std::function<void(json&)>& spoil) {
    json j = good;
    spoil(j);
    try {
      report_from_json(j, "r.json");
    } catch (const ConfigError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(error([](json&) {}), "no error");
  EXPECT_EQ(error([](json& j) { j["context"] = {1, 2}; }), "r.json: $.context: expected an object, got an array");
  EXPECT_EQ(error([](json& j) { j["context"]["device"]["name"] = 5; }),
            "r.json: $.context.device.name: expected a string, got 5");
  EXPECT_EQ(error([](json& j) { j["results"] = "x"; }), "r.json: $.results: expected an array, got \"x\"");
  EXPECT_EQ(error([](json& j) { j["schema"] = 1; }),
            "r.json: not a sortbench report (expected \"schema\": \"sortbench-report\")");
  EXPECT_EQ(error([](json& j) { j["schema_version"] = 9; }),
            "r.json: $.schema_version: expected 1 to 3 (a report schema version this build reads), got 9");
  EXPECT_EQ(error([](json& j) { j["results"][0]["n"] = -5; }),
            "r.json: $.results[0].n: expected a whole number from 0 to 9223372036854775807, got -5");
  EXPECT_EQ(error([](json& j) { j["results"][0]["time_ms"]["raw"][1] = "fast"; }),
            "r.json: $.results[0].time_ms.raw[1]: expected a number, got \"fast\"");
  EXPECT_EQ(error([](json& j) { j["results"][0].erase("status"); }), "r.json: $.results[0].status: missing");
  EXPECT_EQ(error([](json& j) { j["results"][0]["key"] = "u24"; }).substr(0, 52),
            "r.json: $.results[0].key: expected one of u8, i8, u1");
  EXPECT_EQ(error([](json& j) { j["results"][0]["vs"]["cub"] = {{"baseline", "cub.x"}, {"speedup", -1}}; }),
            "r.json: $.results[0].vs.cub.speedup: expected a number of at least 0, got -1");
  // Clocks are MHz: far beyond any GPU's is a damaged file, not a measurement.
  EXPECT_EQ(error([](json& j) { j["results"][0]["sm_clock_mhz"] = 1e308; }),
            "r.json: $.results[0].sm_clock_mhz: expected a number from 0 to 100000, got 1e+308");
  EXPECT_EQ(error([](json& j) { j["context"]["device"]["sm_clock_peak_mhz"] = 2e5; }),
            "r.json: $.context.device.sm_clock_peak_mhz: expected a number from 0 to 100000, got 200000.0");
  EXPECT_EQ(error([](json& j) { j["results"][0]["sm_clock_mhz"] = 1980; }), "no error");
}

// Issue 16: a point across g GPUs against the fastest library call sorting
// all n keys on one GPU (speedup, efficiency = speedup / g) and against the
// fastest call sorting one GPU's share alone (the ideal: no exchange).
TEST(Report, ScalingAgainstOneGpuAndTheIdealShare) {
  PointResult two = ok_point("distributed.sample_sort.s1024", 3.0, 4096);
  two.gpus = {0, 1};
  two.part_sizes = {2050, 2046};
  std::vector<PointResult> rs = {ok_point("cub.radix_sort.off32", 4.5, 4096), ok_point("cub.radix_sort.off64", 4.0, 4096),
                                 ok_point("cub.radix_sort.off32", 2.4, 2048), ok_point("cub.radix_sort.off64", 2.5, 2048),
                                 two};
  rs[0].gpus = rs[1].gpus = rs[2].gpus = rs[3].gpus = {0};
  compute_speedups(rs, {"cub.*"});
  const PointResult& d = rs[4];
  ASSERT_TRUE(d.has_scaling);
  EXPECT_EQ(d.scaling.one_gpu_baseline, "cub.radix_sort.off64");
  EXPECT_DOUBLE_EQ(d.scaling.one_gpu_ms, 4.0);
  EXPECT_DOUBLE_EQ(d.scaling.speedup, 4.0 / 3.0);
  EXPECT_DOUBLE_EQ(d.scaling.efficiency, 4.0 / 3.0 / 2.0);
  EXPECT_EQ(d.scaling.ideal_baseline, "cub.radix_sort.off32");
  EXPECT_EQ(d.scaling.ideal_n, 2048u);
  EXPECT_DOUBLE_EQ(d.scaling.fraction_of_ideal, 2.4 / 3.0);
  EXPECT_DOUBLE_EQ(d.vs.at("cub").speedup, 4.0 / 3.0);  // the one-GPU ratio is the usual one
  EXPECT_FALSE(rs[1].has_scaling);                       // one-GPU points have none
  // Without the share size in the sweep there is no ideal, only the one-GPU ratio.
  rs.erase(rs.begin() + 2, rs.begin() + 4);
  compute_speedups(rs, {"cub.*"});
  EXPECT_TRUE(rs[2].has_scaling);
  EXPECT_TRUE(rs[2].scaling.ideal_baseline.empty());
  EXPECT_EQ(rs[2].scaling.fraction_of_ideal, 0);
}

TEST(Report, DistributedFieldsRoundTripAndTellPlacementsApart) {
  Report rep;
  PointResult one = ok_point("distributed.sample_sort.s1024", 3.0);
  one.gpus = {0, 1};
  one.part_sizes = {500, 524};
  one.phases_ms = {{"local_sort", 1.5}, {"exchange", 1.0}};
  one.local_sort = "radix.onesweep.rb8.ipt32.tpb384.mb3";
  one.exchange_gb_per_s = 350;
  one.link_alltoall_gb_per_s = 400;
  PointResult other = one;
  other.gpus = {2, 3};
  rep.results = {one, other, ok_point("cub.radix_sort.off64", 6.0)};
  rep.results[2].gpus = {0};
  compute_speedups(rep.results, {"cub.*"});
  const json j = report_to_json(rep);
  EXPECT_DOUBLE_EQ(j["results"][0]["exchange_fraction_of_link"].get<double>(), 350.0 / 400.0);
  EXPECT_EQ(j["results"][0]["phases_ms"][1]["phase"], "exchange");
  const Report back = report_from_json(j, "r.json");  // two placements of one variant and workload are two points
  ASSERT_EQ(back.results.size(), 3u);
  EXPECT_EQ(back.results[1].gpus, (std::vector<int>{2, 3}));
  EXPECT_EQ(back.results[0].part_sizes, (std::vector<std::size_t>{500, 524}));
  ASSERT_EQ(back.results[0].phases_ms.size(), 2u);
  EXPECT_EQ(back.results[0].phases_ms[0].first, "local_sort");
  EXPECT_EQ(back.results[0].local_sort, "radix.onesweep.rb8.ipt32.tpb384.mb3");
  EXPECT_FALSE(j["results"][2].contains("local_sort"));  // a single-GPU point has none
  EXPECT_TRUE(back.results[0].has_scaling);
  EXPECT_DOUBLE_EQ(back.results[0].scaling.speedup, 2.0);
  EXPECT_EQ(back.results[2].placement_key(), "");
  // The same placement twice is refused, naming both.
  rep.results[1].gpus = {0, 1};
  EXPECT_THROW(report_from_json(report_to_json(rep), "r.json"), ConfigError);
}
