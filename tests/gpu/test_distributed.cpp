// The distributed family on two GPUs, registry-driven: every variant with
// min_gpus > 1, through the harness's DistributedRunner (shards generated per
// GPU, validated globally: each part sorted, parts ordered, the union a
// permutation, stable). Sizes straddle the partition tiles and the sampling
// intervals; distributions include all-equal keys and inputs whose keys all
// belong to one GPU's range. Skipped with the reason on a machine with one GPU.
#include <filesystem>
#include <fstream>
#include <set>

#include "gpu_test_util.hpp"
#include "scoped_env.hpp"
#include "sortbench/distributed.hpp"

using namespace sortbench;
using namespace sortbench::test;

namespace {

std::vector<std::string> distributed_labels() {
  return labels_where([](const VariantInfo& v) { return v.distributed(); });
}

#define SORTBENCH_REQUIRE_TWO_GPUS()                                                          \
  do {                                                                                        \
    SORTBENCH_REQUIRE_GPU();                                                                  \
    int gpus = 0;                                                                             \
    cuda_check(cudaGetDeviceCount(&gpus), "cudaGetDeviceCount");                              \
    if (gpus < 2) GTEST_SKIP() << "the distributed family needs 2 GPUs; this machine has " << gpus; \
  } while (0)

MeasureSettings one_sample() {
  MeasureSettings m;
  m.warmup_runs = 1;
  m.min_samples = 1;
  m.max_samples = 1;
  m.budget_s = 0.001;
  m.cold_l2 = false;
  return m;
}

// Runs v on w across w.devices; fails the test with the harness's reason.
void expect_valid(DistributedRunner& runner, const VariantInfo& v, const Workload& w) {
  const std::string why = runner.prepare(w);
  ASSERT_TRUE(why.empty()) << why;
  const PointResult r = runner.measure(v);
  const std::string what = v.label + " " + to_string(w.key) + "/" + to_string(w.value) + " " + to_string(w.order) +
                           " n=" + std::to_string(w.n) + " " + w.dist.name();
  ASSERT_EQ(r.status, Status::ok) << what << ": " << r.reason;
  EXPECT_TRUE(r.validation.ok()) << what << ": " << r.validation.message;
  ASSERT_EQ(r.part_sizes.size(), w.devices.size()) << what;
  std::size_t total = 0;
  for (std::size_t part : r.part_sizes) total += part;
  EXPECT_EQ(total, w.n) << what;
  if (v.stable && w.value != ValueType::none) EXPECT_TRUE(r.validation.stability_checked) << what;
}

class Distributed : public ::testing::TestWithParam<std::string> {};

TEST_P(Distributed, EveryKeyValueTypeAndOrder) {
  SORTBENCH_REQUIRE_TWO_GPUS();
  const VariantInfo* v = Registry::instance().find(GetParam());
  ASSERT_NE(v, nullptr);
  DistributedRunner runner(one_sample(), {0, 1});
  ASSERT_TRUE(runner.unavailable().empty()) << runner.unavailable();
  for (KeyType k : v->key_types)
    for (ValueType val : v->value_types)
      for (Order o : {Order::ascending, Order::descending}) {
        if (o == Order::descending && !v->descending) continue;
        for (std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(4097), std::size_t(65537)}) {
          Workload w{k, val, o, n, *parse_distribution("uniform", nullptr), 7, {0, 1}};
          expect_valid(runner, *v, w);
          if (HasFatalFailure()) return;
        }
      }
}

