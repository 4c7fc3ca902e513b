// Two MSD digits, then LSD inside each bucket (issue 15's 64-bit keys and
// pairs at 2^28; the bucket-then-local plan of PMPP 13.8, seed 000, with
// Onesweep's passes as the partition):
//   top digits: Onesweep's histogram and its passes on the two most
//               significant digits only (OnesweepInstance's first_pass),
//               keys_in -> alt -> keys_out (u32 and i32 keys with u32
//               values: each pair packed into one word in alt,
//               common/onesweep_packed_pairs.cuh). Stable, so the keys come
//               out grouped by their top two digits, 2^16 buckets at 8 bits;
//   bucket ends: one thread per bucket finds where it ends by binary search
//               in the grouped keys, and counts it as fitting a slab or
//               lists it by the block that sorts it;
//   buckets:    one block per bucket sorts it on the other digits in shared
//               memory (common/bucket_local_sort.cuh).
// An 8-bit LSD sort of 64-bit keys reads and writes every key in each of its
// eight passes: 136 bytes a key. Here the keys cross device memory three
// times after the histogram, 56 bytes a key; the six other digits' passes
// run in shared memory. At 2^28 keys the buckets hold 4096 keys on average.
// A bucket larger than a slab (skewed keys, or more keys than the design is
// for) cannot be sorted this way. Two checks find such buckets, each read by
// the host (a round trip each, against milliseconds of sort at the sizes
// this design is for):
//   before the passes, a sample of the keys' top two digits
//               (common/bucket_skew.hpp) catches keys skewed enough that a
//               bucket is sure to overflow, and the sort is Onesweep's from
//               the start, so the passes are not run for nothing (they cost
//               skewed u32 pairs at 2^28 half again the time of Onesweep
//               alone: radix-steps.json of build 71b835b, committed in
//               05f44a4; variants/radix/PERFORMANCE.md);
//               Buckets whose sampled keys are all one key are left out of
//               that count where the sample shows no keys spread thinly over
//               every bucket (few distinct keys: each fills buckets of its
//               own, however large);
//   after them, the bucket ends find the buckets that do not fit (a hot key
//               among uniform ones, which a sample of 2^16 keys misses) and
//               list them on the device by the block that sorts each. The
//               block kernel sorts the buckets that fit, a block of twice
//               the threads each other bucket of up to two slabs (keys of a
//               few values repeated thousands of times overflow some
//               buckets: sorted runs of spaced keys, runs:1000), and where
//               a slab is of at most 128 threads a block of eight times the
//               threads each one of up to eight slabs (few_unique:16384 at
//               2^26 puts two values, 8192 keys, in about 1600 buckets); such a block
//               leaves a bucket of one key as the stable passes left it.
//               The host reads only the counts. Where it made the lists
//               itself, u32 pairs on runs:2000 at 2^26 (33555 buckets past
//               the slab) took 1.95-2.29 ms, against 1.46 ms now: Nsight
//               Compute put the kernels at less than uniform keys' time.
//               Larger buckets are listed by the host, and one read of
//               their keys finds those of one key; the others are gathered
//               in bucket order into one run, which Onesweep sorts whole
//               (the top digits keep the buckets in order, and the sort is
//               stable), and put back. The passes are kept. Only when more
//               than half the keys are in those is the gather, sort and
//               scatter dearer than Onesweep from keys_in, which the two
//               passes left as it was, and that runs instead.
#include <algorithm>
#include <map>
#include <memory>

#include "common/bucket_local_sort.cuh"
#include "common/bucket_skew.hpp"
#include "sortbench/device/mapped_flag.hpp"
#include "sortbench/device/spread_place.hpp"
#include "common/onesweep.cuh"
#include "common/onesweep_packed_pairs.cuh"
#ifdef SORTBENCH_LEAN_BUILD
#include "sortbench_lean_points.h"
#endif

