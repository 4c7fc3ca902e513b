// The realistic distributions on the CPU: their names and bad parameters,
// which key types take them, the statistics of their keys (through the same
// functions the GPU generator calls, device/dist_values.hpp), the input
// classes a dispatch reads from a sample, and best.json per class.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <tuple>
#include <map>
#include <random>
#include <set>

#include "device/dist_values.hpp"
#include "sortbench/device.hpp"
#include "sortbench/input_class.hpp"
#include "sortbench/plan.hpp"
#include "sortbench/tune.hpp"

using namespace sortbench;
using nlohmann::json;

namespace realistic_test {

Distribution parsed(const std::string& name) {
  std::string why;
  auto d = parse_distribution(name, &why);
  EXPECT_TRUE(d.has_value()) << name << ": " << why;
  return d.value_or(Distribution{});
}

std::string refused(const std::string& name) {
  std::string why;
  EXPECT_FALSE(parse_distribution(name, &why).has_value()) << name;
  return why;
}

dist::Params params(const std::string& name, KeyType k, std::uint64_t n, std::uint64_t seed = 7) {
  return dist::params_for(parsed(name), k, seed, n);
}

// A space of one size and three distributions, one of each class.
tune::Space three_class_space() {
  return tune::parse_space(R"({"name": "cls", "variants": ["fake.radix.rb6.*"],
    "sweeps": [{"keys": ["u32"], "values": ["none"], "sizes": ["2^20"], "distributions": ["uniform", "sorted", "zipf"]}]})",
                           "cls.json");
}
const std::map<std::string, std::string> kClassOf = {{"uniform", "spread"}, {"sorted", "presorted"}, {"zipf", "skewed"}};

}  // namespace realistic_test
using namespace realistic_test;

TEST(RealisticDistributions, NamesRoundTrip) {
  for (const char* n : {"range:0:1000000", "range:-5:5", "range:0:1", "range:0.25:0.75", "low_bits:1", "low_bits:64",
                        "timestamps:8:64", "timestamps:1:1", "hot_buckets:0.9:16", "hot_buckets:1:65536",
                        "hot_buckets:0:1", "runs:64"})
    EXPECT_EQ(parsed(n).name(), n);
  EXPECT_EQ(parsed("timestamps").name(), "timestamps:8:64");  // the defaults, spelled out
  EXPECT_TRUE(parsed("range:0:1000000").range_integers);
  EXPECT_FALSE(parsed("range:0.5:2").range_integers);
  EXPECT_EQ(parsed("range:0:18446744073709551615").range_span, ~std::uint64_t(0));
  EXPECT_EQ(parsed("range:-9223372036854775808:9223372036854775807").range_span, ~std::uint64_t(0));
}

TEST(RealisticDistributions, BadParametersAreRefusedWithTheRule) {
  EXPECT_NE(refused("range:5:5").find("LO < HI"), std::string::npos);
  EXPECT_NE(refused("range:7:3").find("LO < HI"), std::string::npos);
  EXPECT_NE(refused("range:0").find("two numbers"), std::string::npos);
  EXPECT_NE(refused("range:a:b").find("two numbers"), std::string::npos);
  EXPECT_NE(refused("range:0:inf").find("two numbers"), std::string::npos);
  EXPECT_NE(refused("range:-1:18446744073709551615").find("2^64 - 1"), std::string::npos);
  EXPECT_NE(refused("low_bits:0").find("1 to 64"), std::string::npos);
  EXPECT_NE(refused("low_bits:65").find("1 to 64"), std::string::npos);
  EXPECT_NE(refused("low_bits").find("1 to 64"), std::string::npos);
  EXPECT_NE(refused("hot_buckets:1.5:16").find("[0, 1]"), std::string::npos);
  EXPECT_NE(refused("hot_buckets:-0.1:16").find("[0, 1]"), std::string::npos);
  EXPECT_NE(refused("hot_buckets:0.5:0").find("1 to 65536"), std::string::npos);
  EXPECT_NE(refused("hot_buckets:0.5:65537").find("1 to 65536"), std::string::npos);
  EXPECT_NE(refused("timestamps:0:64").find("GAP:WINDOW"), std::string::npos);
  EXPECT_NE(refused("timestamps:8:48").find("power of 2"), std::string::npos);
  EXPECT_NE(refused("timestamps:8").find("GAP:WINDOW"), std::string::npos);
  EXPECT_NE(refused("runs:0").find("positive"), std::string::npos);
}

