// The verdict on a sort across GPUs from the ranks' summaries (combine_parts):
// what each summary says about its own part, and the checks across the cut
// between parts that only the whole sequence can make.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <climits>
#include <limits>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "sortbench/device.hpp"
#include "sortbench/distributed.hpp"

using namespace sortbench;

namespace {

// A part of n keys whose ends have the given ordered bits and values, with
// multiset sums that match its shard unless told otherwise.
PartSummary part(unsigned long long n, unsigned long long first_bits, unsigned long long last_bits,
                 unsigned long long first_value = 0, unsigned long long last_value = 0, unsigned long long hash = 7) {
  PartSummary s{};
  for (int k = 0; k < 4; ++k) s.in[k] = s.out[k] = hash + k;
  s.n = n;
  s.first_unsorted = s.first_unstable = ULLONG_MAX;
  s.first_bits = first_bits;
  s.last_bits = last_bits;
  s.first_value = first_value;
  s.last_value = last_value;
  return s;
}

const Problem kPairs{KeyType::u32, ValueType::u32, Order::ascending, 30, 3};

}  // namespace

TEST(CombineParts, OrderedPartsAreValid) {
  const Validation v = combine_parts(kPairs, {part(10, 1, 5, 0, 9), part(10, 5, 8, 12, 20), part(10, 9, 9, 3, 4)}, true);
  EXPECT_TRUE(v.ok()) << v.message;
  EXPECT_TRUE(v.stability_checked);
}

TEST(CombineParts, AKeyBelowThePreviousPartsLastIsOutOfOrderAtTheCut) {
  const Validation v = combine_parts(kPairs, {part(10, 1, 5), part(12, 4, 8), part(8, 9, 9)}, false);
  EXPECT_FALSE(v.sorted);
  EXPECT_EQ(v.first_bad_index, 10);  // the second part's first key, as a global position
  EXPECT_NE(v.message.find("key 10"), std::string::npos) << v.message;
}

TEST(CombineParts, EmptyPartsAreSkippedAtTheCut) {
  // The third part is compared with the first, the last non-empty one before it.
  const Validation v = combine_parts(kPairs, {part(15, 1, 5), part(0, 0, 0), part(15, 4, 8)}, false);
  EXPECT_FALSE(v.sorted);
  EXPECT_EQ(v.first_bad_index, 15);
  EXPECT_TRUE(combine_parts(kPairs, {part(15, 1, 5), part(0, 9, 0), part(15, 5, 8)}, false).ok());
}

TEST(CombineParts, EqualKeysAcrossTheCutMustKeepTheirIndexOrder) {
  // The same key ends part 0 (index 17) and starts part 1 (index 4): stable only if not claimed.
  const std::vector<PartSummary> parts = {part(15, 1, 5, 0, 17), part(15, 5, 8, 4, 30)};
  const Validation claimed = combine_parts(kPairs, parts, true);
  EXPECT_TRUE(claimed.sorted && claimed.permutation);
  EXPECT_FALSE(claimed.stable);
  EXPECT_EQ(claimed.first_bad_index, 15);
  EXPECT_FALSE(claimed.ok());
  EXPECT_TRUE(combine_parts(kPairs, parts, false).ok());
}

TEST(CombineParts, WithinAPartPositionsBecomeGlobal) {
  PartSummary second = part(20, 6, 9);
  second.first_unsorted = 3;
  const Validation v = combine_parts(kPairs, {part(10, 1, 5), second}, false);
  EXPECT_FALSE(v.sorted);
  EXPECT_EQ(v.first_bad_index, 13);
}

TEST(CombineParts, TheUnionMustBeTheInputsMultiset) {
  PartSummary lost = part(15, 6, 9);
  lost.out[2] += 1;  // one value hash differs: a key went missing or was duplicated
  const Validation v = combine_parts(kPairs, {part(15, 1, 5), lost}, false);
  EXPECT_TRUE(v.sorted);
  EXPECT_FALSE(v.permutation);
  EXPECT_NE(v.message.find("not a permutation"), std::string::npos);
  // Sums are compared over all parts, not part by part: a key may change GPUs.
  PartSummary a = part(15, 1, 5), b = part(15, 6, 9);
  a.out[0] += 100;
  b.out[0] -= 100;
  EXPECT_TRUE(combine_parts(kPairs, {a, b}, false).ok());
}

TEST(CombineParts, PartSizesMustAddUpToN) {
  const Validation v = combine_parts(kPairs, {part(15, 1, 5), part(14, 6, 9)}, false);
  EXPECT_FALSE(v.ok());
  EXPECT_NE(v.message.find("29 keys in all, the input 30"), std::string::npos) << v.message;
}

