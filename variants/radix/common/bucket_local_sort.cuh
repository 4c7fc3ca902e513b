// Buckets sorted in shared memory, one block each (PMPP 13.8, seed 000): the
// second half of the MSD-then-local designs (radix.msd_local_lsd after one
// MSD digit, radix.two_digit_msd_local_lsd after two). A block reads its
// bucket once, runs the remaining digits' passes in shared memory (Onesweep's
// match ranking of the whole slab, no look-back) and writes the bucket back
// once.
#pragma once

#include "bucket_skew.hpp"
#include "common/chained_launch.cuh"
#include "match_rank.cuh"
#include "radix_common.cuh"

namespace sortbench::radix {

// LocalItems x LocalThreads: the slab one block sorts in shared memory, the
// largest bucket the design sorts itself. UnrolledPasses: the passes
// unrolled, each compiled with its own shift. It helps some points and hurts
// others, with no rule we could state (2^20 u32 keys, ipt9.tpb512: 50.9
// against 43.5 us; 64-bit keys and ipt17 slower, up to 47 %; H100, both in
// one run, docs/experiments/issue15-steps.md), so it is a parameter.
// MinBlocks: blocks per SM the kernel's registers must leave room for.
// TopDigits: the most significant digits, equal across a bucket, that the
// kernel does not sort.
template <int TopDigits, int RadixBits, int LocalItems, int LocalThreads, bool UnrolledPasses = false,
          int MinBlocks = 1>
struct BucketSortPolicy {
  static constexpr int kTopDigits = TopDigits;
  static constexpr int kRadixBits = RadixBits;
  static constexpr int kBlockThreads = LocalThreads;
  static constexpr int kItemsPerThread = LocalItems;
  static constexpr int kBins = 1 << RadixBits;
  static constexpr int kSlab = LocalThreads * LocalItems;
  static constexpr int kBinsPerThread = (kBins + LocalThreads - 1) / LocalThreads;
  static constexpr bool kUnrolledPasses = UnrolledPasses;
  static constexpr int kMinBlocks = MinBlocks;
  // The passes a bucket of Bits keys needs: every digit below the top ones.
  template <class Bits>
  static constexpr int kPasses = radix_passes<Bits>(RadixBits) - TopDigits;
  using Rank = SlabMatchRank<RadixBits, LocalItems, LocalThreads>;
  // The same block ranking Num/Den as many items a thread (rounded up,
  // bucket_skew.hpp): a bucket that fits such a part of the slab is sorted
  // as that part (SlabParts), so that a slab sized for the largest buckets
  // of one input size does not rank empty slots through every pass at a
  // smaller size (2^16 buckets of 4608 slots hold about 1500 keys each at
  // 10^8 keys: as half a slab, 1.25x-1.46x as fast as the whole at 384 x 12).
  // Not with unrolled passes: their code twice over ran 64-bit keys at
  // 256 x 9 at 0.87x-0.91x (docs/experiments/realistic-data.md, run 57).
  template <int Num, int Den>
  using Part = BucketSortPolicy<TopDigits, RadixBits, slab_part_items(LocalItems, Num, Den), LocalThreads,
                                UnrolledPasses, MinBlocks>;