TEST(RealisticDistributions, KeyTypesTheyApplyTo) {
  EXPECT_EQ(distribution_skip_reason(parsed("low_bits:32"), KeyType::u32), "");
  EXPECT_NE(distribution_skip_reason(parsed("low_bits:33"), KeyType::u32).find("at least 33 bits"), std::string::npos);
  EXPECT_EQ(distribution_skip_reason(parsed("range:0:256"), KeyType::u8), "");
  EXPECT_NE(distribution_skip_reason(parsed("range:0:257"), KeyType::u8).find("outside"), std::string::npos);
  EXPECT_NE(distribution_skip_reason(parsed("range:-5:5"), KeyType::u32).find("outside"), std::string::npos);
  EXPECT_EQ(distribution_skip_reason(parsed("range:-128:128"), KeyType::i8), "");
  EXPECT_NE(distribution_skip_reason(parsed("range:-129:0"), KeyType::i8).find("outside"), std::string::npos);
  EXPECT_NE(distribution_skip_reason(parsed("range:0:1.5"), KeyType::u32).find("integer bounds"), std::string::npos);
  EXPECT_EQ(distribution_skip_reason(parsed("range:0:1.5"), KeyType::f32), "");
  EXPECT_NE(distribution_skip_reason(parsed("range:0:70000"), KeyType::f16).find("finite range"), std::string::npos);
  EXPECT_NE(distribution_skip_reason(parsed("hot_buckets:0.9:16"), KeyType::u8).find("16 bits"), std::string::npos);
  EXPECT_EQ(distribution_skip_reason(parsed("hot_buckets:0.9:16"), KeyType::bf16), "");
  EXPECT_NE(distribution_skip_reason(parsed("timestamps"), KeyType::u16).find("32 bits"), std::string::npos);
  Workload w;
  w.key = KeyType::u32;
  w.dist = parsed("timestamps:8:64");
  w.n = std::size_t(1) << 28;
  EXPECT_EQ(plan::workload_skip_reason(w), "");
  w.n = std::size_t(1) << 29;  // 2^32 stamps: past u32
  EXPECT_NE(plan::workload_skip_reason(w).find("passes the largest u32"), std::string::npos);
  w.key = KeyType::u64;
  EXPECT_EQ(plan::workload_skip_reason(w), "");
}

TEST(RealisticDistributions, RangeIsUniformWithinItsBounds) {
  const std::uint64_t n = 200000;
  const auto p = params("range:1000:1010", KeyType::u32, n);
  std::map<std::uint64_t, int> counts;
  for (std::uint64_t i = 0; i < n; ++i) ++counts[dist::range_integer(p, i)];
  ASSERT_EQ(counts.size(), 10u);
  EXPECT_EQ(counts.begin()->first, 1000u);
  EXPECT_EQ(counts.rbegin()->first, 1009u);
  double chi2 = 0;  // 9 degrees of freedom: 27.9 is its 0.999 quantile
  for (const auto& [v, c] : counts) chi2 += (c - n / 10.0) * (c - n / 10.0) / (n / 10.0);
  EXPECT_LT(chi2, 27.9);
  // Signed bounds: two's complement bits that an i32 key truncates to.
  const auto ps = params("range:-50:50", KeyType::i32, n);
  std::int64_t lo = 1 << 30, hi = -(1 << 30);
  double sum = 0;
  for (std::uint64_t i = 0; i < n; ++i) {
    const auto v = std::int64_t(std::int32_t(std::uint32_t(dist::range_integer(ps, i))));
    lo = std::min(lo, v);
    hi = std::max(hi, v);
    sum += double(v);
  }
  EXPECT_EQ(lo, -50);
  EXPECT_EQ(hi, 49);
  EXPECT_NEAR(sum / n, -0.5, 0.3);
  // Reals in [0, 1): mean 1/2, variance 1/12.
  const auto pr = params("range:0:1", KeyType::f32, n);
  double s1 = 0, s2 = 0;
  for (std::uint64_t i = 0; i < n; ++i) {
    const double x = dist::range_real(pr, i);
    ASSERT_GE(x, 0.0);
    ASSERT_LT(x, 1.0);
    s1 += x;
    s2 += x * x;
  }
  EXPECT_NEAR(s1 / n, 0.5, 0.005);
  EXPECT_NEAR(s2 / n - (s1 / n) * (s1 / n), 1.0 / 12, 0.002);
}

