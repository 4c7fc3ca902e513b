// The harness's own GPU parts: the validator catches each kind of wrong
// result, the generators produce what their names promise, and the runner
// times, validates and fails points as documented.
#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

#include "device/dist_values.hpp"
#include "gpu_test_util.hpp"
#include "sortbench/device/key_traits.cuh"

using namespace sortbench;
using namespace sortbench::test;

namespace {

template <class T> struct KeyTypeFor;
template <> struct KeyTypeFor<std::uint8_t> { static constexpr KeyType value = KeyType::u8; };
template <> struct KeyTypeFor<std::int8_t> { static constexpr KeyType value = KeyType::i8; };
template <> struct KeyTypeFor<std::uint16_t> { static constexpr KeyType value = KeyType::u16; };
template <> struct KeyTypeFor<std::int16_t> { static constexpr KeyType value = KeyType::i16; };
template <> struct KeyTypeFor<__half> { static constexpr KeyType value = KeyType::f16; };
template <> struct KeyTypeFor<__nv_bfloat16> { static constexpr KeyType value = KeyType::bf16; };
template <> struct KeyTypeFor<float> { static constexpr KeyType value = KeyType::f32; };

template <class T>
DevMem upload(const std::vector<T>& h) {
  DevMem d(h.size() * sizeof(T));
  if (!h.empty()) cuda_check(cudaMemcpy(d.p, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice), "upload");
  return d;
}

Validation check_keys(const std::vector<std::uint32_t>& in, const std::vector<std::uint32_t>& out) {
  DevMem a = upload(in), b = upload(out);
  return validate_sort({KeyType::u32, ValueType::none, Order::ascending, in.size()}, a.p, b.p, nullptr, false, 0);
}

}  // namespace

TEST(Validator, AcceptsASortedPermutation) {
  SORTBENCH_REQUIRE_GPU();
  EXPECT_TRUE(check_keys({3, 1, 2, 2}, {1, 2, 2, 3}).ok());
  EXPECT_TRUE(check_keys({}, {}).ok());
}

TEST(Validator, ReportsTheFirstUnsortedIndex) {
  SORTBENCH_REQUIRE_GPU();
  const auto v = check_keys({1, 2, 3, 4, 5}, {1, 2, 4, 3, 5});
  EXPECT_FALSE(v.ok());
  EXPECT_FALSE(v.sorted);
  EXPECT_EQ(v.first_bad_index, 3);
}

TEST(Validator, CatchesALostKey) {
  SORTBENCH_REQUIRE_GPU();
  const auto v = check_keys({1, 2, 3, 4}, {1, 2, 2, 4});  // sorted, but 3 became 2
  EXPECT_TRUE(v.sorted);
  EXPECT_FALSE(v.permutation);
  EXPECT_EQ(v.first_bad_index, 2);  // located against the reference CUB call
}

TEST(Validator, CatchesInstabilityAndBrokenPairs) {
  SORTBENCH_REQUIRE_GPU();
  const std::vector<std::uint32_t> in = {5, 1, 5, 1};
  DevMem din = upload(in);
  const Problem p{KeyType::u32, ValueType::u32, Order::ascending, 4};
  {
    DevMem k = upload(std::vector<std::uint32_t>{1, 1, 5, 5}), v = upload(std::vector<std::uint32_t>{1, 3, 0, 2});
    EXPECT_TRUE(validate_sort(p, din.p, k.p, v.p, true, 0).ok());
  }
  {
    DevMem k = upload(std::vector<std::uint32_t>{1, 1, 5, 5}), v = upload(std::vector<std::uint32_t>{3, 1, 0, 2});
    const auto r = validate_sort(p, din.p, k.p, v.p, true, 0);
    EXPECT_TRUE(r.sorted && r.permutation);
    EXPECT_FALSE(r.stable);
    EXPECT_EQ(r.first_bad_index, 1);
    // Unchecked when the variant does not claim stability.
    EXPECT_TRUE(validate_sort(p, din.p, k.p, v.p, false, 0).ok());
  }
  {
    DevMem k = upload(std::vector<std::uint32_t>{1, 1, 5, 5}), v = upload(std::vector<std::uint32_t>{1, 3, 0, 0});
    const auto r = validate_sort(p, din.p, k.p, v.p, false, 0);
    EXPECT_FALSE(r.permutation);  // index 0 twice, index 2 never
  }
  {
    DevMem k = upload(std::vector<std::uint32_t>{1, 1, 5, 5}), v = upload(std::vector<std::uint32_t>{1, 2, 0, 3});
    const auto r = validate_sort(p, din.p, k.p, v.p, false, 0);
    EXPECT_FALSE(r.permutation);  // value 2 carries key 5, not 1
    EXPECT_EQ(r.first_bad_index, 1);
  }
}

