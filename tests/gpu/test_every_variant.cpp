// The registry-driven GPU suite: every registered variant x key type x value
// type x order x distribution x boundary sizes, validated and compared with
// the result of the reference CUB call (kReferenceVariant).
#include <algorithm>
#include <set>

#include "gpu_test_util.hpp"
#include "sortbench/device/key_traits.cuh"

using namespace sortbench;
using namespace sortbench::test;

namespace {

std::vector<std::string> labels() {
  // test.fault.* fail on purpose; the distributed family has its own suite (test_distributed.cpp).
  return labels_where([](const VariantInfo& v) { return v.family.rfind("test", 0) != 0 && !v.distributed(); });
}

std::vector<Distribution> all_distributions() {
  std::vector<Distribution> out;
  for (const char* n : {"uniform", "entropy:0.811", "entropy:0.544", "entropy:0.337", "entropy:0.201", "entropy:0.0",
                        "sorted", "reverse", "nearly_sorted", "few_unique:16", "zipf", "normal", "range:0:100",
                        "low_bits:8", "timestamps:8:64", "hot_buckets:0.9:16", "runs:3"})
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
  // A small declared cap (one cluster, one block) is itself a boundary.
  if (v.max_n <= (std::size_t(1) << 22)) {
    s.insert(v.max_n - 1);
    s.insert(v.max_n);
  }
  std::vector<std::size_t> out;
  for (auto n : s)
    if (n <= v.max_n) out.push_back(n);
  return out;
}

class EveryVariant : public ::testing::TestWithParam<std::string> {};

TEST_P(EveryVariant, ValidAndSameAsCub) {
  SORTBENCH_REQUIRE_GPU();
  const VariantInfo* v = Registry::instance().find(GetParam());
  const VariantInfo* cub = Registry::instance().find(kReferenceVariant);
  ASSERT_NE(v, nullptr);
  ASSERT_NE(cub, nullptr);
  const auto sizes = sizes_for(*v);
  const std::size_t max_n = sizes.back();
  DevMem pristine(max_n * 8), in(max_n * 8), out(max_n * 8), ref_in(max_n * 8), ref_out(max_n * 8);
  DevMem pv(max_n * 8), vin(max_n * 8), vout(max_n * 8), rvin(max_n * 8), rvout(max_n * 8);
  cudaStream_t s;
  ASSERT_EQ(cudaStreamCreate(&s), cudaSuccess);
  int ran = 0, failures = 0;
  std::set<std::string> covered;  // key/value types that ran, for the record
  for (KeyType k : kAllKeyTypes)
    for (ValueType val : kAllValueTypes) {
      fill_index_values(pv.p, val, max_n, s);
      for (Order o : {Order::ascending, Order::descending})
        for (const auto& d : all_distributions())
          for (std::size_t n : sizes) {
            const Problem p{k, val, o, n};
            if (!distribution_skip_reason(d, k).empty() || !v->declared_skip_reason(p).empty()) continue;
            if (!v->skip_reason(p).empty()) {
              covered.insert(to_string(k) + "/" + to_string(val));  // the variant's own check says why
              continue;
            }
            if (failures >= 10) continue;  // enough to debug; keep the log short
            const std::string ctx = v->label + " " + to_string(k) + "/" + to_string(val) + " " + to_string(o) +
                                    " " + d.name() + " n=" + std::to_string(n);
            Workload w{k, val, o, n, d, 12345};
            generate_keys(w, pristine.p, s);
            try {
              run_once(*v, p, pristine.p, pv.p, in.p, out.p, vin.p, vout.p, s);
            } catch (const std::exception& e) {
              ADD_FAILURE() << ctx << ": " << e.what();
              ++failures;
              continue;
            }
            ++ran;
            covered.insert(to_string(k) + "/" + to_string(val));
            const Validation val_result = validate_sort(p, pristine.p, out.p, vout.p, v->stable, s);
            if (!val_result.ok()) {
              ADD_FAILURE() << ctx << ": " << val_result.message;
              ++failures;
              continue;
            }
            run_once(*cub, p, pristine.p, pv.p, ref_in.p, ref_out.p, rvin.p, rvout.p, s);
            // A stable sort of pairs must equal CUB's stable result exactly;
            // otherwise equal keys may come in any order, and (with -0.0 and
            // +0.0 equal) only the ordered keys must agree.
            const bool exact = val != ValueType::none && v->stable;
            const std::size_t bad = with_key_type(k, [&](auto tag) {
              return first_mismatch<typename decltype(tag)::type>(out.p, ref_out.p, n, exact);
            });
            if (bad != n) {
              ADD_FAILURE() << ctx << ": key " << bad << " differs from " << kReferenceVariant;
              ++failures;
            } else if (exact) {
              const std::size_t vb = n * value_bytes(val);
              if (to_host<char>(vout.p, vb) != to_host<char>(rvout.p, vb)) {
                ADD_FAILURE() << ctx << ": values differ from " << kReferenceVariant;
                ++failures;
              }
            }
          }
    }
  cudaStreamDestroy(s);
  EXPECT_GT(ran, 0) << v->label << " ran no case";
  // Every key and value type the variant declares ran, or its own check said
  // why not.
  for (KeyType k : v->key_types)
    for (ValueType val : v->value_types)
      EXPECT_TRUE(covered.count(to_string(k) + "/" + to_string(val)) || failures >= 10)
          << v->label << " declares " << to_string(k) << "/" << to_string(val) << " but never ran it";
  RecordProperty("cases", ran);
}

INSTANTIATE_TEST_SUITE_P(Registry, EveryVariant, ::testing::ValuesIn(labels()), label_test_name);

}  // namespace
