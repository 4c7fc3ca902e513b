// The in-register sorting networks (variants/common/sorting_network.hpp) on
// the CPU: by the 0-1 principle, a comparator network sorts every input iff
// it sorts every input of zeros and ones, so these checks are proofs up to
// 20 items (all 2^N inputs) and random samples beyond.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>

#include "common/sorting_network.hpp"

using sortbench::common::OddEvenMergeNetwork;

namespace {

template <int N>
bool sorts(std::uint64_t bits) {
  using Net = OddEvenMergeNetwork<N>;
  int x[N > 0 ? N : 1];
  for (int i = 0; i < N; ++i) x[i] = int(bits >> i & 1);
  for (int c = 0; c < Net::kSize; ++c) {
    if (x[Net::kList.b[c]] < x[Net::kList.a[c]]) std::swap(x[Net::kList.a[c]], x[Net::kList.b[c]]);
  }
  return std::is_sorted(x, x + N);
}

template <int N>
void expect_sorts_every_zero_one_input() {
  for (std::uint64_t bits = 0; bits < (std::uint64_t(1) << N); ++bits) ASSERT_TRUE(sorts<N>(bits)) << N << " items, input bits " << bits;
}

template <int N>
void expect_sorts_sampled_zero_one_inputs() {
  std::mt19937_64 rng(N);
  for (int s = 0; s < 200000; ++s) {
    // Sparse and dense inputs both: the fraction of ones varies per sample.
    const std::uint64_t a = rng(), b = rng(), c = rng();
    const std::uint64_t bits = s % 3 == 0 ? a : s % 3 == 1 ? (a & b) : (a | b | c);
    ASSERT_TRUE(sorts<N>(bits & ((std::uint64_t(1) << N) - 1))) << N << " items";
  }
}

}  // namespace

TEST(SortingNetwork, OddEvenMergeSortsEveryZeroOneInputUpTo20Items) {
  expect_sorts_every_zero_one_input<1>();
  expect_sorts_every_zero_one_input<2>();
  expect_sorts_every_zero_one_input<3>();
  expect_sorts_every_zero_one_input<5>();
  expect_sorts_every_zero_one_input<7>();
  expect_sorts_every_zero_one_input<8>();
  expect_sorts_every_zero_one_input<13>();
  expect_sorts_every_zero_one_input<17>();
  expect_sorts_every_zero_one_input<20>();
}

TEST(SortingNetwork, OddEvenMergeSortsSampledInputsAtTheItemCountsWeBuild) {
  expect_sorts_sampled_zero_one_inputs<23>();
  expect_sorts_sampled_zero_one_inputs<25>();
  expect_sorts_sampled_zero_one_inputs<29>();
  expect_sorts_sampled_zero_one_inputs<31>();
}

TEST(SortingNetwork, OddEvenMergeHasBatchersComparatorCounts) {
  // Batcher's counts for powers of two, (p^2 - p + 4) 2^(p-2) - 1 at N = 2^p,
  // and the pruned count the 29-key tiles use (406 for odd-even transposition).
  EXPECT_EQ(OddEvenMergeNetwork<2>::kSize, 1);
  EXPECT_EQ(OddEvenMergeNetwork<4>::kSize, 5);
  EXPECT_EQ(OddEvenMergeNetwork<8>::kSize, 19);
  EXPECT_EQ(OddEvenMergeNetwork<16>::kSize, 63);
  EXPECT_EQ(OddEvenMergeNetwork<32>::kSize, 191);
  EXPECT_EQ(OddEvenMergeNetwork<29>::kSize, 171);
  // BlockSortTile's partial tiles rely on a < b: a comparator whose b is
  // past the valid items leaves both in place.
  using Net = OddEvenMergeNetwork<29>;
  for (int c = 0; c < Net::kSize; ++c) {
    EXPECT_LT(Net::kList.a[c], Net::kList.b[c]);
    EXPECT_LT(Net::kList.b[c], 29);
  }
}