TEST_P(Distributed, SizesAndDistributionsThatStraddleTilesAndSplitters) {
  SORTBENCH_REQUIRE_TWO_GPUS();
  const VariantInfo* v = Registry::instance().find(GetParam());
  ASSERT_NE(v, nullptr);
  DistributedRunner runner(one_sample(), {0, 1});
  ASSERT_TRUE(runner.unavailable().empty()) << runner.unavailable();
  // entropy:0.0: every key equal (one GPU's range holds them all, so equal
  // keys must be split); sorted and reverse: each shard's keys belong to one
  // GPU's part; few_unique:2 and zipf: heavy duplicates at the boundary.
  for (const char* dist : {"uniform", "entropy:0.0", "entropy:0.201", "few_unique:2", "sorted", "reverse", "zipf"})
    for (std::size_t n : {std::size_t(2), std::size_t(3), std::size_t(33), std::size_t(1023), std::size_t(4095),
                          std::size_t(4096), std::size_t(4097), std::size_t(8193), std::size_t(65537),
                          (std::size_t(1) << 20) + 3})
      for (ValueType val : {ValueType::none, ValueType::u32}) {
        Workload w{KeyType::u32, val, Order::ascending, n, *parse_distribution(dist, nullptr), 11, {0, 1}};
        expect_valid(runner, *v, w);
        if (HasFatalFailure()) return;
      }
  // 64-bit keys reach the last digit level before splitting equal keys.
  for (const char* dist : {"entropy:0.0", "few_unique:2"}) {
    Workload w{KeyType::u64, ValueType::u64, Order::descending, 100003, *parse_distribution(dist, nullptr), 3, {0, 1}};
    expect_valid(runner, *v, w);
  }
}

// Two GPUs of a machine with more, and all four of it: with the process's
// other GPUs idle, shards of 2^31 keys (issue 40: 2^31 and 2^32 keys on GPUs
// 0 and 1 of four H200s failed in the local sort's pass with
// cudaErrorInvalidValue), and sizes that do not divide by the GPU count.
TEST_P(Distributed, TwoAndFourOfFourGpus) {
  SORTBENCH_REQUIRE_TWO_GPUS();
  int gpus = 0;
  cuda_check(cudaGetDeviceCount(&gpus), "cudaGetDeviceCount");
  if (gpus < 4) GTEST_SKIP() << "needs 4 GPUs; this machine has " << gpus;
  const VariantInfo* v = Registry::instance().find(GetParam());
  ASSERT_NE(v, nullptr);
  for (const std::vector<int>& devices : {std::vector<int>{0, 1}, std::vector<int>{2, 3}, std::vector<int>{0, 1, 2, 3}}) {
    Problem p{KeyType::u32, ValueType::none, Order::ascending, std::size_t(1) << 24, int(devices.size())};
    if (const std::string why = v->skip_reason(p); !why.empty()) {
      std::cout << v->label << " on " << devices.size() << " GPUs: skipped (" << why << ")\n";
      continue;
    }
    DistributedRunner runner(one_sample(), devices);
    ASSERT_TRUE(runner.unavailable().empty()) << runner.unavailable();
    for (const char* dist : {"uniform", "zipf", "few_unique:16", "sorted", "entropy:0.0"})
      for (ValueType val : {ValueType::none, ValueType::u32}) {
        Workload w{KeyType::u32, val, Order::ascending, (std::size_t(1) << 24) + 3, *parse_distribution(dist, nullptr),
                   5, devices};
        expect_valid(runner, *v, w);
        if (HasFatalFailure()) return;
        // Balanced: no GPU holds more than 5 % over n / g, skewed keys included.
        const PointResult r = runner.measure(*v);
        for (std::size_t part : r.part_sizes)
          EXPECT_LE(double(part), 1.05 * double(w.n) / double(devices.size()))
              << v->label << " " << dist << " " << to_string(val) << " on " << devices.size() << " GPUs";
      }
    Workload big{KeyType::u32, ValueType::none, Order::ascending, std::size_t(1) << 31,
                 *parse_distribution("uniform", nullptr), 1, devices};
    expect_valid(runner, *v, big);
    if (HasFatalFailure()) return;
  }
}

INSTANTIATE_TEST_SUITE_P(Registry, Distributed, ::testing::ValuesIn(distributed_labels()),
                         label_test_name);

