// Resource pruning: residency of a launch on an SM (NVIDIA's occupancy
// calculator over written-out H100 limits), the reasons a launch cannot run,
// and the tuner's hook that keeps each point's kernels for the report. The
// same arithmetic is compared with the CUDA runtime's on the GPU
// (tests/gpu/test_resources.cpp).
#include <gtest/gtest.h>

#include <stdexcept>

#include "sortbench/resources.hpp"
#include "sortbench/tune.hpp"

using namespace sortbench;

namespace {

KernelResources launch(int threads, int registers, std::size_t dynamic_smem = 0, std::size_t static_smem = 0) {
  KernelResources k;
  k.kernel = "pass";
  k.block_threads = threads;
  k.registers_per_thread = registers;
  k.dynamic_smem = dynamic_smem;
  k.static_smem = static_smem;
  k.max_dynamic_smem = 227 * 1024;
  k.max_threads_per_block = 1024;
  return k;
}

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

}  // namespace

TEST(Residency, WarpsLimitSmallKernels) {
  const Residency r = residency(sm90_limits(), launch(256, 32));
  EXPECT_EQ(r.blocks_per_sm, 8);  // 64 warps per SM / 8 per block
  EXPECT_TRUE(contains(r.limited_by, "warps")) << r.limited_by;
}

TEST(Residency, RegistersLimitTheOnesweepShape) {
  // 384 x 56 registers: 21504 registers per block, three fit in 65536.
  const Residency r = residency(sm90_limits(), launch(384, 56));
  EXPECT_EQ(r.blocks_per_sm, 3);
  EXPECT_EQ(r.limited_by, "registers");
}

TEST(Residency, SharedMemoryCountsTheReservedKilobyte) {
  // 113 KiB + 1 KiB reserved per block: two fit in 228 KiB; 114 KiB + 1 would not.
  EXPECT_EQ(residency(sm90_limits(), launch(256, 32, 113 * 1024)).blocks_per_sm, 2);
  const Residency r = residency(sm90_limits(), launch(256, 32, 114 * 1024));
  EXPECT_EQ(r.blocks_per_sm, 1);
  EXPECT_EQ(r.limited_by, "shared memory");
}

TEST(ResourceReason, EmptyWhenABlockFits) {
  EXPECT_EQ(resource_reason(sm90_limits(), launch(384, 56, 40 * 1024)), "");
  EXPECT_EQ(resource_reason(sm90_limits(), launch(1024, 64)), "");  // exactly the register file
}

TEST(ResourceReason, NamesTheKernelAndTheLimit) {
  const SmLimits sm = sm90_limits();
  const std::string threads = resource_reason(sm, launch(2048, 16));
  EXPECT_TRUE(contains(threads, "kernel 'pass' (2048 threads, 16 registers per thread")) << threads;
  EXPECT_TRUE(contains(threads, "more threads per block than the 1024 the NVIDIA H100")) << threads;

  KernelResources bounded = launch(1024, 72);
  bounded.max_threads_per_block = 896;  // what cudaFuncGetAttributes reports at 72 registers
  const std::string compiled = resource_reason(sm, bounded);
  EXPECT_TRUE(contains(compiled, "the compiled kernel allows 896 threads per block")) << compiled;

  const std::string regs = resource_reason(sm, launch(1024, 72));
  EXPECT_TRUE(contains(regs, "needs 73728 registers per block")) << regs;

  const std::string smem = resource_reason(sm, launch(256, 32, 220 * 1024, 8 * 1024));
  EXPECT_TRUE(contains(smem, "228 KiB shared memory per block")) << smem;
  EXPECT_TRUE(contains(smem, "more shared memory per block than the 227 KiB")) << smem;

  KernelResources unraised = launch(256, 32, 64 * 1024);
  unraised.max_dynamic_smem = 48 * 1024;
  const std::string limit = resource_reason(sm, unraised);
  EXPECT_TRUE(contains(limit, "above the kernel's limit of 48 KiB")) << limit;
}

TEST(KernelResourceCheck, PrunesAndKeepsEachPointsKernels) {
  tune::register_fake_variants();
  const auto& reg = Registry::instance();
  tune::KernelResourceCheck check(sm90_limits(), tune::fake_kernel_resources);
  const Problem keys{KeyType::u32, ValueType::none, Order::ascending, std::size_t(1) << 20};
  EXPECT_EQ(check(*reg.find("fake.radix.rb8.ipt8.tpb256"), keys), "");
  const std::string why = check(*reg.find("fake.radix.rb8.ipt16.tpb512"), keys);
  EXPECT_TRUE(contains(why, "129 registers per thread")) << why;
  EXPECT_TRUE(contains(why, "allows 480 threads per block")) << why;

  const auto report = check.report();
  EXPECT_EQ(report["sm"]["registers_per_sm"], 65536);
  const auto& kept = report["points"]["fake.radix.rb8.ipt8.tpb256"]["u32/none"];
  ASSERT_EQ(kept.size(), 1u);
  EXPECT_EQ(kept[0]["kernel"], "pass");
  EXPECT_EQ(kept[0]["registers_per_thread"], 65);
  EXPECT_EQ(kept[0]["blocks_per_sm"], 3);  // 65 registers round up to 2304 per warp
  EXPECT_EQ(report["points"]["fake.radix.rb8.ipt16.tpb512"]["u32/none"][0]["blocks_per_sm"], 0);
}

TEST(KernelResourceCheck, ListsVariantsThatDeclareNoKernelsAndReportsProviderErrors) {
  VariantInfo v;
  v.label = "x.none";
  const Problem p{KeyType::u32, ValueType::none, Order::ascending, 1024};
  tune::KernelResourceCheck none(sm90_limits(), [](const VariantInfo&, const Problem&) {
    return std::vector<KernelResources>{};
  });
  EXPECT_EQ(none(v, p), "");
  EXPECT_EQ(none.report()["undeclared"], nlohmann::json::array({"x.none"}));

  tune::KernelResourceCheck broken(sm90_limits(), [](const VariantInfo&, const Problem&) -> std::vector<KernelResources> {
    throw std::runtime_error("cudaFuncGetAttributes(pass): invalid device function");
  });
  const std::string why = broken(v, p);
  EXPECT_TRUE(contains(why, "could not be read: cudaFuncGetAttributes(pass): invalid device function")) << why;
}
