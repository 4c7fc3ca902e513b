// Sizes past 32-bit counts (issue 15: the radix family sorts every size that
// fits, at least 2^32 + 3 u32 keys): the radix family's default point (the
// Onesweep portions every Onesweep point shares) runs 2^32 + 3 keys,
// validated (sorted, the same multiset).
// Skipped, with the memory it needs, on a GPU too small to hold the buffers.
#include "gpu_test_util.hpp"

using namespace sortbench;
using namespace sortbench::test;

namespace {

constexpr std::size_t kBeyond32 = (std::size_t(1) << 32) + 3;

std::vector<std::string> uncapped() {
  return labels_where([](const VariantInfo& v) { return v.family == "radix" && v.max_n >= kBeyond32 && v.family_default; });
}

class Beyond32Bits : public ::testing::TestWithParam<std::string> {};

TEST_P(Beyond32Bits, SortsTwoToThe32PlusThreeKeys) {
  SORTBENCH_REQUIRE_GPU();
  const VariantInfo* v = Registry::instance().find(GetParam());
  ASSERT_NE(v, nullptr);
  for (const char* dist : {"uniform", "entropy:0.0"}) {
    const Problem p{KeyType::u32, ValueType::none, Order::ascending, kBeyond32};
    if (const std::string why = v->skip_reason(p); !why.empty()) GTEST_SKIP() << why;
    auto inst = v->make(p);
    const std::size_t bytes = p.n * 4;
    const std::size_t temp = inst->temp_bytes(Buffers{}, nullptr);
    std::size_t free_b = 0, total_b = 0;
    ASSERT_EQ(cudaMemGetInfo(&free_b, &total_b), cudaSuccess);
    const std::size_t need = 3 * bytes + temp + (std::size_t(1) << 30);
    if (need > free_b)
      GTEST_SKIP() << "needs " << need / (1 << 20) << " MiB of device memory (input, working copy, output, "
                   << temp / (1 << 20) << " MiB temp); " << free_b / (1 << 20) << " MiB free";
    DevMem pristine(bytes), in(bytes), out(bytes);
    cudaStream_t s;
    ASSERT_EQ(cudaStreamCreate(&s), cudaSuccess);
    Workload w{p.key, p.value, p.order, p.n, *parse_distribution(dist, nullptr), 7};
    generate_keys(w, pristine.p, s);
    run_once(*v, p, pristine.p, nullptr, in.p, out.p, nullptr, nullptr, s);
    const Validation r = validate_sort(p, pristine.p, out.p, nullptr, false, s);
    EXPECT_TRUE(r.ok()) << v->label << " " << dist << " n=" << p.n << ": " << r.message;
    cudaStreamDestroy(s);
  }
}

INSTANTIATE_TEST_SUITE_P(Radix, Beyond32Bits, ::testing::ValuesIn(uncapped()), label_test_name);

}  // namespace
