#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "sortbench/report.hpp"
#include "sortbench/stats.hpp"

using namespace sortbench;
namespace fs = std::filesystem;

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
  PointResult skipped;
  skipped.variant = "network.odd_even";
  skipped.family = "network";
  skipped.status = Status::skipped;
  skipped.reason = "n = 5 above the variant's cap of 4";
  rep.results.push_back(skipped);
  PointResult failed = ok_point("merge.y", 1.0);
  failed.status = Status::failed;
  failed.reason = "validation: not sorted";
  failed.validation = {true, false, true, false, false, 17, "not sorted: key 17 is out of order"};
  rep.results.push_back(failed);
  compute_speedups(rep.results, {"radix.x"});

  const fs::path path = temp_dir() / "sub" / "r.json";
  write_report_atomic(rep, path.string());
  const Report back = read_report(path.string());
  EXPECT_EQ(report_to_json(back), report_to_json(rep));
  ASSERT_EQ(back.results.size(), 3u);
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
  std::vector<PointResult> rs = {ok_point("cub.radix_sort", 2.0), ok_point("radix.a", 1.0),
                                 ok_point("radix.a", 4.0, 2048), ok_point("thrust.sort", 8.0, 2048)};
  compute_speedups(rs, {"cub.radix_sort", "thrust.sort"});
  EXPECT_DOUBLE_EQ(rs[1].speedup.at("cub.radix_sort"), 2.0);
  EXPECT_EQ(rs[1].speedup.count("thrust.sort"), 0u);  // thrust ran a different n
  EXPECT_DOUBLE_EQ(rs[2].speedup.at("thrust.sort"), 2.0);
  EXPECT_EQ(rs[2].speedup.count("cub.radix_sort"), 0u);
  EXPECT_DOUBLE_EQ(rs[0].speedup.at("cub.radix_sort"), 1.0);
  // A failed baseline is no reference.
  rs[0].status = Status::failed;
  compute_speedups(rs, {"cub.radix_sort"});
  EXPECT_TRUE(rs[1].speedup.empty());
}

TEST(Report, SummaryTablePicksTheFastest) {
  std::vector<PointResult> rs = {ok_point("cub.radix_sort", 2.0), ok_point("radix.a", 1.0),
                                 ok_point("thrust.sort", 4.0)};
  compute_speedups(rs, {"cub.radix_sort", "thrust.sort"});
  const std::string t = summary_table(rs);
  EXPECT_NE(t.find("radix.a"), std::string::npos);
  EXPECT_NE(t.find("2.00x"), std::string::npos);  // vs CUB
  EXPECT_NE(t.find("4.00x"), std::string::npos);  // vs thrust
  EXPECT_NE(t.find("u64|u32|descending|1024|entropy:0.544"), std::string::npos);
}
