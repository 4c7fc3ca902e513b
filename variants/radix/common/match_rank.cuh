// The ranking of the Onesweep pass (CUB's BlockRadixRankMatchEarlyCounts) as a
// block primitive, shared by the Onesweep pass kernel and the cluster sort:
// a tile is warp-striped (warp w holds items [w*32*Items, (w+1)*32*Items),
// row j of it 32 consecutive items), so ranking rows in order gives a stable
// rank.
//   count:    a per-warp digit histogram from shared atomics;
//   exclusive_over_warps / add_tile_starts: per digit, the warp counts become
//             each warp's first position, then its position in the tile;
//   rank:     warp match-any multisplit: the peers of a digit in a row are
//             found at once and the highest peer claims their places with one
//             shared atomic. No rank feeds the next row's, so rows pipeline.
// Items past a partial tile's end must take the last digit: they then rank
// after every real item.
#pragma once

#include "block_rank.cuh"

namespace sortbench::radix {

template <int RadixBits, int Items, int BlockThreads>
struct WarpStripedMatchRank {
  static constexpr int kBins = 1 << RadixBits;
  static constexpr int kWarps = BlockThreads / 32;
  using Counters = unsigned[kWarps][kBins];

  // Index in the tile of item j of this thread.
  __device__ static int index(int j) { return (threadIdx.x >> 5) * 32 * Items + (threadIdx.x & 31) + j * 32; }

  template <class DigitOf>
  __device__ static void count(Counters& c, DigitOf digit) {
    const int w = threadIdx.x >> 5;
#pragma unroll
    for (int j = 0; j < Items; ++j) atomicAdd(&c[w][digit(j)], 1u);
  }

  // Digit b's per-warp counts become exclusive across warps; returns the
  // digit's count in the tile.
  __device__ static unsigned exclusive_over_warps(Counters& c, int b) {
    unsigned run = 0;
#pragma unroll
    for (int v = 0; v < kWarps; ++v) {
      const unsigned x = c[v][b];
      c[v][b] = run;
      run += x;
    }
    return run;
  }

  __device__ static void add(Counters& c, int b, unsigned x) {
#pragma unroll
    for (int v = 0; v < kWarps; ++v) c[v][b] += x;
  }

  // The tile's digit counts (BPT consecutive digits per thread, from
  // exclusive_over_warps) scanned into each digit's first position in the
  // tile (bin_local), which every warp's offset of the digit then adds:
  // ranks come out as positions in the tile.
  template <int BPT>
  __device__ static void add_tile_starts(Counters& c, const unsigned (&bin_count)[BPT], unsigned (&bin_local)[BPT],
                                         typename BlockScanShfl<BlockThreads>::Storage& scan) {
    unsigned owned = 0, total;
#pragma unroll
    for (int k = 0; k < BPT; ++k) owned += bin_count[k];
    unsigned start = BlockScanShfl<BlockThreads>::exclusive(owned, total, scan);
#pragma unroll
    for (int k = 0; k < BPT; ++k) {
      const int b = threadIdx.x * BPT + k;
      bin_local[k] = start;
      if (b < kBins) add(c, b, start);
      start += bin_count[k];
    }
  }

  template <class DigitOf>
  __device__ static void rank(Counters& c, DigitOf digit, unsigned (&rank)[Items]) {
    const int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
#pragma unroll
    for (int j = 0; j < Items; ++j) {
      const unsigned d = digit(j);
      const unsigned peers = warp_match_any_predicated<RadixBits>(d);
      const int leader = 31 - __clz(peers);
      unsigned claimed = 0;
      if (lane == leader) claimed = atomicAdd(&c[w][d], unsigned(__popc(peers)));
      rank[j] = __shfl_sync(0xffffffffu, claimed, leader) + __popc(peers & lanemask_lt());
    }
  }
};

}  // namespace sortbench::radix
