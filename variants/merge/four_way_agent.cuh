// One block's four-way merge of its share of a group's four runs
// (four_way_merge_sort.cuh): merge(merge(A, B), merge(C, D)) in shared memory.
#pragma once

#include <cstddef>
#include <cstdint>

#include <cuda_pipeline.h>

#include "../common/block_merge_sort.cuh"
#include "four_way_policy.cuh"

namespace sortbench::merge {

// Shared memory of a four-way tile: keys, where each key of the first stage
// came from (pairs only), values. The four windows, each with its run's next
// key, start where they agree with their sources modulo 16 bytes, past a
// whole 16 bytes of their own that their first and last keys' 16 bytes may
// be copied into whole (aligned_slot). They end before TILE - IPT + 32 keys
// (a block holds fewer than TILE - IPT); the merges read up to IPT keys past
// their runs, hence the IPT + 32 spare slots.
template <class Policy, class Key, class Value>
struct FourWayTileSmem {
  static constexpr int kTile = Policy::kTileItems;
  static constexpr int kKeySlots = kTile + Policy::kItemsPerThread + 32;
  static constexpr std::size_t kKeyBytes = (std::size_t(kKeySlots) * sizeof(Key) + 15) / 16 * 16;
  static constexpr std::size_t kSourceBytes = kHasValues<Value> ? std::size_t(kTile) * sizeof(int) : 0;
  static constexpr std::size_t kValueBytes =
      kHasValues<Value> ? (std::size_t(kKeySlots) * sizeof(Value) + 15) / 16 * 16 : 0;
  static constexpr std::size_t kBytes = kKeyBytes + kSourceBytes + kValueBytes;
  __device__ static Key* keys(unsigned char* smem) { return reinterpret_cast<Key*>(smem); }
  __device__ static int* sources(unsigned char* smem) { return reinterpret_cast<int*>(smem + kKeyBytes); }
  __device__ static Value* values(unsigned char* smem) {
    return reinterpret_cast<Value*>(smem + kKeyBytes + kSourceBytes);
  }
};

template <class Policy, class Key, class Value, class Less>
struct BlockFourWayMergeTile {
  static constexpr int T = Policy::kBlockThreads;
  static constexpr int IPT = Policy::kItemsPerThread;
  using Smem = FourWayTileSmem<Policy, Key, Value>;
  static constexpr int kLastSlot = Smem::kKeySlots - 1;

  Key* sk;
  int* ssrc;
  Value* sv;
  Less less;

  __device__ BlockFourWayMergeTile(unsigned char* smem, Less l)
      : sk(Smem::keys(smem)), ssrc(Smem::sources(smem)), sv(Smem::values(smem)), less(l) {}

  // cp.async copies 4, 8 or 16 bytes from and to addresses aligned to the size.
  template <class Item>
  static constexpr bool kAsyncCopyable =
      (sizeof(Item) == 4 || sizeof(Item) == 8 || sizeof(Item) == 16) && alignof(Item) >= sizeof(Item);
  static constexpr bool kAsyncCopy = kAsyncCopyable<Key> && (!kHasValues<Value> || kAsyncCopyable<Value>);
  // Keys a 16-byte copy moves: a window goes to the shared position that
  // matches its source modulo this, so most of it moves 16 bytes at a time.
  static constexpr int kKeysPerVector = kAsyncCopy ? 16 / int(sizeof(Key)) : 1;

