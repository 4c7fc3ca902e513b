// sortbench::sort: dispatch to the tuned best.json entry for this GPU (a
// library call where the tuner found nothing of ours faster), and the
// cub.radix_sort.off64 fallback where there is none; every result validated.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "gpu_test_util.hpp"
#include "sortbench/best_json.hpp"
#include "sortbench/plan.hpp"
#include "sortbench/sort.hpp"

using namespace sortbench;
using namespace sortbench::test;

namespace {

std::string model_of_this_gpu() {
  int dev = 0;
  cuda_check(cudaGetDevice(&dev), "device");
  cudaDeviceProp p{};
  cuda_check(cudaGetDeviceProperties(&p, dev), "props");
  return device_model_slug(p.name);
}

std::string write_best(const std::string& model, const std::string& variant) {
  const std::string path =
      (std::filesystem::temp_directory_path() / ("sortbench_test_best." + model + "." + variant + ".json")).string();
  std::ofstream(path) << R"({"schema": "sortbench-best", "schema_version": 2, "gpu_model": ")" << model << R"(", "entries": [
    {"key": "u32", "value": "none", "order": "ascending", "n_min": 1, "n_max": 1073741824, "variant": ")" << variant << R"(", "params": {}, "score": 1},
    {"key": "u32", "value": "u32", "order": "ascending", "n_min": 1, "n_max": 1073741824, "variant": ")" << variant << R"(", "params": {}, "score": 1}]})";
  return path;
}

// Sorts a u32 workload with sortbench::sort_keys / sort_pairs (two phases,
// const input) and validates it, and that the input is as it was; returns
// the label that sorted.
std::string sort_and_validate(std::size_t n, bool pairs, SortOptions o, const char* distribution = "uniform") {
  Workload w{KeyType::u32, pairs ? ValueType::u32 : ValueType::none, Order::ascending, n,
             *parse_distribution(distribution, nullptr), 7};
  DevMem pristine(n * 4), keys(n * 4), out(n * 4), values(pairs ? n * 4 : 0), values_out(pairs ? n * 4 : 0);
  cudaStream_t s = 0;
  generate_keys(w, pristine.p, s);
  cuda_check(cudaMemcpyAsync(keys.p, pristine.p, n * 4, cudaMemcpyDeviceToDevice, s), "copy");
  auto* v = static_cast<std::uint32_t*>(values.p);
  if (pairs) fill_index_values(v, ValueType::u32, n, s);
  std::string label;
  o.chosen = &label;
  const auto* kin = static_cast<const std::uint32_t*>(keys.p);
  auto* kout = static_cast<std::uint32_t*>(out.p);
  auto* vout = static_cast<std::uint32_t*>(values_out.p);
  std::size_t bytes = 0;
  EXPECT_EQ(pairs ? sort_pairs(nullptr, bytes, kin, kout, v, vout, n, s, o) : sort_keys(nullptr, bytes, kin, kout, n, s, o),
            cudaSuccess);
  DevMem temp(bytes);
  EXPECT_EQ(pairs ? sort_pairs(temp.p, bytes, kin, kout, v, vout, n, s, o) : sort_keys(temp.p, bytes, kin, kout, n, s, o),
            cudaSuccess);
  const Validation val = validate_sort(w.problem(), pristine.p, out.p, pairs ? vout : nullptr, false, s);
  EXPECT_TRUE(val.ok()) << label << ": " << val.message;
  EXPECT_EQ(to_host<std::uint32_t>(keys.p, n), to_host<std::uint32_t>(pristine.p, n)) << label << ": input written";
  return label;
}

}  // namespace

TEST(SortDispatch, FallsBackToCubWithoutTuning) {
  SORTBENCH_REQUIRE_GPU();
  SortOptions o;
  o.best_json = "/nonexistent/best.json";
  EXPECT_EQ(sort_and_validate((1 << 20) + 3, false, o), kReferenceVariant);
  EXPECT_EQ(sort_and_validate((1 << 20) + 3, true, o), kReferenceVariant);
  // A best.json for another GPU model is not used.
  o.best_json = write_best("some-other-gpu", "cub.merge_sort.off64");
  EXPECT_EQ(sort_and_validate(1 << 16, false, o), kReferenceVariant);
}

