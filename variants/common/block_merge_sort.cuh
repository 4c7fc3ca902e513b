// Block-level agents of the merge sort (PMPP 13.7 on the co-rank merge of
// ch. 12), reused wherever a tile or a bucket is sorted by comparison:
//   BlockSortTile       sorts up to one tile in shared memory (registers first)
//   BlockMergeTile      merges one output tile of two sorted runs
//   block_merge_sort_global  one block sorts a range of any length in global
//                       memory (tiles, then merge passes); the fallback for
//                       buckets and partitions larger than a tile.
// Every agent takes the comparator as a template parameter and is stable.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>

#include "merge_path.cuh"
#include "sorting_network.hpp"

namespace sortbench::common {

// Blocked registers (thread t holds items t*IPT .. t*IPT+IPT-1) -> shared ->
// striped, coalesced global stores of the first `count` items. Shared memory
// is reused, so the block waits before and after.
template <int T, int IPT, class Key, class Value>
__device__ __forceinline__ void store_blocked_to_striped(Key* sk, Value* sv, const Key (&k)[IPT],
                                                         const Value (&v)[IPT], Key* kout, Value* vout, int count) {
  const int tid = threadIdx.x;
  __syncthreads();
#pragma unroll
  for (int i = 0; i < IPT; ++i) sk[tid * IPT + i] = k[i];
  if constexpr (kHasValues<Value>) {
#pragma unroll
    for (int i = 0; i < IPT; ++i) sv[tid * IPT + i] = v[i];
  }
  __syncthreads();
#pragma unroll
  for (int i = 0; i < IPT; ++i) {
    const int idx = i * T + tid;
    if (idx < count) {
      kout[idx] = sk[idx];
      if constexpr (kHasValues<Value>) vout[idx] = sv[idx];
    }
  }
  __syncthreads();
}

// Shared memory of one tile: keys (one spare slot, read but never selected
// by serial_merge), then values.
template <class Policy, class Key, class Value>
struct TileSmem {
  static constexpr int kTile = Policy::kTileItems;
  static constexpr std::size_t kKeyBytes = (std::size_t(kTile + 1) * sizeof(Key) + 15) / 16 * 16;
  static constexpr std::size_t kValueBytes =
      kHasValues<Value> ? (std::size_t(kTile) * sizeof(Value) + 15) / 16 * 16 : 0;
  static constexpr std::size_t kBytes = kKeyBytes + kValueBytes;
  __device__ static Key* keys(unsigned char* smem) { return reinterpret_cast<Key*>(smem); }
  __device__ static Value* values(unsigned char* smem) { return reinterpret_cast<Value*>(smem + kKeyBytes); }
};

// Comparators under which keys that compare equal are the same bits (the
// ordered bits of KeyTraits are one-to-one), so an unstable sort of keys
// alone gives the same output as a stable one.
template <class Less>
constexpr bool kEqualKeysIdentical = false;
template <class T>
constexpr bool kEqualKeysIdentical<OrderedLess<T>> = true;
template <class T>
constexpr bool kEqualKeysIdentical<OrderedGreater<T>> = true;

template <class Policy, class Key, class Value, class Less>
struct BlockSortTile {
  static constexpr int T = Policy::kBlockThreads;
  static constexpr int IPT = Policy::kItemsPerThread;
  static constexpr int TILE = Policy::kTileItems;
  using Smem = TileSmem<Policy, Key, Value>;

  Key* sk;
  Value* sv;
  Less less;

  __device__ BlockSortTile(unsigned char* smem, Less l) : sk(Smem::keys(smem)), sv(Smem::values(smem)), less(l) {}