  // len items from src to dst by cp.async: 16 bytes a copy where dst and src
  // agree modulo 16 bytes (the head and tail item by item), else item by
  // item. One copy instruction a key took 29 % of the merge kernel's
  // instructions (ncu, H200, ipt29).
  template <class Item>
  __device__ __forceinline__ static void copy_window(Item* dst, const Item* src, int len) {
    constexpr int V = 16 / int(sizeof(Item));
    const auto s = reinterpret_cast<std::uintptr_t>(src);
    if (V > 1 && ((s - reinterpret_cast<std::uintptr_t>(dst)) & 15) == 0) {
      const int head = min(len, int(((16 - (s & 15)) & 15) / sizeof(Item)));
      const int vectors = (len - head) / V;
      const int tail = head + vectors * V;
      if (int(threadIdx.x) < head) __pipeline_memcpy_async(dst + threadIdx.x, src + threadIdx.x, sizeof(Item));
      for (int i = threadIdx.x; i < vectors; i += T) __pipeline_memcpy_async(dst + head + i * V, src + head + i * V, 16);
      if (int(threadIdx.x) < len - tail)
        __pipeline_memcpy_async(dst + tail + threadIdx.x, src + tail + threadIdx.x, sizeof(Item));
    } else {
      for (int i = threadIdx.x; i < len; i += T) __pipeline_memcpy_async(dst + i, src + i, sizeof(Item));
    }
  }

  // Where a window from src goes when the shared memory before `at` is
  // taken: where it agrees with src modulo 16 bytes, past at rounded up to
  // 16 bytes, so the 16 bytes that hold its first key and those that hold
  // its last can be copied whole without touching the windows beside it.
  __device__ __forceinline__ static int aligned_slot(int at, const Key* src) {
    constexpr int V = kKeysPerVector;
    return (at + V - 1) / V * V + int(reinterpret_cast<std::uintptr_t>(src) / sizeof(Key) % V);
  }

  // The len keys from src, with whatever else shares their first and last
  // 16 bytes, into dst (which agrees with src modulo 16 bytes): 16-byte
  // copies alone, where copy_window moves the partial 16 bytes at each end
  // key by key: 6.6 copies a warp instead of 9.9, and a merge pass 4.7 %
  // shorter (H200).
  __device__ __forceinline__ static void copy_whole_vectors(Key* dst, const Key* src, int len) {
    constexpr int V = kKeysPerVector;
    const int phase = int(reinterpret_cast<std::uintptr_t>(src) / sizeof(Key) % V);
    const int vectors = (phase + len + V - 1) / V;
    for (int i = threadIdx.x; i < vectors; i += T)
      __pipeline_memcpy_async(dst - phase + i * V, src - phase + i * V, 16);
  }

  // Where the four windows sit in shared memory: window r at at[r], len[r]
  // keys, then its run's next key where next[r]. The first stage's outputs:
  // merge(A, B) at [0, o2), merge(C, D) at [p2, pm), the first multiple of
  // IPT past o2, so each thread's outputs come from one pair; m keys in all.
  struct Windows {
    int at[4], len[4];
    bool next[4];
    int o2, p2, pm, m;
  };

  // The layout of the block that merges run r's keys [from.r, to.r) of the
  // group at gs of k (runs of w keys; fewer than TILE - IPT keys in all).
  //
  // Each window is copied with its run's next key where there is one. The
  // split `to` is exact, so that key goes after every key of the other
  // windows (stably): where all four runs have one, the serial merges need
  // no bounds, as a run's next key is never taken before the window's keys
  // run out (merge_windows<false>). A block whose window ends its run (the
  // last of a group, mostly) checks the bounds. The choice is made once a
  // block: two code paths in one merge stage cost the kernel 100 registers.
  __device__ static FourWayBlock plan(const Key* k, long long n, long long gs, long long w, const FourRuns& runs,
                                      const FourWaySplit& from, const FourWaySplit& to) {
    const long long lo[4] = {from.a, from.b, from.c, from.d}, hi[4] = {to.a, to.b, to.c, to.d};
    FourWayBlock p{};
    int end = 0;
#pragma unroll
    for (int r = 0; r < 4; ++r) {
      const bool next = hi[r] < runs.len[r];
      p.src[r] = gs + r * w + lo[r];
      p.len[r] = int(hi[r] - lo[r]);
      p.at[r] = aligned_slot(end, k + p.src[r]);
      p.next |= int(next) << r;
      end = p.at[r] + p.len[r] + int(next);
      // Windows at the input's ends copy their partial 16 bytes key by key.
      const auto first = reinterpret_cast<std::uintptr_t>(k + p.src[r]) / 16 * 16;
      const auto last = (reinterpret_cast<std::uintptr_t>(k + p.src[r] + p.len[r] + int(next)) + 15) / 16 * 16;
      if (first >= reinterpret_cast<std::uintptr_t>(k) && last <= reinterpret_cast<std::uintptr_t>(k + n))
        p.whole |= 1 << r;
    }
    p.out = gs + from.outputs();
    return p;
  }

