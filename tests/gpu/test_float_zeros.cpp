// -0.0 among float keys, for the designs that run Onesweep's passes: a float
// sort's last pass takes the floating digit (-0.0's code, 0, read as +0.0's)
// only where the histogram saw a -0.0, and the plain digit elsewhere
// (PassKeyCode::with_digit_kind). With no -0.0, one -0.0 as the very last key
// (the histogram's last block must see it), or many -0.0 and +0.0 mixed: the
// result equals CUB's stable sort bit for bit (-0.0 and +0.0 equal keys in
// input order), keys and pairs, both orders, f32 and f64.
#include <algorithm>
#include <random>

#include "gpu_test_util.hpp"
#include "sortbench/device/key_traits.cuh"

using namespace sortbench;
using namespace sortbench::test;

namespace {

std::vector<std::string> onesweep_pass_labels() {
  return labels_where([](const VariantInfo& v) {
    return v.label.rfind("radix.onesweep.", 0) == 0 || v.label.rfind("radix.two_digit_msd_local_lsd.", 0) == 0 ||
           v.label == "dispatch.sort";
  });
}

enum class Zeros { none, one_negative_last, mixed };
const char* name(Zeros z) {
  return z == Zeros::none ? "no -0.0" : z == Zeros::one_negative_last ? "one -0.0, the last key" : "-0.0 and +0.0 mixed";
}

// Random bits (NaNs and infinities included), no -0.0 but where `z` puts it,
// and some +0.0.
template <class T>
std::vector<T> keys_with(Zeros z, std::size_t n, unsigned seed) {
  using Bits = typename KeyTraits<T>::UnsignedBits;
  const Bits negative_zero = Bits(1) << (sizeof(Bits) * 8 - 1);
  std::mt19937_64 rng(seed);
  std::vector<T> k(n);
  for (std::size_t i = 0; i < n; ++i) {
    Bits b = Bits(rng());
    if (b == negative_zero || i % 101 == 7) b = 0;
    if (z == Zeros::mixed && i % 97 == 3) b = negative_zero;
    k[i] = KeyTraits<T>::from_bits(b);
  }
  if (z == Zeros::one_negative_last) k[n - 1] = KeyTraits<T>::from_bits(negative_zero);
  return k;
}

class FloatZeros : public ::testing::TestWithParam<std::string> {};

TEST_P(FloatZeros, NegativeZeroAnywhereSortsAsCubDoes) {
  SORTBENCH_REQUIRE_GPU();
  const VariantInfo* v = Registry::instance().find(GetParam());
  const VariantInfo* cub = Registry::instance().find(kReferenceVariant);
  ASSERT_NE(v, nullptr);
  ASSERT_NE(cub, nullptr);
  // Three tiles (slabs) of the point and a last partial one, where it has
  // tiles (dispatch.sort has none of its own); 2^20 + 3 for the two-digit
  // design's buckets.
  std::vector<std::size_t> sizes;
  if (v->tile_keys) sizes.push_back(3 * v->tile_keys + 5);
  sizes.push_back((std::size_t(1) << 20) + 3);
  const std::size_t max_n = *std::max_element(sizes.begin(), sizes.end());
  DevMem pristine(max_n * 8), in(max_n * 8), out(max_n * 8), ref_in(max_n * 8), ref_out(max_n * 8);
  DevMem pv(max_n * 8), vin(max_n * 8), vout(max_n * 8), rvin(max_n * 8), rvout(max_n * 8);
  cudaStream_t s;
  ASSERT_EQ(cudaStreamCreate(&s), cudaSuccess);
  int ran = 0, failures = 0;
  for (KeyType k : {KeyType::f32, KeyType::f64})
    for (ValueType val : {ValueType::none, ValueType::u32}) {
      fill_index_values(pv.p, val, max_n, s);
      for (Order o : {Order::ascending, Order::descending})
        for (Zeros z : {Zeros::none, Zeros::one_negative_last, Zeros::mixed})
          for (std::size_t n : sizes) {
            const Problem p{k, val, o, n};
            if (!v->declared_skip_reason(p).empty() || !v->skip_reason(p).empty() || failures >= 10) continue;
            const std::string ctx = v->label + " " + to_string(k) + "/" + to_string(val) + " " + to_string(o) + " " +
                                    name(z) + " n=" + std::to_string(n);
            with_key_type(k, [&](auto tag) {
              using T = typename decltype(tag)::type;
              const auto h = keys_with<T>(z, n, 11);
              cuda_check(cudaMemcpy(pristine.p, h.data(), n * sizeof(T), cudaMemcpyHostToDevice), "keys");
            });
            run_once(*v, p, pristine.p, pv.p, in.p, out.p, vin.p, vout.p, s);
            run_once(*cub, p, pristine.p, pv.p, ref_in.p, ref_out.p, rvin.p, rvout.p, s);
            ++ran;
            const Validation r = validate_sort(p, pristine.p, out.p, vout.p, true, s);
            const std::size_t bad = with_key_type(k, [&](auto tag) {
              return first_mismatch<typename decltype(tag)::type>(out.p, ref_out.p, n, true);
            });
            const std::size_t vb = n * value_bytes(val);
            if (!r.ok()) ADD_FAILURE() << ctx << ": " << r.message;
            else if (bad != n) ADD_FAILURE() << ctx << ": key " << bad << " differs from " << kReferenceVariant;
            else if (vb && to_host<char>(vout.p, vb) != to_host<char>(rvout.p, vb))
              ADD_FAILURE() << ctx << ": values differ from " << kReferenceVariant;
            else continue;
            ++failures;
          }
    }
  cudaStreamDestroy(s);
  EXPECT_GT(ran, 0) << v->label << " ran no case";
}

INSTANTIATE_TEST_SUITE_P(Registry, FloatZeros, ::testing::ValuesIn(onesweep_pass_labels()), label_test_name);

}  // namespace