// Issue 40: u32 pairs of 2^28 keys on four GPUs were skipped, "the local sort
// radix.two_digit_msd_local_lsd.rb8.ipt10.tpb128: n = 268435456 above the
// variant's cap": the local sort was picked for a shard (2^26 keys) and then
// checked against all n keys.
TEST(LocalSort, PickedAndCheckedForAShard) {
  VariantInfo capped;
  capped.label = "radix.local_sort_test.capped";
  capped.family = "radix";
  capped.value_types = {ValueType::none, ValueType::u32, ValueType::u64};
  capped.max_n = std::size_t(1) << 27;
  capped.max_n_why = "a test cap";
  capped.bytes_per_key = [](const Problem&) { return 8.0; };
  capped.make = [](const Problem&) -> std::unique_ptr<Instance> { return nullptr; };
  Registry::instance().add(capped);
  const std::string path =
      (std::filesystem::temp_directory_path() / ("sortbench_local_sort_" + std::to_string(::getpid()) + ".json")).string();
  VariantInfo wide = capped;
  wide.label = "radix.local_sort_test.wide";
  wide.max_n = std::numeric_limits<std::size_t>::max();
  Registry::instance().add(wide);
  std::ofstream(path) << R"({"schema": "sortbench-best", "schema_version": 2, "gpu_model": "fake-gpu", "entries": [
    {"key": "u32", "value": "u32", "order": "ascending", "n_min": 1024, "n_max": 134217728,
     "variant": "radix.local_sort_test.capped", "ours": "radix.local_sort_test.capped", "params": {}, "score": 1.2},
    {"key": "u32", "value": "u64", "order": "ascending", "n_min": 1024, "n_max": 134217728,
     "variant": "radix.local_sort_test.capped", "ours": "radix.local_sort_test.capped", "params": {}, "score": 1.2},
    {"key": "u32", "value": "u64", "order": "ascending", "n_min": 1073741824, "n_max": 1073741824,
     "variant": "radix.local_sort_test.wide", "ours": "radix.local_sort_test.wide", "params": {}, "score": 1.2}]})";
  const char* before = std::getenv("SORTBENCH_BEST_JSON");
  const std::string saved = before ? before : "";
  ::setenv("SORTBENCH_BEST_JSON", path.c_str(), 1);
  struct Restore {
    std::string saved, path;
    ~Restore() {
      if (saved.empty()) ::unsetenv("SORTBENCH_BEST_JSON");
      else ::setenv("SORTBENCH_BEST_JSON", saved.c_str(), 1);
      Registry::instance().remove("radix.local_sort_test.capped");
      Registry::instance().remove("radix.local_sort_test.wide");
      std::filesystem::remove(path);
    }
  } restore{saved, path};
  const Problem four{KeyType::u32, ValueType::u32, Order::ascending, std::size_t(1) << 28, 4};
  const VariantInfo* v = local_sort_variant(four, "fake-gpu");
  ASSERT_NE(v, nullptr);
  EXPECT_EQ(v->label, "radix.local_sort_test.capped");  // a shard is 2^26 keys
  EXPECT_EQ(local_sort_unavailable(four, "fake-gpu"), "");
  // Shards past the cap: not the capped pick.
  const Problem two{KeyType::u32, ValueType::u32, Order::ascending, std::size_t(1) << 29, 2};
  const VariantInfo* d = local_sort_variant(two, "fake-gpu");
  EXPECT_TRUE(d == nullptr || d->label != "radix.local_sort_test.capped");
  // Where a larger size's pick can sort the shard, that pick, not the family's default point.
  const Problem wide_pairs{KeyType::u32, ValueType::u64, Order::ascending, std::size_t(1) << 29, 2};
  const VariantInfo* w = local_sort_variant(wide_pairs, "fake-gpu");
  ASSERT_NE(w, nullptr);
  EXPECT_EQ(w->label, "radix.local_sort_test.wide");
}

// Eight ranks (issue 44, host logic without an eight-GPU machine): shards
// that cover n exactly and differ by at most one key for sizes that do not
// divide by 8, up to 2^34 keys; eight parts combined, a cut out of order
// between parts 6 and 7 found at its global position.
TEST(EightRanks, ShardsAndPartsOfEightGpus) {
  for (std::size_t n : {std::size_t(0), std::size_t(7), std::size_t(8), std::size_t(1) << 30,
                        (std::size_t(1) << 33) + 5, std::size_t(1) << 34}) {
    std::size_t covered = 0, smallest = SIZE_MAX, largest = 0;
    for (int r = 0; r < 8; ++r) {
      EXPECT_EQ(shard_first(n, 8, r), covered) << n;
      const std::size_t s = shard_size(n, 8, r);
      covered += s;
      smallest = std::min(smallest, s);
      largest = std::max(largest, s);
    }
    EXPECT_EQ(covered, n);
    EXPECT_LE(largest - smallest, 1u) << n;
  }
  const Problem eight{KeyType::u64, ValueType::u64, Order::ascending, 80, 8};
  std::vector<PartSummary> parts;
  for (unsigned long long r = 0; r < 8; ++r) parts.push_back(part(10, 10 * r, 10 * r + 9, 100 * r, 100 * r + 9));
  EXPECT_TRUE(combine_parts(eight, parts, true).ok());
  parts[7].first_bits = 65;  // below part 6's last key (69)
  const Validation v = combine_parts(eight, parts, false);
  EXPECT_FALSE(v.sorted);
  EXPECT_EQ(v.first_bad_index, 70);
}
