// The resource check on the GPU: for every kernel a variant declares, the
// host-side residency (cuda_occupancy.h over this GPU's limits, the arithmetic
// the tuner prunes with) equals the CUDA runtime's; every radix variant
// declares its kernels and fits; the deliberately invalid launch is pruned.
#include <gtest/gtest.h>

#include "gpu_test_util.hpp"
#include "sortbench/resources.hpp"
#include "sortbench/tune.hpp"

using namespace sortbench;

TEST(Resources, HostResidencyMatchesTheRuntimeForEveryDeclaredKernel) {
  SORTBENCH_REQUIRE_GPU();
  const SmLimits sm = device_sm_limits();
  std::size_t compared = 0;
  for (const VariantInfo& v : Registry::instance().all()) {
    if (v.host || v.family == "test.fault") continue;
    for (const Problem& p : {Problem{KeyType::u32, ValueType::none, Order::ascending, 1 << 20},
                             Problem{KeyType::u32, ValueType::u32, Order::ascending, 1 << 20},
                             Problem{KeyType::u64, ValueType::none, Order::ascending, 1 << 20}}) {
      if (!v.skip_reason(p).empty()) continue;
      const auto instance = v.make(p);
      const auto launches = instance->kernels();
      const auto resources = compiled_resources(*instance);
      ASSERT_EQ(launches.size(), resources.size());
      if (v.family == "radix") {
        EXPECT_FALSE(launches.empty()) << v.label << " declares no kernels";
      }
      for (std::size_t i = 0; i < launches.size(); ++i) {
        const KernelResources& k = resources[i];
        EXPECT_EQ(resource_reason(sm, k), "") << v.label;
        int blocks = -1;
        ASSERT_EQ(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, launches[i].function, k.block_threads,
                                                                k.dynamic_smem),
                  cudaSuccess)
            << v.label << " " << k.kernel;
        const Residency r = residency(sm, k);
        EXPECT_EQ(r.blocks_per_sm, blocks) << v.label << " kernel " << k.kernel << " (" << k.block_threads
                                           << " threads, " << k.registers_per_thread << " registers, "
                                           << k.static_smem + k.dynamic_smem << " B shared)";
        EXPECT_GE(blocks, 1) << v.label << " " << k.kernel;
        ++compared;
      }
    }
  }
  EXPECT_GT(compared, 100u);
}

TEST(Resources, TheTuneHookPrunesTheInvalidLaunchAndPassesTheOnesweepShapes) {
  SORTBENCH_REQUIRE_GPU();
  tune::KernelResourceCheck check(device_sm_limits(), tune::compiled_variant_resources);
  const Problem keys{KeyType::u32, ValueType::none, Order::ascending, 1 << 20};
  const auto& reg = Registry::instance();
  const std::string why = check(*reg.find("test.fault.invalid_launch"), keys);
  EXPECT_NE(why.find("kernel 'write_through' (2048 threads"), std::string::npos) << why;
  EXPECT_NE(why.find("more threads per block than the 1024"), std::string::npos) << why;
  // Every Onesweep point built for u32 keys (the lean build holds points of
  // best.json's u64 picks at 64-bit keys only).
  std::vector<const VariantInfo*> u32_points;
  for (const VariantInfo* v : reg.match({"radix.onesweep.*"}))
    if (v->supports_key(KeyType::u32)) u32_points.push_back(v);
  for (const VariantInfo* v : u32_points) EXPECT_EQ(check(*v, keys), "") << v->label;
  EXPECT_GT(u32_points.size(), 0u);
  // The pass kernel of every such point is recorded with its residency.
  const auto report = check.report();
  for (const VariantInfo* v : u32_points) {
    const auto& kernels = report["points"][v->label]["u32/none"];
    ASSERT_EQ(kernels.size(), 3u) << v->label;
    EXPECT_EQ(kernels[2]["kernel"], "pass");
    // __launch_bounds__(threads, min_blocks_per_sm) held: the compiler kept the registers low enough.
    int min_blocks = 1;
    for (const auto& param : v->params)
      if (param.name == "min_blocks_per_sm") min_blocks = std::stoi(param.value);
    EXPECT_GE(kernels[2]["blocks_per_sm"].get<int>(), min_blocks) << v->label;
  }
}