namespace sortbench::radix {
namespace {

// The bucket kernel's slab and passes (common/bucket_local_sort.cuh), with
// registers for at least 1024 threads per SM (1152 at 384 threads a block):
// at 512 threads and 9 items, u64 keys with u32 values took 85 registers,
// one block per SM, while u32 pairs took 64. The two top digits' passes run
// at the Onesweep point best.json picked for u64 keys and u32 pairs at 2^28
// before this design, on both GPUs (build eeb15db).
template <int RadixBits, int LocalItems, int LocalThreads>
struct TwoDigitMsdPolicy
    : BucketSortPolicy<2, RadixBits, LocalItems, LocalThreads, false, std::max(1, 1152 / LocalThreads)> {
  using TopPass = OnesweepPolicy<RadixBits, 19, 512, 2>;
  // The same passes for u32 and i32 keys with u32 values, each pair packed
  // into one word (common/onesweep_packed_pairs.cuh): of the packed points,
  // the fastest whole sort on most of the H100's u32 pairs workloads at 2^26
  // and 2^28 (variants/radix/PERFORMANCE.md, "Pairs packed into one word").
  using PackedTopPass = OnesweepPolicy<RadixBits, 18, 512, 2>;
  // Keys of Bits: the first of the top two digits, where the bucket number
  // starts in the ranked bits, and the number of buckets.
  template <class Bits>
  static constexpr int kFirstTopPass = radix_passes<Bits>(RadixBits) - 2;
  template <class Bits>
  static constexpr int kBucketShift = kFirstTopPass<Bits> * RadixBits;
  template <class Bits>
  static constexpr unsigned kBuckets = 1u << (int(sizeof(Bits) * 8) - kBucketShift<Bits>);
  // Buckets of one to two slabs: the same items a thread, twice the threads;
  // of two to eight, eight times the threads, where a block can have them.
  using TwiceSlab = TwiceSlabPolicy<TwoDigitMsdPolicy>;
  static_assert(TwiceSlab::kBlockThreads <= 1024, "a block of twice the threads");
  using EightfoldSlab = EightfoldSlabPolicy<TwoDigitMsdPolicy>;
  static constexpr bool kEightfoldTier = EightfoldSlab::kBlockThreads <= 1024;
  // The block kernel sorts a bucket as a third, half or two thirds of the
  // slab where it fits one (SlabParts::thirds) at sizes whose buckets hold
  // two thirds of a slab or less on average. At 384 x 12 on 10^8 and
  // 1.5 x 10^8 keys (H200) it was 1.04x-1.16x as fast as halves only where
  // buckets took a third or two thirds, 0.97x-1.00x where all took half.
  // Above that size most buckets take the whole slab, and the kernel of
  // halves only runs: the code of four parts left the whole slab's path 2 %
  // slower for u64 keys with u32 values at 2^26 and 2^28.
  template <class Bits>
  static constexpr bool sorts_in_thirds(std::size_t n) {
    return radix::sorts_in_thirds(n, kBuckets<Bits>, LocalItems, LocalThreads);
  }

  static Params params() {
    return {{"radix_bits", "rb", std::to_string(RadixBits)},
            {"items_per_thread", "ipt", std::to_string(LocalItems)},
            {"block_threads", "tpb", std::to_string(LocalThreads)}};
  }
};

// What the bucket ends found, published to the host in one piece.
struct BucketVerdict {
  unsigned fitting;    // buckets of 2 to slab keys (the block kernel's)
  unsigned listed[2];  // buckets past the slab for blocks of twice and eight times the threads (the lists' lengths)
  unsigned gathered;   // the other buckets past the slab, past every listed block's slab
  unsigned long long overflowing_keys;  // keys in buckets past the slab
};

// Thread b: the end of bucket b in keys, which the top digits' passes left
// grouped by the top digits of their ranked bits (PassKeyCode::ranked_bits,
// the digits as the passes ranked them), in ascending order: the first key
// of a later bucket, by binary search. The searches of all buckets run at
// once: about 30 dependent loads each, one wave. Each bucket past its slab
// is counted in *verdict (zero before) and, where a listed block holds it
// (bucket_skew.hpp, bucket_tier), appended to that block's list
// (twice_list, eightfold_list): the listed blocks run from these lists with
// no list made on the host.
constexpr int kEndsThreads = 256;
template <class Bits>
__global__ void __launch_bounds__(kEndsThreads)
    bucket_ends_kernel(const Bits* __restrict__ keys, unsigned n, KeyMap<Bits> map, int shift, TierLimits limits,
                       unsigned long long* __restrict__ ends, BucketVerdict* __restrict__ verdict,
                       unsigned* __restrict__ twice_list, unsigned* __restrict__ eightfold_list) {
  auto end_of = [&](unsigned bucket) {
    unsigned lo = 0, hi = n;
    while (lo < hi) {
      const unsigned mid = lo + (hi - lo) / 2;
      if (unsigned(PassKeyCode<Bits>::ranked_bits(map, keys[mid]) >> shift) <= bucket) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  // Every thread has a bucket: their number is a multiple of the block.
  const unsigned b = blockIdx.x * kEndsThreads + threadIdx.x;
  const unsigned end = end_of(b);
  unsigned begin = __shfl_up_sync(~0u, end, 1);
  if (threadIdx.x % 32 == 0) begin = b ? end_of(b - 1) : 0;
  ends[b] = end;
  const unsigned size = end - begin;
  const BucketTier tier = bucket_tier(size, limits);
  // One atomic a warp for each count; a listed bucket's place in its list
  // follows its lane.
  const unsigned lane = threadIdx.x % 32;
  auto count = [&](bool mine, unsigned* total, unsigned* list) {
    const unsigned ballot = __ballot_sync(~0u, mine);
    if (!ballot) return;
    unsigned first = 0;
    if (lane == 0) first = atomicAdd(total, unsigned(__popc(ballot)));
    first = __shfl_sync(~0u, first, 0);
    if (mine && list) list[first + __popc(ballot & ((1u << lane) - 1))] = b;
  };
  count(size >= 2 && tier == BucketTier::slab, &verdict->fitting, nullptr);
  count(tier == BucketTier::twice, &verdict->listed[0], twice_list);
  count(tier == BucketTier::eightfold, &verdict->listed[1], eightfold_list);
  count(tier == BucketTier::gathered, &verdict->gathered, nullptr);
  const unsigned keys_over = __reduce_add_sync(~0u, tier != BucketTier::slab ? size : 0u);  // at most n < 2^30
  if (lane == 0 && keys_over) atomicAdd(&verdict->overflowing_keys, (unsigned long long)keys_over);
}

// The sample of the skew check: kTopDigitSampleKeys keys, one at a hashed
// place in each stride (spread_place: evenly spaced places read only 4
// second digits of 64 runs of evenly spaced keys, and sent them to
// Onesweep), counted per top digit and per second digit (of the bits the
// passes rank) into counts[2 << RadixBits].
// Each sampled key also lands in its bucket's row of a table in device
// memory (the instance's, zero between samples): which sampled key came
// first (its number plus one), how many came, and whether one differed from
// the first. one_key_buckets_kernel reads the rows, clears them, and adds
// the keys of buckets of one key and the buckets of one sampled key to the
// counts (bucket_skew.hpp, sample_words).
constexpr unsigned kSampleBuckets = 1u << 16;
struct BucketSampleTable {
  unsigned first[kSampleBuckets];
  unsigned count[kSampleBuckets];
  unsigned mixed[kSampleBuckets / 32];
};
constexpr int kSampleThreads = 256, kSampleBlocks = 64;
template <int RadixBits, class Bits>
__global__ void __launch_bounds__(kSampleThreads)
    top_digit_sample_kernel(const Bits* __restrict__ keys, unsigned long long n, KeyMap<Bits> map, int shift,
                            unsigned* __restrict__ counts, BucketSampleTable* __restrict__ table) {
  constexpr int kBins = 1 << RadixBits;
  __shared__ unsigned c[2 * kBins];
  for (int i = threadIdx.x; i < 2 * kBins; i += kSampleThreads) c[i] = 0;
  __syncthreads();
  for (unsigned j = blockIdx.x * kSampleThreads + threadIdx.x; j < kTopDigitSampleKeys; j += kSampleBlocks * kSampleThreads) {
    const Bits key = keys[spread_place(j, kTopDigitSampleKeys, n)];
    const unsigned bucket = unsigned(PassKeyCode<Bits>::ranked_bits(map, key) >> shift);
    atomicAdd(&c[bucket >> RadixBits], 1u);
    atomicAdd(&c[kBins + (bucket & (kBins - 1))], 1u);
    atomicAdd(&table->count[bucket], 1u);
    // The first key is read again from the input (it does not change), so
    // no thread waits for another's write.
    const unsigned first = atomicCAS(&table->first[bucket], 0u, j + 1);
    if (first && keys[spread_place(first - 1, kTopDigitSampleKeys, n)] != key)
      atomicOr(&table->mixed[bucket / 32], 1u << bucket % 32);
  }
  __syncthreads();
  for (int i = threadIdx.x; i < 2 * kBins; i += kSampleThreads)
    if (c[i]) atomicAdd(&counts[i], c[i]);
}

// Thread b: bucket b's row of the sample's table, cleared after it is read.
// A block is one top digit (its threads the second digits).
template <int RadixBits>
__global__ void __launch_bounds__(1 << RadixBits)
    one_key_buckets_kernel(BucketSampleTable* __restrict__ table, unsigned* __restrict__ counts) {
  constexpr unsigned kBins = 1u << RadixBits;
  const unsigned b = blockIdx.x * kBins + threadIdx.x;
  const unsigned count = table->count[b];
  const bool mixed = table->mixed[b / 32] >> (b % 32) & 1;
  const unsigned one_key = count >= 2 && !mixed ? count : 0;
  table->count[b] = 0;
  table->first[b] = 0;
  __syncwarp();  // the warp's 32 buckets share the word
  if (threadIdx.x % 32 == 0) table->mixed[b / 32] = 0;
  if (one_key) atomicAdd(&counts[3 * kBins + threadIdx.x], one_key);
  __shared__ unsigned top_one_key;
  if (threadIdx.x == 0) top_one_key = 0;
  __syncthreads();
  const unsigned warp_one_key = __reduce_add_sync(~0u, one_key);
  if (threadIdx.x % 32 == 0 && warp_one_key) atomicAdd(&top_one_key, warp_one_key);
  const unsigned singles = __syncthreads_count(count == 1);
  if (threadIdx.x == 0) {
    if (top_one_key) atomicAdd(&counts[2 * kBins + blockIdx.x], top_one_key);
    if (singles) atomicAdd(&counts[4 * kBins], singles);
  }
}

// Block c: positions [c x kMixedTile, (c + 1) x kMixedTile) of the run the
// overflowing buckets would be gathered into (bucket order: begins, offsets
// as move_overflowing_kernel's), read in place among the grouped keys. A key
// unlike its bucket's first sets the bucket's bit in mixed (bit i of word
// i / 32); the buckets left clear hold one key each. All kMixedItems loads of
// a thread are issued before any compare. The block gathers its verdicts in
// shared memory first, one flag per bucket it spans (an overflowing bucket
// holds more than a slab, so a tile spans a few), and sets each bit once:
// with every key's own atomic, inputs of many mixed buckets (100000 distinct
// keys at 2^26) queued millions of atomics on a few hundred words.
constexpr int kMixedThreads = 256, kMixedItems = 8, kMixedTile = kMixedThreads * kMixedItems, kMixedSpan = 32;
template <class Bits>
__global__ void __launch_bounds__(kMixedThreads)
    mixed_buckets_kernel(const Bits* __restrict__ grouped_keys, const unsigned long long* __restrict__ begins,
                         const unsigned long long* __restrict__ offsets, unsigned count, unsigned* mixed) {
  __shared__ unsigned block_mixed[kMixedSpan];  // buckets first_bucket + j
  if (threadIdx.x < kMixedSpan) block_mixed[threadIdx.x] = 0;
  const unsigned long long first = blockIdx.x * (unsigned long long)kMixedTile, total = offsets[count];
  unsigned b = 0;  // the bucket of the tile's first position: the last whose offset is at most it
  for (unsigned hi = count; hi - b > 1;) {
    const unsigned mid = (b + hi) / 2;
    if (offsets[mid] <= first) b = mid;
    else hi = mid;
  }
  const unsigned first_bucket = b;
  __syncthreads();
  unsigned bucket[kMixedItems];
  Bits key[kMixedItems];
#pragma unroll
  for (int k = 0; k < kMixedItems; ++k) {
    const unsigned long long i = first + k * kMixedThreads + threadIdx.x;
    bucket[k] = count;
    if (i >= total) continue;
    while (offsets[b + 1] <= i) ++b;
    bucket[k] = b;
    key[k] = grouped_keys[begins[b] + (i - offsets[b])];
  }
#pragma unroll
  for (int k = 0; k < kMixedItems; ++k) {
    if (bucket[k] == count || key[k] == grouped_keys[begins[bucket[k]]]) continue;
    const unsigned j = bucket[k] - first_bucket;
    if (j < kMixedSpan) atomicOr(&block_mixed[j], 1u);
    else atomicOr(&mixed[bucket[k] / 32], 1u << bucket[k] % 32);  // a tile past 32 buckets: slabs under 64 keys
  }
  __syncthreads();
  const unsigned mine = first_bucket + threadIdx.x;
  if (threadIdx.x < kMixedSpan && block_mixed[threadIdx.x]) atomicOr(&mixed[mine / 32], 1u << mine % 32);
}

// Copies `words` words of device memory into host memory mapped for the
// device, then raises the flag after them (sortbench/device/mapped_flag.hpp):
// the host waits on the flag, not on the stream, for the sample's counts and
// the buckets' verdict (a copy back and a stream synchronization cost a
// dispatch about 100 us a sort on an H200).
constexpr int kPublishThreads = 256;
__global__ void __launch_bounds__(kPublishThreads)
    publish_kernel(const unsigned* __restrict__ from, unsigned words, unsigned* to, unsigned* flag) {
  for (unsigned i = threadIdx.x; i < words; i += kPublishThreads) reinterpret_cast<volatile unsigned*>(to)[i] = from[i];
  __threadfence_system();
  __syncthreads();
  if (threadIdx.x == 0) *reinterpret_cast<volatile unsigned*>(flag) = 1;
}

// Thread i of the run the overflowing buckets are gathered into: key i of
// it, in bucket order (offsets: where each bucket starts in the run, then the
// run's size), moved from its place among the grouped keys into the run, or
// (to_run false) back.
constexpr int kMoveThreads = 256;
template <class Bits, class V>
__global__ void __launch_bounds__(kMoveThreads)
    move_overflowing_kernel(Bits* __restrict__ grouped_keys, V* __restrict__ grouped_values, Bits* __restrict__ run_keys,
                            V* __restrict__ run_values, const unsigned long long* __restrict__ begins,
                            const unsigned long long* __restrict__ offsets, unsigned count, bool to_run) {
  const unsigned long long i = blockIdx.x * (unsigned long long)kMoveThreads + threadIdx.x;
  if (i >= offsets[count]) return;
  unsigned lo = 0, hi = count;  // the bucket: the last whose offset is at most i
  while (hi - lo > 1) {
    const unsigned mid = (lo + hi) / 2;
    if (offsets[mid] <= i) lo = mid;
    else hi = mid;
  }
  const unsigned long long g = begins[lo] + (i - offsets[lo]);
  if (to_run) {
    run_keys[i] = grouped_keys[g];
    if constexpr (kHasValues<V>) run_values[i] = grouped_values[g];
  } else {
    grouped_keys[g] = run_keys[i];
    if constexpr (kHasValues<V>) grouped_values[g] = run_values[i];
  }
}

template <class P, class Bits>
class TwoDigitMsdInstance final : public Instance {
  static constexpr unsigned kBuckets = P::template kBuckets<Bits>;
  static_assert(kBuckets % kEndsThreads == 0, "the bucket ends kernel runs whole blocks");
  static_assert(kBuckets == kSampleBuckets && kBuckets == P::kBins * P::kBins, "the sample's table has a row a bucket");
  static constexpr unsigned kSampleWords = sample_words(P::kBins), kMixedWords = kBuckets / 32;
  static constexpr unsigned kVerdictWords = sizeof(BucketVerdict) / sizeof(unsigned);

 public:
  explicit TwoDigitMsdInstance(const Problem& p)
      : p_(p),
        top_(onesweep(p, P::template kFirstTopPass<Bits>)),
        whole_(onesweep(p)) {
    top_bytes_ = top_->temp_bytes(Buffers{}, nullptr);
    // The overflowing buckets' run is sorted in the memory of the top passes
    // (free once they are done): at most n / 2 keys.
    base_ = std::max(top_bytes_, overflow_layout(p_.n / 2).bytes);
    ends_off_ = layout_.add(std::size_t(kBuckets) * sizeof(unsigned long long));
    sample_off_ = layout_.add(sizeof(SampleCounts));
    verdict_off_ = layout_.add(sizeof(BucketVerdict));
    lists_off_ = layout_.add(2 * std::size_t(kBuckets) * sizeof(unsigned));
    places_off_ = layout_.add((2 * std::size_t(kBuckets) + 1) * sizeof(unsigned long long));
    mixed_off_ = layout_.add(kMixedWords * sizeof(unsigned));
    with_value_type(p_.value, [this](auto tag) {
      using V = typename decltype(tag)::type;
      allow_smem(bucket_sort_kernel<P, Bits, V, SlabParts::half>, P::template smem_bytes<Bits, V>());
      allow_smem(bucket_sort_kernel<P, Bits, V, SlabParts::thirds>, P::template smem_bytes<Bits, V>());
      // A twice-slab block of 64-bit pairs at 512 x 17 would need 280 KB.
      constexpr std::size_t twice_bytes = P::TwiceSlab::template smem_bytes<Bits, V>();
      limits_.slab = unsigned(P::kSlab);
      if (smem_reason(twice_bytes).empty()) {
        allow_smem(listed_bucket_sort_kernel<typename P::TwiceSlab, SlabParts::whole, Bits, V>, twice_bytes);
        limits_.twice = unsigned(P::TwiceSlab::kSlab);
      }
      if constexpr (P::kEightfoldTier) {
        constexpr std::size_t eightfold_bytes = P::EightfoldSlab::template smem_bytes<Bits, V>();
        if (limits_.twice && smem_reason(eightfold_bytes).empty()) {
          allow_smem(listed_bucket_sort_kernel<typename P::EightfoldSlab, SlabParts::thirds, Bits, V>,
                     eightfold_bytes);
          limits_.eightfold = unsigned(P::EightfoldSlab::kSlab);
        }
      }
    });
    chained_ = common::chained_launch_supported();
    answers_ = MappedHost<Answers>(1, "radix.two_digit_msd_local_lsd: mapped answers");
    BucketSampleTable* table = nullptr;
    cuda_check(cudaMalloc(&table, sizeof(BucketSampleTable)), "radix.two_digit_msd_local_lsd: sample table");
    table_.reset(table);
    cuda_check(cudaMemset(table, 0, sizeof(BucketSampleTable)), "radix.two_digit_msd_local_lsd: sample table");
  }
  TwoDigitMsdInstance(const TwoDigitMsdInstance&) = delete;
  TwoDigitMsdInstance& operator=(const TwoDigitMsdInstance&) = delete;

  // The fallback sort starts once the ends are read, so it reuses the memory
  // of the top passes and of the ends.
  std::size_t temp_bytes(const Buffers& b, cudaStream_t s) override {
    return std::max(base_ + layout_.bytes, whole_->temp_bytes(b, s));
  }
  std::vector<KernelLaunch> kernels() const override {
    std::vector<KernelLaunch> k = {
        kernel_launch("top-digit sample", top_digit_sample_kernel<P::kRadixBits, Bits>, kSampleThreads, 0),
        kernel_launch("buckets of one sampled key", one_key_buckets_kernel<P::kRadixBits>, P::kBins, 0)};
    for (auto& t : top_->kernels()) k.push_back(t);
    k.push_back(kernel_launch("bucket ends", bucket_ends_kernel<Bits>, kEndsThreads, 0));
    k.push_back(kernel_launch("overflowing buckets of more than one key", mixed_buckets_kernel<Bits>, kMixedThreads, 0));
    with_value_type(p_.value, [&](auto tag) {
      using V = typename decltype(tag)::type;
      k.push_back(kernel_launch(P::template sorts_in_thirds<Bits>(p_.n) ? "bucket sort in thirds of a slab"
                                                                         : "bucket sort in halves of a slab",
                                bucket_kernel<V>(), P::kBlockThreads, P::template smem_bytes<Bits, V>()));
      if (limits_.twice)
        k.push_back(kernel_launch("buckets of up to two slabs",
                                  listed_bucket_sort_kernel<typename P::TwiceSlab, SlabParts::whole, Bits, V>,
                                  P::TwiceSlab::kBlockThreads, P::TwiceSlab::template smem_bytes<Bits, V>()));
      if constexpr (P::kEightfoldTier)
        if (limits_.eightfold)
          k.push_back(kernel_launch("buckets of up to eight slabs",
                                    listed_bucket_sort_kernel<typename P::EightfoldSlab, SlabParts::thirds, Bits, V>,
                                    P::EightfoldSlab::kBlockThreads, P::EightfoldSlab::template smem_bytes<Bits, V>()));
      k.push_back(kernel_launch("overflowing buckets moved", move_overflowing_kernel<Bits, V>, kMoveThreads, 0));
    });
    return k;
  }
  void run(const Buffers& b, void* temp, std::size_t bytes, cudaStream_t s) override {
    last_ = Path::trivial;
    if (p_.n <= 1) return copy_trivial(p_, b, s);
    if (bytes < base_ + layout_.bytes) throw std::invalid_argument("radix.two_digit_msd_local_lsd: temp too small");
    const KeyMap<Bits> map = key_map<Bits>(p_);
    auto* sample = temp_at<unsigned>(temp, base_ + sample_off_);
    cuda_check(cudaMemsetAsync(sample, 0, sizeof(SampleCounts), s), "radix.two_digit_msd_local_lsd: clear sample");
    top_digit_sample_kernel<P::kRadixBits, Bits><<<kSampleBlocks, kSampleThreads, 0, s>>>(
        static_cast<const Bits*>(b.keys_in), p_.n, map, P::template kBucketShift<Bits>, sample, table_.get());
    check_launch("radix.two_digit_msd_local_lsd: top-digit sample");
    one_key_buckets_kernel<P::kRadixBits><<<kBuckets / P::kBins, P::kBins, 0, s>>>(table_.get(), sample);
    check_launch("radix.two_digit_msd_local_lsd: buckets of one sampled key");
    volatile Answers* answers = answers_.host();
    answers->sample_done = 0;
    publish_kernel<<<1, kPublishThreads, 0, s>>>(sample, kSampleWords, answers_.device()->sample,
                                                 &answers_.device()->sample_done);
    check_launch("radix.two_digit_msd_local_lsd: publish the sample");
    wait_for_mapped_flag(&answers->sample_done, s, "radix.two_digit_msd_local_lsd: top-digit sample");
    SampleCounts counts;
    for (unsigned i = 0; i < kSampleWords; ++i) counts[i] = answers->sample[i];
    if (sample_says_mixed_buckets_overflow(counts, P::kBins, kTopDigitSampleKeys, p_.n, unsigned(P::kSlab))) {
      last_ = Path::sample_says_skewed;
      return whole_->run(b, temp, bytes, s);
    }
    top_->run(b, temp, bytes, s);
    auto* ends = temp_at<unsigned long long>(temp, base_ + ends_off_);
    auto* keys = static_cast<Bits*>(b.keys_out);
    auto* verdict = temp_at<BucketVerdict>(temp, base_ + verdict_off_);
    // The lists of the blocks of twice and of eight times the threads, a bucket's room each.
    auto* twice_list = temp_at<unsigned>(temp, base_ + lists_off_);
    auto* eightfold_list = twice_list + kBuckets;
    cuda_check(cudaMemsetAsync(verdict, 0, sizeof(BucketVerdict), s), "radix.two_digit_msd_local_lsd: clear verdict");
    bucket_ends_kernel<Bits><<<kBuckets / kEndsThreads, kEndsThreads, 0, s>>>(
        keys, unsigned(p_.n), map, P::template kBucketShift<Bits>, limits_, ends, verdict, twice_list,
        eightfold_list);
    check_launch("radix.two_digit_msd_local_lsd: bucket ends");
    answers->verdict_done = 0;
    publish_kernel<<<1, kPublishThreads, 0, s>>>(reinterpret_cast<const unsigned*>(verdict), kVerdictWords,
                                                 reinterpret_cast<unsigned*>(&answers_.device()->verdict),
                                                 &answers_.device()->verdict_done);
    check_launch("radix.two_digit_msd_local_lsd: publish the verdict");
    wait_for_mapped_flag(&answers->verdict_done, s, "radix.two_digit_msd_local_lsd: bucket ends");
    const volatile BucketVerdict& v = answers->verdict;
    twice_ = v.listed[0];
    eightfold_ = v.listed[1];
    gathered_ = v.gathered;
    overflowing_ = twice_ + eightfold_ + gathered_;
    overflowing_keys_ = v.overflowing_keys;
    one_key_ = 0;
    const bool sort_fitting = v.fitting > 0;
    last_ = overflowing_ ? Path::some_buckets_overflow : Path::every_bucket_fits;
    OverflowingBuckets over{{}, {0}};  // gathered buckets of more than one key
    if (gathered_) {
      // Only these need a list made on the host: read every end.
      if (!ends_host_) {
        unsigned long long* pinned = nullptr;
        cuda_check(cudaMallocHost(&pinned, (3 * std::size_t(kBuckets) + 1) * sizeof(unsigned long long)),
                   "radix.two_digit_msd_local_lsd: pinned bucket ends");
        ends_host_.reset(pinned);
      }
      cuda_check(cudaMemcpyAsync(ends_host_.get(), ends, std::size_t(kBuckets) * sizeof(unsigned long long),
                                 cudaMemcpyDeviceToHost, s),
                 "radix.two_digit_msd_local_lsd: read bucket ends");
      cuda_check(cudaStreamSynchronize(s), "radix.two_digit_msd_local_lsd: bucket ends");
      const OverflowingBuckets all = overflowing_buckets(ends_host_.get(), kBuckets, unsigned(gathered_above(limits_)));
      over = mixed_buckets(all, find_mixed_buckets(all, keys, temp, s));
      one_key_ = all.begins.size() - over.begins.size();
      if (!over.keys && !twice_ && !eightfold_) last_ = Path::overflowing_buckets_of_one_key;
      if (over.keys > p_.n / 2) {
        last_ = Path::most_keys_overflow;
        return whole_->run(b, temp, bytes, s);
      }
    }
    with_value_type(p_.value, [&](auto tag) {
      using V = typename decltype(tag)::type;
      if (sort_fitting)
        cuda_check(common::launch_chained(chained_, bucket_kernel<V>(), kBuckets, unsigned(P::kBlockThreads),
                                          P::template smem_bytes<Bits, V>(), s, keys, static_cast<V*>(b.values_out),
                                          static_cast<const unsigned*>(nullptr),
                                          static_cast<const unsigned long long*>(ends), map),
                   "radix.two_digit_msd_local_lsd: bucket sort");
      if (twice_) sort_listed<typename P::TwiceSlab, SlabParts::whole, V>(twice_, twice_list, b, ends, map, s);
      if constexpr (P::kEightfoldTier)
        if (eightfold_)
          sort_listed<typename P::EightfoldSlab, SlabParts::thirds, V>(eightfold_, eightfold_list, b, ends, map, s);
      if (over.keys) sort_overflowing<V>(over, b, temp, s);
    });
  }

  // What the last run did with the buckets, and why (composed here: no host
  // work in the timed run).
  std::string dispatched() const override {
    const std::string slab = std::to_string(P::kSlab) + "-key slab";
    switch (last_) {
      case Path::trivial: return "fewer than 2 keys";
      case Path::sample_says_skewed: return "the sample says a bucket overflows its " + slab + ": Onesweep sorts all keys";
      case Path::every_bucket_fits: return "every bucket fits its " + slab;
      case Path::some_buckets_overflow: {
        const std::size_t apart = gathered_ - one_key_;
        std::string how;
        auto part = [&](std::size_t count, const std::string& who) {
          if (count)
            how += (how.empty() ? "" : ", ") + who + " sort " +
                   (count == overflowing_ ? std::string("them") : std::to_string(count) + " of them");
        };
        part(twice_, "blocks of twice the threads");
        part(eightfold_, "blocks of eight times the threads");
        if (apart)
          how += (how.empty() ? "" : ", ") + std::string("Onesweep sorts ") +
                 (apart < overflowing_ ? "the other " + std::to_string(apart) : std::string("them")) + " apart";
        return std::to_string(overflowing_) + " of " + std::to_string(kBuckets) + " buckets overflow their " + slab +
               " (" + std::to_string(overflowing_keys_) + " keys)" + of_one_key() + ": " + how;
      }
      case Path::overflowing_buckets_of_one_key:
        return std::to_string(overflowing_) + " of " + std::to_string(kBuckets) + " buckets overflow their " + slab +
               " (" + std::to_string(overflowing_keys_) + " keys), each of one key: sorted as the top passes left them";
      case Path::most_keys_overflow:
        return std::to_string(overflowing_) + " buckets overflow their " + slab + " with " +
               std::to_string(overflowing_keys_) + " of " + std::to_string(p_.n) + " keys" + of_one_key() +
               ": more than half the keys in buckets of more than one key past every listed block's slab, so "
               "Onesweep sorts all keys";
    }
    return {};
  }

 private:
  enum class Path {
    trivial,
    sample_says_skewed,
    every_bucket_fits,
    some_buckets_overflow,
    overflowing_buckets_of_one_key,
    most_keys_overflow
  };
  Path last_ = Path::trivial;
  // Buckets past the slab; of them, those a block of twice and of eight
  // times the threads sorted (those of one key among them left as they
  // are), those gathered, and of these, those of one key.
  std::size_t overflowing_ = 0, twice_ = 0, eightfold_ = 0, gathered_ = 0, one_key_ = 0;
  unsigned long long overflowing_keys_ = 0;
  std::string of_one_key() const {
    return one_key_ ? ", " + std::to_string(one_key_) + " of them of one key (sorted as the top passes left them)" : "";
  }

  // The block kernel at this size: in thirds of a slab or in halves
  // (TwoDigitMsdPolicy::sorts_in_thirds).
  template <class V>
  auto bucket_kernel() const {
    return P::template sorts_in_thirds<Bits>(p_.n) ? bucket_sort_kernel<P, Bits, V, SlabParts::thirds>
                                                   : bucket_sort_kernel<P, Bits, V, SlabParts::half>;
  }

  // The `count` buckets listed at `list` (bucket_ends_kernel), a block of Q
  // each (listed_bucket_sort_kernel).
  template <class Q, SlabParts Parts, class V>
  void sort_listed(std::size_t count, const unsigned* list, const Buffers& b, const unsigned long long* ends,
                   KeyMap<Bits> map, cudaStream_t s) {
    listed_bucket_sort_kernel<Q, Parts, Bits, V><<<unsigned(count), Q::kBlockThreads,
                                                   Q::template smem_bytes<Bits, V>(), s>>>(
        static_cast<Bits*>(b.keys_out), static_cast<V*>(b.values_out), ends, list, map);
    check_launch("radix.two_digit_msd_local_lsd: listed buckets");
  }

  // The overflowing buckets' begins and offsets, copied to the device (one
  // copy, from the pinned memory after the bucket ends).
  std::pair<const unsigned long long*, const unsigned long long*> upload_places(const OverflowingBuckets& over,
                                                                                void* temp, cudaStream_t s) {
    const std::size_t count = over.begins.size();
    unsigned long long* places_host = ends_host_.get() + kBuckets;
    std::copy(over.offsets.begin(), over.offsets.end(),
              std::copy(over.begins.begin(), over.begins.end(), places_host));
    auto* begins = temp_at<unsigned long long>(temp, base_ + places_off_);
    cuda_check(cudaMemcpyAsync(begins, places_host, (2 * count + 1) * sizeof(unsigned long long),
                               cudaMemcpyHostToDevice, s),
               "radix.two_digit_msd_local_lsd: overflowing buckets");
    return {begins, begins + count};
  }

  // Which overflowing buckets hold more than one key (mixed_buckets_kernel,
  // its words read by the host through mapped memory): the others are sorted
  // already. Reads the overflowing keys once.
  const unsigned* find_mixed_buckets(const OverflowingBuckets& all, const Bits* grouped_keys, void* temp,
                                     cudaStream_t s) {
    const unsigned count = unsigned(all.begins.size()), words = (count + 31) / 32;
    const auto [begins, offsets] = upload_places(all, temp, s);
    auto* mixed = temp_at<unsigned>(temp, base_ + mixed_off_);
    cuda_check(cudaMemsetAsync(mixed, 0, words * sizeof(unsigned), s), "radix.two_digit_msd_local_lsd: clear mixed");
    const unsigned blocks = unsigned((all.keys + kMixedTile - 1) / kMixedTile);
    mixed_buckets_kernel<Bits><<<blocks, kMixedThreads, 0, s>>>(grouped_keys, begins, offsets, count, mixed);
    check_launch("radix.two_digit_msd_local_lsd: overflowing buckets of more than one key");
    volatile Answers* answers = answers_.host();
    answers->mixed_done = 0;
    publish_kernel<<<1, kPublishThreads, 0, s>>>(mixed, words, answers_.device()->mixed,
                                                 &answers_.device()->mixed_done);
    check_launch("radix.two_digit_msd_local_lsd: publish the mixed buckets");
    wait_for_mapped_flag(&answers->mixed_done, s, "radix.two_digit_msd_local_lsd: overflowing buckets");
    for (unsigned w = 0; w < words; ++w) mixed_host_[w] = answers->mixed[w];
    return mixed_host_;
  }

  // The memory of the overflowing buckets' sort: the sorted run (keys, then
  // values) and the Onesweep sort's own temporary storage.
  struct OverflowLayout {
    std::size_t keys = 0, values = 0, sort = 0, bytes = 0;
  };
  OverflowLayout overflow_layout(std::size_t n) {
    OverflowLayout o;
    TempLayout l;
    o.keys = l.add(n * sizeof(Bits));
    o.values = l.add(n * value_bytes(p_.value));
    o.sort = l.add(n > 1 ? overflow_sort(n).temp_bytes(Buffers{}, nullptr) : 0);
    o.bytes = l.bytes;
    return o;
  }
  // Onesweep at P::TopPass for a run of n keys, one per size (the input is
  // the same in every sample of a benchmark, and so are its runs).
  Instance& overflow_sort(std::size_t n) {
    auto it = overflow_sorts_.find(n);
    if (it == overflow_sorts_.end()) {
      if (overflow_sorts_.size() >= 64) overflow_sorts_.clear();
      Problem q = p_;
      q.n = n;
      q.const_input = false;
      it = overflow_sorts_.emplace(n, onesweep(q)).first;
    }
    return *it->second;
  }
  // The overflowing buckets gathered from keys_out into keys_in (scratch; the
  // top passes left it as it was), sorted whole into the overflow layout's
  // run, and put back in their places in keys_out.
  template <class V>
  void sort_overflowing(const OverflowingBuckets& over, const Buffers& b, void* temp, cudaStream_t s) {
    const unsigned count = unsigned(over.begins.size());
    const auto [begins, offsets] = upload_places(over, temp, s);
    const OverflowLayout o = overflow_layout(over.keys);
    auto* run_k = static_cast<Bits*>(b.keys_in);
    auto* run_v = static_cast<V*>(b.values_in);
    auto* sorted_k = temp_at<Bits>(temp, o.keys);
    auto* sorted_v = kHasValues<V> ? temp_at<V>(temp, o.values) : nullptr;
    const unsigned blocks = unsigned((over.keys + kMoveThreads - 1) / kMoveThreads);
    move_overflowing_kernel<Bits, V><<<blocks, kMoveThreads, 0, s>>>(static_cast<Bits*>(b.keys_out),
                                                                    static_cast<V*>(b.values_out), run_k, run_v, begins,
                                                                    offsets, count, true);
    check_launch("radix.two_digit_msd_local_lsd: gather the overflowing buckets");
    overflow_sort(over.keys).run(Buffers{run_k, sorted_k, run_v, sorted_v}, temp_at<char>(temp, o.sort),
                                 o.bytes - o.sort, s);
    move_overflowing_kernel<Bits, V><<<blocks, kMoveThreads, 0, s>>>(static_cast<Bits*>(b.keys_out),
                                                                    static_cast<V*>(b.values_out), sorted_k, sorted_v,
                                                                    begins, offsets, count, false);
    check_launch("radix.two_digit_msd_local_lsd: put the overflowing buckets back");
  }

  // Onesweep at P::TopPass (built in onesweep_keys*.cu, a grid point), or
  // over packed pairs at P::PackedTopPass (onesweep_packed_pairs.cu) where
  // they pack.
  static std::unique_ptr<Instance> onesweep(const Problem& p, int first_pass = 0) {
    if (packs_pairs(p)) return make_onesweep_packed_pairs<typename P::PackedTopPass>(p, first_pass);
    return make_onesweep<typename P::TopPass, Bits>(p, first_pass);
  }

  Problem p_;
  // Onesweep (onesweep()): the top two digits' passes, and every digit's
  // when a bucket does not fit.
  std::unique_ptr<Instance> top_, whole_;
  // The top-digit sample's counts (the skew check), per top digit, then per
  // second digit.
  using SampleCounts = unsigned[kSampleWords];
  // After the top passes' memory (base_): the bucket ends, the sample, the
  // verdict, the listed blocks' lists, the gathered buckets' places and
  // which of them hold more than one key.
  TempLayout layout_;
  std::size_t top_bytes_ = 0, base_ = 0, ends_off_ = 0, sample_off_ = 0, verdict_off_ = 0,
              lists_off_ = 0, places_off_ = 0, mixed_off_ = 0;
  // The largest bucket each block sorts; a listed block whose shared memory
  // does not fit the device has none (0).
  TierLimits limits_;
  // Mapped for the device: the sample's counts and the buckets' verdict,
  // each with the flag publish_kernel raises after it.
  struct Answers {
    SampleCounts sample;
    BucketVerdict verdict;
    unsigned mixed[kMixedWords];
    std::uint32_t sample_done, verdict_done, mixed_done;
  };
  unsigned mixed_host_[kMixedWords];
  struct FreeDevice {
    void operator()(void* p) const { cudaFree(p); }
  };
  struct FreePinned {
    void operator()(void* p) const { cudaFreeHost(p); }
  };
  std::unique_ptr<BucketSampleTable, FreeDevice> table_;
  MappedHost<Answers> answers_;
  // Pinned, made at the first bucket past every listed block's slab: the bucket ends, then such buckets'
  // begins and offsets.
  std::unique_ptr<unsigned long long[], FreePinned> ends_host_;
  std::map<std::size_t, std::unique_ptr<Instance>> overflow_sorts_;
  bool chained_ = false;
};

template <int RadixBits, int LocalItems, int LocalThreads>
VariantInfo two_digit_msd_local_info() {
  using P = TwoDigitMsdPolicy<RadixBits, LocalItems, LocalThreads>;
  VariantInfo v;
  v.label = "radix.two_digit_msd_local_lsd." + param_label(P::params());
  v.family = "radix";
  v.description = "Onesweep's passes on the top two digits only, then one block per bucket of them runs the other "
                  "digits' passes in shared memory (a whole Onesweep sort instead when a bucket is larger than a "
                  "block's slab)";
  v.seed = "000 PMPP 13.8 (buckets sorted locally); 001 further reading (Onesweep)";
  take_every_type(v);
  // 32- and 64-bit keys: two digits to partition on and at least one to sort
  // locally, and no more than 2^16 buckets.
  v.key_types.erase(std::remove_if(v.key_types.begin(), v.key_types.end(),
                                   [](KeyType k) { return key_bytes(k) < 4; }),
                    v.key_types.end());
  v.descending = true;
  v.stable = true;
  v.params = P::params();
  v.tile_keys = P::kSlab;
  // Past buckets x slab keys even uniform buckets overflow the slab, and
  // every sort would be Onesweep's; the top passes run in one portion.
  v.max_n = std::size_t(P::template kBuckets<std::uint32_t>) * P::kSlab;
  v.max_n_why = std::to_string(P::template kBuckets<std::uint32_t>) + " buckets of at most " +
                std::to_string(P::kSlab) + " keys (one block's slab) each";
  static_assert(std::size_t(P::template kBuckets<std::uint32_t>) * P::kSlab < (std::size_t(1) << 30),
                "the top passes sort in one portion");
  static_assert(P::template kBuckets<std::uint32_t> == P::template kBuckets<std::uint64_t>,
                "one bucket count for every key width");
  // The top passes' traffic and the buckets read and written once more.
  v.bytes_per_key = [](const Problem& p) {
    return traffic::msd_then_local(p) + 2.0 * double(key_bytes(p.key) + value_bytes(p.value));
  };
  v.unsupported = [](const Problem& p) {
    return with_bits_and_value(p, [&](auto bits_tag, auto value_tag) {
      using Bits = typename decltype(bits_tag)::type;
      using V = typename decltype(value_tag)::type;
      std::string why = smem_reason(P::template smem_bytes<Bits, V>());
      if (why.empty() && packs_pairs(p))
        return smem_reason(OnesweepPackedPairsInstance<typename P::PackedTopPass>::pass_smem());
      return why.empty() ? smem_reason(P::TopPass::template smem_bytes<Bits, V>()) : why;
    });
  };
  v.make = [](const Problem& p) {
    return with_key_bits(p.key, [&](auto bits_tag) -> std::unique_ptr<Instance> {
      using Bits = typename decltype(bits_tag)::type;
      if constexpr (sizeof(Bits) >= 4)
        return std::make_unique<TwoDigitMsdInstance<P, Bits>>(p);
      else
        throw std::logic_error("radix.two_digit_msd_local_lsd: keys of fewer than 32 bits");
    });
  };
  return v;
}

}  // namespace

// Slabs of 384, 1280, 4608 and 8704 keys: uniform buckets fill about 67 %,
// 80 %, 89 % and 94 % of them at 2^24, 2^26, 2^28 and 2^29 keys (the largest
// of 2^16 buckets is about four standard deviations above the mean, 320,
// 1160, 4360 and 8560 keys). At 2^24, 64 threads of 6 keys were faster than
// 128 of 3 on every workload of both GPUs' tunes, likely because a block
// clears, scans and offsets 256 digit counters per warp for a bucket of only
// about 256 keys. At 2^28 on the H100, 64-bit keys were fastest with 384
// threads a block (10.57 against 11.63 ms at 512), u32 pairs level (7.64 and
// 7.68 ms; docs/experiments/issue15-steps.md).
#ifdef SORTBENCH_LEAN_BUILD
// The lean build: the points a committed best.json names (cmake/lean_points.cmake).
#define SORTBENCH_RADIX_REGISTER_TWO_DIGIT(...) SORTBENCH_REGISTER_VARIANT((two_digit_msd_local_info<__VA_ARGS__>()));
SORTBENCH_LEAN_TWO_DIGIT(SORTBENCH_RADIX_REGISTER_TWO_DIGIT)
#undef SORTBENCH_RADIX_REGISTER_TWO_DIGIT
#else
SORTBENCH_REGISTER_VARIANT(two_digit_msd_local_info<8, 3, 128>());
SORTBENCH_REGISTER_VARIANT(two_digit_msd_local_info<8, 6, 64>());
SORTBENCH_REGISTER_VARIANT(two_digit_msd_local_info<8, 5, 256>());
SORTBENCH_REGISTER_VARIANT(two_digit_msd_local_info<8, 10, 128>());
SORTBENCH_REGISTER_VARIANT(two_digit_msd_local_info<8, 9, 512>());
SORTBENCH_REGISTER_VARIANT(two_digit_msd_local_info<8, 12, 384>());
SORTBENCH_REGISTER_VARIANT(two_digit_msd_local_info<8, 17, 512>());
#endif

}  // namespace sortbench::radix