  // Sorts count (<= TILE) keys from kin into kout (kin == kout allowed: the
  // tile is read completely before anything is written).
  __device__ void sort(const Key* kin, const Value* vin, Key* kout, Value* vout, int count) {
    const int tid = threadIdx.x;
    Key k[IPT];
    Value v[IPT];
    // Striped loads are coalesced, and all IPT are issued before the first
    // store to shared memory; the blocked arrangement read back below is
    // what the per-thread sort and the merge path want.
#pragma unroll
    for (int i = 0; i < IPT; ++i) {
      const int idx = i * T + tid;
      if (idx < count) {
        k[i] = kin[idx];
        if constexpr (kHasValues<Value>) v[i] = vin[idx];
      }
    }
#pragma unroll
    for (int i = 0; i < IPT; ++i) {
      const int idx = i * T + tid;
      if (idx < count) {
        sk[idx] = k[i];
        if constexpr (kHasValues<Value>) sv[idx] = v[i];
      }
    }
    __syncthreads();
#pragma unroll
    for (int i = 0; i < IPT; ++i) {
      k[i] = sk[tid * IPT + i];
      if constexpr (kHasValues<Value>) v[i] = sv[tid * IPT + i];
    }
    if (count == TILE) {
      thread_sort<true>(k, v, count);
    } else {
      thread_sort<false>(k, v, count);
    }
    merge_in_shared(k, v, count);
    store(k, v, kout, vout, count);
  }

  // A thread's IPT keys, sorted in registers. Adjacent swaps on strict less
  // (odd-even transposition, 13.8 in miniature: IPT^2 / 2 compare-exchanges)
  // keep it stable; where equal keys are identical and carry no values, the
  // order among them cannot be seen, and Batcher's network does it in far
  // fewer (171 against 406 at 29 keys). Items past count form a suffix of
  // the last thread's run and never move before a valid item.
  template <bool kFull>
  __device__ __forceinline__ void thread_sort(Key (&k)[IPT], Value (&v)[IPT], int count) {
    if constexpr (!kHasValues<Value> && kEqualKeysIdentical<Less>) {
      network_sort<kFull>(k, count, std::make_index_sequence<OddEvenMergeNetwork<IPT>::kSize>{});
    } else {
      transposition_sort<kFull>(k, v, count);
    }
  }

  template <bool kFull>
  __device__ __forceinline__ void transposition_sort(Key (&k)[IPT], Value (&v)[IPT], int count) {
    const int base = threadIdx.x * IPT;
#pragma unroll
    for (int pass = 0; pass < IPT; ++pass) {
#pragma unroll
      for (int j = pass & 1; j + 1 < IPT; j += 2) {
        const bool valid = kFull || (base + j + 1 < count);
        if (valid && less(k[j + 1], k[j])) {
          const Key t = k[j];
          k[j] = k[j + 1];
          k[j + 1] = t;
          if constexpr (kHasValues<Value>) {
            const Value tv = v[j];
            v[j] = v[j + 1];
            v[j + 1] = tv;
          }
        }
      }
    }
  }

  template <bool kFull, std::size_t... C>
  __device__ __forceinline__ void network_sort(Key (&k)[IPT], int count, std::index_sequence<C...>) {
    using Net = OddEvenMergeNetwork<IPT>;
    const int base = threadIdx.x * IPT;
    // Comparator (a, b) has a < b; where b is past count, so is everything
    // after it, and nothing moves.
    auto exchange = [&](Key& x, Key& y, int b) {
      if ((kFull || base + b < count) && less(y, x)) {
        const Key t = x;
        x = y;
        y = t;
      }
    };
    (exchange(k[Net::kList.a[C]], k[Net::kList.b[C]], Net::kList.b[C]), ...);
  }

  // log2(T) merge stages in shared memory; at each, every thread produces
  // IPT outputs of its pair of runs, found by the co-rank of its diagonal.
  __device__ __forceinline__ void merge_in_shared(Key (&k)[IPT], Value (&v)[IPT], int count) {
    const int tid = threadIdx.x;
    const int t0 = tid * IPT;
    for (int w = IPT; w < TILE; w *= 2) {
      __syncthreads();
#pragma unroll
      for (int i = 0; i < IPT; ++i) {
        sk[t0 + i] = k[i];
        if constexpr (kHasValues<Value>) sv[t0 + i] = v[i];
      }
      __syncthreads();
      if (t0 < count) {
        const int gs = t0 / (2 * w) * (2 * w);
        const int alen = min(w, count - gs);
        const int blen = max(0, min(w, count - gs - w));
        const int diag = t0 - gs;
        const int ai = co_rank<int>(sk + gs, alen, sk + gs + w, blen, diag, less);
        int src[IPT];
        serial_merge<IPT>(sk, gs + ai, gs + alen, gs + w + (diag - ai), gs + w + blen, TILE, k, src, less);
        if constexpr (kHasValues<Value>) {
#pragma unroll
          for (int i = 0; i < IPT; ++i) v[i] = sv[src[i] < count ? src[i] : 0];
        }
      }
    }
  }

