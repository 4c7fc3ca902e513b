// Whether radix.two_digit_msd_local_lsd's buckets can fit its slabs, judged
// before its top passes from a sample of the keys (host side; the sample is
// counted on the GPU), which ones did not after them, and which part of its
// slab a block sorts a bucket as. Host code (some of it device code too), so
// the CPU tests check the rules.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#ifdef __CUDACC__
#define SORTBENCH_BUCKET_HD __host__ __device__
#else
#define SORTBENCH_BUCKET_HD
#endif

namespace sortbench::radix {

// Keys sampled, one at a hashed place in each of as many equal strides of
// the input (sortbench/device/spread_place.hpp).
inline constexpr unsigned kTopDigitSampleKeys = 1u << 16;

// counts: the sample's keys per value of the top digit (bins of them), then
// per value of the second digit. The keys that share a top digit spread over
// at most `bins` buckets (one per second digit), so more than bins x slab of
// them put more than `slab` keys in some bucket, and the same holds for a
// second digit. From a sample the shares are estimates, so the verdict wants
// twice that bound: uniform keys at the design's cap (bins x bins x slab) give
// each digit half the bound, and the largest of 2 x 256 sampled shares stays
// within 1.3x of its mean (four standard deviations of 256 samples). True:
// some bucket is sure to overflow, and the top passes would be work thrown
// away. False says nothing: a bucket may still overflow, which the bucket
// ends find after the passes.
inline bool sample_says_buckets_overflow(const unsigned* counts, unsigned bins, unsigned samples, std::uint64_t n,
                                         unsigned slab, const unsigned* left_out = nullptr) {
  const double bound = 2.0 * double(bins) * double(slab);
  for (unsigned i = 0; i < 2 * bins; ++i) {
    const unsigned c = counts[i] - (left_out ? std::min(counts[i], left_out[i]) : 0u);
    if (double(c) / double(samples) * double(n) > bound) return true;
  }
  return false;
}

// The sample's words (top_digit_sample_kernel and one_key_buckets_kernel):
// per top digit, then per second digit, the sampled keys [0, 2 bins); the
// same for the keys of buckets whose two or more sampled keys were all one
// key [2 bins, 4 bins); then the buckets with exactly one sampled key.
inline constexpr unsigned sample_words(unsigned bins) { return 4 * bins + 1; }

// Whether a bucket whose sampled keys are all one key holds that key alone.
// A key alone in its bucket in the sample stands for keys spread thinly over
// every bucket (n / samples of them each); under one such key a bucket, the
// buckets of one sampled key are taken to hold nothing else (few distinct
// keys, each in its own bucket). Zipf keys' hot buckets look like one key in
// the sample too, but their tail puts keys in every bucket.
inline bool one_key_buckets_hold_one_key(unsigned singles, unsigned samples, std::uint64_t n, unsigned buckets) {
  return double(singles) * double(n) / double(samples) < double(buckets);
}

// sample_says_buckets_overflow over the sample's words, with the keys of
// buckets of one key left out where those hold nothing else: such a bucket,
// however large, is sorted as the top passes leave it (the bucket ends and
// the one-key check after the passes find it exactly).
inline bool sample_says_mixed_buckets_overflow(const unsigned* words, unsigned bins, unsigned samples,
                                               std::uint64_t n, unsigned slab) {
  const bool leave_out = one_key_buckets_hold_one_key(words[4 * bins], samples, n, bins * bins);
  return sample_says_buckets_overflow(words, bins, samples, n, slab, leave_out ? words + 2 * bins : nullptr);
}

// The buckets that overflow their slab after the top passes, from each
// bucket's end (ends[b]: one past its last key), and where each goes when
// they are gathered, in bucket order, into one run of `keys` keys.
struct OverflowingBuckets {
  std::vector<unsigned long long> begins;   // where each one starts among the grouped keys
  std::vector<unsigned long long> offsets;  // where it starts in the gathered run; then the run's size
  unsigned long long keys = 0;
};
inline OverflowingBuckets overflowing_buckets(const unsigned long long* ends, unsigned buckets, unsigned slab) {
  OverflowingBuckets o;
  for (unsigned b = 0; b < buckets; ++b) {
    const unsigned long long begin = b ? ends[b - 1] : 0, size = ends[b] - begin;
    if (size <= slab) continue;
    o.begins.push_back(begin);
    o.offsets.push_back(o.keys);
    o.keys += size;
  }
  o.offsets.push_back(o.keys);
  return o;
}

// Of the overflowing buckets, those whose bit is set in `mixed` (bit i of
// word i / 32: bucket i of `all` holds more than one key), with their place
// in the run they are gathered into. The others hold one key each, and the
// top passes, stable, left them sorted.
inline OverflowingBuckets mixed_buckets(const OverflowingBuckets& all, const unsigned* mixed) {
  OverflowingBuckets o;
  for (std::size_t i = 0; i < all.begins.size(); ++i) {
    if (!(mixed[i / 32] >> (i % 32) & 1)) continue;
    o.begins.push_back(all.begins[i]);
    o.offsets.push_back(o.keys);
    o.keys += all.offsets[i + 1] - all.offsets[i];
  }
  o.offsets.push_back(o.keys);
  return o;
}

// The block that sorts a bucket after the top passes, by its size: the
// slab's (at most `slab` keys), a block of twice the threads (at most
// `twice`), of eight times (at most `eightfold`), or none: gathered with the
// other such buckets for Onesweep. A limit of 0 is a block whose shared
// memory does not fit the device. Device code classifies every bucket with
// it (bucket_ends_kernel), and the host tests check it.
enum class BucketTier : unsigned { slab, twice, eightfold, gathered };
struct TierLimits {
  unsigned slab = 0, twice = 0, eightfold = 0;
};
SORTBENCH_BUCKET_HD inline BucketTier bucket_tier(unsigned long long size, TierLimits l) {
  if (size <= l.slab) return BucketTier::slab;
  if (size <= l.twice) return BucketTier::twice;
  if (size <= l.eightfold) return BucketTier::eightfold;
  return BucketTier::gathered;
}
// The largest bucket a block sorts: larger ones are gathered for Onesweep.
SORTBENCH_BUCKET_HD inline unsigned long long gathered_above(TierLimits l) {
  return l.eightfold ? l.eightfold : l.twice ? l.twice : l.slab;
}

// The items a thread of the part num / den of a slab of `items` a thread,
// rounded up: a block sorts a bucket as the least third, half or two thirds
// of its slab that holds it (common/bucket_local_sort.cuh, SlabParts).
SORTBENCH_BUCKET_HD constexpr int slab_part_items(int items, int num, int den) { return (items * num + den - 1) / den; }
// Whether the block kernel that sorts buckets in thirds of a slab runs at n
// keys in `buckets` buckets: where they average two thirds of a slab or
// less. Above, most buckets take the whole slab, whose code ran slower
// beside four parts, and the kernel of halves runs.
SORTBENCH_BUCKET_HD constexpr bool sorts_in_thirds(unsigned long long n, unsigned buckets, int items, int threads) {
  return n <= static_cast<unsigned long long>(buckets) * unsigned(slab_part_items(items, 2, 3) * threads);
}

}  // namespace sortbench::radix
