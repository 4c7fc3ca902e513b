// Energy from NVML's counter (sortbench/energy.hpp) against a fake NVML
// (tests/energy/fake_nvml.cpp): the window starts and ends on steps of the
// counter and gives the fake GPU's draw; without the library, or without
// permission, or where the counter is not supported, the reason is named.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <cmath>
#include <thread>
#include <vector>

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
  EXPECT_LT(w->ops, double(calls));
  EXPECT_NEAR(w->ops * 0.004, w->seconds, 0.25 * w->seconds);
  EXPECT_NEAR(w->joules_per_op(), w->joules / w->ops, 1e-12);
}

namespace {
// Operations of a fixed length run back to back on a pretend GPU: each starts
// when it is enqueued or when the one before it ends, whichever is later.
struct PretendGpu {
  using clock = std::chrono::steady_clock;
  explicit PretendGpu(double op_s) : op(std::chrono::duration_cast<clock::duration>(std::chrono::duration<double>(op_s))) {}
  clock::duration op;
  std::vector<clock::time_point> ends;
  energy::Ops ops() {
    return {[this](std::size_t i) {
              ASSERT_EQ(i, ends.size());
              ends.push_back(std::max(clock::now(), ends.empty() ? clock::now() : ends.back()) + op);
            },
            [this](std::size_t i) { return clock::now() >= ends.at(i); }, 2};
  }
};
}  // namespace

// Operations the window does not wait for: the steps are timed to within a
// poll, so the operations the steps cut count by their share and the energy
// of one operation comes out to well within one operation over the window,
// for operations shorter and longer than the counter's 100 ms step.
TEST(Energy, AWindowCountsTheOperationsItsStepsCutByTheirShare) {
  setenv("FAKE_NVML_MODE", "ok", 1);
  setenv("FAKE_NVML_WATTS", "350", 1);
  const energy::Counter c = energy::Counter::open("0000:18:00.0", fake());
  for (const double op_s : {0.030, 0.250}) {
    SCOPED_TRACE(op_s);
    PretendGpu gpu(op_s);
    std::string why;
    const auto w = energy::measure_window(c, gpu.ops(), 0.5, &why);
    ASSERT_TRUE(w) << why;
    EXPECT_GE(w->seconds, 0.5);
    // Not whole operations: the window's ends fall inside them.
    EXPECT_NEAR(w->ops, w->seconds / op_s, 0.15);
    EXPECT_NEAR(w->joules_per_op(), 350 * op_s, 350 * op_s * 0.03);
    EXPECT_GT(w->rel_error, 0);
    EXPECT_LT(w->rel_error, 0.01);
    // Nothing is left running when the window returns.
    EXPECT_LE(gpu.ends.back(), PretendGpu::clock::now());
  }
}

// An operation that waits for itself is counted the same way: the counter is
// read by a thread of its own, so the steps are timed within an operation.
TEST(Energy, AWaitingOperationIsCountedByItsShareToo) {
  setenv("FAKE_NVML_MODE", "ok", 1);
  setenv("FAKE_NVML_WATTS", "350", 1);
  const energy::Counter c = energy::Counter::open("0000:18:00.0", fake());
  std::string why;
  const auto w = energy::measure_window(
      c, [] { std::this_thread::sleep_for(std::chrono::milliseconds(40)); }, 0.5, &why);
  ASSERT_TRUE(w) << why;
  EXPECT_NEAR(w->joules_per_op(), 350 * 0.040, 350 * 0.040 * 0.03);
  EXPECT_LT(w->rel_error, 0.01);
}

// A counter read slower than an operation (3.3 ms a read on one H200
// machine) neither holds the operations back nor lends them its time.
TEST(Energy, ASlowCounterReadDoesNotStallTheOperations) {
  setenv("FAKE_NVML_MODE", "ok", 1);
  setenv("FAKE_NVML_WATTS", "350", 1);
  setenv("FAKE_NVML_READ_US", "3300", 1);
  const energy::Counter c = energy::Counter::open("0000:18:00.0", fake());
  std::string why;
  const auto w = energy::measure_window(
      c, [] { std::this_thread::sleep_for(std::chrono::milliseconds(2)); }, 0.5, &why);
  unsetenv("FAKE_NVML_READ_US");
  ASSERT_TRUE(w) << why;
  EXPECT_NEAR(w->seconds / w->ops, 0.002, 0.0003);  // the operations ran back to back
  EXPECT_NEAR(w->joules_per_op(), 350 * 0.002, 350 * 0.002 * 0.15);
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