TEST(RealisticDistributions, LowBitsVaryOnlyTheLowBits) {
  const std::uint64_t n = 100000;
  const auto p = params("low_bits:32", KeyType::u64, n);
  std::vector<int> set(64, 0);
  for (std::uint64_t i = 0; i < n; ++i) {
    const std::uint64_t v = dist::low_bits(p, i);
    ASSERT_LT(v, std::uint64_t(1) << 32);
    for (int b = 0; b < 64; ++b) set[b] += int(v >> b & 1);
  }
  for (int b = 0; b < 32; ++b) EXPECT_NEAR(set[b] / double(n), 0.5, 0.01) << "bit " << b;
  for (int b = 32; b < 64; ++b) EXPECT_EQ(set[b], 0) << "bit " << b;
}

TEST(RealisticDistributions, TimestampsRiseAndAreShuffledOnlyWithinWindows) {
  const std::uint64_t n = 64 * 100 + 17;  // a partial last window stays in order
  const auto p = params("timestamps:8:64", KeyType::u64, n);
  std::vector<std::uint64_t> keys(n);
  for (std::uint64_t i = 0; i < n; ++i) keys[i] = dist::timestamp(p, i);
  // Sorted, they are the stamps 0..n-1: strictly rising, gaps 1..15, mean about 8.
  std::vector<std::uint64_t> sorted = keys;
  std::sort(sorted.begin(), sorted.end());
  for (std::uint64_t s = 0; s < n; ++s) ASSERT_EQ(sorted[s], dist::timestamp_of(p, s));
  EXPECT_GE(sorted[0], dist::kTimestampBase64);
  double gaps = 0;
  for (std::uint64_t s = 1; s < n; ++s) {
    const std::uint64_t g = sorted[s] - sorted[s - 1];
    ASSERT_GE(g, 1u);
    ASSERT_LE(g, 15u);
    gaps += double(g);
  }
  EXPECT_NEAR(gaps / double(n - 1), 8.0, 0.2);
  // Each whole window holds its own stamps, out of order; the last is in order.
  std::uint64_t ascending = 0, pairs = 0;
  for (std::uint64_t w = 0; w < n / 64; ++w) {
    std::vector<std::uint64_t> win(keys.begin() + std::ptrdiff_t(w * 64), keys.begin() + std::ptrdiff_t(w * 64 + 64));
    for (std::size_t j = 1; j < win.size(); ++j, ++pairs) ascending += win[j] > win[j - 1];
    std::sort(win.begin(), win.end());
    EXPECT_TRUE(std::equal(win.begin(), win.end(), sorted.begin() + std::ptrdiff_t(w * 64)));
  }
  EXPECT_NEAR(double(ascending) / double(pairs), 0.5, 0.05);
  EXPECT_TRUE(std::is_sorted(keys.begin() + std::ptrdiff_t(n / 64 * 64), keys.end()));
  // 32-bit stamps start at 0.
  EXPECT_LT(dist::timestamp(params("timestamps:8:64", KeyType::u32, n), 0), 1024u);
}

TEST(RealisticDistributions, PermutationWithinAWindowIsABijection) {
  for (int bits = 0; bits <= 12; ++bits) {
    std::set<std::uint64_t> seen;
    for (std::uint64_t x = 0; x < (std::uint64_t(1) << bits); ++x) {
      const std::uint64_t y = dist::permute_within(x, bits, 12345);
      ASSERT_LT(y, std::uint64_t(1) << bits);
      seen.insert(y);
    }
    EXPECT_EQ(seen.size(), std::size_t(1) << bits) << bits << " bits";
  }
}

TEST(RealisticDistributions, HotBucketsHoldTheirShareOfKeys) {
  const std::uint64_t n = 200000;
  for (const char* name : {"hot_buckets:0.9:16", "hot_buckets:0.5:4", "hot_buckets:1:1"}) {
    const Distribution d = parsed(name);
    const auto p = dist::params_for(d, KeyType::u32, 3, n);
    std::set<std::uint64_t> hot;
    for (std::uint64_t j = 0; j < d.hot_count; ++j) hot.insert(dist::hot_bucket_of(p, j));
    std::uint64_t in_hot = 0;
    std::set<std::uint64_t> buckets_seen;
    for (std::uint64_t i = 0; i < n; ++i) {
      const std::uint64_t b = dist::hot_bucket_bits(p, i);
      ASSERT_LT(b, std::uint64_t(1) << 32);
      if (hot.count(b >> 16)) {
        ++in_hot;
        buckets_seen.insert(b >> 16);
      }
    }
    // Uniform keys add (1 - f) x hot / 65536 of them: negligible.
    EXPECT_NEAR(double(in_hot) / double(n), d.hot_fraction, 0.01) << name;
    EXPECT_EQ(buckets_seen.size(), hot.size()) << name;
  }
}

