// radix.two_digit_msd_local_lsd's skew check (variants/radix/common/bucket_skew.hpp):
// the sampled top-digit counts that say a bucket is sure to overflow, and
// those that must not (uniform keys up to the design's cap).
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "device/hash.cuh"
#include "radix/common/bucket_skew.hpp"
#include "sortbench/device/spread_place.hpp"

using sortbench::radix::kTopDigitSampleKeys;
using sortbench::radix::sample_says_buckets_overflow;

namespace {

constexpr unsigned kBins = 256;

// The sample's counts of keys whose top 16 bits come from `bucket_of`.
template <class BucketOf>
std::vector<unsigned> sample_counts(BucketOf bucket_of) {
  std::vector<unsigned> c(2 * kBins, 0);
  for (unsigned j = 0; j < kTopDigitSampleKeys; ++j) {
    const unsigned bucket = bucket_of(j);
    ++c[bucket >> 8];
    ++c[kBins + (bucket & (kBins - 1))];
  }
  return c;
}

TEST(BucketSkew, UniformKeysUpToTheCapPass) {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 20; ++trial) {
    const auto c = sample_counts([&](unsigned) { return unsigned(rng() >> 16); });
    for (unsigned slab : {1280u, 4608u, 8704u}) {
      const std::uint64_t cap = std::uint64_t(kBins) * kBins * slab;
      EXPECT_FALSE(sample_says_buckets_overflow(c.data(), kBins, kTopDigitSampleKeys, cap, slab)) << slab;
    }
  }
}

TEST(BucketSkew, BitEntropySkewFails) {
  // Bit entropy 0.544: each bit the AND of two uniform bits, so a tenth of
  // the keys (0.75^8) have a top byte of 0; at 2^28 that is 27 million keys
  // over 256 buckets at most.
  std::mt19937 rng(11);
  const auto c = sample_counts([&](unsigned) { return unsigned((rng() & rng()) >> 16); });
  EXPECT_TRUE(sample_says_buckets_overflow(c.data(), kBins, kTopDigitSampleKeys, std::uint64_t(1) << 28, 4608));
  EXPECT_TRUE(sample_says_buckets_overflow(c.data(), kBins, kTopDigitSampleKeys, std::uint64_t(1) << 26, 1280));
  // Too few keys for any top digit to hold bins x slab of them.
  EXPECT_FALSE(sample_says_buckets_overflow(c.data(), kBins, kTopDigitSampleKeys, std::uint64_t(1) << 20, 4608));
}

TEST(BucketSkew, SecondDigitAloneCounts) {
  // Top digits uniform, the second digit always 5: every key is in one of
  // 256 buckets.
  const auto c = sample_counts([](unsigned j) { return (j % kBins) << 8 | 5u; });
  EXPECT_TRUE(sample_says_buckets_overflow(c.data(), kBins, kTopDigitSampleKeys, std::uint64_t(1) << 28, 4608));
}

TEST(BucketSkew, TheBoundIsTwiceThePigeonhole) {
  // One digit value holding a share s of the sample: its estimate s x n against
  // 2 x bins x slab.
  const unsigned slab = 4608;
  const std::uint64_t n = std::uint64_t(1) << 28;
  std::vector<unsigned> c(2 * kBins, 0);
  // 2 x 256 x 4608 = 2359296 keys = 576 of 2^16 samples at 2^28 (one in 4096).
  c[3] = 576;
  EXPECT_FALSE(sample_says_buckets_overflow(c.data(), kBins, kTopDigitSampleKeys, n, slab));
  c[3] = 577;
  EXPECT_TRUE(sample_says_buckets_overflow(c.data(), kBins, kTopDigitSampleKeys, n, slab));
  c[3] = 0;
  c[kBins + 200] = 577;
  EXPECT_TRUE(sample_says_buckets_overflow(c.data(), kBins, kTopDigitSampleKeys, n, slab));
}

}  // namespace

