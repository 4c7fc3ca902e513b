#include "sortbench/stats.hpp"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <sstream>

namespace sortbench {

double quantile(const std::vector<double>& sorted, double q) {
  if (sorted.empty()) return 0;
  const double pos = std::clamp(q, 0.0, 1.0) * double(sorted.size() - 1);
  const auto lo = std::size_t(std::floor(pos));
  const auto hi = std::min(lo + 1, sorted.size() - 1);
  return sorted[lo] + (pos - double(lo)) * (sorted[hi] - sorted[lo]);
}

SampleStats summarize(const std::vector<double>& samples) {
  SampleStats s;
  s.raw = samples;
  s.samples = samples.size();
  if (samples.empty()) return s;
  std::vector<double> v = samples;
  std::sort(v.begin(), v.end());
  s.min = v.front();
  s.max = v.back();
  s.median = quantile(v, 0.5);
  s.q1 = quantile(v, 0.25);
  s.q3 = quantile(v, 0.75);
  double sum = 0;
  for (double x : v) sum += x;
  s.mean = sum / double(v.size());
  double ss = 0;
  for (double x : v) ss += (x - s.mean) * (x - s.mean);
  s.stdev = v.size() > 1 ? std::sqrt(ss / double(v.size() - 1)) : 0.0;
  s.rel_stderr = (v.size() > 1 && s.mean > 0) ? s.stdev / std::sqrt(double(v.size())) / s.mean : 0.0;
  return s;
}

void StopRule::add(double sample_ms) {
  samples_.push_back(sample_ms);
  sum_ += sample_ms;
  sum_sq_ += sample_ms * sample_ms;
}

std::string StopRule::done(double elapsed_s) const {
  const auto k = samples_.size();
  if (k >= std::size_t(s_.max_samples)) return "max_samples";
  if (k >= std::size_t(std::max(2, s_.min_samples))) {
    const double mean = sum_ / double(k);
    const double var = std::max(0.0, (sum_sq_ - double(k) * mean * mean) / double(k - 1));
    const double rel_stderr = mean > 0 ? std::sqrt(var / double(k)) / mean : 0.0;
    if (rel_stderr <= s_.max_rel_stderr) return "noise";
  }
  if (elapsed_s >= s_.budget_s) return "budget";
  return {};
}

std::string duration_text(double s) {
  std::ostringstream os;
  if (s >= 3600) os << int(s / 3600) << "h" << std::setw(2) << std::setfill('0') << int(std::fmod(s, 3600) / 60) << "m";
  else if (s >= 60) os << int(s / 60) << "m" << std::setw(2) << std::setfill('0') << int(std::fmod(s, 60)) << "s";
  else os << int(s) << "s";
  return os.str();
}

}  // namespace sortbench