TEST(RealisticDistributions, RunsAreAscendingRunsOfEqualLength) {
  const auto p = params("runs:7", KeyType::u32, 1000);
  std::uint64_t runs = 0;
  for (std::uint64_t i = 0; i < 1000; ++i) {
    const dist::RunPlace at = dist::run_place(p, i);
    ASSERT_LT(at.item, at.length);
    runs += at.item == 0;
    EXPECT_EQ(at.length, i < 6 * 143 ? 143u : 1000u - 6 * 143);
  }
  EXPECT_EQ(runs, 7u);
}

// ---- input classes ------------------------------------------------------------

namespace realistic_test {

// The pairs the GPU sampler reads (sample_keys.cu), taken on the host from
// key_at(i), the ordered bits of key i of n.
template <class KeyAt>
InputFeatures features_of(std::size_t n, int key_bits, KeyAt key_at) {
  std::vector<std::uint64_t> pairs;
  for (std::size_t j = 0; j < kClassSamplePairs; ++j) {
    const std::size_t i = sample_position(j, n);
    pairs.push_back(key_at(i));
    pairs.push_back(key_at(i + 1));
  }
  return input_features(pairs.data(), kClassSamplePairs, key_bits);
}

InputFeatures features(const std::vector<std::uint64_t>& keys, int key_bits) {
  return features_of(keys.size(), key_bits, [&](std::size_t i) { return keys[i]; });
}

}  // namespace realistic_test
using namespace realistic_test;

TEST(InputClasses, SamplePositionsStayInTheirStrides) {
  for (std::size_t n : {std::size_t(2), std::size_t(3), std::size_t(4097), std::size_t(1) << 22, (std::size_t(1) << 28) + 5}) {
    std::size_t last = 0;
    std::size_t window_starts = 0;  // pairs that start at the last key of a window of 64
    for (std::size_t j = 0; j < kClassSamplePairs; ++j) {
      const std::size_t i = sample_position(j, n);
      ASSERT_LT(i + 1, n) << n;
      if (j) ASSERT_GE(i, last) << n;
      last = i;
      window_starts += i % 64 == 63;
    }
    if (n > 64 * kClassSamplePairs) EXPECT_LT(window_starts, kClassSamplePairs / 16) << n;  // about 1/64 of them
  }
}

TEST(InputClasses, UniformSortedSkewedAndEqualKeys) {
  std::mt19937_64 rng(5);
  std::vector<std::uint64_t> keys(1 << 16);
  for (auto& k : keys) k = rng() >> 32;
  const InputFeatures uniform = features(keys, 32);
  EXPECT_EQ(uniform.cls, InputClass::spread) << uniform.summary();
  EXPECT_NEAR(uniform.ascending, 0.5, 0.05);
  EXPECT_LT(uniform.top16_repeats, 0.02);
  std::sort(keys.begin(), keys.end());
  EXPECT_EQ(features(keys, 32).cls, InputClass::presorted);
  std::reverse(keys.begin(), keys.end());
  const InputFeatures reverse = features(keys, 32);
  EXPECT_EQ(reverse.cls, InputClass::presorted);
  EXPECT_GT(reverse.descending, 0.99);
  // 64-bit keys holding 32-bit values: 32 leading bits shared.
  for (auto& k : keys) k = rng() >> 32;
  const InputFeatures narrow = features(keys, 64);
  EXPECT_EQ(narrow.cls, InputClass::narrow) << narrow.summary();
  EXPECT_EQ(narrow.shared_top_bits, 32);
  EXPECT_GT(narrow.top16_repeats, 0.9);
  // A few hot values spread over the key range: skewed, not narrow.
  for (auto& k : keys) k = (rng() % 8) << 29 | (rng() % 1000);
  const InputFeatures hot = features(keys, 32);
  EXPECT_EQ(hot.cls, InputClass::skewed) << hot.summary();
  EXPECT_EQ(hot.shared_top_bits, 0);
  // All keys equal: neither order nor spread; every bit shared.
  std::fill(keys.begin(), keys.end(), 42);
  const InputFeatures equal = features(keys, 32);
  EXPECT_EQ(equal.cls, InputClass::narrow);
  EXPECT_EQ(equal.shared_top_bits, 32);
  EXPECT_EQ(equal.ascending + equal.descending, 0.0);
  EXPECT_EQ(fallback_class(InputClass::narrow), InputClass::skewed);
  EXPECT_EQ(fallback_class(InputClass::spread), InputClass::spread);
  EXPECT_EQ(shared_leading_bits(0xF0F0u, 0xF0FFu, 16), 12u);
  EXPECT_EQ(shared_leading_bits(0, ~0ull, 64), 0u);
  EXPECT_EQ(input_features(nullptr, 0, 32).cls, InputClass::spread);
  EXPECT_EQ(*parse_input_class("presorted"), InputClass::presorted);
  EXPECT_FALSE(parse_input_class("sorted").has_value());
}