TEST(SortDispatch, UsesTheTunedEntryForThisGpu) {
  SORTBENCH_REQUIRE_GPU();
  SortOptions o;
  o.best_json = write_best(model_of_this_gpu(), "cub.radix_sort.off32");  // a registered non-default variant
  EXPECT_EQ(sort_and_validate((1 << 20) + 3, false, o), "cub.radix_sort.off32");
  EXPECT_EQ(sort_and_validate((1 << 20) + 3, true, o), "cub.radix_sort.off32");
  EXPECT_EQ(sort_and_validate(1, false, o), "cub.radix_sort.off32");
  // An unstable pick (CUB's merge sort) is not what sortbench::sort promises: the fallback sorts.
  o.best_json = write_best(model_of_this_gpu(), "cub.merge_sort.off64");
  EXPECT_EQ(sort_and_validate((1 << 20) + 3, true, o), kReferenceVariant);
  // A tuned label this build does not have falls back.
  o.best_json = write_best(model_of_this_gpu(), "radix.not_in_this_build");
  EXPECT_EQ(sort_and_validate(1 << 18, false, o), kReferenceVariant);
}

// best.json as sortbench tune writes it where the library wins a range: the
// library call is what sorts there, our point elsewhere.
TEST(SortDispatch, CallsTheLibraryWhereTheTunerPickedIt) {
  SORTBENCH_REQUIRE_GPU();
  const std::string ours = "radix.onesweep.rb8.ipt22.tpb384.mb3";
  ASSERT_NE(Registry::instance().find(ours), nullptr);
  const std::string path = (std::filesystem::temp_directory_path() / "sortbench_test_best.library.json").string();
  std::ofstream(path) << R"({"schema": "sortbench-best", "schema_version": 2, "gpu_model": ")" << model_of_this_gpu()
                      << R"(", "entries": [
    {"key": "u32", "value": "none", "order": "ascending", "n_min": 1024, "n_max": 1048576, "variant": "cub.radix_sort.off32",
     "library": true, "params": {}, "score": 1, "ours": ")" << ours << R"(", "ours_score": 0.9},
    {"key": "u32", "value": "none", "order": "ascending", "n_min": 4194304, "n_max": 268435456, "variant": ")" << ours
                      << R"(", "library": false, "params": {}, "score": 1.05, "ours": ")" << ours << R"("},
    {"key": "u32", "value": "u32", "order": "ascending", "n_min": 1024, "n_max": 268435456, "variant": "cub.radix_sort.off32",
     "library": true, "params": {}, "score": 1, "ours": ")" << ours << R"("}]})";
  SortOptions o;
  o.best_json = path;
  EXPECT_EQ(sort_and_validate(1 << 16, false, o), "cub.radix_sort.off32");
  EXPECT_EQ(sort_and_validate((1 << 20) - 5, false, o), "cub.radix_sort.off32");
  EXPECT_EQ(sort_and_validate(1 << 24, false, o), ours);
  EXPECT_EQ(sort_and_validate((1 << 22) + 7, true, o), "cub.radix_sort.off32");
  EXPECT_EQ(sort_choice<std::uint32_t>(std::size_t(1) << 28, o), ours);
  std::remove(path.c_str());
}

TEST(SortDispatch, CommittedBestJsonForThisGpu) {
  SORTBENCH_REQUIRE_GPU();
  const std::string path = std::string(SORTBENCH_SOURCE_DIR) + "/results/" + model_of_this_gpu() + "/best.json";
  if (!std::filesystem::exists(path)) GTEST_SKIP() << "no " << path << " (run sortbench tune on this GPU)";
  SortOptions o;
  o.best_json = path;
  for (std::size_t n : {std::size_t(1) << 20, std::size_t(1) << 24})
    for (bool pairs : {false, true}) {
      const std::string label = sort_and_validate(n, pairs, o);
      std::string expect = detail::tuned_label(path, model_of_this_gpu(), KeyType::u32,
                                               pairs ? ValueType::u32 : ValueType::none, n);
      // A DoubleBuffer form of the library call runs as its pointer form (the same kernels, no input copy).
      const std::string double_buffer = "double_buffer.";
      if (const auto at = expect.find(double_buffer); at != std::string::npos) expect.erase(at, double_buffer.size());
      if (!expect.empty() && Registry::instance().find(expect)) EXPECT_EQ(label, expect);
    }
}