TEST(DistributedRunner, TooFewGpusIsAReasonNotAnError) {
  SORTBENCH_REQUIRE_GPU();
  int gpus = 0;
  cuda_check(cudaGetDeviceCount(&gpus), "cudaGetDeviceCount");
  DistributedRunner runner(one_sample(), {0, gpus});
  EXPECT_NE(runner.unavailable().find("this machine has " + std::to_string(gpus)), std::string::npos)
      << runner.unavailable();
  Workload w{KeyType::u32, ValueType::none, Order::ascending, 1000, *parse_distribution("uniform", nullptr), 1, {0, gpus}};
  EXPECT_FALSE(runner.prepare(w).empty());
  for (const auto& label : distributed_labels()) {
    const PointResult r = runner.measure(*Registry::instance().find(label));
    EXPECT_EQ(r.status, Status::skipped) << label;
    EXPECT_NE(r.reason.find("this machine has"), std::string::npos) << r.reason;
  }
}

// Each GPU sorts with the radix point its best.json names for the shard (the
// range's "ours", also where a library call won it), else the family's
// default point; the result records which, and stays valid.
TEST(DistributedRunner, LocalSortIsThisGpusTunedRadixPoint) {
  SORTBENCH_REQUIRE_TWO_GPUS();
  const Registry& reg = Registry::instance();
  const VariantInfo* fallback = reg.family_default("radix");
  ASSERT_NE(fallback, nullptr);
  std::string tuned;  // a registered Onesweep point that is not the default
  for (const auto& v : reg.all())
    if (tuned.empty() && v.label.rfind("radix.onesweep.", 0) == 0 && v.label != fallback->label) tuned = v.label;
  ASSERT_FALSE(tuned.empty());
  cudaDeviceProp prop{};
  cuda_check(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties");
  const std::string path = (std::filesystem::temp_directory_path() / "sortbench_test_best_distributed.json").string();
  std::ofstream(path, std::ios::trunc) << R"({"schema": "sortbench-best", "schema_version": 2, "gpu_model": ")"
                                       << device_model_slug(prop.name) << R"(", "entries": [
    {"key": "u32", "value": "u32", "order": "ascending", "n_min": 1, "n_max": 1048576, "variant": "cub.radix_sort.off32", "library": true, "ours": ")"
                                       << tuned << R"(", "score": 1}]})";
  // Put back however the test ends: later tests read best.json by the default rules.
  const ScopedEnv best_json("SORTBENCH_BEST_JSON", path.c_str());
  DistributedRunner runner(one_sample(), {0, 1});
  const VariantInfo* v = reg.find(distributed_labels().front());
  ASSERT_NE(v, nullptr);
  for (ValueType val : {ValueType::u32, ValueType::none}) {  // tuned; no entry for keys only
    Workload w{KeyType::u32, val, Order::ascending, (std::size_t(1) << 18) + 5, *parse_distribution("uniform", nullptr),
               5, {0, 1}};
    ASSERT_TRUE(runner.prepare(w).empty());
    const PointResult r = runner.measure(*v);
    ASSERT_EQ(r.status, Status::ok) << r.reason;
    EXPECT_TRUE(r.validation.ok()) << r.validation.message;
    EXPECT_EQ(r.local_sort, val == ValueType::u32 ? tuned : fallback->label) << to_string(val);
  }
}

TEST(DistributedRunner, LinkMeasurementOnTwoGpus) {
  SORTBENCH_REQUIRE_TWO_GPUS();
  DistributedRunner runner(one_sample(), {0, 1});
  ASSERT_TRUE(runner.unavailable().empty()) << runner.unavailable();
  const LinkMeasurement l = runner.measure_link(std::size_t(64) << 20);
  EXPECT_TRUE(l.error.empty()) << l.error;
  EXPECT_GT(l.alltoall_gb_per_s, 0);
  EXPECT_GT(l.peer_copy_gb_per_s, 0);
  // A peer copy staged through the host (before peer access) ran at a tenth
  // of NCCL's rate on NV18; a direct one is faster than NCCL's.
  if (l.peer_access) EXPECT_GT(l.peer_copy_gb_per_s, 0.5 * l.alltoall_gb_per_s);
}

}  // namespace
