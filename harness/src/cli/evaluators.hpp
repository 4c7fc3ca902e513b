// What measures the points of run and tune (tune::Evaluator): a worker
// process (sortbench run|tune --worker), so a kernel fault costs one point,
// or this process, on any GPU a workload names.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sortbench/device.hpp"
#include "sortbench/tune.hpp"
#include "sortbench/worker.hpp"

namespace sortbench::cli {

class WorkerEvaluator : public tune::Evaluator {
 public:
  WorkerEvaluator(std::vector<std::string> args, double point_timeout_s) : proc_(std::move(args), point_timeout_s) {}
  const nlohmann::json& device() { return proc_.device(); }
  PointResult evaluate(const std::string& label, const Workload& w) override { return proc_.evaluate(label, w); }
  std::size_t restarts() const { return proc_.restarts(); }
  std::size_t contexts_lost() const { return proc_.contexts_lost(); }

 private:
  worker::Process proc_;
};

class InProcessEvaluator : public tune::Evaluator {
 public:
  explicit InProcessEvaluator(const MeasureSettings& m) : measurer_(m) {}
  // A label this build does not register is a failed point, not an error.
  PointResult evaluate(const std::string& label, const Workload& w) override;
  Measurer& measurer() { return measurer_; }

 private:
  Measurer measurer_;
};

}  // namespace sortbench::cli
