// The realistic distributions' keys as pure functions of (seed, index): range,
// low_bits, timestamps, hot_buckets and runs (README "Distributions"). Each
// returns the key's integer value or bits, which generate.cu turns into a key
// of the workload's type; the CPU tests check their statistics through the
// same functions, so this header compiles without nvcc too.
#pragma once

#include <cstdint>

#include "hash.cuh"
#include "sortbench/types.hpp"

namespace sortbench::dist {

// Streams of word() the distributions draw from (each its own).
enum Stream : std::uint64_t { kRange = 30, kLowBits, kJitter, kShuffle, kHotPick, kHotBucket, kHotLow, kHotWhich };

// A distribution's parameters for one key type, flattened for a kernel.
struct Params {
  std::uint64_t seed = 0, n = 0;
  int key_bits = 32;
  std::uint64_t range_lo = 0, range_span = 0;  // range, integer keys: lo's two's complement bits, hi - lo
  double range_lo_real = 0, range_hi_real = 0;  // range, float keys
  std::uint64_t low_mask = 0;                   // low_bits
  std::uint64_t gap = 8, base = 0;              // timestamps
  int window_log2 = 6;
  std::uint64_t hot_threshold = 0;              // hot_buckets: a key is hot when its 32-bit draw is below this
  std::uint64_t hot_count = 1;
  std::uint64_t runs = 1;                       // runs
};

// 64-bit timestamps start at 2023-11 in nanoseconds since 1970; 32-bit ones at 0.
inline constexpr std::uint64_t kTimestampBase64 = 1700000000000000000ull;

inline Params params_for(const Distribution& d, KeyType k, std::uint64_t seed, std::uint64_t n) {
  Params p;
  p.seed = seed;
  p.n = n;
  p.key_bits = int(key_bytes(k) * 8);
  p.range_lo = std::uint64_t(d.range_lo_int);
  p.range_span = d.range_span;
  p.range_lo_real = d.range_lo;
  p.range_hi_real = d.range_hi;
  p.low_mask = d.low_bits >= 64 ? ~std::uint64_t(0) : (std::uint64_t(1) << d.low_bits) - 1;
  p.gap = d.gap;
  p.base = p.key_bits >= 64 ? kTimestampBase64 : 0;
  p.window_log2 = 0;
  while ((std::uint64_t(1) << p.window_log2) < d.window) ++p.window_log2;
  p.hot_threshold = std::uint64_t(d.hot_fraction * 4294967296.0);
  p.hot_count = d.hot_count;
  p.runs = d.runs;
  return p;
}

SORTBENCH_HASH_HD std::uint64_t mul_high(std::uint64_t a, std::uint64_t b) {
#ifdef __CUDA_ARCH__
  return __umul64hi(a, b);
#else
  return std::uint64_t((unsigned __int128)a * b >> 64);
#endif
}

SORTBENCH_HASH_HD double unit(std::uint64_t w) { return double(w >> 11) * (1.0 / 9007199254740992.0); }  // [0, 1)

// range, integer keys: lo + floor(w x span / 2^64), uniform over [lo, hi) to
// within span / 2^64. Two's complement bits: the caller truncates to its width.
SORTBENCH_HASH_HD std::uint64_t range_integer(const Params& p, std::uint64_t i) {
  return p.range_lo + mul_high(word(p.seed, kRange, i), p.range_span);
}

// range, float keys: a uniform real in [lo, hi) before rounding to the type.
SORTBENCH_HASH_HD double range_real(const Params& p, std::uint64_t i) {
  return p.range_lo_real + (p.range_hi_real - p.range_lo_real) * unit(word(p.seed, kRange, i));
}

// low_bits: the low B bits uniform, the others zero.
SORTBENCH_HASH_HD std::uint64_t low_bits(const Params& p, std::uint64_t i) { return word(p.seed, kLowBits, i) & p.low_mask; }

// A bijection on the integers below 2^bits, one per key (seed, window): odd
// multipliers and xorshifts, each a bijection modulo 2^bits.
SORTBENCH_HASH_HD std::uint64_t permute_within(std::uint64_t x, int bits, std::uint64_t key) {
  if (bits == 0) return 0;
  const std::uint64_t mask = bits >= 64 ? ~std::uint64_t(0) : (std::uint64_t(1) << bits) - 1;
  const int shift = bits / 2 + 1;
  for (int round = 0; round < 3; ++round) {
    const std::uint64_t k = mix64(key + std::uint64_t(round));
    x = (x * (k | 1) + (k >> 32)) & mask;
    x ^= x >> shift;
  }
  return x & mask;
}

// timestamps: stamp s = base + s x gap + jitter(s), jitter in [0, gap), so
// stamps rise strictly with gaps of 1 to 2 x gap - 1 (mean gap); position i
// holds the stamp of a shuffle of its window (whole windows only; a last,
// partial window stays in order).
SORTBENCH_HASH_HD std::uint64_t timestamp_source(const Params& p, std::uint64_t i) {
  const std::uint64_t w = i >> p.window_log2, first = w << p.window_log2;
  if (first + (std::uint64_t(1) << p.window_log2) > p.n) return i;
  return first + permute_within(i - first, p.window_log2, word(p.seed, kShuffle, w));
}
SORTBENCH_HASH_HD std::uint64_t timestamp_of(const Params& p, std::uint64_t s) {
  return p.base + s * p.gap + word(p.seed, kJitter, s) % p.gap;
}
SORTBENCH_HASH_HD std::uint64_t timestamp(const Params& p, std::uint64_t i) {
  return timestamp_of(p, timestamp_source(p, i));
}

// hot_buckets: ordered key bits (the order sorts see) of key_bits width. A
// share of the keys (hot_threshold / 2^32) fall in one of hot_count buckets
// of the top 16 bits, each picked uniformly; the rest are uniform.
SORTBENCH_HASH_HD std::uint64_t hot_bucket_of(const Params& p, std::uint64_t which) {
  return word(p.seed, kHotBucket, which) >> 48;
}
SORTBENCH_HASH_HD std::uint64_t hot_bucket_bits(const Params& p, std::uint64_t i) {
  const std::uint64_t width_mask = p.key_bits >= 64 ? ~std::uint64_t(0) : (std::uint64_t(1) << p.key_bits) - 1;
  const std::uint64_t low = word(p.seed, kHotLow, i) & width_mask;
  if ((word(p.seed, kHotPick, i) >> 32) >= p.hot_threshold) return low;
  const int low_width = p.key_bits - 16;
  const std::uint64_t bucket = hot_bucket_of(p, word(p.seed, kHotWhich, i) % p.hot_count);
  return (bucket << low_width) | (low & ((std::uint64_t(1) << low_width) - 1));
}

// runs: position i is item j of run r; runs are ceil(n / runs) keys long (the
// last one shorter), each ascending over the key type's range.
struct RunPlace {
  std::uint64_t item, length;
};
SORTBENCH_HASH_HD RunPlace run_place(const Params& p, std::uint64_t i) {
  const std::uint64_t len = (p.n + p.runs - 1) / p.runs;
  const std::uint64_t r = i / len, first = r * len;
  const std::uint64_t this_len = p.n - first < len ? p.n - first : len;
  return {i - first, this_len};
}

}  // namespace sortbench::dist
