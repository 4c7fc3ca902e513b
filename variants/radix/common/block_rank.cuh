// Stable block-local ranking of a tile's digits: rank[j] is the position of
// item j in the tile sorted stably by digit, local_start[d] the position of
// the first item of digit d. Three methods:
//   RankSplit          (PMPP 13.4/13.5): r successive stable 1-bit splits in
//                      shared memory, each a block scan of the bits.
//   RankMatch          (multisplit): each warp finds the lanes that share a
//                      digit (match-any, by ballots) and counts into per-warp
//                      digit counters; one scan of the counters.
//   RankThreadCounters (seed 002, corrected): per-thread private counters
//                      stored digit-major, then one scan; stable because a
//                      thread owns consecutive items.
// Items past `valid` carry digit Bins-1 and rank after every valid item.
#pragma once

#include "radix_common.cuh"

namespace sortbench::radix {

enum class Ranking { split, match, thread_counters };
inline const char* to_string(Ranking r) {
  return r == Ranking::split ? "split" : r == Ranking::match ? "match" : "counters";
}

__device__ __forceinline__ unsigned lanemask_lt() {
  unsigned m;
  asm("mov.u32 %0, %%lanemask_lt;" : "=r"(m));
  return m;
}

// Lanes of the warp whose label has the same low LabelBits bits as this
// lane's: one ballot per bit. The native __match_any_sync is a multi-cycle
// instruction of low throughput; LabelBits ballots pipeline (CUB's MatchAny).
template <int LabelBits>
__device__ __forceinline__ unsigned warp_match_any(unsigned label) {
  unsigned peers = 0xffffffffu;
#pragma unroll
  for (int b = 0; b < LabelBits; ++b) {
    const unsigned m = __ballot_sync(0xffffffffu, (label >> b) & 1u);
    peers &= ((label >> b) & 1u) ? m : ~m;
  }
  return peers;
}

// The lanes whose label bit `bit` (a one-bit mask) equals this lane's, in
// PTX as CUB's MatchAny is: the bit test feeds the vote as a predicate and the
// complement is one predicated instruction.
__device__ __forceinline__ unsigned warp_same_bit(unsigned label, unsigned bit) {
  unsigned m;
  asm("{\n\t.reg .pred p;\n\t"
      "and.b32 %0, %1, %2;\n\t"
      "setp.ne.u32 p, %0, 0;\n\t"
      "vote.sync.ballot.b32 %0, p, 0xffffffff;\n\t"
      "@!p not.b32 %0, %0;\n\t}"
      : "=r"(m)
      : "r"(label), "r"(bit));
  return m;
}

// warp_match_any from those votes, two bits at a time: one three-input AND
// (lop3) folds both into the peers, 2.5 instructions a bit instead of 3.
// With the pass kernel's scatter through per-digit addresses, a sort at the
// two-blocks-per-SM points took 1-7 % less time (H200;
// docs/experiments/issue15-steps.md). RankMatch below, at 16 and 24 items per
// thread, was slower with the predicated form (H200): it keeps warp_match_any.
template <int LabelBits>
__device__ __forceinline__ unsigned warp_match_any_predicated(unsigned label) {
  unsigned peers = 0xffffffffu;
  int b = 0;
#pragma unroll
  for (; b + 1 < LabelBits; b += 2)
    asm("lop3.b32 %0, %0, %1, %2, 0x80;"
        : "+r"(peers)
        : "r"(warp_same_bit(label, 1u << b)), "r"(warp_same_bit(label, 2u << b)));
  if (b < LabelBits) peers &= warp_same_bit(label, 1u << b);
  return peers;
}

template <int T, int Items, int RadixBits, BlockScanAlgo A>
struct RankSplit {
  static constexpr int kTile = T * Items;
  static constexpr int kBins = 1 << RadixBits;
  static_assert(kTile <= 65536, "16-bit positions");
  using Scan = BlockScan<T, A>;
  struct Storage {
    unsigned short digit[kTile];
    unsigned short pos[2][kTile];
    typename Scan::Storage scan;
  };
  // Block-striped: coalesced loads.
  __device__ static int index(int t, int j) { return j * T + t; }

