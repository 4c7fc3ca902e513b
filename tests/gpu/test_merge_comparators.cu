// The merge sorts of PMPP 13.7 (two-way and four-way passes) take any
// comparator: a two-field key (u32 primary, u32 secondary) ordered
// lexicographically, and a descending order, both checked against
// std::stable_sort, stability included.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include <cuda_runtime.h>

#include "../../variants/merge/four_way_merge_sort.cuh"
#include "../../variants/merge/merge_sort.cuh"

namespace {

struct TwoField {
  std::uint32_t primary;
  std::uint32_t secondary;
};

struct Lexicographic {
  __host__ __device__ bool operator()(const TwoField& a, const TwoField& b) const {
    return a.primary != b.primary ? a.primary < b.primary : a.secondary < b.secondary;
  }
};

struct Descending {
  __host__ __device__ bool operator()(std::uint32_t a, std::uint32_t b) const { return b < a; }
};

bool have_gpu() {
  int count = 0;
  return cudaGetDeviceCount(&count) == cudaSuccess && count > 0;
}

#define ASSERT_CUDA(x) ASSERT_EQ((x), cudaSuccess) << cudaGetErrorString(x)

struct TwoWay {
  template <class Policy, class Key, class Value, class Less>
  static cudaError_t sort(void* temp, std::size_t& bytes, Key* kin, Value* vin, Key* kout, Value* vout, long long n,
                          Less less, cudaStream_t s) {
    return sortbench::merge::merge_sort<Policy>(temp, bytes, kin, vin, kout, vout, n, less, s);
  }
};

struct FourWay {
  template <class Policy, class Key, class Value, class Less>
  static cudaError_t sort(void* temp, std::size_t& bytes, Key* kin, Value* vin, Key* kout, Value* vout, long long n,
                          Less less, cudaStream_t s) {
    return sortbench::merge::four_way_merge_sort<Policy>(temp, bytes, kin, vin, kout, vout, n, less, s);
  }
};

// Sorts (key, original index) pairs on the GPU with `less` and checks them
// against std::stable_sort: same keys, same indices (the sort is stable).
template <class Policy, class Key, class Less, class Algo = TwoWay>
void check_sort(const std::vector<Key>& keys, Less less, bool (*same)(const Key&, const Key&)) {
  const long long n = static_cast<long long>(keys.size());
  std::vector<std::uint32_t> idx(keys.size());
  for (std::size_t i = 0; i < idx.size(); ++i) idx[i] = std::uint32_t(i);
  Key *kin, *kout;
  std::uint32_t *vin, *vout;
  ASSERT_CUDA(cudaMalloc(&kin, sizeof(Key) * (n + 1)));
  ASSERT_CUDA(cudaMalloc(&kout, sizeof(Key) * (n + 1)));
  ASSERT_CUDA(cudaMalloc(&vin, sizeof(std::uint32_t) * (n + 1)));
  ASSERT_CUDA(cudaMalloc(&vout, sizeof(std::uint32_t) * (n + 1)));
  ASSERT_CUDA(cudaMemcpy(kin, keys.data(), sizeof(Key) * n, cudaMemcpyHostToDevice));
  ASSERT_CUDA(cudaMemcpy(vin, idx.data(), sizeof(std::uint32_t) * n, cudaMemcpyHostToDevice));
  std::size_t bytes = 0;
  ASSERT_CUDA((Algo::template sort<Policy>(nullptr, bytes, kin, vin, kout, vout, n, less, 0)));
  void* temp = nullptr;
  ASSERT_CUDA(cudaMalloc(&temp, bytes));
  ASSERT_CUDA((Algo::template sort<Policy>(temp, bytes, kin, vin, kout, vout, n, less, 0)));
  ASSERT_CUDA(cudaDeviceSynchronize());
  std::vector<Key> got(keys.size());
  std::vector<std::uint32_t> got_idx(keys.size());
  ASSERT_CUDA(cudaMemcpy(got.data(), kout, sizeof(Key) * n, cudaMemcpyDeviceToHost));
  ASSERT_CUDA(cudaMemcpy(got_idx.data(), vout, sizeof(std::uint32_t) * n, cudaMemcpyDeviceToHost));
  cudaFree(kin);
  cudaFree(kout);
  cudaFree(vin);
  cudaFree(vout);
  cudaFree(temp);
  std::stable_sort(idx.begin(), idx.end(), [&](std::uint32_t a, std::uint32_t b) { return less(keys[a], keys[b]); });
  for (std::size_t i = 0; i < keys.size(); ++i) {
    ASSERT_TRUE(same(got[i], keys[idx[i]])) << "key at " << i << " of " << n;
    ASSERT_EQ(got_idx[i], idx[i]) << "value (original index) at " << i << " of " << n << ": not stable";
  }
}

using SmallPolicy = sortbench::common::MergeSortPolicy<128, 7>;    // tile 896: many merge passes
using DefaultPolicy = sortbench::common::MergeSortPolicy<256, 17>;  // the curated point
using FourWaySmallPolicy = sortbench::merge::FourWayMergePolicy<128, 7, 8>;  // samples 112 keys apart
using FourWayDefaultPolicy = sortbench::merge::FourWayMergePolicy<256, 17, 8>;

TEST(MergeComparators, TwoFieldLexicographic) {
  if (!have_gpu()) GTEST_SKIP() << "no CUDA device";
  std::mt19937 g(7);
  for (long long n : {1LL, 895LL, 896LL, 897LL, 2 * 896LL + 1, 100000LL, (1LL << 18) + 17}) {
    std::vector<TwoField> keys(n);
    // Few primaries, so the secondary field decides most comparisons, and
    // repeated pairs, so stability is visible.
    for (auto& k : keys) k = {std::uint32_t(g() % 16), std::uint32_t(g() % 64)};
    auto same = [](const TwoField& a, const TwoField& b) { return a.primary == b.primary && a.secondary == b.secondary; };
    check_sort<SmallPolicy>(keys, Lexicographic{}, +same);
    check_sort<DefaultPolicy>(keys, Lexicographic{}, +same);
  }
}

TEST(MergeComparators, DescendingU32) {
  if (!have_gpu()) GTEST_SKIP() << "no CUDA device";
  std::mt19937 g(11);
  for (long long n : {2LL, 4351LL, 4352LL, 4353LL, (1LL << 12) + 17, 1LL << 20}) {
    std::vector<std::uint32_t> keys(n);
    for (auto& k : keys) k = g() % 1000;
    auto same = [](const std::uint32_t& a, const std::uint32_t& b) { return a == b; };
    check_sort<SmallPolicy>(keys, Descending{}, +same);
    check_sort<DefaultPolicy>(keys, Descending{}, +same);
  }
}

// Four-way passes: sizes that leave the last group one, two, three or four
// runs (some partial), one key past a sample stride (112 keys in the small
// tile), and one, two and three passes of four; few distinct keys so that
// equal keys meet across all four runs and stability shows.
TEST(MergeComparators, FourWayPasses) {
  if (!have_gpu()) GTEST_SKIP() << "no CUDA device";
  std::mt19937 g(13);
  constexpr long long t = FourWaySmallPolicy::kTileItems;
  for (long long n : {1LL, 113LL, t - 1, t + 1, 2 * t + 1, 3 * t, 3 * t + 113, 4 * t, 4 * t + 1, 5 * t + 3,
                      15 * t + 1, 16 * t, 16 * t + 1, 50 * t + 1, 64 * t + 5}) {
    for (std::uint32_t distinct : {3u, 1000u, 0u}) {
      std::vector<TwoField> keys(n);
      for (auto& k : keys) k = {distinct ? std::uint32_t(g() % distinct) : 7u, std::uint32_t(g() % 4)};
      auto same = [](const TwoField& a, const TwoField& b) { return a.primary == b.primary && a.secondary == b.secondary; };
      check_sort<FourWaySmallPolicy, TwoField, Lexicographic, FourWay>(keys, Lexicographic{}, +same);
    }
    std::vector<std::uint32_t> keys(n);
    for (auto& k : keys) k = g() % 1000;
    auto same = [](const std::uint32_t& a, const std::uint32_t& b) { return a == b; };
    check_sort<FourWaySmallPolicy, std::uint32_t, Descending, FourWay>(keys, Descending{}, +same);
  }
  for (long long n : {4351LL, 4353LL, 4 * 4352LL + 1, 16 * 4352LL + 5, (1LL << 20) + 3}) {
    std::vector<TwoField> keys(n);
    for (auto& k : keys) k = {std::uint32_t(g() % 16), std::uint32_t(g() % 64)};
    auto same = [](const TwoField& a, const TwoField& b) { return a.primary == b.primary && a.secondary == b.secondary; };
    check_sort<FourWayDefaultPolicy, TwoField, Lexicographic, FourWay>(keys, Lexicographic{}, +same);
  }
}

}  // namespace
