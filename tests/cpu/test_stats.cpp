#include <gtest/gtest.h>

#include <cmath>

#include "sortbench/stats.hpp"

using namespace sortbench;

TEST(Summarize, KnownValues) {
  const auto s = summarize({4, 1, 3, 2, 5});
  EXPECT_EQ(s.samples, 5u);
  EXPECT_DOUBLE_EQ(s.median, 3);
  EXPECT_DOUBLE_EQ(s.mean, 3);
  EXPECT_DOUBLE_EQ(s.min, 1);
  EXPECT_DOUBLE_EQ(s.max, 5);
  EXPECT_DOUBLE_EQ(s.q1, 2);
  EXPECT_DOUBLE_EQ(s.q3, 4);
  EXPECT_NEAR(s.stdev, std::sqrt(2.5), 1e-12);
  EXPECT_NEAR(s.rel_stderr, std::sqrt(2.5) / std::sqrt(5.0) / 3.0, 1e-12);
  EXPECT_EQ(s.raw, (std::vector<double>{4, 1, 3, 2, 5}));  // measurement order kept
}

TEST(Summarize, EvenCountAndInterpolation) {
  const auto s = summarize({1, 2, 3, 4});
  EXPECT_DOUBLE_EQ(s.median, 2.5);
  EXPECT_DOUBLE_EQ(s.q1, 1.75);
  EXPECT_DOUBLE_EQ(s.q3, 3.25);
}

TEST(Summarize, EmptyAndSingle) {
  EXPECT_EQ(summarize({}).samples, 0u);
  const auto s = summarize({2.0});
  EXPECT_DOUBLE_EQ(s.median, 2.0);
  EXPECT_DOUBLE_EQ(s.stdev, 0.0);
}

namespace {
MeasureSettings settings(int min_samples, double rel, double budget, int max_samples = 1000) {
  MeasureSettings m;
  m.min_samples = min_samples;
  m.max_rel_stderr = rel;
  m.budget_s = budget;
  m.max_samples = max_samples;
  return m;
}
}  // namespace

TEST(StopRule, NeedsMinimumSamplesEvenWhenQuiet) {
  StopRule r(settings(10, 0.005, 100));
  for (int i = 0; i < 9; ++i) {
    r.add(1.0);
    EXPECT_EQ(r.done(0.1), "") << i;
  }
  r.add(1.0);
  EXPECT_EQ(r.done(0.1), "noise");
}

TEST(StopRule, KeepsSamplingWhileNoisy) {
  StopRule r(settings(10, 0.005, 100));
  // Alternating 1 and 2: stdev ~0.5, mean 1.5; rel stderr falls as 1/sqrt(k)
  // and first reaches 0.5 % near k = 4450.
  int k = 0;
  while (r.done(0.0).empty() && k < 10000) {
    r.add(k % 2 ? 2.0 : 1.0);
    ++k;
  }
  EXPECT_EQ(r.done(0.0), "max_samples");
  EXPECT_EQ(k, 1000);
  StopRule r2(settings(10, 0.005, 100, 100000));
  k = 0;
  while (r2.done(0.0).empty()) {
    r2.add(k % 2 ? 2.0 : 1.0);
    ++k;
  }
  EXPECT_EQ(r2.done(0.0), "noise");
  EXPECT_GT(k, 4000);
  EXPECT_LT(k, 5000);
  const auto s = summarize(r2.samples());
  EXPECT_LE(s.rel_stderr, 0.005);
}

TEST(StopRule, BudgetEndsANoisyPoint) {
  StopRule r(settings(10, 0.005, 2.0));
  for (int i = 0; i < 20; ++i) r.add(i % 2 ? 2.0 : 1.0);
  EXPECT_EQ(r.done(1.9), "");
  EXPECT_EQ(r.done(2.0), "budget");
}