  __device__ __forceinline__ void store(const Key (&k)[IPT], const Value (&v)[IPT], Key* kout, Value* vout,
                                        int count) {
    store_blocked_to_striped<T>(sk, sv, k, v, kout, vout, count);
  }
};

template <class Policy, class Key, class Value, class Less>
struct BlockMergeTile {
  static constexpr int T = Policy::kBlockThreads;
  static constexpr int IPT = Policy::kItemsPerThread;
  static constexpr int TILE = Policy::kTileItems;
  using Smem = TileSmem<Policy, Key, Value>;

  Key* sk;
  Value* sv;
  Less less;

  __device__ BlockMergeTile(unsigned char* smem, Less l) : sk(Smem::keys(smem)), sv(Smem::values(smem)), less(l) {}

  // Merges a[0, alen) and b[0, blen) (alen + blen <= TILE) into out.
  __device__ void merge(const Key* ka, const Value* va, int alen, const Key* kb, const Value* vb, int blen, Key* kout,
                        Value* vout) {
    const int tid = threadIdx.x;
    const int total = alen + blen;
    Key k[IPT];
    Value v[IPT];
    // All IPT global loads in flight before the first shared store.
#pragma unroll
    for (int i = 0; i < IPT; ++i) {
      const int idx = i * T + tid;
      if (idx < alen) {
        k[i] = ka[idx];
        if constexpr (kHasValues<Value>) v[i] = va[idx];
      } else if (idx < total) {
        k[i] = kb[idx - alen];
        if constexpr (kHasValues<Value>) v[i] = vb[idx - alen];
      }
    }
#pragma unroll
    for (int i = 0; i < IPT; ++i) {
      const int idx = i * T + tid;
      if (idx < total) {
        sk[idx] = k[i];
        if constexpr (kHasValues<Value>) sv[idx] = v[i];
      }
    }
    __syncthreads();
    const int t0 = min(tid * IPT, total);
    const int ai = co_rank<int>(sk, alen, sk + alen, blen, t0, less);
    int src[IPT];
    serial_merge<IPT>(sk, ai, alen, alen + (t0 - ai), total, TILE, k, src, less);
    if constexpr (kHasValues<Value>) {
#pragma unroll
      for (int i = 0; i < IPT; ++i) v[i] = sv[src[i] < total ? src[i] : 0];
    }
    store_blocked_to_striped<T>(sk, sv, k, v, kout, vout, total);
  }
};

// Shared memory of block_merge_sort_global: a tile plus a batch of co-ranks.
template <class Policy, class Key, class Value>
struct GlobalSortSmem {
  static constexpr int kCoRankBatch = 1024;  // output tiles whose co-ranks are searched together
  static constexpr std::size_t kTileBytes = TileSmem<Policy, Key, Value>::kBytes;
  static constexpr std::size_t kBytes = kTileBytes + sizeof(long long) * (kCoRankBatch + 1);
  __device__ static long long* co_ranks(unsigned char* smem) { return reinterpret_cast<long long*>(smem + kTileBytes); }
};

// One block sorts k[0, m) (values v) with the merge sort and leaves the
// result in out_k/out_v, which is either k/v or the scratch o_k/o_v (the
// range's other buffer, free to clobber). Used for buckets and partitions
// larger than a tile, so it returns at once when the range is already in
// order (all-equal buckets, sorted inputs). Needs GlobalSortSmem bytes.
template <class Policy, class Key, class Value, class Less>
__device__ void block_merge_sort_global(Key* k, Value* v, Key* o_k, Value* o_v, long long m, bool result_in_other,
                                        unsigned char* smem, Less less) {
  constexpr int T = Policy::kBlockThreads;
  constexpr long long TILE = Policy::kTileItems;
  constexpr int kBatch = GlobalSortSmem<Policy, Key, Value>::kCoRankBatch;
  const int tid = threadIdx.x;
  Key* out_k = result_in_other ? o_k : k;
  Value* out_v = result_in_other ? o_v : v;

  int descent = 0;
  for (long long i = tid; i + 1 < m; i += T) descent |= less(k[i + 1], k[i]) ? 1 : 0;
  if (!__syncthreads_or(descent)) {
    if (result_in_other) {
      for (long long i = tid; i < m; i += T) {
        o_k[i] = k[i];
        if constexpr (kHasValues<Value>) o_v[i] = v[i];
      }
    }
    __syncthreads();
    return;
  }

  int passes = 0;
  for (long long w = TILE; w < m; w *= 2) ++passes;
  // Pick where the sorted tiles go so that the last pass lands in out.
  Key* other_k = result_in_other ? k : o_k;
  Value* other_v = result_in_other ? v : o_v;
  Key* cur_k = (passes % 2 == 0) ? out_k : other_k;
  Value* cur_v = (passes % 2 == 0) ? out_v : other_v;
  Key* nxt_k = (passes % 2 == 0) ? other_k : out_k;
  Value* nxt_v = (passes % 2 == 0) ? other_v : out_v;

  {
    BlockSortTile<Policy, Key, Value, Less> tile(smem, less);
    for (long long base = 0; base < m; base += TILE) {
      const int cnt = int(m - base < TILE ? m - base : TILE);
      tile.sort(k + base, v + base, cur_k + base, cur_v + base, cnt);
    }
  }
  long long* cr = GlobalSortSmem<Policy, Key, Value>::co_ranks(smem);
  BlockMergeTile<Policy, Key, Value, Less> merger(smem, less);
  const long long num_tiles = (m + TILE - 1) / TILE;
  for (long long w = TILE; w < m; w *= 2) {
    for (long long t_begin = 0; t_begin < num_tiles; t_begin += kBatch) {
      const long long t_end = min(num_tiles, t_begin + kBatch);
      // The co-ranks of a batch of tile boundaries are searched in parallel
      // so their dependent global loads overlap.
      for (long long t = t_begin + tid; t <= t_end; t += T) {
        const long long pos = min(t * TILE, m);
        const long long gs = pos / (2 * w) * (2 * w);
        const long long alen = min(w, m - gs);
        const long long blen = max(0LL, min(w, m - gs - w));
        cr[t - t_begin] = co_rank<long long>(cur_k + gs, alen, cur_k + gs + w, blen, pos - gs, less);
      }
      __syncthreads();
      for (long long t = t_begin; t < t_end; ++t) {
        const long long pos0 = t * TILE;
        const long long pos1 = min(pos0 + TILE, m);
        const long long gs = pos0 / (2 * w) * (2 * w);
        const long long alen = min(w, m - gs);
        const long long blen = max(0LL, min(w, m - gs - w));
        const long long a0 = cr[t - t_begin];
        const long long a1 = (pos1 - gs == alen + blen) ? alen : cr[t + 1 - t_begin];
        const long long b0 = (pos0 - gs) - a0, b1 = (pos1 - gs) - a1;
        merger.merge(cur_k + gs + a0, cur_v + gs + a0, int(a1 - a0), cur_k + gs + w + b0, cur_v + gs + w + b0,
                     int(b1 - b0), nxt_k + pos0, nxt_v + pos0);
      }
      __syncthreads();
    }
    Key* tk = cur_k; cur_k = nxt_k; nxt_k = tk;
    Value* tv = cur_v; cur_v = nxt_v; nxt_v = tv;
  }
}

}  // namespace sortbench::common
