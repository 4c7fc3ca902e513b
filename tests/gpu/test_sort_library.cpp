// The library's two-phase calls (sortbench/sort.hpp) on the GPU: every key
// type, value type and order at the sizes around a tile, with the committed
// best.json of this GPU; the input is left as it was; a temp_bytes below the
// size query writes nothing; n past 2^32. And every variant that declares
// const_input sorts without writing its input, at even and odd pass counts.
#include <gtest/gtest.h>

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <filesystem>
#include <vector>

#include "gpu_test_util.hpp"
#include "sortbench/sort.hpp"

using namespace sortbench;
using namespace sortbench::test;

namespace {

std::string committed_best_json() {
  int dev = 0;
  cuda_check(cudaGetDevice(&dev), "device");
  cudaDeviceProp p{};
  cuda_check(cudaGetDeviceProperties(&p, dev), "props");
  return std::string(SORTBENCH_SOURCE_DIR) + "/results/" + device_model_slug(p.name) + "/best.json";
}

std::string describe(const Workload& w) {
  return to_string(w.key) + "/" + to_string(w.value) + "/" + to_string(w.order) + "/" + w.dist.name() +
         "/n=" + std::to_string(w.n);
}

std::vector<char> bytes_of(const void* d, std::size_t n) { return to_host<char>(d, n); }

// One sort through the library's entry point; checks the result and that the input is unchanged.
void sort_and_check(const Workload& w, const SortOptions& base) {
  const Problem p = w.problem();
  const std::size_t kb = p.n * key_bytes(p.key), vb = p.n * value_bytes(p.value);
  DevMem pristine(kb), in(kb), out(kb), vin(vb), vout(vb);
  generate_keys(w, pristine.p, 0);
  if (kb) cuda_check(cudaMemcpy(in.p, pristine.p, kb, cudaMemcpyDeviceToDevice), "copy");
  if (vb) fill_index_values(vin.p, p.value, p.n, 0);
  std::string label;
  SortOptions o = base;
  o.descending = p.order == Order::descending;
  o.chosen = &label;
  std::size_t bytes = 0;
  ASSERT_EQ(detail::sort(p.key, p.value, nullptr, bytes, in.p, out.p, vin.p, vout.p, p.n, 0, o), cudaSuccess);
  ASSERT_GE(bytes, 1u);
  DevMem temp(bytes);
  ASSERT_EQ(detail::sort(p.key, p.value, temp.p, bytes, in.p, out.p, vin.p, vout.p, p.n, 0, o), cudaSuccess);
  cuda_check(cudaDeviceSynchronize(), "sort");
  const std::string what = describe(w) + " -> " + label;
  if (p.n) {
    const Validation v = validate_sort(p, pristine.p, out.p, vb ? vout.p : nullptr, true, 0);
    EXPECT_TRUE(v.ok()) << what << ": " << v.message;
    EXPECT_EQ(bytes_of(in.p, kb), bytes_of(pristine.p, kb)) << what << ": keys_in written";
  }
}

}  // namespace

TEST(SortLibrary, EveryKeyTypeValueTypeAndOrder) {
  SORTBENCH_REQUIRE_GPU();
  SortOptions o;
  o.best_json = committed_best_json();
  for (KeyType k : kAllKeyTypes)
    for (ValueType v : kAllValueTypes)
      for (Order order : {Order::ascending, Order::descending})
        for (std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(1000), (std::size_t(1) << 20) + 3})
          sort_and_check({k, v, order, n, *parse_distribution("uniform", nullptr), 11}, o);
}

TEST(SortLibrary, PicksOfEveryInputClass) {
  SORTBENCH_REQUIRE_GPU();
  SortOptions o;
  o.best_json = committed_best_json();
  for (KeyType k : {KeyType::u32, KeyType::f32, KeyType::u64})
    for (ValueType v : {ValueType::none, ValueType::u32})
      for (const char* d : {"sorted", "reverse", "zipf", "low_bits:20", "few_unique:16", "entropy:0.0"})
        for (std::size_t n : {(std::size_t(1) << 24) + 7})
          sort_and_check({k, v, Order::ascending, n, *parse_distribution(d, nullptr), 3}, o);
}

TEST(SortLibrary, TheTemplatesName) {
  SORTBENCH_REQUIRE_GPU();
  const std::size_t n = 4099;
  DevMem in(n * 8), out(n * 8), vin(n * 8), vout(n * 8);
  cuda_check(cudaMemset(in.p, 0x5a, n * 8), "fill");
  std::size_t bytes = 0;
  EXPECT_EQ(sort_keys(nullptr, bytes, static_cast<const __half*>(in.p), static_cast<__half*>(out.p), n), cudaSuccess);
  EXPECT_EQ(sort_pairs(nullptr, bytes, static_cast<const __nv_bfloat16*>(in.p), static_cast<__nv_bfloat16*>(out.p),
                       static_cast<const std::uint64_t*>(vin.p), static_cast<std::uint64_t*>(vout.p), n),
            cudaSuccess);
  DevMem temp(bytes);
  EXPECT_EQ(sort_pairs(temp.p, bytes, static_cast<const __nv_bfloat16*>(in.p), static_cast<__nv_bfloat16*>(out.p),
                       static_cast<const std::uint64_t*>(vin.p), static_cast<std::uint64_t*>(vout.p), n),
            cudaSuccess);
  EXPECT_FALSE((sort_choice<double, std::uint32_t>(n).empty()));
}

