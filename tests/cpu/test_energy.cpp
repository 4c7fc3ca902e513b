// Energy from NVML's counter (sortbench/energy.hpp) against a fake NVML
// (tests/energy/fake_nvml.cpp): the window starts and ends on steps of the
// counter and gives the fake GPU's draw; without the library, or without
// permission, or where the counter is not supported, the reason is named.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <cmath>
#include <thread>

#include "sortbench/energy.hpp"

using namespace sortbench;

namespace {
const char* fake() { return SORTBENCH_FAKE_NVML; }
}  // namespace

TEST(Energy, AWindowOnStepsOfTheCounterGivesTheDraw) {
  setenv("FAKE_NVML_MODE", "ok", 1);
  setenv("FAKE_NVML_WATTS", "350", 1);
  const energy::Counter c = energy::Counter::open("0000:18:00.0", fake());
  ASSERT_TRUE(c.available()) << c.why_not();
  EXPECT_DOUBLE_EQ(*c.power_w(), 350);
  EXPECT_DOUBLE_EQ(*c.power_limit_w(), 700);
  std::size_t calls = 0;
  std::string why;
  const auto w = energy::measure_window(
      c, [&] { ++calls; std::this_thread::sleep_for(std::chrono::milliseconds(4)); }, 0.5, &why);
  ASSERT_TRUE(w) << why;
  EXPECT_GE(w->seconds, 0.5);
  EXPECT_LT(w->seconds, 0.8);
  // Whole steps of 100 ms at 350 W: 35 J a step.
  EXPECT_NEAR(std::fmod(w->joules, 35.0), 0.0, 1e-6);
  EXPECT_NEAR(w->watts_mean(), 350, 350 * 0.05);
  // NVML's power reading, the cross-check, read at the window's steps.
  EXPECT_DOUBLE_EQ(w->power_reading_w, 350);
  // The operations counted are those between the two steps, not those run to find the first.
  EXPECT_LT(w->ops, calls);
  EXPECT_NEAR(double(w->ops) * 0.004, w->seconds, 0.25 * w->seconds);
  EXPECT_NEAR(w->joules_per_op(), w->joules / double(w->ops), 1e-12);
}

TEST(Energy, MissingLibraryOrPermissionIsAReason) {
  const energy::Counter none = energy::Counter::open("0000:18:00.0", "/nonexistent/libnvidia-ml.so.1");
  EXPECT_FALSE(none.available());
  EXPECT_NE(none.why_not().find("NVML not loaded (/nonexistent/libnvidia-ml.so.1)"), std::string::npos)
      << none.why_not();
  EXPECT_FALSE(none.total_mj());
  EXPECT_FALSE(none.power_w());
  EXPECT_NE(energy::nvml_status("/nonexistent/libnvidia-ml.so.1"), "");
  EXPECT_EQ(energy::nvml_status(fake()), "");

  setenv("FAKE_NVML_MODE", "no_permission", 1);
  const energy::Counter denied = energy::Counter::open("0000:18:00.0", fake());
  EXPECT_EQ(denied.why_not(), "nvmlDeviceGetTotalEnergyConsumption: Insufficient Permissions");
  std::string why;
  EXPECT_FALSE(energy::measure_window(denied, [] {}, 0.1, &why));
  EXPECT_EQ(why, denied.why_not());

  setenv("FAKE_NVML_MODE", "not_supported", 1);
  EXPECT_EQ(energy::Counter::open("0000:18:00.0", fake()).why_not(),
            "nvmlDeviceGetTotalEnergyConsumption: Not Supported");
  setenv("FAKE_NVML_MODE", "ok", 1);
  EXPECT_EQ(energy::Counter::open("0000:00:00.0", fake()).why_not(),
            "nvmlDeviceGetHandleByPciBusId_v2: Not Found (0000:00:00.0)");
}

// A counter that stops stepping (a hung driver) ends the window with a reason, not a hang.
TEST(Energy, ACounterThatNeverStepsTimesOut) {
  setenv("FAKE_NVML_MODE", "ok", 1);
  setenv("FAKE_NVML_WATTS", "0", 1);  // 0 W: the counter never moves
  const energy::Counter c = energy::Counter::open("0000:18:00.0", fake());
  std::string why;
  EXPECT_FALSE(energy::measure_window(c, [] { std::this_thread::sleep_for(std::chrono::milliseconds(5)); }, 0.05, &why,
                                      0.3));
  EXPECT_NE(why.find("did not step"), std::string::npos) << why;
}