// Skewed means more repeats of the top 16 bits than uniform keys give beyond
// their noise, where a design that splits keys on those bits (the two-digit
// MSD sort) meets buckets larger than uniform keys make.
TEST(InputClasses, SkewedIsWhatUniformKeysDoNotGive) {
  // Distinct top 16 bits of 4096 uniform keys: 65536 (1 - (1 - 2^-16)^4096).
  const UniformTops u = uniform_tops(4096, 32);
  EXPECT_NEAR(u.distinct, 3970.6, 0.1);
  EXPECT_GT(u.sd, 9.0);
  EXPECT_LT(u.sd, 12.0);
  EXPECT_NEAR(uniform_tops(4096, 8).distinct, 256.0, 1e-3);
  // Uniform keys of 100 seeds: all spread.
  for (std::uint64_t seed = 0; seed < 100; ++seed) {
    const InputFeatures f =
        features_of(std::size_t(1) << 26, 32, [&](std::size_t i) { return word(seed, 0, i) >> 32; });
    ASSERT_EQ(f.cls, InputClass::spread) << seed << ": " << f.summary();
  }
  // Uniform over 93 % of the top-16 values (range:0:4000000000): spread.
  // Over half of them: skewed, though its repeats (0.03) were under the 0.1
  // that said skewed before.
  for (std::uint64_t seed = 0; seed < 20; ++seed) {
    auto over = [&](std::uint64_t span) {
      return features_of(std::size_t(1) << 26, 32, [&](std::size_t i) { return dist::mul_high(word(seed, 0, i), span); });
    };
    EXPECT_EQ(over(4000000000ull).cls, InputClass::spread) << seed;
    const InputFeatures half = over(std::uint64_t(1) << 31);
    EXPECT_EQ(half.cls, InputClass::skewed) << seed << ": " << half.summary();
    EXPECT_LT(half.top16_repeats, 0.1);
  }
}

// Clustered: neighbours share their top 16 bits far more often than keys
// from anywhere do. 32-bit timestamps (gaps of 8 on average, shuffled in
// windows of 64) at 2^24 keys fill 2048 top-16 values, 8192 keys each: the
// first keys of the pairs, one in each of 2048 strides of 8192 keys, fall in
// a value each and looked spread, which sent them to the two-digit design.
TEST(InputClasses, TimestampsAreClusteredAndFewValuesSkewed) {
  auto timestamps = [&](const char* name, std::size_t n) {
    const dist::Params p = params(name, KeyType::u32, n);
    return features_of(n, 32, [&](std::size_t i) { return dist::timestamp(p, i) & 0xffffffffu; });
  };
  for (std::size_t n : {std::size_t(1) << 24, std::size_t(1) << 26, std::size_t(1) << 28}) {
    for (const char* name : {"timestamps:8:64", "timestamps:2:1024"}) {
      const InputFeatures f = timestamps(name, n);
      EXPECT_EQ(f.cls, InputClass::clustered) << name << " " << n << ": " << f.summary();
      EXPECT_GT(f.neighbours_share, 0.5) << name << " " << n;
    }
  }
  // 2^20 stamps reach 2^23: 9 leading bits shared, and narrow comes first.
  EXPECT_EQ(timestamps("timestamps:8:64", std::size_t(1) << 20).cls, InputClass::narrow);
  // Two values drawn independently: neighbours share them half the time, as
  // keys from anywhere do. Not clustered: few distinct.
  const InputFeatures two = features_of(std::size_t(1) << 24, 32, [](std::size_t i) {
    return (word(3, 0, i) & 1) ? 0x12345678u : 0x9abcdef0u;
  });
  EXPECT_EQ(two.cls, InputClass::few_distinct) << two.summary();
  EXPECT_EQ(two.distinct_keys, 2.0 / 4096);
  EXPECT_NEAR(two.neighbours_share, 0.5, 0.05);
  EXPECT_NEAR(two.anywhere_share, 0.5, 0.05);
  // Uniform keys repeated in runs of 4 (each key written four times in a
  // row): clustered, and spread over every value.
  const InputFeatures fours =
      features_of(std::size_t(1) << 24, 32, [](std::size_t i) { return word(3, 0, i / 4) >> 32; });
  EXPECT_EQ(fours.cls, InputClass::clustered) << fours.summary();
  EXPECT_EQ(fallback_class(InputClass::clustered), InputClass::skewed);
  EXPECT_EQ(*parse_input_class("clustered"), InputClass::clustered);
}

