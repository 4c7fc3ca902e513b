// Events between the phases of a distributed sort on every local GPU.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "sortbench/device.hpp"

namespace sortbench::distributed {

// Events between phases on every local GPU; a phase's time is the slowest GPU's.
class PhaseClock {
 public:
  explicit PhaseClock(std::vector<std::string> names) : names_(std::move(names)) {}
  ~PhaseClock() {
    for (std::size_t m = 0; m < events_.size(); ++m) {
      cudaSetDevice(devices_[m]);
      for (cudaEvent_t e : events_[m]) cudaEventDestroy(e);
    }
  }
  void mark(const Team& t, std::size_t member, std::size_t boundary) { mark(t, member, boundary, t.local[member].stream); }
  // A boundary reached on another stream of the member's GPU (one the design joins back).
  void mark(const Team& t, std::size_t member, std::size_t boundary, cudaStream_t stream) {
    if (events_.empty()) {
      events_.resize(t.local.size());
      for (std::size_t m = 0; m < t.local.size(); ++m) {
        devices_.push_back(t.local[m].device);
        cuda_check(cudaSetDevice(t.local[m].device), "cudaSetDevice");
        events_[m].resize(names_.size() + 1);
        for (auto& e : events_[m]) cuda_check(cudaEventCreate(&e), "phase event");
      }
    }
    cuda_check(cudaSetDevice(t.local[member].device), "cudaSetDevice");
    cuda_check(cudaEventRecord(events_[member][boundary], stream), "phase event");
  }
  void mark_all(const Team& t, std::size_t boundary) {
    for (std::size_t m = 0; m < t.local.size(); ++m) mark(t, m, boundary);
  }
  std::vector<std::pair<std::string, double>> read() const {
    std::vector<std::pair<std::string, double>> out;
    if (events_.empty()) return out;
    for (std::size_t k = 0; k < names_.size(); ++k) {
      double slowest = 0;
      for (std::size_t m = 0; m < events_.size(); ++m) {
        cudaSetDevice(devices_[m]);
        float ms = 0;
        if (cudaEventElapsedTime(&ms, events_[m][k], events_[m][k + 1]) != cudaSuccess) {
          cudaGetLastError();
          return {};
        }
        slowest = std::max(slowest, double(ms));
      }
      out.emplace_back(names_[k], slowest);
    }
    return out;
  }

 private:
  std::vector<std::string> names_;
  std::vector<int> devices_;
  std::vector<std::vector<cudaEvent_t>> events_;
};

}  // namespace sortbench::distributed
