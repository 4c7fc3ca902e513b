// Whether radix.two_digit_msd_local_lsd's buckets can fit its slabs, judged
// before its top passes from a sample of the keys (host side; the sample is
// counted on the GPU), and which ones did not after them. Host-only, so the
// CPU tests check the rules.
#pragma once

#include <cstdint>
#include <vector>

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
                                         unsigned slab) {
  const double bound = 2.0 * double(bins) * double(slab);
  for (unsigned i = 0; i < 2 * bins; ++i)
    if (double(counts[i]) / double(samples) * double(n) > bound) return true;
  return false;
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

}  // namespace sortbench::radix
