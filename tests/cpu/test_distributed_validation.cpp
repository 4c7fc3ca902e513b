// The verdict on a sort across GPUs from the ranks' summaries (combine_parts):
// what each summary says about its own part, and the checks across the cut
// between parts that only the whole sequence can make.
#include <gtest/gtest.h>

#include <climits>

#include "sortbench/device.hpp"

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