// Sorts `in` (keys of type T, with u32 or u64 index values) with the
// reference CUB call and returns the value order it produced, after checking
// the result with the validator.
template <class T>
std::vector<std::uint64_t> cub_value_order(const std::vector<T>& in, ValueType vt, Order o = Order::ascending) {
  const std::size_t n = in.size(), vb = n * value_bytes(vt);
  DevMem din = upload(in), kin(n * sizeof(T)), kout(n * sizeof(T)), vin(vb), vout(vb), pv(vb);
  fill_index_values(pv.p, vt, n, 0);
  const Problem p{KeyTypeFor<T>::value, vt, o, n};
  run_once(*Registry::instance().find(kReferenceVariant), p, din.p, pv.p, kin.p, kout.p, vin.p, vout.p, 0);
  const auto v = validate_sort(p, din.p, kout.p, vout.p, true, 0);
  EXPECT_TRUE(v.ok()) << to_string(p.key) << ": " << v.message;
  std::vector<std::uint64_t> order(n);
  if (vt == ValueType::u64) {
    order = to_host<std::uint64_t>(vout.p, n);
  } else {
    const auto h = to_host<std::uint32_t>(vout.p, n);
    std::copy(h.begin(), h.end(), order.begin());
  }
  return order;
}

TEST(Validator, FloatOrderMatchesCub) {
  SORTBENCH_REQUIRE_GPU();
  const float inf = std::numeric_limits<float>::infinity();
  const float qnan = std::numeric_limits<float>::quiet_NaN();
  const std::vector<float> in = {1.0f, -0.0f, qnan, -inf, 0.0f, -qnan, inf, -2.0f};
  // -NaN < -inf < -2 < -0.0 == +0.0 (input order kept) < 1 < inf < NaN
  EXPECT_EQ(cub_value_order(in, ValueType::u32), (std::vector<std::uint64_t>{5, 3, 7, 1, 4, 0, 6, 2}));
  EXPECT_EQ(cub_value_order(in, ValueType::u64), (std::vector<std::uint64_t>{5, 3, 7, 1, 4, 0, 6, 2}));
  // Descending reverses the order of distinct keys; equal keys keep input order.
  EXPECT_EQ(cub_value_order(in, ValueType::u32, Order::descending),
            (std::vector<std::uint64_t>{2, 6, 0, 1, 4, 7, 3, 5}));
}

// f16 and bf16 as raw bits: the same order as f32 (sign-magnitude), NaN
// payloads and signs kept, -0.0 equal to +0.0, subnormals in place.
TEST(Validator, HalfAndBfloat16OrderMatchesCub) {
  SORTBENCH_REQUIRE_GPU();
  for (const bool bf : {false, true}) {
    // +1, -0, NaN (payload 1), -inf, +0, -NaN (payload 0x2a), +inf, -2, smallest subnormal, -smallest subnormal
    const std::vector<std::uint16_t> bits =
        bf ? std::vector<std::uint16_t>{0x3F80, 0x8000, 0x7FC1, 0xFF80, 0x0000, 0xFFAA, 0x7F80, 0xC000, 0x0001, 0x8001}
           : std::vector<std::uint16_t>{0x3C00, 0x8000, 0x7E01, 0xFC00, 0x0000, 0xFE2A, 0x7C00, 0xC000, 0x0001, 0x8001};
    const std::vector<std::uint64_t> want = {5, 3, 7, 9, 1, 4, 8, 0, 6, 2};
    if (bf) {
      std::vector<__nv_bfloat16> in(bits.size());
      std::memcpy(in.data(), bits.data(), bits.size() * 2);
      EXPECT_EQ(cub_value_order(in, ValueType::u32), want) << "bf16";
      EXPECT_EQ(cub_value_order(in, ValueType::u64), want) << "bf16";
    } else {
      std::vector<__half> in(bits.size());
      std::memcpy(in.data(), bits.data(), bits.size() * 2);
      EXPECT_EQ(cub_value_order(in, ValueType::u32), want) << "f16";
      EXPECT_EQ(cub_value_order(in, ValueType::u64), want) << "f16";
    }
  }
}