TEST(BucketSkew, OverflowingBucketsAreListedInBucketOrderWithTheirPlaceInTheGatheredRun) {
  using sortbench::radix::overflowing_buckets;
  // Sizes 3, 0, 9, 4, 12 with a slab of 4: buckets 2 and 4 overflow.
  const unsigned long long ends[] = {3, 3, 12, 16, 28};
  const auto o = overflowing_buckets(ends, 5, 4);
  EXPECT_EQ(o.begins, (std::vector<unsigned long long>{3, 16}));
  EXPECT_EQ(o.offsets, (std::vector<unsigned long long>{0, 9, 21}));
  EXPECT_EQ(o.keys, 21u);
  const auto none = overflowing_buckets(ends, 5, 12);
  EXPECT_TRUE(none.begins.empty());
  EXPECT_EQ(none.offsets, (std::vector<unsigned long long>{0}));
  EXPECT_EQ(none.keys, 0u);
}

// 64 runs of 2^20 u64 keys, each evenly spaced over the key range (the
// runs:64 distribution at 2^26): every bucket holds 1024 keys, so nothing
// overflows 1280-key slabs. Evenly spaced places (j x n / 2^16) read every
// 1024th key of a run, keys k x 2^54, whose second digit takes 4 values: the
// check said overflow and the design ran as Onesweep. Places at a hash in
// each stride (spread_place) see the even spread.
TEST(BucketSkew, RunsOfEvenlySpacedKeysPassAtHashedPlaces) {
  constexpr std::uint64_t n = std::uint64_t(1) << 26, run = std::uint64_t(1) << 20;
  auto top16_at = [&](std::uint64_t i) { return unsigned(((i % run) << 44) >> 48); };
  const auto hashed =
      sample_counts([&](unsigned j) { return top16_at(sortbench::spread_place(j, kTopDigitSampleKeys, n)); });
  EXPECT_FALSE(sample_says_buckets_overflow(hashed.data(), kBins, kTopDigitSampleKeys, n, 1280));
  const auto even = sample_counts([&](unsigned j) { return top16_at(std::uint64_t(j) * n / kTopDigitSampleKeys); });
  EXPECT_TRUE(sample_says_buckets_overflow(even.data(), kBins, kTopDigitSampleKeys, n, 1280));
}

// spread_place: one place in each stride, not all at its start.
TEST(BucketSkew, SpreadPlacesStayInTheirStrides) {
  constexpr std::size_t count = 1024, span = 1000003, stride = span / count;
  std::size_t at_start = 0;
  for (std::size_t j = 0; j < count; ++j) {
    const std::size_t at = sortbench::spread_place(j, count, span);
    EXPECT_GE(at, j * stride);
    EXPECT_LT(at, (j + 1) * stride);
    at_start += at == j * stride;
  }
  EXPECT_LT(at_start, 8u);
  EXPECT_EQ(sortbench::spread_place(5, 8, 12), 5u * 12 / 8);  // a stride under 2: evenly spaced
}

// The sample's words (bucket_skew.hpp, sample_words) for keys drawn by
// `key_of` (a 32-bit key; its top 16 bits the bucket): the digit counts, the
// same for buckets whose two or more sampled keys were all one key, and the
// buckets of one sampled key, counted as the two sample kernels count them.
template <class KeyOf>
std::vector<unsigned> sample_words_of(KeyOf key_of) {
  std::vector<unsigned> w(sortbench::radix::sample_words(kBins), 0);
  std::vector<unsigned> count(kBins * kBins, 0), first(kBins * kBins, 0);
  std::vector<bool> mixed(kBins * kBins, false);
  for (unsigned j = 0; j < kTopDigitSampleKeys; ++j) {
    const std::uint32_t key = key_of(j);
    const unsigned bucket = key >> 16;
    ++w[bucket >> 8];
    ++w[kBins + (bucket & (kBins - 1))];
    if (count[bucket]++ == 0) first[bucket] = key;
    else if (first[bucket] != key) mixed[bucket] = true;
  }
  for (unsigned b = 0; b < kBins * kBins; ++b) {
    if (count[b] == 1) ++w[4 * kBins];
    if (count[b] >= 2 && !mixed[b]) {
      w[2 * kBins + (b >> 8)] += count[b];
      w[3 * kBins + (b & (kBins - 1))] += count[b];
    }
  }
  return w;
}