// best.json version 3: a pick per input class; the sort samples the keys
// and takes its class's pick, for every realistic distribution.
TEST(SortDispatch, TakesThePickOfTheSampledClass) {
  SORTBENCH_REQUIRE_GPU();
  const std::string path = (std::filesystem::temp_directory_path() / "sortbench_test_best.classes.json").string();
  std::ofstream(path) << R"({"schema": "sortbench-best", "schema_version": 3, "gpu_model": ")" << model_of_this_gpu()
                      << R"(", "entries": [
    {"key": "u32", "value": "none", "order": "ascending", "n_min": 1024, "n_max": 268435456, "variant": "cub.radix_sort.off32", "params": {}, "score": 1, "class": "spread"},
    {"key": "u32", "value": "none", "order": "ascending", "n_min": 1024, "n_max": 268435456, "variant": "cub.radix_sort.off64", "params": {}, "score": 1, "class": "presorted"},
    {"key": "u32", "value": "none", "order": "ascending", "n_min": 1024, "n_max": 268435456, "variant": "radix.onesweep.rb8.ipt22.tpb384.mb3", "params": {}, "score": 1, "class": "skewed"}]})";
  SortOptions o;
  o.best_json = path;
  const std::size_t n = (1 << 20) + 3;
  EXPECT_EQ(sort_and_validate(n, false, o, "uniform"), "cub.radix_sort.off32");
  EXPECT_EQ(sort_and_validate(n, false, o, "range:0:4000000000"), "cub.radix_sort.off32");
  for (const char* d : {"sorted", "reverse", "nearly_sorted", "runs:64"})
    EXPECT_EQ(sort_and_validate(n, false, o, d), "cub.radix_sort.off64") << d;
  // narrow inputs (range, low_bits, entropy:0.0) without a narrow entry, and
  // clustered ones (timestamps) without a clustered entry: the skewed one.
  for (const char* d : {"range:0:1000000", "low_bits:12", "hot_buckets:0.9:16", "few_unique:1000", "zipf", "entropy:0.0",
                        "timestamps:8:64"})
    EXPECT_EQ(sort_and_validate(n, false, o, d), "radix.onesweep.rb8.ipt22.tpb384.mb3") << d;
  EXPECT_EQ(sort_and_validate(1, false, o, "uniform"), "cub.radix_sort.off32");
  std::remove(path.c_str());
}

// The runner records each workload's class from the pristine keys, as the
// dispatch's sample sees them.
TEST(SortDispatch, ClassOfGeneratedWorkloads) {
  SORTBENCH_REQUIRE_GPU();
  const std::size_t n = std::size_t(1) << 22;
  DevMem d(n * 8);
  auto cls = [&](const char* name, KeyType k) {
    generate_keys({k, ValueType::none, Order::ascending, n, *parse_distribution(name, nullptr), 7}, d.p, 0);
    return to_string(classify_keys(k, d.p, n, 0).cls);
  };
  EXPECT_EQ(cls("uniform", KeyType::u32), "spread");
  EXPECT_EQ(cls("uniform", KeyType::f64), "spread");
  EXPECT_EQ(cls("sorted", KeyType::f32), "presorted");
  EXPECT_EQ(cls("reverse", KeyType::u64), "presorted");
  EXPECT_EQ(cls("low_bits:32", KeyType::u64), "narrow");
  EXPECT_EQ(cls("range:0:1000000", KeyType::u32), "narrow");
  EXPECT_EQ(cls("range:0:1", KeyType::f32), "skewed");
  EXPECT_EQ(cls("normal", KeyType::f32), "skewed");
  EXPECT_EQ(cls("hot_buckets:0.9:16", KeyType::u32), "skewed");
  // Shuffled within windows of 64: adjacent keys in either order. The top 30
  // bits of nanoseconds since 1970 do not move; 2^22 32-bit stamps reach 2^25:
  // 7 leading bits shared, 512 values of the top 16 bits.
  EXPECT_EQ(cls("timestamps:8:64", KeyType::u64), "narrow");
  EXPECT_EQ(cls("timestamps:8:64", KeyType::u32), "clustered");
  EXPECT_EQ(cls("few_unique:2", KeyType::u32), "few_distinct");
  EXPECT_EQ(cls("few_unique:1000", KeyType::f32), "few_distinct");
  EXPECT_EQ(cls("few_unique:1000", KeyType::u64), "few_distinct");
  EXPECT_EQ(cls("zipf", KeyType::u32), "skewed");
  EXPECT_EQ(cls("few_unique:100000", KeyType::u32), "skewed");
}