TEST(Validator, NarrowIntegersAndWideValues) {
  SORTBENCH_REQUIRE_GPU();
  EXPECT_EQ(cub_value_order(std::vector<std::int8_t>{3, -128, 127, -1, 0, -1}, ValueType::u64),
            (std::vector<std::uint64_t>{1, 3, 5, 4, 0, 2}));
  EXPECT_EQ(cub_value_order(std::vector<std::uint8_t>{255, 0, 7, 7}, ValueType::u32),
            (std::vector<std::uint64_t>{1, 2, 3, 0}));
  EXPECT_EQ(cub_value_order(std::vector<std::int16_t>{-32768, 32767, 5, -5}, ValueType::u32),
            (std::vector<std::uint64_t>{0, 3, 2, 1}));
  EXPECT_EQ(cub_value_order(std::vector<std::uint16_t>{65535, 1, 256}, ValueType::u64),
            (std::vector<std::uint64_t>{1, 2, 0}));
  // The validator checks u64 values as it checks u32 ones.
  const std::vector<std::uint8_t> in = {5, 1, 5, 1};
  DevMem din = upload(in);
  const Problem p{KeyType::u8, ValueType::u64, Order::ascending, 4};
  DevMem k = upload(std::vector<std::uint8_t>{1, 1, 5, 5});
  DevMem good = upload(std::vector<std::uint64_t>{1, 3, 0, 2}), unstable = upload(std::vector<std::uint64_t>{3, 1, 0, 2}),
         twice = upload(std::vector<std::uint64_t>{1, 3, 0, 0}),
         huge = upload(std::vector<std::uint64_t>{1, 3, 0, (std::uint64_t(1) << 32) + 2});
  EXPECT_TRUE(validate_sort(p, din.p, k.p, good.p, true, 0).ok());
  const auto r = validate_sort(p, din.p, k.p, unstable.p, true, 0);
  EXPECT_TRUE(r.sorted && r.permutation);
  EXPECT_FALSE(r.stable);
  EXPECT_FALSE(validate_sort(p, din.p, k.p, twice.p, false, 0).permutation);
  EXPECT_FALSE(validate_sort(p, din.p, k.p, huge.p, false, 0).permutation);  // not truncated to 32 bits
}

// The realistic distributions on the GPU are the host functions the CPU
// tests check (device/dist_values.hpp), key for key.
TEST(Generators, RealisticDistributionsMatchTheirHostFunctions) {
  SORTBENCH_REQUIRE_GPU();
  const std::size_t n = 100003;
  DevMem d(n * 8);
  auto gen = [&](const char* name, KeyType k) {
    const Distribution dist = *parse_distribution(name, nullptr);
    generate_keys({k, ValueType::none, Order::ascending, n, dist, 7}, d.p, 0);
    cuda_check(cudaDeviceSynchronize(), "generate");
    return dist::params_for(dist, k, 7, n);
  };
  {
    const auto p = gen("range:-1000:1000", KeyType::i32);
    const auto h = to_host<std::int32_t>(d.p, n);
    for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(h[i], std::int32_t(std::uint32_t(dist::range_integer(p, i)))) << i;
  }
  {
    const auto p = gen("range:0:1", KeyType::f64);
    const auto h = to_host<double>(d.p, n);
    for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(h[i], dist::range_real(p, i)) << i;
  }
  {
    const auto p = gen("low_bits:32", KeyType::u64);
    const auto h = to_host<std::uint64_t>(d.p, n);
    for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(h[i], dist::low_bits(p, i)) << i;
  }
  {
    const auto p = gen("timestamps:8:64", KeyType::u64);
    const auto h = to_host<std::uint64_t>(d.p, n);
    for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(h[i], dist::timestamp(p, i)) << i;
  }
  {
    const auto p = gen("hot_buckets:0.9:16", KeyType::u32);
    const auto h = to_host<std::uint32_t>(d.p, n);
    for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(h[i], std::uint32_t(dist::hot_bucket_bits(p, i))) << i;
  }
  {
    gen("runs:5", KeyType::f32);
    const auto h = to_host<float>(d.p, n);
    const std::size_t len = (n + 4) / 5;
    for (std::size_t r = 0; r < 5; ++r)
      EXPECT_TRUE(std::is_sorted(h.begin() + std::ptrdiff_t(r * len), h.begin() + std::ptrdiff_t(std::min(n, (r + 1) * len))));
    EXPECT_FALSE(std::is_sorted(h.begin(), h.end()));
  }
}

