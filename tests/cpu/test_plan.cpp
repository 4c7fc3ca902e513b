// Dry-run planning (sortbench/plan.hpp): each point classified with the reason
// the runner records, the tally and its summary line, and the time estimates.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "sortbench/config.hpp"
#include "sortbench/on_demand.hpp"
#include "sortbench/plan.hpp"

using namespace sortbench;
namespace fs = std::filesystem;

namespace {

VariantInfo plan_variant(const std::string& label) {
  VariantInfo v;
  v.label = label;
  v.family = "plantest";
  v.key_types = {KeyType::u32, KeyType::f32};
  v.bytes_per_key = [](const Problem&) { return 1.0; };
  v.make = [](const Problem&) -> std::unique_ptr<Instance> { return nullptr; };
  return v;
}

Workload plan_workload(KeyType k, std::size_t n, const std::string& dist = "uniform") {
  Workload w;
  w.key = k;
  w.n = n;
  w.dist = *parse_distribution(dist, nullptr);
  return w;
}

}  // namespace

TEST(Plan, WorkloadReasonIsTheDistributionThatDoesNotApply) {
  EXPECT_EQ(plan::workload_skip_reason(plan_workload(KeyType::u8, 1024, "normal")),
            "distribution normal applies to float keys only (f16, bf16, f32, f64)");
  EXPECT_EQ(plan::workload_skip_reason(plan_workload(KeyType::f32, 1024, "normal")), "");
  EXPECT_EQ(plan::workload_skip_reason(plan_workload(KeyType::u8, 1024, "uniform")), "");
}

// Issue 40: 2^33 u32 pairs on four GPUs were measured and failed validation
// ("not stable"): a u32 value cannot hold an index past 2^32.
TEST(Plan, U32ValuesCannotIndexPast2To32) {
  Workload w = plan_workload(KeyType::u32, std::size_t(1) << 32);
  w.value = ValueType::u32;
  EXPECT_EQ(plan::workload_skip_reason(w), "");
  w.n = (std::size_t(1) << 32) + 1;
  EXPECT_NE(plan::workload_skip_reason(w).find("past 2^32"), std::string::npos) << plan::workload_skip_reason(w);
  w.n = std::size_t(1) << 33;
  EXPECT_NE(plan::workload_skip_reason(w).find("use u64 values"), std::string::npos);
  w.value = ValueType::u64;
  EXPECT_EQ(plan::workload_skip_reason(w), "");
  w.value = ValueType::none;
  EXPECT_EQ(plan::workload_skip_reason(w), "");
  // A config's point is skipped with the reason; the runners read the same.
  w.value = ValueType::u32;
  VariantInfo v = plan_variant("plantest.index");
  const plan::Point p = plan::classify(v, w);
  EXPECT_TRUE(p.skip);
  EXPECT_EQ(p.reason, plan::value_index_skip_reason(ValueType::u32, w.n));
}

TEST(Plan, ClassifiesWithTheRunnersReasonsInItsOrder) {
  VariantInfo v = plan_variant("plantest.a");
  v.max_n = 1000;
  v.max_n_why = "a test cap";
  // To measure.
  plan::Point p = plan::classify(v, plan_workload(KeyType::u32, 1000));
  EXPECT_FALSE(p.skip);
  EXPECT_EQ(p.reason, "");
  // The declared limits, in VariantInfo::skip_reason's words.
  p = plan::classify(v, plan_workload(KeyType::u8, 10));
  EXPECT_TRUE(p.skip);
  EXPECT_EQ(p.reason, "key type u8 not supported");
  p = plan::classify(v, plan_workload(KeyType::u32, 1001));
  EXPECT_TRUE(p.skip);
  EXPECT_EQ(p.reason, "n = 1001 above the variant's cap of 1000 (a test cap)");
  // The workload's reason comes first, as Runner::prepare records it before any variant is asked.
  p = plan::classify(v, plan_workload(KeyType::u8, 5000, "normal"));
  EXPECT_TRUE(p.skip);
  EXPECT_EQ(p.reason, "distribution normal applies to float keys only (f16, bf16, f32, f64)");
  // The variant's own check, where it answers on the host (a pruned on-demand point).
  v.unsupported = [](const Problem& q) { return q.n > 100 ? std::string("a tile above the limit") : std::string(); };
  p = plan::classify(v, plan_workload(KeyType::u32, 101));
  EXPECT_TRUE(p.skip);
  EXPECT_EQ(p.reason, "a tile above the limit");
  EXPECT_FALSE(plan::classify(v, plan_workload(KeyType::u32, 100)).skip);
}

