// Merge sort with four-way merge passes: PMPP 13.7 (Fig. 13.11) with the
// co-rank merge of ch. 12 applied twice per pass, merge(merge(A, B),
// merge(C, D)), so log4(n / tile) passes read and write the keys instead of
// the two-way sort's log2(n / tile). At 2^26 u32 keys that is 7 passes
// instead of 14; the two-way sort (like cub::DeviceMergeSort) runs at about
// 80 % of the copy bandwidth, so the bytes are what it spends its time on.
//
// A four-way co-rank at an arbitrary output position needs a search inside a
// search (log^2 dependent loads). Instead the partition kernel finds exact
// splits at sampled positions: every S-th key x of merge(A, B) (a two-way
// co-rank) with the number of keys of C and D that go before it (a lower
// bound each), and every S-th key of merge(C, D) with the keys of A and B
// at or before it (an upper bound each; A and B come first among equal keys).
// Between two consecutive sampled splits at most S keys of each pair go
// out, so a block that takes the splits around its share of the output
// (R = TILE - 2S - IPT keys) holds fewer than TILE - IPT keys, and every key
// is read once. The probes of these searches are what the partition costs:
// each lands on its own DRAM sector. Searching 16 samples a tile across the
// whole runs took 307 us a pass at 2^26 on the H100, as long as the merge;
// searching only one sample a tile so and the rest between their two
// neighbours, 173 us; 8 samples a tile, 107 us (PERFORMANCE.md).
//
// Layers (as in CUB): four_way_merge_sort (device entry) ->
// FourWayMergeSortDispatch (passes, buffers) -> kernels ->
// BlockSortTile / BlockFourWayMergeTile agents.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include <cuda_pipeline.h>

#include "../common/block_merge_sort.cuh"
#include "../common/chained_launch.cuh"
#include "../common/instance.cuh"
#include "merge_sort.cuh"

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

// Keys of s0[lo0, hi0) and of s1[lo1, hi1) that go before x, plus lo0 and
// lo1: strictly less (lower bounds) or, with kInclusive, also equal (upper
// bounds); [lo, hi] holds each answer. The two searches step together, so
// each step's two loads are in flight together and the chain of dependent
// loads is as long as the longer search, not the sum of both.
template <bool kInclusive, class Key, class Less>
__device__ __forceinline__ void count_before_both(const Key* s0, long long lo0, long long hi0, const Key* s1,
                                                  long long lo1, long long hi1, const Key& x, Less less,
                                                  long long& at0, long long& at1) {
  while (lo0 < hi0 || lo1 < hi1) {
    const bool step0 = lo0 < hi0, step1 = lo1 < hi1;
    const long long mid0 = (lo0 + hi0) >> 1, mid1 = (lo1 + hi1) >> 1;
    Key k0{}, k1{};
    if (step0) k0 = s0[mid0];
    if (step1) k1 = s1[mid1];
    if (step0) {
      if (kInclusive ? !less(x, k0) : less(k0, x)) {
        lo0 = mid0 + 1;
      } else {
        hi0 = mid0;
      }
    }
    if (step1) {
      if (kInclusive ? !less(x, k1) : less(k1, x)) {
        lo1 = mid1 + 1;
      } else {
        hi1 = mid1;
      }
    }
  }
  at0 = lo0;
  at1 = lo1;
}

// The exact split at the diag-th key x of merge(p, q): the pair's co-rank,
// then how many keys of the other pair (o0, o1) go before x. kFirstPair: the
// sampled pair is (A, B), whose keys go first among equal keys. Each count
// lies between the same count of the splits lo and hi.
template <bool kFirstPair, class Key, class Less>
__device__ FourWaySplit split_at_pair_sample(const Key* const (&run)[4], const FourRuns& r, long long diag,
                                             const FourWaySplit& lo, const FourWaySplit& hi, Less less) {
  constexpr int P = kFirstPair ? 0 : 2, O = kFirstPair ? 2 : 0;
  const long long plo = kFirstPair ? lo.a : lo.c, phi = kFirstPair ? hi.a : hi.c;
  const long long pi = common::co_rank_between<long long>(run[P], run[P + 1], diag, max(plo, diag - r.len[P + 1]),
                                                          min(phi, min(diag, r.len[P])), less);
  const long long qi = diag - pi;
  const bool take_q = qi < r.len[P + 1] && (pi >= r.len[P] || less(run[P + 1][qi], run[P][pi]));
  const Key x = take_q ? run[P + 1][qi] : run[P][pi];
  // Keys of (A, B) equal to a key of (C, D) go before it; not the other way.
  long long oi0, oi1;
  count_before_both<!kFirstPair>(run[O], kFirstPair ? lo.c : lo.a, kFirstPair ? hi.c : hi.a, run[O + 1],
                                 kFirstPair ? lo.d : lo.b, kFirstPair ? hi.d : hi.b, x, less, oi0, oi1);
  return kFirstPair ? FourWaySplit{pi, qi, oi0, oi1} : FourWaySplit{oi0, oi1, pi, qi};
}