// Few distinct: the sample holds fewer than half as many distinct keys as
// it has keys. k keys drawn evenly give k (1 - e^(-4096 / k)) of 4096.
TEST(InputClasses, FewDistinctKeysAreTheirOwnClass) {
  auto drawn_from = [](std::uint64_t k, int key_bits) {
    return features_of(std::size_t(1) << 26, key_bits, [&](std::size_t i) {
      return word(9, 5, word(9, 6, i) % k) >> (64 - key_bits);
    });
  };
  for (int bits : {32, 64}) {
    const InputFeatures thousand = drawn_from(1000, bits);
    EXPECT_EQ(thousand.cls, InputClass::few_distinct) << thousand.summary();
    EXPECT_NEAR(thousand.distinct_keys, 1000 * (1 - std::exp(-4.096)) / 4096, 0.02);
    const InputFeatures two_thousand = drawn_from(2000, bits);
    EXPECT_EQ(two_thousand.cls, InputClass::few_distinct) << two_thousand.summary();
    // 10^5 keys: nearly every sampled key distinct.
    const InputFeatures many = drawn_from(100000, bits);
    EXPECT_NE(many.cls, InputClass::few_distinct) << many.summary();
    EXPECT_GT(many.distinct_keys, 0.9);
  }
  // Zipf over 2^20 ranks: hot keys, but a long tail of distinct ones. Skewed.
  const InputFeatures zipf = features_of(std::size_t(1) << 26, 32, [](std::size_t i) {
    const double u = double(word(9, 7, i) >> 11) * 0x1p-53;
    return fmix32(std::uint32_t(std::floor(std::exp2(20.0 * u))));  // as the generator spreads the ranks
  });
  EXPECT_EQ(zipf.cls, InputClass::skewed) << zipf.summary();
  EXPECT_GT(zipf.distinct_keys, 0.55);
  EXPECT_EQ(fallback_class(InputClass::few_distinct), InputClass::skewed);
  EXPECT_EQ(*parse_input_class("few_distinct"), InputClass::few_distinct);
}

// ---- best.json per input class ------------------------------------------------

namespace realistic_test {

PointResult measured(const std::string& label, const std::string& distribution, const std::string& cls, double ms) {
  PointResult r;
  r.variant = label;
  r.family = label.rfind("cub", 0) == 0 ? "cub" : "fake";
  r.key = KeyType::u32;
  r.n = std::size_t(1) << 20;
  r.seed = 1;
  r.distribution = distribution;
  r.input_class = cls;
  r.status = Status::ok;
  r.time_ms.median = ms;
  r.time_ms.rel_stderr = 0.002;
  return r;
}

using MsByDistribution = std::map<std::string, std::map<std::string, double>>;

// three_class_space's workloads as results: each label's median per
// distribution (ms), the distribution's class from kClassOf, every sort
// paying sample_us (-1: not measured), speedups computed.
std::vector<PointResult> class_results(const MsByDistribution& ms, const tune::Space& s, double sample_us = -1) {
  std::vector<PointResult> results;
  for (const auto& [label, by_dist] : ms)
    for (const auto& [d, t] : by_dist) {
      results.push_back(measured(label, d, kClassOf.at(d), t));
      results.back().sample_us = sample_us;
    }
  compute_speedups(results, s.baseline_labels);
  return results;
}

}  // namespace realistic_test
using namespace realistic_test;