  // Merges the windows of p from k (values from v) into kout (vout).
  __device__ void merge(const Key* k, const Value* v, const FourWayBlock& p, Key* kout, Value* vout) {
    const int tid = threadIdx.x;
    Windows win;
#pragma unroll
    for (int r = 0; r < 4; ++r) {
      win.at[r] = p.at[r];
      win.len[r] = p.len[r];
      win.next[r] = (p.next >> r) & 1;
    }
    win.o2 = win.len[0] + win.len[1];
    win.m = win.o2 + win.len[2] + win.len[3];
    win.p2 = (win.o2 + IPT) / IPT * IPT;
    win.pm = win.p2 + (win.m - win.o2);
    if constexpr (kAsyncCopy) {
      // Straight from global to shared memory (LDGSTS): no registers.
#pragma unroll
      for (int r = 0; r < 4; ++r) {
        if (kKeysPerVector > 1 && ((p.whole >> r) & 1)) {
          copy_whole_vectors(sk + win.at[r], k + p.src[r], win.len[r] + (win.next[r] ? 1 : 0));
        } else {
          copy_window(sk + win.at[r], k + p.src[r], win.len[r] + (win.next[r] ? 1 : 0));
        }
      }
      if constexpr (kHasValues<Value>) {
#pragma unroll
        for (int r = 0; r < 4; ++r) copy_window(sv + win.at[r], v + p.src[r], win.len[r]);
      }
      __pipeline_commit();
      __pipeline_wait_prior(0);
    } else {
      // Through registers: all IPT global loads in flight before the first
      // shared store. Item idx of the four copies side by side belongs to
      // the first window r with idx < c[r]; selects rather than indexing,
      // which would put the arrays in local memory.
      int c[4], base = 0;
#pragma unroll
      for (int r = 0; r < 4; ++r) c[r] = (base += win.len[r] + (win.next[r] ? 1 : 0));
      auto pick = [](const auto (&x)[4], int idx, const int (&c)[4]) {
        return idx < c[0] ? x[0] : idx < c[1] ? x[1] : idx < c[2] ? x[2] : x[3];
      };
      const int first[4] = {0, c[0], c[1], c[2]};
      const Key* kwin[4];
      const Value* vwin[4];
      int kslot[4];
#pragma unroll
      for (int r = 0; r < 4; ++r) {
        kwin[r] = k + p.src[r] - first[r];
        vwin[r] = v + p.src[r] - first[r];
        kslot[r] = win.at[r] - first[r];
      }
      Key kr[IPT];
      Value vr[IPT];
#pragma unroll
      for (int i = 0; i < IPT; ++i) {
        const int idx = i * T + tid;
        if (idx < c[3]) {
          kr[i] = pick(kwin, idx, c)[idx];
          if constexpr (kHasValues<Value>) {
            // The next keys have no values.
            if (idx - pick(first, idx, c) < pick(win.len, idx, c)) vr[i] = pick(vwin, idx, c)[idx];
          }
        }
      }
#pragma unroll
      for (int i = 0; i < IPT; ++i) {
        const int idx = i * T + tid;
        if (idx < c[3]) {
          const int slot = pick(kslot, idx, c) + idx;
          sk[slot] = kr[i];
          if constexpr (kHasValues<Value>) {
            if (idx - pick(first, idx, c) < pick(win.len, idx, c)) sv[slot] = vr[i];
          }
        }
      }
    }
    __syncthreads();
    if (win.next[0] && win.next[1] && win.next[2] && win.next[3]) {
      merge_windows<false>(win, kout, vout);
    } else {
      merge_windows<true>(win, kout, vout);
    }
  }

