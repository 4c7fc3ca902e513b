// Sample statistics and the noise-based stopping rule (host code, tested on the CPU).
#pragma once

#include <string>
#include <vector>

#include "sortbench/result.hpp"

namespace sortbench {

// Median, mean, min, max, sample stdev, quartiles (linear interpolation between
// order statistics) and the relative standard error of the mean.
SampleStats summarize(const std::vector<double>& samples);

// The q-quantile (q in [0, 1]) of ascending samples by the rule summarize
// uses for the median and quartiles, so exports built on it agree with the
// report's statistics; 0 for no samples.
double quantile(const std::vector<double>& sorted, double q);

// A duration for progress lines: "45s", "1m05s", "2h03m".
std::string duration_text(double seconds);

// Decides when a point has enough samples: at least min_samples, then stop as
// soon as the relative standard error of the mean is at most max_rel_stderr,
// or when the time budget or max_samples runs out.
class StopRule {
 public:
  explicit StopRule(const MeasureSettings& s) : s_(s) {}
  void add(double sample_ms);
  // Empty while sampling should go on; otherwise why it stopped.
  std::string done(double elapsed_s) const;
  const std::vector<double>& samples() const { return samples_; }

 private:
  MeasureSettings s_;
  std::vector<double> samples_;
  double sum_ = 0, sum_sq_ = 0;
};

}  // namespace sortbench