// best:FAMILY's class of a distribution its best.json did not measure: the
// sampled pairs alone, generated and classified on the host, give the class
// the runner records from the whole generated input.
TEST(SortDispatch, ClassOfAWorkloadFromItsSampledPairs) {
  SORTBENCH_REQUIRE_GPU();
  const std::size_t n = (std::size_t(1) << 22) + 5;
  DevMem d(n * 8);
  int checked = 0;
  for (KeyType k : {KeyType::u32, KeyType::f32, KeyType::u64, KeyType::i32})
    for (const char* name : {"uniform", "sorted", "reverse", "nearly_sorted", "zipf", "few_unique:1000",
                             "few_unique:100000", "low_bits:20", "timestamps:2:1024", "hot_buckets:0.5:4",
                             "runs:4194304", "runs:3", "entropy:0.544"}) {
      const Workload w{k, ValueType::none, Order::ascending, n, *parse_distribution(name, nullptr), 11};
      if (!plan::workload_skip_reason(w).empty()) continue;
      generate_keys(w, d.p, 0);
      const InputFeatures whole = classify_keys(k, d.p, n, 0), sampled = classify_workload(w);
      EXPECT_EQ(to_string(sampled.cls), to_string(whole.cls)) << to_string(k) << " " << name << ": "
                                                             << sampled.summary() << " / " << whole.summary();
      ++checked;
    }
  EXPECT_GT(checked, 40);
  const Workload one{KeyType::u32, ValueType::none, Order::ascending, 1, *parse_distribution("uniform", nullptr), 1};
  EXPECT_EQ(classify_workload(one).cls, InputClass::spread);
}

// The GPU's counts of the sample (16 blocks counting in tables the last one
// reads and clears) are the host's (input_features) over the same pairs, but
// the first keys' repeats, which collisions in the GPU's 8192 hashed slots
// can only raise, by about 2^-13 of the pairs' pairs. Every sample counts in
// the tables the one before left, so a table not cleared shows too.
TEST(SortDispatch, SampleCountsAsTheHostDoes) {
  SORTBENCH_REQUIRE_GPU();
  const std::size_t n = (std::size_t(1) << 22) + 5;
  DevMem d(n * 8);
  MappedSampleCounts counts;  // one for all: the tables a sample leaves must be clear
  for (KeyType k : {KeyType::u8, KeyType::u32, KeyType::u64})
    for (const char* name : {"uniform", "zipf", "few_unique:2", "few_unique:1000", "timestamps:8:64",
                             "hot_buckets:0.9:16", "sorted", "reverse", "range:0:1000000", "low_bits:12"}) {
      SCOPED_TRACE(std::string(to_string(k)) + " " + name);
      const auto dist = parse_distribution(name, nullptr);
      if (!dist || !distribution_skip_reason(*dist, k).empty()) continue;
      generate_keys({k, ValueType::none, Order::ascending, n, *dist, 11}, d.p, 0);
      count_sample(k, d.p, n, counts, 0);
      const InputFeatures gpu = wait_for_sample(k, n, counts.mapped.host(), 0);
      const std::size_t bytes = key_bytes(k);
      std::vector<unsigned char> host(n * bytes);
      cuda_check(cudaMemcpy(host.data(), d.p, host.size(), cudaMemcpyDeviceToHost), "keys to the host");
      auto key_at = [&](std::size_t i) {
        std::uint64_t v = 0;
        std::memcpy(&v, host.data() + i * bytes, bytes);  // unsigned keys: their bits are their order
        return v;
      };
      std::vector<std::uint64_t> pairs;
      for (std::size_t j = 0; j < kClassSamplePairs; ++j) {
        const std::size_t i = sample_position(j, n);
        pairs.push_back(key_at(i));
        pairs.push_back(key_at(i + 1));
      }
      const InputFeatures cpu = input_features(pairs.data(), kClassSamplePairs, int(bytes * 8));
      EXPECT_EQ(gpu.ascending, cpu.ascending);
      EXPECT_EQ(gpu.descending, cpu.descending);
      EXPECT_EQ(gpu.top16_repeats, cpu.top16_repeats);
      EXPECT_EQ(gpu.neighbours_share, cpu.neighbours_share);
      EXPECT_EQ(gpu.shared_top_bits, cpu.shared_top_bits);
      EXPECT_EQ(gpu.distinct_keys, cpu.distinct_keys);
      EXPECT_GE(gpu.anywhere_share, cpu.anywhere_share);
      EXPECT_LE(gpu.anywhere_share, cpu.anywhere_share + 1e-3);
      EXPECT_EQ(gpu.cls, cpu.cls);
    }
}
