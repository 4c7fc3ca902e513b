// The measuring of one point, written once for the runner on one GPU and the
// runner across GPUs (host code, harness/src/measure_loop.cpp, tested on the
// CPU): warm-up runs, the first of them validated; timed samples until the
// stop rule (sortbench/stats.hpp) says enough; the last timed run validated
// too, so every timed run had to be right.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "sortbench/result.hpp"

namespace sortbench {

struct MeasureSteps {
  int warmup_runs = 1;
  std::function<void()> warm_up;      // one untimed run, waited for
  std::function<Validation()> check;  // the output of the run just made
  // One timed run (its input restored first): its milliseconds, or nullopt
  // where the sample is discarded (it ran throttled, as NVBench discards).
  std::function<std::optional<double>()> sample;
  // Optional, after each sample: the stop reason all processes of one point
  // agree on, given this one's (empty: go on).
  std::function<std::string(const std::string&)> agree_stop;
};

// Fills r.validation, r.stop_reason and r.throttled_samples. Returns the
// samples kept, or nullopt with r.status failed and r.reason saying why: a
// validation that failed, or every sample discarded.
std::optional<std::vector<double>> measure_samples(const MeasureSettings& m, const MeasureSteps& steps,
                                                   PointResult& r);

}  // namespace sortbench