TEST(Plan, AnOwnCheckThatNeedsTheGpuLeavesThePointToMeasureUnchecked) {
  VariantInfo v = plan_variant("plantest.b");
  v.unsupported = [](const Problem&) -> std::string { throw std::runtime_error("cudaGetDevice: no GPU"); };
  plan::Point p = plan::classify(v, plan_workload(KeyType::u32, 10));
  EXPECT_FALSE(p.skip);
  EXPECT_EQ(p.unchecked, "cudaGetDevice: no GPU");
  // The declared limits still decide without it.
  p = plan::classify(v, plan_workload(KeyType::u8, 10));
  EXPECT_TRUE(p.skip);
  EXPECT_EQ(p.reason, "key type u8 not supported");
  EXPECT_EQ(p.unchecked, "");
}

TEST(Plan, ProblemsNameTheGpusTheMeasurerGivesThem) {
  VariantInfo one = plan_variant("plantest.one");
  VariantInfo across = plan_variant("plantest.across");
  across.min_gpus = 2;
  Workload two = plan_workload(KeyType::u32, 1 << 20);
  two.devices = {0, 1};
  // A single-GPU variant runs on the first GPU with all n keys.
  EXPECT_EQ(plan::problem_for(one, two).gpus, 1);
  EXPECT_FALSE(plan::classify(one, two).skip);
  EXPECT_EQ(plan::problem_for(across, two).gpus, 2);
  EXPECT_FALSE(plan::classify(across, two).skip);
  const plan::Point p = plan::classify(across, plan_workload(KeyType::u32, 1 << 20));
  EXPECT_TRUE(p.skip);
  EXPECT_EQ(p.reason.rfind("sorts across GPUs: needs at least 2, the point names 1", 0), 0u) << p.reason;
}

TEST(Plan, TallyGroupsReasonsAndTheSummarySaysWhatRunsAndHowLong) {
  plan::Tally t;
  for (int i = 0; i < 5; ++i) t.add({});
  t.add({false, "", "needs the GPU"});
  for (int i = 0; i < 2; ++i) t.add({true, "key type u8 not supported", ""});
  for (int i = 0; i < 3; ++i) t.add({true, "distribution normal applies to float keys only", ""});
  EXPECT_EQ(t.points, 11u);
  EXPECT_EQ(t.to_measure, 6u);
  EXPECT_EQ(t.skipped, 5u);
  EXPECT_EQ(t.unchecked, 1u);
  ASSERT_EQ(t.skip_reasons.size(), 2u);
  EXPECT_EQ(t.skip_reasons[0], std::make_pair(std::string("key type u8 not supported"), std::size_t(2)));
  EXPECT_EQ(plan::summary_line(t, 3, plan::estimate_compile(0, {}, 4)),
            "dry run: 11 points: 6 to measure, 5 skipped (3: distribution normal applies to float keys only; 2: key "
            "type u8 not supported), est. measuring <= 18s (6 x 3 s budget), 0 to compile; 1 point whose own check "
            "needs the GPU may still be skipped");
  plan::Tally none;
  none.add({});
  EXPECT_EQ(plan::summary_line(none, 0.5, plan::estimate_compile(0, {}, 1)),
            "dry run: 1 point: 1 to measure, 0 skipped, est. measuring <= 0s (1 x 0.5 s budget), 0 to compile");
  // Energy windows add their time to every point measured.
  EXPECT_EQ(plan::summary_line(none, 3, plan::estimate_compile(0, {}, 1), 1.2),
            "dry run: 1 point: 1 to measure, 0 skipped, est. measuring <= 4s (1 x (3 s budget + 1.2 s energy "
            "window)), 0 to compile");
  // More reasons than the line shows: the rest are counted (each is listed beside its point).
  plan::Tally many;
  for (const char* why : {"a", "b", "b", "c", "d", "d", "d", "e"}) many.add({true, why, ""});
  const std::string line = plan::summary_line(many, 3, plan::estimate_compile(0, {}, 1));
  EXPECT_NE(line.find("8 skipped (3: d; 2: b; 1: a; 2 other reasons)"), std::string::npos) << line;
}