TEST(Generators, DistributionsKeepTheirPromises) {
  SORTBENCH_REQUIRE_GPU();
  const std::size_t n = 100000;
  DevMem d(n * 8);
  auto gen = [&](const char* name, KeyType k) {
    generate_keys({k, ValueType::none, Order::ascending, n, *parse_distribution(name, nullptr), 7}, d.p, 0);
    cuda_check(cudaDeviceSynchronize(), "generate");
  };
  gen("sorted", KeyType::f32);
  {
    auto h = to_host<float>(d.p, n);
    EXPECT_TRUE(std::is_sorted(h.begin(), h.end()));
    EXPECT_TRUE(std::all_of(h.begin(), h.end(), [](float x) { return std::isfinite(x); }));
  }
  gen("reverse", KeyType::i64);
  {
    auto h = to_host<std::int64_t>(d.p, n);
    EXPECT_TRUE(std::is_sorted(h.rbegin(), h.rend()));
    EXPECT_LT(h.back(), 0);
  }
  gen("nearly_sorted", KeyType::u32);
  {
    auto h = to_host<std::uint32_t>(d.p, n);
    auto s = h;
    std::sort(s.begin(), s.end());
    std::size_t moved = 0;
    for (std::size_t i = 0; i < n; ++i) moved += h[i] != s[i];
    EXPECT_NEAR(double(moved) / double(n), 0.01, 0.002);
  }
  gen("entropy:0.0", KeyType::u64);
  {
    auto h = to_host<std::uint64_t>(d.p, n);
    EXPECT_EQ(std::set<std::uint64_t>(h.begin(), h.end()).size(), 1u);
  }
  gen("entropy:0.544", KeyType::u32);
  {
    auto h = to_host<std::uint32_t>(d.p, n);
    double ones = 0;
    for (auto x : h) ones += __builtin_popcount(x);
    EXPECT_NEAR(ones / (32.0 * double(n)), 0.125, 0.005);  // three words AND-ed
  }
  gen("few_unique:16", KeyType::f64);
  {
    auto h = to_host<std::uint64_t>(d.p, n);
    EXPECT_EQ(std::set<std::uint64_t>(h.begin(), h.end()).size(), 16u);
  }
  gen("normal", KeyType::f64);
  {
    auto h = to_host<double>(d.p, n);
    double sum = 0, sq = 0;
    for (double x : h) sum += x, sq += x * x;
    EXPECT_NEAR(sum / double(n), 0.0, 0.02);
    EXPECT_NEAR(sq / double(n), 1.0, 0.03);
  }
  gen("zipf", KeyType::f32);
  {
    auto h = to_host<float>(d.p, n);
    const auto ones = std::count(h.begin(), h.end(), 1.0f);
    EXPECT_NEAR(double(ones) / double(n), std::log2(2.0) / 20.0, 0.01);  // P(rank 1) = 1/20
  }
  // The 8- and 16-bit types: evenly spaced over the finite range, raw bits for uniform.
  gen("sorted", KeyType::f16);
  {
    auto h = to_host<std::uint16_t>(d.p, n);
    EXPECT_EQ(h.front(), 0xFBFF);  // -65504, the lowest finite half
    EXPECT_EQ(h.back(), 0x7BFF);   // 65504
    EXPECT_TRUE(std::all_of(h.begin(), h.end(), [](std::uint16_t b) { return (b & 0x7C00) != 0x7C00; }));
    EXPECT_TRUE(std::is_sorted(h.begin(), h.end(), [](std::uint16_t a, std::uint16_t b) {
      return float_ordered_bits(a) < float_ordered_bits(b);
    }));
  }
  gen("reverse", KeyType::i8);
  {
    auto h = to_host<std::int8_t>(d.p, n);
    EXPECT_EQ(h.front(), 127);
    EXPECT_EQ(h.back(), -128);
    EXPECT_TRUE(std::is_sorted(h.rbegin(), h.rend()));
  }
  gen("normal", KeyType::bf16);
  {
    auto h = to_host<__nv_bfloat16>(d.p, n);
    double sum = 0, sq = 0;
    for (auto x : h) {
      const double f = __bfloat162float(x);
      sum += f, sq += f * f;
    }
    EXPECT_NEAR(sum / double(n), 0.0, 0.02);
    EXPECT_NEAR(sq / double(n), 1.0, 0.03);
  }
  gen("uniform", KeyType::f16);
  {
    auto h = to_host<std::uint16_t>(d.p, n);
    const auto nans = std::count_if(h.begin(), h.end(), [](std::uint16_t b) { return (b & 0x7C00) == 0x7C00 && (b & 0x3FF); });
    EXPECT_NEAR(double(nans) / double(n), 2046.0 / 65536.0, 0.005);  // NaNs of both signs, as raw bits occur
    const auto negative = std::count_if(h.begin(), h.end(), [](std::uint16_t b) { return b & 0x8000; });
    EXPECT_NEAR(double(negative) / double(n), 0.5, 0.01);
  }
  EXPECT_NE(distribution_skip_reason(*parse_distribution("normal", nullptr), KeyType::u32), "");
  EXPECT_EQ(distribution_skip_reason(*parse_distribution("normal", nullptr), KeyType::f16), "");
  // The same seed gives the same keys; another seed other keys.
  gen("uniform", KeyType::u32);
  auto a = to_host<std::uint32_t>(d.p, n);
  gen("uniform", KeyType::u32);
  EXPECT_EQ(a, to_host<std::uint32_t>(d.p, n));
  generate_keys({KeyType::u32, ValueType::none, Order::ascending, n, *parse_distribution("uniform", nullptr), 8}, d.p, 0);
  EXPECT_NE(a, to_host<std::uint32_t>(d.p, n));
}

