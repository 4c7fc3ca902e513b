// The measuring of one point (sortbench/measure_loop.hpp).
#include "sortbench/measure_loop.hpp"

#include <chrono>

#include "sortbench/stats.hpp"

namespace sortbench {

std::optional<std::vector<double>> measure_samples(const MeasureSettings& m, const MeasureSteps& steps,
                                                   PointResult& r) {
  auto fail = [&](const std::string& why) -> std::optional<std::vector<double>> {
    r.status = Status::failed;
    r.reason = why;
    return std::nullopt;
  };
  for (int i = 0; i < steps.warmup_runs; ++i) {
    steps.warm_up();
    if (i == 0) {
      r.validation = steps.check();
      if (!r.validation.ok()) return fail("validation: " + r.validation.message);
    }
  }
  StopRule rule(m);
  const auto t0 = std::chrono::steady_clock::now();
  for (;;) {
    if (const auto ms = steps.sample()) rule.add(*ms);
    else ++r.throttled_samples;
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    r.stop_reason = rule.done(elapsed);
    if (r.stop_reason.empty() && r.throttled_samples > std::size_t(m.max_samples)) r.stop_reason = "throttled";
    if (steps.agree_stop) r.stop_reason = steps.agree_stop(r.stop_reason);
    if (!r.stop_reason.empty()) break;
  }
  const Validation last = steps.check();
  if (!last.ok()) {
    r.validation = last;
    return fail("validation of the last timed run: " + last.message);
  }
  if (rule.samples().empty())
    return fail("every sample ran throttled (SM clock under " + std::to_string(int(m.throttle_ratio * 100)) +
                " % of peak)");
  r.throttled = r.throttled_samples > 0;
  return rule.samples();
}

}  // namespace sortbench