  // One copy of the slab: every thread holds its keys in registers from
  // before a pass's ranking to after it, so ranked keys go back in place.
  // Packed pairs (BucketPacking) keep the values where they were loaded.
  template <class Bits, class V>
  struct Smem {
    using ValueSlot = std::conditional_t<kHasValues<V>, V, char>;
    ValueSlot values[kHasValues<V> ? kSlab : 1];
    Bits keys[kSlab];
    typename Rank::Storage rank;
    typename BlockScanShfl<LocalThreads>::Storage scan;
  };
  template <class Bits, class V>
  static constexpr std::size_t smem_bytes() { return sizeof(Smem<Bits, V>); }
};

// Keys (and values) moved through shared memory by every pass.
template <class P, class Bits, class V>
__device__ __forceinline__ void bucket_sort_moved(typename P::template Smem<Bits, V>& s, Bits* __restrict__ keys,
                                                  V* __restrict__ values, int valid, PassKeyCode<Bits> code) {
  constexpr int T = P::kBlockThreads, Items = P::kItemsPerThread, BPT = P::kBinsPerThread;
  constexpr unsigned kMask = P::kBins - 1;
  constexpr int kPasses = P::template kPasses<Bits>;
  constexpr int kUnroll = P::kUnrolledPasses ? kPasses : 1;
  using Rank = typename P::Rank;
#pragma unroll kUnroll
  for (int pass = 0; pass < kPasses; ++pass) {
    const int shift = pass * P::kRadixBits;
    Bits key[Items];
    [[maybe_unused]] V value[Items];
    if (pass == 0) {
      // The first pass ranks the bucket as it comes from device memory, each
      // thread's loads issued together: no copy through shared memory first.
      code.with_static_encode([&](auto kind) {
#pragma unroll
        for (int j = 0; j < Items; ++j) {
          const int i = Rank::index(j);
          if (i < valid) {
            key[j] = code.template encoded<decltype(kind)::value>(keys[i]);
            if constexpr (kHasValues<V>) value[j] = values[i];
          }
        }
      });
    } else {
#pragma unroll
      for (int j = 0; j < Items; ++j) {
        const int i = Rank::index(j);
        if (i < valid) {
          key[j] = s.keys[i];
          if constexpr (kHasValues<V>) value[j] = s.values[i];
        }
      }
    }
    // The top digit is not among these, so -0.0's code needs no fix here.
    const auto digit_of = code.template digit<KeyKind::unsigned_int>(shift, kMask);
    auto digit = [&](int j) { return Rank::index(j) < valid ? digit_of(key[j]) : kMask; };
    unsigned bin_count[BPT], bin_local[BPT], rank[Items];
    Rank::rank_tile(s.rank, s.scan, digit, rank, bin_count, bin_local);
#pragma unroll
    for (int j = 0; j < Items; ++j)
      if (rank[j] < unsigned(valid)) {
        s.keys[rank[j]] = key[j];
        if constexpr (kHasValues<V>) s.values[rank[j]] = value[j];
      }
    __syncthreads();
  }
  code.with_static_decode([&](auto kind) {
#pragma unroll
    for (int j = 0; j < Items; ++j) {
      const int i = j * T + int(threadIdx.x);
      if (i < valid) {
        keys[i] = code.template decoded<decltype(kind)::value>(s.keys[i]);
        if constexpr (kHasValues<V>) values[i] = s.values[i];
      }
    }
  });
}

// Pairs whose unsorted key bits and a place in the slab fit one key word
// (u32 keys under two 8-bit top digits: 16 bits each; u64 keys: 48 and 16)
// are sorted as one word each: the first pass stores each value in shared
// memory where it was loaded and ranks (key bits << kIndexBits | place); the
// passes move that word alone, written to its rank as its row is ranked (no
// rank or value arrays live through the ranking), and the values are
// gathered by place as the bucket is written back. 2^28 u32 pairs on an
// H100: 7.03 against 7.69 ms at ipt12.tpb384, u64 + u32 14.06 against 16.05,
// measured side by side, before the -0.0 mark below (docs/experiments/issue15-steps.md).
template <class P, class Bits, class V>
struct BucketPacking {
  static constexpr int kPasses = P::template kPasses<Bits>;
  static constexpr int kLowBits = kPasses * P::kRadixBits;
  static constexpr int kIndexBits = int(sizeof(Bits) * 8) - kLowBits;
  // The top bit of the place field marks -0.0, whose code (0) does not have
  // the top digits of its bucket (+0.0's: the passes rank -0.0 as +0.0).
  static constexpr bool kPacked =
      kHasValues<V> && kIndexBits > 1 && kIndexBits < 32 && (std::size_t(1) << (kIndexBits - 1)) >= P::kSlab;
  static constexpr Bits kLowMask = kPacked ? Bits((Bits(1) << kLowBits) - 1) : Bits(0);
  static constexpr unsigned kNegativeZero = kPacked ? 1u << (kIndexBits - 1) : 0u;
  static constexpr unsigned kPlaceMask = kNegativeZero - 1;
};

template <class P, class Bits, class V>
__device__ __forceinline__ void bucket_sort_packed(typename P::template Smem<Bits, V>& s, Bits* __restrict__ keys,
                                                   V* __restrict__ values, int valid, PassKeyCode<Bits> code) {
  using Pack = BucketPacking<P, Bits, V>;
  using Code = PassKeyCode<Bits>;
  constexpr int T = P::kBlockThreads, Items = P::kItemsPerThread, BPT = P::kBinsPerThread;
  constexpr unsigned kMask = P::kBins - 1;
  constexpr int kUnroll = P::kUnrolledPasses ? Pack::kPasses : 1;
  using Rank = typename P::Rank;
  Bits top = 0;  // the top digits' bits of the bucket's codes
#pragma unroll kUnroll
  for (int pass = 0; pass < Pack::kPasses; ++pass) {
    Bits word[Items];
    if (pass == 0) {
      code.with_static_encode([&](auto kind) {
        constexpr KeyKind K = decltype(kind)::value;
        auto code_of = [&](Bits key) {
          const Bits x = Code::template encoded<K>(key);
          if constexpr (K == KeyKind::floating) return Code::zero_as_positive(x);
          else return x;
        };
        top = Bits(code_of(keys[0]) & ~Pack::kLowMask);
#pragma unroll
        for (int j = 0; j < Items; ++j) {
          const int i = Rank::index(j);
          if (i < valid) {
            const Bits x = Code::template encoded<K>(keys[i]);
            const unsigned negative_zero = K == KeyKind::floating && x == 0 ? Pack::kNegativeZero : 0u;
            word[j] = Bits(Bits(x & Pack::kLowMask) << Pack::kIndexBits) | Bits(unsigned(i) | negative_zero);
            s.values[i] = values[i];
          }
        }
      });
    } else {
#pragma unroll
      for (int j = 0; j < Items; ++j) {
        const int i = Rank::index(j);
        if (i < valid) word[j] = s.keys[i];
      }
    }
    const auto digit_of = code.template digit<KeyKind::unsigned_int>(Pack::kIndexBits + pass * P::kRadixBits, kMask);
    auto digit = [&](int j) { return Rank::index(j) < valid ? digit_of(word[j]) : kMask; };
    unsigned bin_count[BPT], bin_local[BPT];
    Rank::rank_tile_each(
        s.rank, s.scan, digit,
        [&](int j, unsigned r) {
          if (r < unsigned(valid)) s.keys[r] = word[j];
        },
        bin_count, bin_local);
    __syncthreads();
  }
  code.with_static_decode([&](auto kind) {
#pragma unroll
    for (int j = 0; j < Items; ++j) {
      const int i = j * T + int(threadIdx.x);
      if (i < valid) {
        const Bits w = s.keys[i];
        const Bits x = Bits((unsigned(w) & Pack::kNegativeZero ? Bits(0) : top) | (w >> Pack::kIndexBits));
        keys[i] = Code::template decoded<decltype(kind)::value>(x);
        values[i] = s.values[unsigned(w) & Pack::kPlaceMask];
      }
    }
  });
}

// The parts of its slab a block may sort a bucket as (BucketSortPolicy::Part):
// the whole slab only; half of it; or a third, a half or two thirds of it.
enum class SlabParts { whole, half, thirds };

// One block sorts `valid` keys (and values) at keys, on every digit below
// P's top ones (equal in them), in smem_raw (P's Smem), as the least of
// Parts that holds them.
// The bucket is sorted on the codes the passes rank (PassKeyCode): the MSD
// passes split the keys by the top digits of their code, which for a
// negative float is not that of KeyMap's ordered bits. Encoded as loaded,
// decoded as stored.
template <class P, SlabParts Parts, class Bits, class V>
__device__ __forceinline__ void sort_bucket(unsigned char* smem_raw, Bits* __restrict__ keys, V* __restrict__ values,
                                            int valid, KeyMap<Bits> map) {
  const auto code = PassKeyCode<Bits>::of_pass(map, 0, 0, 0);
  auto sort_as = [&](auto policy) {
    using Q = typename decltype(policy)::type;
    static_assert(sizeof(typename Q::template Smem<Bits, V>) <= sizeof(typename P::template Smem<Bits, V>));
    auto& s = *reinterpret_cast<typename Q::template Smem<Bits, V>*>(smem_raw);
    if constexpr (BucketPacking<Q, Bits, V>::kPacked) bucket_sort_packed<Q>(s, keys, values, valid, code);
    else bucket_sort_moved<Q>(s, keys, values, valid, code);
  };
  // Each part is tried where it has fewer items a thread than the next part
  // up (one copy of the passes' code each). The whole block takes one
  // branch: no barrier is left unmatched.
  using Third = typename P::template Part<1, 3>;
  using Half = typename P::template Part<1, 2>;
  using TwoThirds = typename P::template Part<2, 3>;
  if constexpr (Parts != SlabParts::whole && !P::kUnrolledPasses) {
    if constexpr (Parts == SlabParts::thirds && Third::kItemsPerThread < Half::kItemsPerThread)
      if (valid <= Third::kSlab) return sort_as(TypeTag<Third>{});
    if constexpr (Half::kItemsPerThread < (Parts == SlabParts::thirds ? TwoThirds::kItemsPerThread
                                                                          : P::kItemsPerThread))
      if (valid <= Half::kSlab) return sort_as(TypeTag<Half>{});
    if constexpr (Parts == SlabParts::thirds && TwoThirds::kItemsPerThread < P::kItemsPerThread)
      if (valid <= TwoThirds::kSlab) return sort_as(TypeTag<TwoThirds>{});
  }
  sort_as(TypeTag<P>{});
}

// Block d sorts bucket d, keys[ends[d - 1], ends[d]), on every digit below
// its TopDigits most significant ones (equal in it), unless *buckets_fit is
// 0 (a bucket did not fit, and the whole sort is done another way) or the
// bucket is larger than the slab (the caller sorts it another way). A null
// buckets_fit: the caller launches the kernel only where it is to run.
template <class P, class Bits, class V, SlabParts Parts = SlabParts::half>
__global__ void __launch_bounds__(P::kBlockThreads, P::kMinBlocks)
    bucket_sort_kernel(Bits* __restrict__ keys, V* __restrict__ values, const unsigned* __restrict__ buckets_fit,
                       const unsigned long long* __restrict__ ends, KeyMap<Bits> map) {
  extern __shared__ __align__(16) unsigned char smem_raw[];
  common::chain_wait();
  common::chain_release();
  if (buckets_fit && !*buckets_fit) return;
  const unsigned long long begin = blockIdx.x ? ends[blockIdx.x - 1] : 0;
  const unsigned long long size = ends[blockIdx.x] - begin;
  if (size <= 1 || size > unsigned(P::kSlab)) return;
  sort_bucket<P, Parts>(smem_raw, keys + begin, kHasValues<V> ? values + begin : values, int(size), map);
}

// The same block sort with more threads a block, for buckets larger than a
// slab (keys of a few values repeated thousands of times overflow some
// buckets: sorted runs of spaced keys, runs:1000): block i sorts bucket
// list[i], keys[ends[b - 1], ends[b]). Twice the threads take buckets of one
// to two slabs; eight times the threads those of two to eight, as the least
// third, half or two thirds of their slab that holds them (SlabParts), so
// that every bucket fills more than half the slots its block ranks: a block
// of 1024 threads of 6 keys took 840-key buckets (few_unique:40000, u64 keys
// at 2^24) at 0.82x the time of gathering them for Onesweep. A bucket of one
// key is left as it is: stable passes on the top digits left it in input
// order.
template <class P, int Threads>
using ListedSlabPolicy =
    BucketSortPolicy<P::kTopDigits, P::kRadixBits, P::kItemsPerThread, Threads, P::kUnrolledPasses, 1>;
template <class P>
using TwiceSlabPolicy = ListedSlabPolicy<P, 2 * P::kBlockThreads>;
template <class P>
using EightfoldSlabPolicy = ListedSlabPolicy<P, 8 * P::kBlockThreads>;
template <class P, SlabParts Parts, class Bits, class V>
__global__ void __launch_bounds__(P::kBlockThreads, 1)
    listed_bucket_sort_kernel(Bits* __restrict__ keys, V* __restrict__ values,
                              const unsigned long long* __restrict__ ends, const unsigned* __restrict__ list,
                              KeyMap<Bits> map) {
  extern __shared__ __align__(16) unsigned char smem_raw[];
  const unsigned b = list[blockIdx.x];
  const unsigned long long begin = b ? ends[b - 1] : 0, size = ends[b] - begin;
  if (size <= 1 || size > unsigned(P::kSlab)) return;
  const Bits first = keys[begin];
  int differs = 0;
  for (unsigned i = threadIdx.x; i < unsigned(size); i += P::kBlockThreads) differs |= keys[begin + i] != first;
  if (!__syncthreads_or(differs)) return;
  sort_bucket<P, Parts>(smem_raw, keys + begin, kHasValues<V> ? values + begin : values, int(size), map);
}

}  // namespace sortbench::radix
