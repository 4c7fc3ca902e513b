// Building blocks of the co-rank merge (PMPP ch. 12) shared by the merge
// sort (13.7) and by every design here that sorts a tile or a bucket by
// comparison: the co-rank search, the per-thread serial merge, and the
// policy that names a block's shape.
#pragma once

#include <cstdint>
#include <type_traits>

#include "sortbench/device/key_traits.cuh"

namespace sortbench::common {

// Keys-only sorts instantiate the same code with NoValue; every value move
// sits behind `if constexpr (kHasValues<V>)`.
using sortbench::NoValue;
using sortbench::kHasValues;

// One policy struct carries a design's shape: a tile is BlockThreads x
// ItemsPerThread keys, kept in registers in a blocked arrangement.
template <int BlockThreads, int ItemsPerThread>
struct MergeSortPolicy {
  static constexpr int kBlockThreads = BlockThreads;
  static constexpr int kItemsPerThread = ItemsPerThread;
  static constexpr int kTileItems = BlockThreads * ItemsPerThread;
  static_assert((BlockThreads & (BlockThreads - 1)) == 0, "block threads must be a power of two");
};

// Co-rank (PMPP Fig. 12.x): how many of the first `diag` outputs of
// merge(a, b) come from a. A key of b goes first only when it is strictly
// less, so equal keys keep a-before-b order and the merge is stable.
// co_rank_between searches only [lo, hi], which must hold the answer (the
// co-rank is monotone in diag, so neighbouring diagonals' co-ranks bound it).
template <class Offset, class ItA, class ItB, class Less>
__device__ __forceinline__ Offset co_rank_between(ItA a, ItB b, Offset diag, Offset lo, Offset hi, Less less) {
  while (lo < hi) {
    const Offset mid = (lo + hi) >> 1;
    if (!less(b[diag - 1 - mid], a[mid])) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo;
}

template <class Offset, class ItA, class ItB, class Less>
__device__ __forceinline__ Offset co_rank(ItA a, Offset alen, ItB b, Offset blen, Offset diag, Less less) {
  return co_rank_between<Offset>(a, b, diag, diag > blen ? diag - blen : Offset(0), diag < alen ? diag : alen, less);
}

// Each thread merges IPT outputs from s[ai, aend) and s[bi, bend) (both runs
// in one shared array) and records where each came from, so values can be
// gathered afterwards without moving them through the comparisons. Reads
// are clamped to s[lim] (the array holds lim + 1 keys), so the loop has no
// branches: a key read past the end of its run is never selected.
// Outputs past both runs are left unspecified; callers bound them by count.
//
// kCheckEnds = false: the caller guarantees that the key just past each run
// is that run's next key in merge order (s[aend] goes after every key of
// the b run, s[bend] not before any key of the a run), so the comparison
// alone never takes a key past a run, and the bounds and the clamp go (14
// instructions an output for u32 keys with them, 10 without). Reads then
// reach IPT keys past the runs' ends (aend, bend and lim are unused), which
// the caller's array must hold.
template <int IPT, bool kCheckEnds = true, class Key, class Less>
__device__ __forceinline__ void serial_merge(const Key* s, int ai, int aend, int bi, int bend, int lim,
                                             Key (&out)[IPT], int (&src)[IPT], Less less) {
  Key ka = s[kCheckEnds ? min(ai, lim) : ai];
  Key kb = s[kCheckEnds ? min(bi, lim) : bi];
  if constexpr (kCheckEnds) {
#pragma unroll
    for (int i = 0; i < IPT; ++i) {
      const bool take_b = bi < bend && (ai >= aend || less(kb, ka));
      out[i] = take_b ? kb : ka;
      src[i] = take_b ? bi : ai;
      bi += take_b ? 1 : 0;
      ai += take_b ? 0 : 1;
      const Key next = s[min(take_b ? bi : ai, lim)];
      kb = take_b ? next : kb;
      ka = take_b ? ka : next;
    }
  } else {
    // bi follows from ai (ai + bi grows by one an output); written this way
    // nvcc keeps one index and no copies of the comparison: 10 instructions
    // an output for u32 keys.
    const int c = ai + bi + 1;
#pragma unroll
    for (int i = 0; i < IPT; ++i) {
      const bool take_b = less(kb, ka);
      out[i] = take_b ? kb : ka;
      src[i] = take_b ? c + i - 1 - ai : ai;
      const int a_next = ai + 1, b_next = c + i - ai;
      const Key next = s[take_b ? b_next : a_next];
      ai = take_b ? ai : a_next;
      kb = take_b ? next : kb;
      ka = take_b ? ka : next;
    }
  }
}

}  // namespace sortbench::common