TEST(TuneByClass, APickPerClassAndNoneThatLosesInItsClass) {
  tune::register_fake_variants();
  const tune::Space s = three_class_space();
  // fake.a: fastest on uniform and zipf keys, slower than the library on sorted ones.
  const MsByDistribution ms = {
      {"cub.radix_sort.off32", {{"uniform", 1.0}, {"sorted", 1.0}, {"zipf", 1.0}}},
      {"cub.radix_sort.off64", {{"uniform", 1.1}, {"sorted", 1.1}, {"zipf", 1.1}}},
      {"fake.a", {{"uniform", 0.5}, {"sorted", 1.2}, {"zipf", 0.7}}},
      {"fake.b", {{"uniform", 0.8}, {"sorted", 0.9}, {"zipf", 0.9}}}};
  std::vector<PointResult> results = class_results(ms, s);
  const json best = tune::best_json(results, s, {{"model", "fake-gpu"}}, {});
  EXPECT_EQ(best["schema_version"], 3);
  std::map<std::string, json> by_class;
  for (const auto& e : best["entries"]) by_class[e.value("class", "")] = e;
  ASSERT_EQ(by_class.size(), 3u) << best["entries"].dump();
  EXPECT_EQ(by_class["spread"]["variant"], "fake.a");
  EXPECT_EQ(by_class["skewed"]["variant"], "fake.a");
  EXPECT_EQ(by_class["presorted"]["variant"], "fake.b");
  EXPECT_EQ(by_class["presorted"]["distributions"], json({"sorted"}));
  // select_best: the class's entry; best:FAMILY: the class of a named distribution.
  using tune::select_best;
  EXPECT_EQ(select_best(best, KeyType::u32, ValueType::none, Order::ascending, 1 << 20, InputClass::presorted).variant,
            "fake.b");
  EXPECT_EQ(select_best(best, KeyType::u32, ValueType::none, Order::ascending, 1 << 22, InputClass::spread).variant,
            "fake.a");
  // No narrow entry: the skewed one, not a class-less entry of a neighbouring size.
  json with_neighbour = best;
  with_neighbour["entries"].push_back({{"key", "u32"}, {"value", "none"}, {"order", "ascending"}, {"n_min", 1024},
                                       {"n_max", (1 << 20) - 1}, {"variant", "old.pick"}});
  EXPECT_EQ(select_best(with_neighbour, KeyType::u32, ValueType::none, Order::ascending, 1 << 20, InputClass::narrow)
                .variant,
            "fake.a");
  EXPECT_EQ(select_best(with_neighbour, KeyType::u32, ValueType::none, Order::ascending, 1 << 12, InputClass::narrow)
                .variant,
            "old.pick");
  EXPECT_EQ(tune::class_of_distribution(best, KeyType::u32, "sorted"), InputClass::presorted);
  EXPECT_EQ(tune::class_of_distribution(best, KeyType::u32, "runs:3"), InputClass::spread);

  // Without classes (results of an older build): one entry, and fake.a,
  // slower than the library on sorted keys, is not it.
  for (auto& r : results) r.input_class.clear();
  const json plain = tune::best_json(results, s, {{"model", "fake-gpu"}}, {});
  ASSERT_EQ(plain["entries"].size(), 1u);
  EXPECT_FALSE(plain["entries"][0].contains("class"));
  EXPECT_EQ(plain["entries"][0]["variant"], "fake.b");
  // Where every point of ours loses somewhere, the library call is the pick.
  for (auto& r : results)
    if (r.variant == "fake.b" && r.distribution == "sorted") r.time_ms.median = 1.3;
  compute_speedups(results, s.baseline_labels);
  const json lib = tune::best_json(results, s, {{"model", "fake-gpu"}}, {});
  EXPECT_TRUE(lib["entries"][0]["library"].get<bool>());
  EXPECT_EQ(lib["entries"][0]["variant"], "cub.radix_sort.off32");
  EXPECT_EQ(lib["entries"][0]["ours"], "fake.a");  // best:FAMILY still names the best of ours
}