__device__ __forceinline__ FourWaySplit shfl_split(const FourWaySplit& s, int lane) {
  return FourWaySplit{__shfl_sync(0xffffffffu, s.a, lane), __shfl_sync(0xffffffffu, s.b, lane),
                      __shfl_sync(0xffffffffu, s.c, lane), __shfl_sync(0xffffffffu, s.d, lane)};
}

// F = kSamplesPerTile threads per tile-long interval J of one pair's merge
// in one group: threads 0 and 1 search the splits at J and J + 1 (a tile
// apart) across the whole runs, then thread i finds the sample J * F + i
// between them. Slot (g, pair, J * F + i) of the list is this thread's index.
template <class Policy, class Key, class Less>
__global__ void four_way_partition_kernel(const Key* keys, long long n, long long w, long long coarse_per_pair,
                                          long long groups, FourWaySplit* splits, Less less) {
  constexpr int F = Policy::kSamplesPerTile;
  constexpr long long S = Policy::kSampleStride, SC = S * F;
  common::chain_wait();
  common::chain_release();
  const long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  const int i = int(t % F);
  // Threads past the last interval still take part in the shuffles.
  const bool valid = t / F < groups * 2 * coarse_per_pair;
  const long long interval = valid ? t / F : 0;
  const long long g = interval / (2 * coarse_per_pair);
  const bool second_pair = interval % (2 * coarse_per_pair) >= coarse_per_pair;
  const long long J = interval % coarse_per_pair;
  const long long gs = g * 4 * w;
  const FourRuns r(n, gs, w);
  const Key* const run[4] = {keys + gs, keys + gs + w, keys + gs + 2 * w, keys + gs + 3 * w};
  const long long pair_len = second_pair ? r.len[2] + r.len[3] : r.len[0] + r.len[1];
  const FourWaySplit none{0, 0, 0, 0}, all = r.end();
  auto split_at = [&](long long diag, const FourWaySplit& lo, const FourWaySplit& hi) {
    return second_pair ? split_at_pair_sample<false>(run, r, diag, lo, hi, less)
                       : split_at_pair_sample<true>(run, r, diag, lo, hi, less);
  };
  FourWaySplit coarse = all;
  if (valid && i < 2 && (J + i) * SC < pair_len) coarse = split_at((J + i) * SC, none, all);
  const int first_lane = int(threadIdx.x & 31) & ~(F - 1);
  const FourWaySplit lo = shfl_split(coarse, first_lane), hi = shfl_split(coarse, first_lane + 1);
  const long long diag = J * SC + i * S;
  if (valid && diag < pair_len) splits[t] = i == 0 ? lo : split_at(diag, lo, hi);
}