// Deliberately wrong variants, registered in this test binary only: the
// runner must fail them, never time them.
namespace {

class CopyOnly final : public Instance {
 public:
  explicit CopyOnly(const Problem& p, bool lose) : p_(p), lose_(lose) {}
  std::size_t temp_bytes(const Buffers&, cudaStream_t) override { return 0; }
  void run(const Buffers& b, void*, std::size_t, cudaStream_t s) override {
    const std::size_t kb = p_.n * key_bytes(p_.key);
    if (!lose_) {
      cuda_check(cudaMemcpyAsync(b.keys_out, b.keys_in, kb, cudaMemcpyDeviceToDevice, s), "copy");
      return;
    }
    // Sorted but not a permutation: every key becomes the first one.
    for (std::size_t i = 0; i < p_.n; ++i)
      cuda_check(cudaMemcpyAsync(static_cast<char*>(b.keys_out) + i * 4, b.keys_in, 4, cudaMemcpyDeviceToDevice, s), "copy");
  }

 private:
  Problem p_;
  bool lose_;
};

VariantInfo broken(const std::string& label, bool lose) {
  VariantInfo v;
  v.label = label;
  v.family = "test";
  v.key_types = {KeyType::u32};
  v.value_types = {ValueType::none};
  v.bytes_per_key = [](const Problem&) { return 8.0; };
  v.make = [lose](const Problem& p) { return std::make_unique<CopyOnly>(p, lose); };
  return v;
}
SORTBENCH_REGISTER_VARIANT(broken("test.copy_unsorted", false));
SORTBENCH_REGISTER_VARIANT(broken("test.all_first_key", true));

}  // namespace

TEST(Runner, TimesAndValidatesCub) {
  SORTBENCH_REQUIRE_GPU();
  const DeviceInfo dev = query_device(true);
  EXPECT_GT(dev.copy_gb_per_s, 100.0);
  MeasureSettings m;
  m.budget_s = 1.0;
  Runner r(m, dev);
  ASSERT_EQ(r.prepare({KeyType::u32, ValueType::u32, Order::ascending, 1 << 20, *parse_distribution("uniform", nullptr), 1}), "");
  const PointResult p = r.measure(*Registry::instance().find(kReferenceVariant));
  ASSERT_EQ(p.status, Status::ok) << p.reason;
  EXPECT_TRUE(p.validation.ok());
  EXPECT_TRUE(p.validation.stability_checked);
  EXPECT_GE(p.time_ms.samples, 10u);
  EXPECT_GT(p.time_ms.median, 0.0);
  EXPECT_GT(p.sm_clock_mhz, 100.0);
  EXPECT_GT(p.gkeys_per_s, 0.0);
  EXPECT_GT(p.temp_bytes, 0u);
  EXPECT_TRUE(p.stop_reason == "noise" || p.stop_reason == "budget") << p.stop_reason;
}

