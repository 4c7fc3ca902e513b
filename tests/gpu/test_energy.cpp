// Energy on the GPU (sortbench/energy.hpp): a kernel of known behaviour, a
// long device-to-device copy, costs the same energy per byte over windows
// of 1, 3 and 10 s; a measured point carries its energy, or why not.
#include <gtest/gtest.h>

#include <iostream>

#include "gpu_test_util.hpp"
#include "sortbench/energy.hpp"

using namespace sortbench;
using namespace sortbench::test;

namespace {
energy::Counter this_gpus_counter() {
  int dev = 0;
  cuda_check(cudaGetDevice(&dev), "device");
  char bus[32] = {};
  cuda_check(cudaDeviceGetPCIBusId(bus, int(sizeof bus), dev), "PCI bus id");
  return energy::Counter::open(bus);
}
}  // namespace

TEST(Energy, CopyEnergyPerByteIsStableFromOneToTenSeconds) {
  SORTBENCH_REQUIRE_GPU();
  const energy::Counter c = this_gpus_counter();
  if (!c.available()) GTEST_SKIP() << "no energy counter: " << c.why_not();
  const std::size_t bytes = std::size_t(1) << 30;
  DevMem a(bytes), b(bytes);
  cuda_check(cudaMemset(a.p, 1, bytes), "fill");
  auto copy = [&] {
    cuda_check(cudaMemcpyAsync(b.p, a.p, bytes, cudaMemcpyDeviceToDevice, 0), "copy");
    cuda_check(cudaStreamSynchronize(0), "copy");
  };
  double per_byte[3] = {};
  const double windows[3] = {1, 3, 10};
  for (int i = 0; i < 3; ++i) {
    std::string why;
    const auto w = energy::measure_window(c, copy, windows[i], &why);
    ASSERT_TRUE(w) << why;
    per_byte[i] = w->joules_per_op() / double(bytes);
    std::cout << windows[i] << " s window: " << w->ops << " copies in " << w->seconds << " s, " << w->watts_mean()
              << " W, " << per_byte[i] * 1e12 << " pJ/byte\n";
  }
  EXPECT_NEAR(per_byte[0], per_byte[2], 0.03 * per_byte[2]);
  EXPECT_NEAR(per_byte[1], per_byte[2], 0.03 * per_byte[2]);
}

TEST(Energy, AMeasuredPointCarriesItsEnergyOrWhyNot) {
  SORTBENCH_REQUIRE_GPU();
  MeasureSettings m;
  m.budget_s = 0.05;
  m.energy_window_s = 0.5;
  Runner runner(m, query_device(false));
  const Workload w{KeyType::u32, ValueType::none, Order::ascending, std::size_t(1) << 24,
                   *parse_distribution("uniform", nullptr), 1};
  ASSERT_EQ(runner.prepare(w), "");
  const VariantInfo* v = Registry::instance().find(kReferenceVariant);
  ASSERT_NE(v, nullptr);
  const PointResult r = runner.measure(*v);
  ASSERT_EQ(r.status, Status::ok) << r.reason;
  const energy::Counter c = this_gpus_counter();
  if (!c.available()) {
    EXPECT_FALSE(r.energy.measured);
    EXPECT_EQ(r.energy.missing, c.why_not());
    GTEST_SKIP() << "no energy counter: " << c.why_not();
  }
  ASSERT_TRUE(r.energy.measured) << r.energy.missing;
  EXPECT_GT(r.energy.joules, 0);
  EXPECT_GT(r.energy.restore_joules, 0);
  EXPECT_GE(r.energy.window_s, 0.5);
  EXPECT_GT(r.energy.sorts, 10u);
  EXPECT_NEAR(r.energy.joules_per_gkey, r.energy.joules / (double(w.n) / 1e9), 1e-9);
  const double limit = c.power_limit_w().value_or(1000);
  EXPECT_GT(r.energy.watts_mean, 50);
  EXPECT_LT(r.energy.watts_mean, 1.1 * limit);
  std::cout << v->label << " 2^24 u32: " << r.energy.joules * 1e3 << " mJ a sort (" << r.energy.joules_per_gkey
            << " J/GKey), " << r.energy.watts_mean << " W over " << r.energy.window_s << " s, restore "
            << r.energy.restore_joules * 1e3 << " mJ\n";
}