// The first sampled split of one pair's list (or the group's end) with at
// least q outputs before it.
__device__ __forceinline__ FourWaySplit first_split_at_or_after(const FourWaySplit* list, long long count,
                                                                long long q, const FourWaySplit& end) {
  long long lo = 0, hi = count;
  while (lo < hi) {
    const long long mid = (lo + hi) >> 1;
    if (list[mid].outputs() < q) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo < count ? list[lo] : end;
}

// Merge blocks a warp of the block-starts kernel lays out.
constexpr int kPlansPerWarp = 15;

// Where merge block b starts: the first sampled split of its group at or
// after b's share (j * R). Two lanes per block, one per pair's list, so the
// two searches' dependent loads overlap; the earlier split wins. A warp
// finds 16 consecutive starts and lays out the first 15 of its blocks (the
// 16th start is where the 15th block ends; the next warp lays it out). Done
// here rather than at the start of each merge block, where the searches
// held all of its threads for about 20 dependent loads.
template <class Policy, class Tile, class Key>
__global__ void four_way_block_starts_kernel(const Key* keys, long long n, long long w, long long slots_per_pair,
                                             long long blocks_per_group, long long blocks,
                                             const FourWaySplit* splits, FourWayBlock* plans) {
  constexpr long long S = Policy::kSampleStride, R = Policy::kOutputPerBlock;
  common::chain_wait();
  common::chain_release();
  const int lane = int(threadIdx.x & 31);
  const long long mine_b = (blockIdx.x * (long long)blockDim.x + threadIdx.x) / 32 * kPlansPerWarp + lane / 2;
  // Lanes past the last block still take part in the shuffles.
  const long long b = min(mine_b, blocks - 1);
  const bool second_pair = lane & 1;
  const long long g = b / blocks_per_group;
  const long long gs = g * 4 * w;
  const FourRuns r(n, gs, w);
  const long long q0 = (b % blocks_per_group) * R;
  const long long q = min(q0, r.total());
  const FourWaySplit end = r.end();
  const long long pair_len = second_pair ? r.len[2] + r.len[3] : r.len[0] + r.len[1];
  const FourWaySplit* list = splits + g * 2 * slots_per_pair + (second_pair ? slots_per_pair : 0);
  const FourWaySplit mine = q == 0 ? FourWaySplit{0, 0, 0, 0} : first_split_at_or_after(list, (pair_len + S - 1) / S, q, end);
  const FourWaySplit theirs = shfl_split(mine, lane ^ 1);
  const bool mine_first = mine.outputs() < theirs.outputs() || (mine.outputs() == theirs.outputs() && !second_pair);
  const FourWaySplit start = mine_first ? mine : theirs;
  const FourWaySplit next_start = shfl_split(start, min(lane + 2, 31));
  if (second_pair || lane / 2 >= kPlansPerWarp || mine_b >= blocks) return;
  if (q0 >= r.total()) {
    plans[b] = FourWayBlock{};  // past the group's keys: no windows, no outputs
  } else {
    plans[b] = Tile::plan(keys, n, gs, w, r, start, q0 + R >= r.total() ? end : next_start);
  }
}

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

// Blocks an SM the block sort and the merge kernel ask registers for
// (__launch_bounds__): six for 4-byte keys alone (40 registers; 30 KB of
// shared memory a block at 29 keys a thread), three for 8-byte keys alone.
// Left to themselves nvcc gives the merge kernel 48 registers for u32 keys
// (five blocks an SM) and 100 for u64 keys (two), the block sort 64 (four),
// and the driver then sizes shared memory for those (ncu, H200). Pairs
// keep nvcc's choice (0).
template <class Key, class Value>
constexpr int kFourWayMinBlocks = kHasValues<Value> ? 0 : sizeof(Key) == 4 ? 6 : sizeof(Key) == 8 ? 3 : 0;

// Block b = (g, j) of a pass writes the group g outputs from its start
// (the sampled split at or after j * R) to the next block's start, as laid
// out in plans[b].
template <class Policy, class Key, class Value, class Less>
__global__ void __launch_bounds__(Policy::kBlockThreads, kFourWayMinBlocks<Key, Value>)
    four_way_merge_kernel(const Key* kin, const Value* vin, Key* kout, Value* vout, const FourWayBlock* plans,
                          Less less) {
  extern __shared__ __align__(16) unsigned char smem[];
  common::chain_wait();
  common::chain_release();
  const FourWayBlock p = plans[blockIdx.x];
  if (p.len[0] + p.len[1] + p.len[2] + p.len[3] == 0) return;
  BlockFourWayMergeTile<Policy, Key, Value, Less> agent(smem, less);
  agent.merge(kin, vin, p, kout + p.out, vout + p.out);
}

template <class Policy, class Key, class Value, class Less>
struct FourWayMergeSortDispatch {
  static constexpr long long TILE = Policy::kTileItems;
  static constexpr std::size_t kSortSmem = common::TileSmem<Policy, Key, Value>::kBytes;
  static constexpr std::size_t kMergeSmem = FourWayTileSmem<Policy, Key, Value>::kBytes;
  using Tile = BlockFourWayMergeTile<Policy, Key, Value, Less>;

  struct Pass {
    long long groups, coarse_per_pair, slots_per_pair, blocks_per_group;
    Pass(long long n, long long w)
        : groups((n + 4 * w - 1) / (4 * w)),
          coarse_per_pair((std::min(2 * w, n) + TILE - 1) / TILE),
          slots_per_pair(coarse_per_pair * Policy::kSamplesPerTile),
          blocks_per_group((std::min(4 * w, n) + Policy::kOutputPerBlock - 1) / Policy::kOutputPerBlock) {}
    long long slots() const { return groups * 2 * slots_per_pair; }
    long long blocks() const { return groups * blocks_per_group; }
  };

  // Temp: the sampled splits, then the merge blocks' layouts, each sized for
  // the pass that needs the most.
  static long long most_slots(long long n) {
    long long most = 1;
    for (long long w = TILE; w < n; w *= 4) most = std::max(most, Pass(n, w).slots());
    return most;
  }
  static long long most_blocks(long long n) {
    long long most = 1;
    for (long long w = TILE; w < n; w *= 4) most = std::max(most, Pass(n, w).blocks());
    return most;
  }

  static cudaError_t set_smem_limits() {
    cudaError_t e = cudaSuccess;
    if (kSortSmem > 48 * 1024)
      e = cudaFuncSetAttribute(block_sort_kernel<Policy, Key, Value, Less, kFourWayMinBlocks<Key, Value>>,
                               cudaFuncAttributeMaxDynamicSharedMemorySize, int(kSortSmem));
    if (e == cudaSuccess && kMergeSmem > 48 * 1024)
      e = cudaFuncSetAttribute(four_way_merge_kernel<Policy, Key, Value, Less>,
                               cudaFuncAttributeMaxDynamicSharedMemorySize, int(kMergeSmem));
    return e;
  }

  static cudaError_t sort(void* temp, std::size_t& temp_bytes, Key* kin, Value* vin, Key* kout, Value* vout,
                          long long n, Less less, cudaStream_t s) {
    const std::size_t need =
        std::size_t(most_slots(n)) * sizeof(FourWaySplit) + std::size_t(most_blocks(n)) * sizeof(FourWayBlock);
    if (temp == nullptr) {
      temp_bytes = need;
      return set_smem_limits();
    }
    if (temp_bytes < need) return cudaErrorInvalidValue;
    if (n == 0) return cudaSuccess;
    int passes = 0;
    for (long long w = TILE; w < n; w *= 4) ++passes;
    // As in the two-way sort: the tiles start in whichever buffer makes the
    // last pass land in keys_out.
    Key* cur_k = (passes % 2 == 0) ? kout : kin;
    Value* cur_v = (passes % 2 == 0) ? vout : vin;
    Key* nxt_k = (passes % 2 == 0) ? kin : kout;
    Value* nxt_v = (passes % 2 == 0) ? vin : vout;
    const long long num_tiles = (n + TILE - 1) / TILE;
    block_sort_kernel<Policy, Key, Value, Less, kFourWayMinBlocks<Key, Value>>
        <<<unsigned(num_tiles), Policy::kBlockThreads, kSortSmem, s>>>(kin, vin, cur_k, cur_v, n, less);
    cudaError_t e = cudaGetLastError();
    auto* splits = static_cast<FourWaySplit*>(temp);
    auto* plans = reinterpret_cast<FourWayBlock*>(splits + most_slots(n));
    const bool chained = common::chained_launch_supported();
    // The block-starts kernel runs 256-thread blocks, kPlansPerWarp merge blocks a warp.
    constexpr long long kPlansPerBlock = kPlansPerWarp * (256 / 32);
    for (long long w = TILE; w < n && e == cudaSuccess; w *= 4) {
      const Pass pass(n, w);
      e = common::launch_chained(chained, four_way_partition_kernel<Policy, Key, Less>,
                                 unsigned((pass.slots() + 255) / 256), 256, 0, s, cur_k, n, w, pass.coarse_per_pair,
                                 pass.groups, splits, less);
      if (e == cudaSuccess)
        e = common::launch_chained(chained, four_way_block_starts_kernel<Policy, Tile, Key>,
                                   unsigned((pass.blocks() + kPlansPerBlock - 1) / kPlansPerBlock), 256, 0, s, cur_k, n, w,
                                   pass.slots_per_pair, pass.blocks_per_group, pass.blocks(), splits, plans);
      if (e == cudaSuccess)
        e = common::launch_chained(chained, four_way_merge_kernel<Policy, Key, Value, Less>, unsigned(pass.blocks()),
                                   Policy::kBlockThreads, kMergeSmem, s, cur_k, cur_v, nxt_k, nxt_v, plans, less);
      Key* tk = cur_k; cur_k = nxt_k; nxt_k = tk;
      Value* tv = cur_v; cur_v = nxt_v; nxt_v = tv;
    }
    return e;
  }
};

// Device entry point, with merge_sort's conventions (merge_sort.cuh).
template <class Policy, class Key, class Value, class Less>
cudaError_t four_way_merge_sort(void* temp, std::size_t& temp_bytes, Key* kin, Value* vin, Key* kout, Value* vout,
                                long long n, Less less, cudaStream_t s) {
  return FourWayMergeSortDispatch<Policy, Key, Value, Less>::sort(temp, temp_bytes, kin, vin, kout, vout, n, less, s);
}

// Adapter for common::make_entry_instance.
template <class Policy>
struct FourWayMergeSortEntry {
  template <class Key, class Value, class Less>
  struct Sort {
    static cudaError_t sort(void* temp, std::size_t& bytes, Key* kin, Value* vin, Key* kout, Value* vout,
                            long long n, Less less, cudaStream_t s) {
      return four_way_merge_sort<Policy>(temp, bytes, kin, vin, kout, vout, n, less, s);
    }
  };
};

}  // namespace sortbench::merge