TEST(Runner, FailsWrongResultsWithoutATime) {
  SORTBENCH_REQUIRE_GPU();
  Runner r(MeasureSettings{}, query_device(false));
  ASSERT_EQ(r.prepare({KeyType::u32, ValueType::none, Order::ascending, 1000, *parse_distribution("uniform", nullptr), 1}), "");
  const PointResult a = r.measure(*Registry::instance().find("test.copy_unsorted"));
  EXPECT_EQ(a.status, Status::failed);
  EXPECT_FALSE(a.validation.sorted);
  EXPECT_GE(a.validation.first_bad_index, 1);
  EXPECT_EQ(a.time_ms.samples, 0u);
  const PointResult b = r.measure(*Registry::instance().find("test.all_first_key"));
  EXPECT_EQ(b.status, Status::failed);
  EXPECT_FALSE(b.validation.permutation);
  EXPECT_NE(b.reason.find("not a permutation"), std::string::npos);
  // The sweep goes on: a good variant on the same workload still measures.
  EXPECT_EQ(r.measure(*Registry::instance().find(kReferenceVariant)).status, Status::ok);
}

TEST(Runner, SkipsWhatCannotRun) {
  SORTBENCH_REQUIRE_GPU();
  const DeviceInfo dev = query_device(false);
  Runner r(MeasureSettings{}, dev);
  // More keys than the GPU's memory holds (u64 values: u32 values cannot hold
  // the index of a key past 2^32, which is refused first).
  const std::size_t huge = dev.total_mem / 4;
  const std::string why = r.prepare({KeyType::u64, ValueType::u64, Order::ascending, huge, *parse_distribution("uniform", nullptr), 1});
  EXPECT_NE(why.find("GiB free"), std::string::npos) << why;
  const PointResult p = r.measure(*Registry::instance().find(kReferenceVariant));
  EXPECT_EQ(p.status, Status::skipped);
  EXPECT_NE(p.reason.find("needs"), std::string::npos);
  // A variant without the key type is skipped with its reason.
  ASSERT_EQ(r.prepare({KeyType::f64, ValueType::none, Order::ascending, 10, *parse_distribution("uniform", nullptr), 1}), "");
  const PointResult q = r.measure(*Registry::instance().find("test.copy_unsorted"));
  EXPECT_EQ(q.status, Status::skipped);
  EXPECT_NE(q.reason.find("f64 not supported"), std::string::npos);
}

TEST(Generators, KeysFromAFile) {
  SORTBENCH_REQUIRE_GPU();
  const std::string path = testing::TempDir() + "sortbench_keys.bin";
  const std::vector<std::int32_t> keys = {5, -3, 7, 0, -3, 9};
  {
    std::FILE* f = std::fopen(path.c_str(), "wb");
    ASSERT_NE(f, nullptr);
    std::fwrite(keys.data(), sizeof(std::int32_t), keys.size(), f);
    std::fclose(f);
  }
  DevMem d(keys.size() * 4);
  const Distribution dist = *parse_distribution("file:" + path, nullptr);
  generate_keys({KeyType::i32, ValueType::none, Order::ascending, 4, dist, 1}, d.p, 0);
  EXPECT_EQ(to_host<std::int32_t>(d.p, 4), (std::vector<std::int32_t>{5, -3, 7, 0}));
  // Too few keys for the point: the runner skips the workload with the reason.
  Runner r(MeasureSettings{}, query_device(false));
  const std::string why = r.prepare({KeyType::i32, ValueType::none, Order::ascending, 7, dist, 1});
  EXPECT_NE(why.find("holds 6 i32 keys, the point needs 7"), std::string::npos) << why;
  EXPECT_EQ(r.measure(*Registry::instance().find(kReferenceVariant)).status, Status::skipped);
  std::remove(path.c_str());
}
