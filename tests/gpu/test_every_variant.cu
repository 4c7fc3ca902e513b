// The registry-driven GPU suite: every registered variant x key type x value
// type x order x distribution x boundary sizes, validated and compared with
// cub::DeviceRadixSort's result.
#include <algorithm>
#include <set>

#include "gpu_test_util.hpp"
#include "sortbench/device/key_traits.cuh"

using namespace sortbench;
using namespace sortbench::test;

namespace {

std::vector<std::string> labels() {
  std::vector<std::string> out;
  for (const auto& v : Registry::instance().all())
    if (v.family.rfind("test", 0) != 0) out.push_back(v.label);  // test.fault.* fail on purpose
  return out;
}

std::vector<Distribution> all_distributions() {
  std::vector<Distribution> out;
  for (const char* n : {"uniform", "entropy:0.811", "entropy:0.544", "entropy:0.337", "entropy:0.201", "entropy:0.0",
                        "sorted", "reverse", "nearly_sorted", "few_unique:16", "zipf", "normal"})
    out.push_back(*parse_distribution(n, nullptr));
  return out;
}

std::vector<std::size_t> sizes_for(const VariantInfo& v) {
  std::set<std::size_t> s = {0, 1, 2, 31, 32, 33, 1023, 1024, 1025, (std::size_t(1) << 20) + 3};
  if (const std::size_t t = v.tile_keys) {
    s.insert(t - 1);
    s.insert(t);
    s.insert(t + 1);
    s.insert(2 * t + 1);
  }
  std::vector<std::size_t> out;
  for (auto n : s)
    if (n <= v.max_n) out.push_back(n);
  return out;
}

template <class T>
std::size_t first_mismatch(const void* a, const void* b, std::size_t n, bool bitwise) {
  const auto x = to_host<T>(a, n), y = to_host<T>(b, n);
  for (std::size_t i = 0; i < n; ++i) {
    const bool same = bitwise ? KeyTraits<T>::to_bits(x[i]) == KeyTraits<T>::to_bits(y[i])
                              : KeyTraits<T>::ordered(x[i]) == KeyTraits<T>::ordered(y[i]);
    if (!same) return i;
  }
  return n;
}

class EveryVariant : public ::testing::TestWithParam<std::string> {};

TEST_P(EveryVariant, ValidAndSameAsCub) {
  SORTBENCH_REQUIRE_GPU();
  const VariantInfo* v = Registry::instance().find(GetParam());
  const VariantInfo* cub = Registry::instance().find("cub.radix_sort");
  ASSERT_NE(v, nullptr);
  ASSERT_NE(cub, nullptr);
  const auto sizes = sizes_for(*v);
  const std::size_t max_n = sizes.back();
  DevMem pristine(max_n * 8), in(max_n * 8), out(max_n * 8), ref_in(max_n * 8), ref_out(max_n * 8);
  DevMem pv(max_n * 4), vin(max_n * 4), vout(max_n * 4), rvin(max_n * 4), rvout(max_n * 4);
  cudaStream_t s;
  ASSERT_EQ(cudaStreamCreate(&s), cudaSuccess);
  fill_index_values(static_cast<std::uint32_t*>(pv.p), max_n, s);
  int ran = 0, failures = 0;
  for (KeyType k : kAllKeyTypes)
    for (ValueType val : {ValueType::none, ValueType::u32})
      for (Order o : {Order::ascending, Order::descending})
        for (const auto& d : all_distributions())
          for (std::size_t n : sizes) {
            const Problem p{k, val, o, n};
            if (!v->skip_reason(p).empty() || !distribution_skip_reason(d, k).empty()) continue;
            if (failures >= 10) continue;  // enough to debug; keep the log short
            const std::string ctx = v->label + " " + to_string(k) + "/" + to_string(val) + " " + to_string(o) +
                                    " " + d.name() + " n=" + std::to_string(n);
            Workload w{k, val, o, n, d, 12345};
            generate_keys(w, pristine.p, s);
            auto* pvals = static_cast<std::uint32_t*>(pv.p);
            try {
              run_once(*v, p, pristine.p, pvals, in.p, out.p, static_cast<std::uint32_t*>(vin.p),
                       static_cast<std::uint32_t*>(vout.p), s);
            } catch (const std::exception& e) {
              ADD_FAILURE() << ctx << ": " << e.what();
              ++failures;
              continue;
            }
            ++ran;
            const Validation val_result = validate_sort(p, pristine.p, out.p, static_cast<std::uint32_t*>(vout.p), v->stable, s);
            if (!val_result.ok()) {
              ADD_FAILURE() << ctx << ": " << val_result.message;
              ++failures;
              continue;
            }
            run_once(*cub, p, pristine.p, pvals, ref_in.p, ref_out.p, static_cast<std::uint32_t*>(rvin.p),
                     static_cast<std::uint32_t*>(rvout.p), s);
            // A stable sort of pairs must equal CUB's stable result exactly;
            // otherwise equal keys may come in any order, and (with -0.0 and
            // +0.0 equal) only the ordered keys must agree.
            const bool exact = val == ValueType::u32 && v->stable;
            const std::size_t bad = with_key_type(k, [&](auto tag) {
              return first_mismatch<typename decltype(tag)::type>(out.p, ref_out.p, n, exact);
            });
            if (bad != n) {
              ADD_FAILURE() << ctx << ": key " << bad << " differs from cub::DeviceRadixSort";
              ++failures;
            } else if (exact) {
              const auto a = to_host<std::uint32_t>(vout.p, n), b = to_host<std::uint32_t>(rvout.p, n);
              if (a != b) {
                ADD_FAILURE() << ctx << ": values differ from cub::DeviceRadixSort";
                ++failures;
              }
            }
          }
  cudaStreamDestroy(s);
  EXPECT_GT(ran, 0) << v->label << " ran no case";
  RecordProperty("cases", ran);
}

std::string test_name(const ::testing::TestParamInfo<std::string>& info) {
  std::string s = info.param;
  for (char& c : s)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return s;
}

INSTANTIATE_TEST_SUITE_P(Registry, EveryVariant, ::testing::ValuesIn(labels()), test_name);

}  // namespace
