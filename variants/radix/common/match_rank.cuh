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

  // ranked(j, rank of item j) as each row is ranked: a caller that writes
  // the item to its place at once holds no array of ranks.
  template <class DigitOf, class Ranked>
  __device__ static void rank_each(Counters& c, DigitOf digit, Ranked ranked) {
    const int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
#pragma unroll
    for (int j = 0; j < Items; ++j) {
      const unsigned d = digit(j);
      const unsigned peers = warp_match_any_predicated<RadixBits>(d);
      const int leader = 31 - __clz(peers);
      unsigned claimed = 0;
      if (lane == leader) claimed = atomicAdd(&c[w][d], unsigned(__popc(peers)));
      ranked(j, __shfl_sync(0xffffffffu, claimed, leader) + __popc(peers & lanemask_lt()));
    }
  }

  template <class DigitOf>
  __device__ static void rank(Counters& c, DigitOf digit, unsigned (&rank)[Items]) {
    rank_each(c, digit, [&](int j, unsigned r) { rank[j] = r; });
  }
};


// A whole slab ranked at once, behind the interface of the block-local sorts
// (the cluster sort, the bucket sort after an MSD pass): rank_tile gives each
// item's position in the slab ordered by digit and, for digits
// threadIdx.x * BPT + k, their count in the slab and their first position.
// Items past the slab's end take the last digit. Every thread's reads of the
// slab that feed `digit` happen before rank_tile's first barrier, so the
// caller may write the ranked items back over them.
template <int RadixBits, int Items, int BlockThreads>
struct SlabMatchRank {
  using Match = WarpStripedMatchRank<RadixBits, Items, BlockThreads>;
  using Scan = BlockScanShfl<BlockThreads>;
  static constexpr int kBins = 1 << RadixBits;
  struct Storage {
    typename Match::Counters warp_offset;  // per-warp digit counts, then rank offsets
  };
  __device__ static int index(int j) { return Match::index(j); }

  template <int BPT, class DigitOf>
  __device__ static void rank_tile(Storage& s, typename Scan::Storage& scan, DigitOf digit, unsigned (&rank)[Items],
                                   unsigned (&bin_count)[BPT], unsigned (&bin_local)[BPT]) {
    rank_tile_each(s, scan, digit, [&](int j, unsigned r) { rank[j] = r; }, bin_count, bin_local);
  }

  // ranked(j, rank of item j) as each row is ranked (Match::rank_each): a
  // caller that writes items to their places at once holds no rank array.
  template <int BPT, class DigitOf, class Ranked>
  __device__ static void rank_tile_each(Storage& s, typename Scan::Storage& scan, DigitOf digit, Ranked ranked,
                                        unsigned (&bin_count)[BPT], unsigned (&bin_local)[BPT]) {
    for (int i = threadIdx.x; i < kBins * Match::kWarps; i += BlockThreads) (&s.warp_offset[0][0])[i] = 0;
    __syncthreads();
    Match::count(s.warp_offset, digit);
    __syncthreads();
#pragma unroll
    for (int k = 0; k < BPT; ++k) {
      const int b = threadIdx.x * BPT + k;
      bin_count[k] = b < kBins ? Match::exclusive_over_warps(s.warp_offset, b) : 0u;
    }
    Match::add_tile_starts(s.warp_offset, bin_count, bin_local, scan);
    __syncthreads();
    Match::rank_each(s.warp_offset, digit, ranked);
  }
};

}  // namespace sortbench::radix
