// The measuring of one point (sortbench/measure_loop.hpp), with pretend
// steps: the warm-up's validation, the stop rule, discarded samples, the last
// run's validation and a stop agreed across processes.
#include <gtest/gtest.h>

#include "sortbench/measure_loop.hpp"

using namespace sortbench;

namespace {
struct Pretend {
  int warm_ups = 0, checks = 0, samples = 0;
  int bad_check = -1;            // the check (0-based) that fails
  int throttled_from = 1 << 30;  // samples from this one on are discarded
  MeasureSteps steps(int warmup_runs) {
    MeasureSteps s;
    s.warmup_runs = warmup_runs;
    s.warm_up = [this] { ++warm_ups; };
    s.check = [this] {
      Validation v;
      v.checked = v.sorted = v.permutation = checks++ != bad_check;
      if (!v.ok()) v.message = "not sorted at index 7";
      return v;
    };
    s.sample = [this]() -> std::optional<double> {
      if (samples++ >= throttled_from) return std::nullopt;
      return 2.0;
    };
    return s;
  }
};
MeasureSettings settings() {
  MeasureSettings m;
  m.min_samples = 5;
  m.max_samples = 40;
  m.budget_s = 30;
  return m;
}
}  // namespace

TEST(MeasureLoop, WarmsUpValidatesSamplesUntilTheRuleStopsAndValidatesTheLastRun) {
  Pretend p;
  PointResult r;
  const auto samples = measure_samples(settings(), p.steps(3), r);
  ASSERT_TRUE(samples) << r.reason;
  EXPECT_EQ(samples->size(), 5u);  // equal samples: no noise after the minimum
  EXPECT_EQ(r.stop_reason, "noise");
  EXPECT_EQ(p.warm_ups, 3);
  EXPECT_EQ(p.checks, 2);  // the first warm-up run and the last timed run
  EXPECT_FALSE(r.throttled);
}

TEST(MeasureLoop, AFailedWarmUpValidationTimesNothing) {
  Pretend p;
  p.bad_check = 0;
  PointResult r;
  EXPECT_FALSE(measure_samples(settings(), p.steps(1), r));
  EXPECT_EQ(r.status, Status::failed);
  EXPECT_EQ(r.reason, "validation: not sorted at index 7");
  EXPECT_EQ(p.samples, 0);
}

TEST(MeasureLoop, AWrongLastTimedRunFailsThePoint) {
  Pretend p;
  p.bad_check = 1;
  PointResult r;
  EXPECT_FALSE(measure_samples(settings(), p.steps(1), r));
  EXPECT_EQ(r.reason, "validation of the last timed run: not sorted at index 7");
  EXPECT_FALSE(r.validation.ok());
}

TEST(MeasureLoop, WithoutWarmUpOnlyTheLastRunIsValidated) {
  Pretend p;
  PointResult r;
  ASSERT_TRUE(measure_samples(settings(), p.steps(0), r));
  EXPECT_EQ(p.warm_ups, 0);
  EXPECT_EQ(p.checks, 1);
}

TEST(MeasureLoop, DiscardedSamplesAreCountedAndAllDiscardedFails) {
  Pretend some;
  some.throttled_from = 2;  // two kept, then discarded until max_samples of them
  PointResult r;
  const auto kept = measure_samples(settings(), some.steps(1), r);
  ASSERT_TRUE(kept) << r.reason;  // the two kept are the point's samples, marked throttled
  EXPECT_EQ(kept->size(), 2u);
  EXPECT_EQ(r.stop_reason, "throttled");
  EXPECT_EQ(r.throttled_samples, 41u);
  EXPECT_TRUE(r.throttled);
  // With none kept the point fails.
  Pretend all;
  all.throttled_from = 0;
  PointResult r2;
  EXPECT_FALSE(measure_samples(settings(), all.steps(1), r2));
  EXPECT_EQ(r2.reason, "every sample ran throttled (SM clock under 75 % of peak)");
}

TEST(MeasureLoop, AStopAgreedAcrossProcessesEndsSampling) {
  Pretend p;
  auto steps = p.steps(1);
  int calls = 0;
  steps.agree_stop = [&](const std::string& mine) { return ++calls == 3 ? std::string("budget") : mine; };
  PointResult r;
  const auto samples = measure_samples(settings(), steps, r);
  ASSERT_TRUE(samples);
  EXPECT_EQ(samples->size(), 3u);
  EXPECT_EQ(r.stop_reason, "budget");
}
