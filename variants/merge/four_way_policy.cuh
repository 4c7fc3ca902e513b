// The four-way merge sort's shape (four_way_merge_sort.cuh): its policy and
// the plain records its kernels pass between them.
#pragma once

#include <cstdint>
#include "../common/block_merge_sort.cuh"

namespace sortbench::merge {

// The shape of a four-way pass: the block shape, and the sampled splits.
// Samples every kSampleStride keys of each pair's merge; every
// kSamplesPerTile-th one (a tile apart) is searched across the whole runs,
// the ones between only between their two coarse neighbours, so most
// searches stay in a few cached lines. A block's share of output leaves
// room for the gaps between samples at its two ends and for the padding
// that starts merge(C, D) on a thread's first item.
template <int BlockThreads, int ItemsPerThread, int SamplesPerTile>
struct FourWayMergePolicy : common::MergeSortPolicy<BlockThreads, ItemsPerThread> {
  using Base = common::MergeSortPolicy<BlockThreads, ItemsPerThread>;
  static constexpr int kSamplesPerTile = SamplesPerTile;
  static constexpr int kSampleStride = Base::kTileItems / SamplesPerTile;
  static constexpr int kOutputPerBlock = Base::kTileItems - 2 * kSampleStride - ItemsPerThread;
  static_assert(Base::kTileItems % SamplesPerTile == 0, "a tile must split into whole sample strides");
  static_assert(SamplesPerTile >= 4 && 32 % SamplesPerTile == 0,
                "a tile's samples share part of one warp and leave a block a share of output");
};

// Where the first P outputs of a group's four-way merge come from: a keys of
// A, b of B, c of C, d of D, with P = a + b + c + d.
struct alignas(16) FourWaySplit {
  long long a, b, c, d;
  __device__ long long outputs() const { return a + b + c + d; }
};

// The four runs of the group that starts at gs (each w keys, cut at n).
struct FourRuns {
  long long len[4];
  __device__ FourRuns(long long n, long long gs, long long w) {
#pragma unroll
    for (int r = 0; r < 4; ++r) len[r] = max(0LL, min(w, n - gs - r * w));
  }
  __device__ long long total() const { return len[0] + len[1] + len[2] + len[3]; }
  __device__ FourWaySplit end() const { return FourWaySplit{len[0], len[1], len[2], len[3]}; }
};

// One merge block's work, laid out once by the block-starts kernel: where
// each of its four windows starts in the pass's input and in shared memory,
// its length, and whether its run's next key follows it. Working this out in
// each of the merge block's eight warps (the group, the 64-bit bounds of the
// four runs, the alignment slots) was 16 % of the merge kernel's
// instructions; read from here, the kernel ran 887 M warp instructions a
// 2^26 sort instead of 1053 (H200, PERFORMANCE.md).
struct alignas(16) FourWayBlock {
  long long src[4];  // window r's first key in the pass's input
  long long out;     // the block's first output
  int at[4];         // window r's first slot in shared memory
  int len[4];        // window r's keys, without its run's next key
  int next;          // bit r: window r's run's next key follows it
  int whole;         // bit r: the 16 bytes around window r's ends lie in the input
};

}  // namespace sortbench::merge