TEST(BucketSkew, FewDistinctKeysPassWhereTheirBucketsHoldNothingElse) {
  using sortbench::radix::sample_says_mixed_buckets_overflow;
  // Four distinct keys, a quarter of the input each: every top digit that
  // holds one holds a quarter of the keys, far past the bound, but each
  // bucket holds one key and is sorted as the top passes leave it.
  const auto four = sample_words_of([](unsigned j) { return sortbench::fmix32(j % 4 + 1); });
  for (unsigned slab : {384u, 1280u, 4608u}) {
    const std::uint64_t n = std::uint64_t(1) << 26;
    EXPECT_TRUE(sample_says_buckets_overflow(four.data(), kBins, kTopDigitSampleKeys, n, slab));
    EXPECT_FALSE(sample_says_mixed_buckets_overflow(four.data(), kBins, kTopDigitSampleKeys, n, slab));
  }
  // The same keys with a tenth of the input uniform among them: those keys
  // fall alone in their buckets in the sample and stand for keys in every
  // bucket, so the crowded buckets are not of one key.
  std::mt19937 rng(3);
  const auto noisy = sample_words_of([&](unsigned j) { return j % 10 == 0 ? std::uint32_t(rng()) : sortbench::fmix32(j % 4 + 1); });
  EXPECT_TRUE(sample_says_mixed_buckets_overflow(noisy.data(), kBins, kTopDigitSampleKeys, std::uint64_t(1) << 26, 1280));
  // Two distinct keys in one bucket (same top 16 bits): a mixed bucket, counted.
  const auto two = sample_words_of([](unsigned j) { return 0xABCD0000u | (j % 2); });
  EXPECT_TRUE(sample_says_mixed_buckets_overflow(two.data(), kBins, kTopDigitSampleKeys, std::uint64_t(1) << 26, 1280));
}

TEST(BucketSkew, UniformKeysLeaveNoBucketOfOneKey) {
  std::mt19937 rng(5);
  const auto w = sample_words_of([&](unsigned) { return std::uint32_t(rng()); });
  unsigned one_key = 0;
  for (unsigned i = 2 * kBins; i < 4 * kBins; ++i) one_key += w[i];
  // Only keys drawn twice (about half a pair among 2^16 of 2^32 values).
  EXPECT_LT(one_key, 16u);
  // About 2^16 e^-1 buckets of one sampled key.
  EXPECT_GT(w[4 * kBins], 20000u);
  EXPECT_FALSE(sortbench::radix::one_key_buckets_hold_one_key(w[4 * kBins], kTopDigitSampleKeys,
                                                              std::uint64_t(1) << 20, kBins * kBins));
}

TEST(BucketSkew, MixedBucketsKeepTheirPlaceInTheGatheredRun) {
  using sortbench::radix::mixed_buckets;
  using sortbench::radix::overflowing_buckets;
  // Sizes 3, 0, 9, 4, 12, 6 with a slab of 4: buckets 2, 4 and 5 overflow;
  // 2 and 5 hold more than one key.
  const unsigned long long ends[] = {3, 3, 12, 16, 28, 34};
  const auto all = overflowing_buckets(ends, 6, 4);
  const unsigned mixed[] = {0b101};
  const auto o = mixed_buckets(all, mixed);
  EXPECT_EQ(o.begins, (std::vector<unsigned long long>{3, 28}));
  EXPECT_EQ(o.offsets, (std::vector<unsigned long long>{0, 9, 15}));
  EXPECT_EQ(o.keys, 15u);
  const unsigned none[] = {0};
  const auto empty = mixed_buckets(all, none);
  EXPECT_TRUE(empty.begins.empty());
  EXPECT_EQ(empty.offsets, (std::vector<unsigned long long>{0}));
  EXPECT_EQ(empty.keys, 0u);
}