// The class picks gain less than the sample that tells the classes apart
// costs: one pick for every input, so that dispatch.sort does not sample.
TEST(TuneByClass, OnePickWhereTheSampleCostsMoreThanTheClassPicksGain) {
  tune::register_fake_variants();
  const tune::Space s = three_class_space();
  // fake.b is the presorted pick (0.9 against 0.95); fake.a the pick over all.
  const MsByDistribution ms = {
      {"cub.radix_sort.off32", {{"uniform", 1.0}, {"sorted", 1.0}, {"zipf", 1.0}}},
      {"fake.a", {{"uniform", 0.5}, {"sorted", 0.95}, {"zipf", 0.7}}},
      {"fake.b", {{"uniform", 0.8}, {"sorted", 0.9}, {"zipf", 0.9}}}};
  auto tuned = [&](double sample_us) {
    return tune::best_json(class_results(ms, s, sample_us), s, {{"model", "fake-gpu"}}, {});
  };
  // A free sample: the class picks (geomean 1.48x against 1.44x).
  const json free_sample = tuned(0);
  ASSERT_EQ(free_sample["entries"].size(), 3u) << free_sample["entries"].dump();
  for (const auto& e : free_sample["entries"]) EXPECT_TRUE(e.contains("class"));
  // 50 us a sort: 1.37x with the class picks, 1.44x with one.
  const json costly = tuned(50);
  ASSERT_EQ(costly["entries"].size(), 1u) << costly["entries"].dump();
  const json& e = costly["entries"][0];
  EXPECT_FALSE(e.contains("class"));
  EXPECT_EQ(e["variant"], "fake.a");
  ASSERT_EQ(e["one_pick"].size(), 1u);
  EXPECT_EQ(e["one_pick"][0]["n"], 1 << 20);
  EXPECT_NEAR(e["one_pick"][0]["sample_us_mean"].get<double>(), 50.0, 1e-9);
  EXPECT_NEAR(e["one_pick"][0]["one_pick_geomean"].get<double>(), std::cbrt(2.0 / 0.95 / 0.7), 1e-9);
  EXPECT_NEAR(e["one_pick"][0]["class_picks_geomean"].get<double>(), std::cbrt(1 / 0.55 / 0.95 / 0.75), 1e-9);
  EXPECT_EQ(tune::select_best(costly, KeyType::u32, ValueType::none, Order::ascending, 1 << 20, InputClass::presorted)
                .variant,
            "fake.a");
}

// Where the library call wins at two sizes but the best of ours differs
// between them, the sizes keep their own entries: best:FAMILY runs the
// entry's best of ours (here fake.a at 2^20, fake.b at 2^22).
TEST(TuneByClass, SizesMergeOnlyWhereTheBestOfOursAgrees) {
  tune::register_fake_variants();
  const tune::Space s = tune::parse_space(R"({"name": "sizes", "variants": ["fake.radix.rb6.*"],
    "sweeps": [{"keys": ["u32"], "values": ["none"], "sizes": ["2^20", "2^22"], "distributions": ["uniform"]}]})",
                                          "sizes.json");
  std::vector<PointResult> results;
  for (const auto& [label, at20, at22] : std::vector<std::tuple<std::string, double, double>>{
           {"cub.radix_sort.off32", 1.0, 4.0}, {"fake.a", 1.1, 5.2}, {"fake.b", 1.3, 4.4}})
    for (const auto& [n, ms] : {std::pair<std::size_t, double>{std::size_t(1) << 20, at20}, {std::size_t(1) << 22, at22}}) {
      results.push_back(measured(label, "uniform", "", ms));
      results.back().n = n;
    }
  compute_speedups(results, s.baseline_labels);
  const json best = tune::best_json(results, s, {{"model", "fake-gpu"}}, {});
  ASSERT_EQ(best["entries"].size(), 2u) << best["entries"].dump();
  for (const auto& e : best["entries"]) {
    EXPECT_EQ(e["variant"], "cub.radix_sort.off32");
    EXPECT_EQ(e["ours"], e["n_min"] == (1 << 20) ? "fake.a" : "fake.b") << e.dump();
  }
}

TEST(TuneByClass, ABaseKeepsWhatTheTuneDidNotMeasure) {
  const json base = {{"entries",
                      {{{"key", "u32"}, {"value", "none"}, {"order", "ascending"}, {"n_min", 1024}, {"n_max", 1 << 30},
                        {"variant", "old.u32"}},
                       {{"key", "u64"}, {"value", "none"}, {"order", "ascending"}, {"n_min", 1024}, {"n_max", 1 << 30},
                        {"variant", "old.u64"}}}}};
  json fresh = {{"entries",
                 {{{"key", "u32"}, {"value", "none"}, {"order", "ascending"}, {"n_min", 1 << 24}, {"n_max", 1 << 28},
                   {"variant", "new.u32"}, {"class", "spread"}}}},
                {"provenance", json::object()}};
  const json out = tune::keep_unmeasured_entries(base, fresh, "base.json");
  std::vector<std::string> got;
  for (const auto& e : out["entries"])
    got.push_back(e["variant"].get<std::string>() + " " + std::to_string(e["n_min"].get<std::uint64_t>()) + ".." +
                  std::to_string(e["n_max"].get<std::uint64_t>()));
  EXPECT_EQ(got, (std::vector<std::string>{"old.u32 1024..16777215", "old.u32 268435457..1073741824",
                                           "old.u64 1024..1073741824", "new.u32 16777216..268435456"}));
  EXPECT_EQ(out["provenance"]["kept_from"]["best_json"], "base.json");
}
