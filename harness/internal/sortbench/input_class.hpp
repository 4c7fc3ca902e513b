// What a sample of the keys says about the input: the class best.json keeps
// a pick for (spread, skewed, presorted, narrow, clustered or few_distinct) and the
// figures that decided it.
// Host code; the sample is taken on the GPU (device.hpp, count_sample).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "sortbench/device/spread_place.hpp"

namespace sortbench {

enum class InputClass {
  spread,     // no sign of skew or order: what uniform keys look like
  skewed,     // more keys share their top 16 bits than uniform keys do (few values, hot buckets, zipf)
  presorted,  // adjacent keys mostly in order, ascending or descending
  narrow,     // every sampled key shares its top 8 bits or more (narrow ranges, 64-bit keys holding 32-bit values)
  clustered,  // neighbours share their top 16 bits far more often than keys from anywhere (timestamps)
  few_distinct,  // most sampled keys are a key the sample met again (few distinct keys, low-cardinality columns)
};
inline constexpr InputClass kAllInputClasses[] = {InputClass::spread,    InputClass::skewed,
                                                  InputClass::presorted, InputClass::narrow,
                                                  InputClass::clustered, InputClass::few_distinct};
// The class whose pick a class without one of its own takes (a best.json
// tuned before narrow, clustered or few_distinct was a class: its skewed
// pick); the class itself if none.
inline InputClass fallback_class(InputClass c) {
  return c == InputClass::narrow || c == InputClass::clustered || c == InputClass::few_distinct ? InputClass::skewed
                                                                                                 : c;
}

std::string to_string(InputClass c);
std::optional<InputClass> parse_input_class(const std::string& s);
// "spread, skewed, ... or few_distinct": what a file's class field may hold.
std::string input_class_names();

// Adjacent pairs (i, i + 1) sampled, one in each of kClassSamplePairs equal
// strides of the keys.
inline constexpr std::size_t kClassSamplePairs = 2048;

#ifdef __CUDACC__
#define SORTBENCH_SAMPLE_HD __host__ __device__ inline
#else
#define SORTBENCH_SAMPLE_HD inline
#endif
// The leading bits of a key_bits-wide key that keys whose AND and OR these
// are all share.
SORTBENCH_SAMPLE_HD std::uint32_t shared_leading_bits(std::uint64_t all_and, std::uint64_t all_or, int key_bits) {
  const std::uint64_t differ = (all_and ^ all_or) << (64 - key_bits);
  std::uint32_t shared = 0;
  while (shared < std::uint32_t(key_bits) && !(differ >> (63 - shared) & 1)) ++shared;
  return shared;
}

// Where the j-th sampled pair starts (n >= 2): i + 1 < n
// (sortbench/device/spread_place.hpp).
SORTBENCH_SAMPLE_HD std::size_t sample_position(std::size_t j, std::size_t n) {
  return spread_place(j, kClassSamplePairs, n - 1);
}

struct InputFeatures {
  std::size_t pairs = 0;
  double ascending = 0;   // share of sampled pairs with the first key before the second
  double descending = 0;  // ... after it (equal keys count in neither)
  // Share of the 2 x pairs sampled keys whose top 16 bits (of the ordered
  // bits; all of them for narrower keys) an earlier sampled key had, beyond
  // what uniform keys give on average (about 0.031 of 4096 keys for 16 bits).
  double top16_repeats = 0;
  // kSkewedSds standard deviations of the repeats uniform keys give, as a
  // share: above it the keys are skewed.
  double uniform_margin = 0;
  // Share of sampled pairs whose two keys share their top 16 bits, and of
  // pairs of first keys (two keys from anywhere) that do. Keys drawn
  // independently share them as often either way (uniform keys: 2^-16).
  double neighbours_share = 0;
  double anywhere_share = 0;
  int shared_top_bits = 0;  // leading bits every sampled first key shares
  // Share of the 2 x pairs sampled keys that are the first of their key in
  // the sample (key_slot: keys sharing a slot count once).
  double distinct_keys = 1;
  InputClass cls = InputClass::spread;
  std::string summary() const;  // "skewed: top-16-bit repeats 0.620 (uniform keys: 0.011 at most), ascending 0.50, ..."
};

// What the GPU counts over the sampled pairs (device.hpp, count_sample): pairs
// in ascending and in descending order, the distinct values of the top 16
// bits (of the ordered bits; all bits of narrower keys) of both keys of every
// pair, the pairs whose two keys share them, the pairs of first keys that
// share them (first keys j < k: 2048 x 2047 / 2 such pairs), the leading
// bits all first keys share, and the distinct slots (key_slot) of the
// whole keys. `done` is set last: the host waits on it.
struct SampleCounts {
  std::uint32_t ascending = 0, descending = 0, distinct_tops = 0, same_top_pairs = 0, first_same_pairs = 0,
                shared_top_bits = 0, distinct_keys = 0, done = 0;
};

// A whole key's slot (its ordered bits, hashed) among 2^16: the sample
// counts its distinct keys as distinct slots, as it counts top-16-bit
// values (one bit each, set by the first key that has it). 4096 distinct
// keys fill about 3971 slots, as many as uniform keys fill top-16-bit values.
inline constexpr int kKeySlotBits = 16;
SORTBENCH_SAMPLE_HD std::uint32_t key_slot(std::uint64_t ordered) {
  return std::uint32_t((ordered * 0x9E3779B97F4A7C15ull) >> (64 - kKeySlotBits));
}

// Distinct top 16 bits among `keys` uniform keys: mean and standard deviation.
struct UniformTops {
  double distinct = 0, sd = 0;
};
UniformTops uniform_tops(std::size_t keys, int key_bits);

// How far above uniform keys' repeats a sample must be to say skewed: uniform
// keys pass 4 standard deviations about once in 30000 samples.
inline constexpr double kSkewedSds = 4.0;
// Clustered: at least half the pairs' neighbours share their top 16 bits, and
// 8 times as often as two keys from anywhere do. Keys drawn independently
// share them as often either way, so an input that repeats few values
// everywhere (few_unique:2) stays skewed.
inline constexpr double kClusteredNeighbours = 0.5;
inline constexpr double kClusteredOverAnywhere = 8.0;
// Few distinct: the sample's 4096 keys hold fewer than half as many distinct
// keys (k keys drawn evenly give k (1 - e^(-4096 / k)): few_unique:1000 0.24
// of the sample, 2000 0.43, 3000 0.54; zipf over 2^20 ranks about 0.66,
// uniform keys 0.97 of slots). Each distinct key then fills buckets of its
// own, which a sort that splits keys on their top bits leaves as they are.
inline constexpr double kFewDistinctKeys = 0.5;

// The rule (docs/tune.md "Input classes"): presorted where at least half the
// pairs differ and 90 % of those run one way; else narrow where the sampled
// keys share their top 8 bits; else clustered where neighbours share their
// top 16 bits, far more often than keys from anywhere; else few_distinct
// where the sample's distinct keys are under kFewDistinctKeys of it; else
// skewed where the repeats exceed what uniform keys give by
// kSkewedSds standard deviations; else spread.
InputFeatures classify_counts(const SampleCounts& c, std::size_t pairs, int key_bits);

// The same counts on the host: pairs holds 2 x count ordered key bits
// (KeyTraits::ordered, ascending order), first and second key of each sampled
// pair (sample_position); key_bits: the key type's width.
InputFeatures input_features(const std::uint64_t* pairs, std::size_t count, int key_bits);

}  // namespace sortbench