  __device__ static void rank(const unsigned (&dig)[Items], unsigned (&rank)[Items], unsigned* local_start,
                              Storage& s) {
    const int t = threadIdx.x;
#pragma unroll
    for (int j = 0; j < Items; ++j) {
      s.digit[index(t, j)] = (unsigned short)dig[j];
      s.pos[0][index(t, j)] = (unsigned short)index(t, j);
    }
    __syncthreads();
    int cur = 0;
    // One split per bit, least significant first; each keeps the order of
    // equal bits, so after r splits the tile is stably sorted by digit.
    for (int bit = 0; bit < RadixBits; ++bit) {
      unsigned b[Items], ones = 0;
#pragma unroll
      for (int j = 0; j < Items; ++j) {
        b[j] = (s.digit[s.pos[cur][t * Items + j]] >> bit) & 1u;
        ones += b[j];
      }
      unsigned ones_total;
      unsigned before = Scan::exclusive(ones, ones_total, s.scan);
      const unsigned zeros_total = kTile - ones_total;
#pragma unroll
      for (int j = 0; j < Items; ++j) {
        const unsigned p = t * Items + j;
        const unsigned dst = b[j] ? zeros_total + before : p - before;
        before += b[j];
        s.pos[cur ^ 1][dst] = s.pos[cur][p];
      }
      cur ^= 1;
      __syncthreads();
    }
    // Sorted position p holds item pos[cur][p]: invert into pos[cur^1].
#pragma unroll
    for (int j = 0; j < Items; ++j) {
      const int p = t * Items + j;
      const unsigned item = s.pos[cur][p];
      s.pos[cur ^ 1][item] = (unsigned short)p;
      const unsigned d = s.digit[item];
      if (p == 0 || s.digit[s.pos[cur][p - 1]] != d) local_start[d] = p;
    }
    __syncthreads();
#pragma unroll
    for (int j = 0; j < Items; ++j) rank[j] = s.pos[cur ^ 1][index(t, j)];
    __syncthreads();
  }
};

template <int T, int Items, int RadixBits, BlockScanAlgo A>
struct RankMatch {
  static constexpr int kTile = T * Items;
  static constexpr int kBins = 1 << RadixBits;
  static constexpr int kWarps = T / 32;
  using Scan = BlockScan<T, A>;
  struct Storage {
    unsigned count[kBins * kWarps];  // digit-major: count[d * kWarps + warp]
    typename Scan::Storage scan;
  };
  // Warp-striped: row j of a warp is 32 consecutive keys, so a warp's items
  // are in tile order when taken row by row, lane by lane.
  __device__ static int index(int t, int j) { return (t >> 5) * 32 * Items + j * 32 + (t & 31); }

  __device__ static void rank(const unsigned (&dig)[Items], unsigned (&rank)[Items], unsigned* local_start,
                              Storage& s) {
    const int w = threadIdx.x >> 5, lane = threadIdx.x & 31;
    for (int i = threadIdx.x; i < kBins * kWarps; i += T) s.count[i] = 0;
    __syncthreads();
#pragma unroll
    for (int j = 0; j < Items; ++j) {
      const unsigned peers = warp_match_any<RadixBits>(dig[j]);
      unsigned* c = &s.count[dig[j] * kWarps + w];
      const unsigned before = *c;
      __syncwarp();
      if (lane == 31 - __clz(peers)) *c = before + __popc(peers);
      __syncwarp();
      rank[j] = before + __popc(peers & lanemask_lt());
    }
    __syncthreads();
    exclusive_scan_array<Scan, T>(s.count, kBins * kWarps, s.scan);
#pragma unroll
    for (int j = 0; j < Items; ++j) rank[j] += s.count[dig[j] * kWarps + w];
    for (int d = threadIdx.x; d < kBins; d += T) local_start[d] = s.count[d * kWarps];
    __syncthreads();
  }
};

template <int T, int Items, int Bins, BlockScanAlgo A>
struct RankThreadCounters {
  static constexpr int kTile = T * Items;
  static constexpr int kBins = Bins;
  using Scan = BlockScan<T, A>;
  struct Storage {
    unsigned count[Bins * T];  // digit-major: count[d * T + thread], private per thread
    typename Scan::Storage scan;
  };
  // Blocked: thread t owns the consecutive items t*Items..
  __device__ static int index(int t, int j) { return t * Items + j; }

  __device__ static void rank(const unsigned (&dig)[Items], unsigned (&rank)[Items], unsigned* local_start,
                              Storage& s) {
    const int t = threadIdx.x;
    for (int d = 0; d < Bins; ++d) s.count[d * T + t] = 0;
#pragma unroll
    for (int j = 0; j < Items; ++j) rank[j] = s.count[dig[j] * T + t]++;
    __syncthreads();
    exclusive_scan_array<Scan, T>(s.count, Bins * T, s.scan);
#pragma unroll
    for (int j = 0; j < Items; ++j) rank[j] += s.count[dig[j] * T + t];
    for (int d = t; d < Bins; d += T) local_start[d] = s.count[d * T];
    __syncthreads();
  }
};

}  // namespace sortbench::radix