// Which block sorts a bucket, by its size: the slab's, twice the threads',
// eight times the threads', or none (gathered for Onesweep); a tier whose
// block does not fit the device (limit 0) passes its buckets on.
TEST(BucketSkew, EachBucketGoesToTheSmallestBlockThatHoldsIt) {
  using sortbench::radix::BucketTier;
  using sortbench::radix::bucket_tier;
  using sortbench::radix::gathered_above;
  using sortbench::radix::TierLimits;
  const TierLimits all{384, 768, 3072};
  EXPECT_EQ(bucket_tier(0, all), BucketTier::slab);
  EXPECT_EQ(bucket_tier(384, all), BucketTier::slab);
  EXPECT_EQ(bucket_tier(385, all), BucketTier::twice);
  EXPECT_EQ(bucket_tier(768, all), BucketTier::twice);
  EXPECT_EQ(bucket_tier(769, all), BucketTier::eightfold);
  EXPECT_EQ(bucket_tier(3072, all), BucketTier::eightfold);
  EXPECT_EQ(bucket_tier(3073, all), BucketTier::gathered);
  EXPECT_EQ(gathered_above(all), 3072u);
  // No eightfold block (a slab of more than 128 threads, or its shared memory).
  const TierLimits twice_only{4608, 9216, 0};
  EXPECT_EQ(bucket_tier(9216, twice_only), BucketTier::twice);
  EXPECT_EQ(bucket_tier(9217, twice_only), BucketTier::gathered);
  EXPECT_EQ(gathered_above(twice_only), 9216u);
  // Neither (64-bit pairs at 512 x 17: 280 KB for twice the threads).
  const TierLimits slab_only{8704, 0, 0};
  EXPECT_EQ(bucket_tier(8704, slab_only), BucketTier::slab);
  EXPECT_EQ(bucket_tier(8705, slab_only), BucketTier::gathered);
  EXPECT_EQ(gathered_above(slab_only), 8704u);
}

// The parts of a slab a block sorts a bucket as (a third, half and two thirds
// of its items a thread, rounded up), and the sizes where the block kernel of
// thirds runs: where 2^16 buckets average two thirds of a slab or less.
TEST(BucketSkew, BucketsTakeThirdsOfASlabWhereTheyAverageTwoThirdsOfOneOrLess) {
  using sortbench::radix::slab_part_items;
  using sortbench::radix::sorts_in_thirds;
  EXPECT_EQ(slab_part_items(12, 1, 3), 4);
  EXPECT_EQ(slab_part_items(12, 1, 2), 6);
  EXPECT_EQ(slab_part_items(12, 2, 3), 8);
  EXPECT_EQ(slab_part_items(10, 1, 3), 4);
  EXPECT_EQ(slab_part_items(10, 1, 2), 5);
  EXPECT_EQ(slab_part_items(10, 2, 3), 7);
  EXPECT_EQ(slab_part_items(3, 1, 2), 2);
  EXPECT_EQ(slab_part_items(3, 2, 3), 2);
  const unsigned buckets = 1u << 16;
  // 64 x 6 (384-key slabs): 2^24 keys average 256 a bucket, two thirds.
  EXPECT_TRUE(sorts_in_thirds(1ull << 24, buckets, 6, 64));
  EXPECT_FALSE(sorts_in_thirds((1ull << 24) + 1, buckets, 6, 64));
  // 128 x 10 (1280): 2^26 keys average 1024, past 896.
  EXPECT_FALSE(sorts_in_thirds(1ull << 26, buckets, 10, 128));
  EXPECT_TRUE(sorts_in_thirds(50000000, buckets, 10, 128));
  // 384 x 12 (4608): 10^8 and 1.5 x 10^8 keys average 1526 and 2289; 2^28 4096.
  EXPECT_TRUE(sorts_in_thirds(100000000, buckets, 12, 384));
  EXPECT_TRUE(sorts_in_thirds(150000000, buckets, 12, 384));
  EXPECT_FALSE(sorts_in_thirds(1ull << 28, buckets, 12, 384));
  EXPECT_TRUE(sorts_in_thirds(0, buckets, 12, 384));
}