TEST(Plan, MeasuringIsBoundedByTheBudgetOfEachPoint) {
  EXPECT_DOUBLE_EQ(plan::measure_bound_s(107, 3), 321);
  EXPECT_DOUBLE_EQ(plan::measure_bound_s(0, 3), 0);
}

TEST(Plan, CompileEstimateUsesTheRecordedMeanElseTheStatedDefault) {
  plan::CompileEstimate c = plan::estimate_compile(9, {}, 2);
  EXPECT_DOUBLE_EQ(c.per_point_s, plan::kDefaultCompileS);
  EXPECT_EQ(c.recorded, 0u);
  EXPECT_DOUBLE_EQ(c.wall_s, 5 * plan::kDefaultCompileS);  // 9 points, 2 at a time
  EXPECT_EQ(c.text(), "9 to compile, est. 1m00s (12 s a point, assumed: the cache records no compile yet; 2 jobs)");
  // Times that are no times (a torn record) are not averaged in.
  c = plan::estimate_compile(3, {10, 20, 0, -1, std::nan("")}, 2);
  EXPECT_EQ(c.recorded, 2u);
  EXPECT_DOUBLE_EQ(c.per_point_s, 15);
  EXPECT_DOUBLE_EQ(c.wall_s, 30);
  EXPECT_EQ(c.text(), "3 to compile, est. 30s (15 s a point, the mean of 2 compiles the cache recorded; 2 jobs)");
  c = plan::estimate_compile(1, {7.25}, 0);  // no jobs given: one at a time
  EXPECT_EQ(c.jobs, 1u);
  EXPECT_EQ(c.text(), "1 to compile, est. 7s (7.3 s a point, the mean of 1 compile the cache recorded; 1 job)");
  EXPECT_EQ(plan::estimate_compile(0, {5}, 8).text(), "0 to compile");
}

TEST(Plan, RecordedCompileTimesAreReadFromTheCacheEntries) {
  const fs::path dir = fs::temp_directory_path() / ("sortbench_plan_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  EXPECT_TRUE(on_demand::recorded_compile_times(dir.string()).empty());  // no cache folder yet
  fs::create_directories(dir);
  std::ofstream(dir / "aaaa.json") << R"({"variant": "x", "sha256": "00", "compile_s": 11.5})";
  std::ofstream(dir / "bbbb.json") << R"({"variant": "y", "sha256": "00", "compile_s": 2.5})";
  std::ofstream(dir / "cccc.json") << R"({"variant": "z", "sha)";  // torn
  std::ofstream(dir / "dddd.json") << R"({"variant": "w"})";        // no time
  std::ofstream(dir / "eeee.failed") << R"({"compile_s": 99})";     // not a record
  std::vector<double> got = on_demand::recorded_compile_times(dir.string());
  std::sort(got.begin(), got.end());
  EXPECT_EQ(got, (std::vector<double>{2.5, 11.5}));
  fs::remove_all(dir);
}