  // The two merge stages over the windows in shared memory, then the store.
  template <bool kCheckEnds>
  __device__ __forceinline__ void merge_windows(const Windows& win, Key* kout, Value* vout) {
    const int tid = threadIdx.x;
    const int o2 = win.o2, p2 = win.p2, pm = win.pm, m = win.m;
    Key kr[IPT];
    Value vr[IPT];
    int src[IPT];
    // Stage 1: merge(A, B) into [0, o2), merge(C, D) into [p2, pm).
    const int t0 = tid * IPT;
    {
      const bool second = t0 >= p2;
      const int a_begin = second ? win.at[2] : win.at[0], a_end = a_begin + (second ? win.len[2] : win.len[0]);
      const int b_begin = second ? win.at[3] : win.at[1], b_end = b_begin + (second ? win.len[3] : win.len[1]);
      // Whole warps past pm (a block's share is short of TILE by a quarter
      // on average) skip both stages' searches and merges.
      if (t0 < pm) {
        const int diag = t0 - (second ? p2 : 0);
        const int ar = common::co_rank<int>(sk + a_begin, a_end - a_begin, sk + b_begin, b_end - b_begin, diag, less);
        common::serial_merge<IPT, kCheckEnds>(sk, a_begin + ar, a_end, b_begin + (diag - ar), b_end, kLastSlot, kr,
                                              src, less);
      }
    }
    // Without bounds the second stage needs each pair's next key: the
    // earlier of its runs' next keys (A and C first among equal keys).
    auto pair_next = [&](int p) {
      const Key x = sk[win.at[p] + win.len[p]], y = sk[win.at[p + 1] + win.len[p + 1]];
      return less(y, x) ? y : x;
    };
    Key ab_key{}, cd_key{};
    if (!kCheckEnds && tid == o2 / IPT) ab_key = pair_next(0);
    if (!kCheckEnds && tid == pm / IPT) cd_key = pair_next(2);
    __syncthreads();
    // Outputs past a pair's keys land in the gap after it or past pm; the
    // thread that owns o2 (pm) then puts the pair's next key there.
#pragma unroll
    for (int i = 0; i < IPT; ++i) {
      sk[t0 + i] = kr[i];
      if constexpr (kHasValues<Value>) ssrc[t0 + i] = src[i];
    }
    if (!kCheckEnds && tid == o2 / IPT) sk[o2] = ab_key;
    if (!kCheckEnds && tid == pm / IPT) sk[pm] = cd_key;
    __syncthreads();

    // Stage 2: merge([0, o2), [p2, pm)) into [0, m); values follow both
    // stages' sources.
    if (t0 < m) {
      const int ar = common::co_rank<int>(sk, o2, sk + p2, pm - p2, t0, less);
      common::serial_merge<IPT, kCheckEnds>(sk, ar, o2, p2 + (t0 - ar), pm, kLastSlot, kr, src, less);
      if constexpr (kHasValues<Value>) {
#pragma unroll
        for (int i = 0; i < IPT; ++i) {
          // Past m a source may point into the gaps, which hold no source.
          if (t0 + i < m) vr[i] = sv[ssrc[src[i]]];
        }
      }
    }
    __syncthreads();
#pragma unroll
    for (int i = 0; i < IPT; ++i) sk[t0 + i] = kr[i];
    if constexpr (kHasValues<Value>) {
#pragma unroll
      for (int i = 0; i < IPT; ++i) sv[t0 + i] = vr[i];
    }
    __syncthreads();
#pragma unroll
    for (int i = 0; i < IPT; ++i) {
      const int idx = i * T + tid;
      if (idx < m) {
        kout[idx] = sk[idx];
        if constexpr (kHasValues<Value>) vout[idx] = sv[idx];
      }
    }
  }
};

}  // namespace sortbench::merge