// Too little temporary storage: cudaErrorInvalidValue before any work.
TEST(SortLibrary, TooLittleTempStorageWritesNothing) {
  SORTBENCH_REQUIRE_GPU();
  const std::size_t n = (std::size_t(1) << 22) + 1;
  DevMem in(n * 4), out(n * 4), temp(1 << 20);
  cuda_check(cudaMemset(in.p, 0x11, n * 4), "fill");
  cuda_check(cudaMemset(out.p, 0x77, n * 4), "fill");
  const auto* k = static_cast<const std::uint32_t*>(in.p);
  auto* ko = static_cast<std::uint32_t*>(out.p);
  std::size_t bytes = 0;
  ASSERT_EQ(sort_keys(nullptr, bytes, k, ko, n), cudaSuccess);
  std::size_t less = bytes - 1;
  EXPECT_EQ(sort_keys(temp.p, less, k, ko, n), cudaErrorInvalidValue);
  cuda_check(cudaDeviceSynchronize(), "sync");
  for (char c : bytes_of(out.p, n * 4)) ASSERT_EQ(c, 0x77);
  EXPECT_EQ(sort_keys(temp.p, bytes, static_cast<const std::uint32_t*>(nullptr), ko, n), cudaErrorInvalidValue);
}

// Sizes past 2^32 (8-bit keys keep it at 13 GB): a pick with a 32-bit cap falls back.
TEST(SortLibrary, PastTwoToThe32) {
  SORTBENCH_REQUIRE_GPU();
  const std::size_t n = (std::size_t(1) << 32) + 7;
  std::size_t free_b = 0, total = 0;
  cuda_check(cudaMemGetInfo(&free_b, &total), "memory");
  if (free_b < 4 * n) GTEST_SKIP() << "needs " << 4 * n << " bytes free";
  sort_and_check({KeyType::u8, ValueType::none, Order::ascending, n, *parse_distribution("uniform", nullptr), 5}, {});
}

// Every variant that declares const_input, at even and odd numbers of passes.
TEST(ConstInput, DeclaringVariantsLeaveTheirInput) {
  SORTBENCH_REQUIRE_GPU();
  struct Case {
    KeyType k;
    ValueType v;
    const char* dist;
  };
  // low_bits: the skip_constant_digits points run 3 (u32) and 5 (u64) of their 8-bit passes, an even
  // number after the first (the spare buffer), and signed keys below 256 the first pass and the top
  // digit's, which decodes them.
  const Case cases[] = {{KeyType::u32, ValueType::none, "uniform"}, {KeyType::u32, ValueType::u32, "low_bits:24"},
                        {KeyType::u64, ValueType::u32, "low_bits:40"}, {KeyType::f64, ValueType::u64, "uniform"},
                        {KeyType::i32, ValueType::none, "low_bits:8"}};
  int checked = 0;
  for (const VariantInfo& v : Registry::instance().all()) {
    if (!v.const_input || v.host) continue;
    for (const Case& c : cases)
      for (std::size_t n : {std::size_t(1), (std::size_t(1) << 20) + 3}) {
        Workload w{c.k, c.v, Order::ascending, n, *parse_distribution(c.dist, nullptr), 9};
        Problem p = w.problem();
        p.const_input = true;
        if (!v.skip_reason(p).empty()) continue;
        const std::size_t kb = n * key_bytes(c.k), vb = n * value_bytes(c.v);
        DevMem pristine(kb), in(kb), out(kb), vin(vb), vout(vb), vpristine(vb);
        generate_keys(w, pristine.p, 0);
        cuda_check(cudaMemcpy(in.p, pristine.p, kb, cudaMemcpyDeviceToDevice), "copy");
        if (vb) fill_index_values(vin.p, c.v, n, 0);
        if (vb) cuda_check(cudaMemcpy(vpristine.p, vin.p, vb, cudaMemcpyDeviceToDevice), "copy");
        auto inst = v.make(p);
        const Buffers b{in.p, out.p, vb ? vin.p : nullptr, vb ? vout.p : nullptr};
        const std::size_t tb = inst->temp_bytes(b, 0);
        DevMem temp(tb);
        inst->run(b, temp.p, tb, 0);
        cuda_check(cudaDeviceSynchronize(), v.label.c_str());
        const std::string what = v.label + " " + describe(w);
        const Validation val = validate_sort(p, pristine.p, out.p, vb ? vout.p : nullptr, v.stable, 0);
        EXPECT_TRUE(val.ok()) << what << ": " << val.message;
        EXPECT_EQ(bytes_of(in.p, kb), bytes_of(pristine.p, kb)) << what << ": keys_in written";
        EXPECT_EQ(bytes_of(vin.p, vb), bytes_of(vpristine.p, vb)) << what << ": values_in written";
        ++checked;
      }
  }
  EXPECT_GT(checked, 8);
}
