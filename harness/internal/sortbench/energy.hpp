// Energy per sort from NVML's total-energy counter (host code,
// harness/src/energy.cpp). NVML is loaded at run time (libnvidia-ml.so.1, or
// $SORTBENCH_NVML_LIBRARY): without it, or without permission, or on a GPU
// whose counter NVML does not expose, runs go on and say why energy is
// missing.
//
// The counter steps in coarse increments (every 100 ms on an H200), far
// longer than one sort, so energy is measured over a window of back-to-back
// operations that starts and ends on a step of the counter: operations run
// until the counter steps, then at least `min_seconds` more, then until it
// steps again. The energy between the two steps over the operations run
// between them is the energy of one operation. A thread of its own reads the
// counter back to back while the operations run, so each step's time is known
// to within the reads around it, and the two operations the steps cut count
// by the share of their time inside.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>

namespace sortbench::energy {

// One GPU's counter. NVML is initialised once per process.
class Counter {
 public:
  // The GPU with this PCI bus id (cudaDeviceGetPCIBusId's form, e.g.
  // "0000:18:00.0"), through the NVML library at `library` (empty:
  // $SORTBENCH_NVML_LIBRARY, else libnvidia-ml.so.1). Never throws: a
  // counter that cannot be read says why.
  static Counter open(const std::string& pci_bus_id, const std::string& library = "");
  bool available() const { return why_not_.empty(); }
  const std::string& why_not() const { return why_not_; }  // empty when available
  // Millijoules since the driver loaded; nullopt (and why_not set) on an error.
  std::optional<unsigned long long> total_mj() const;
  std::optional<double> power_w() const;        // instantaneous draw
  std::optional<double> power_limit_w() const;  // the enforced limit

 private:
  const void* nvml_ = nullptr;  // the loaded library's entry points
  void* device_ = nullptr;      // nvmlDevice_t
  mutable std::string why_not_;
};

// Empty when the NVML library at `library` (empty: the default, as above)
// loads and initialises, otherwise why not.
std::string nvml_status(const std::string& library = "");

struct Window {
  double joules = 0;      // between the two steps of the counter
  // Operations between them: the two the steps fell in count by the share of
  // their time inside the window.
  double ops = 0;
  double seconds = 0;     // wall time between them
  // The relative error of ops from the steps' timing: each step is known to
  // within the polls around it, as a share of the operation it fell in.
  double rel_error = 0;
  // NVML's instantaneous power reading at each step of the counter inside the
  // window, averaged: a cross-check of joules / seconds (0: none read).
  double power_reading_w = 0;
  double watts_mean() const { return seconds > 0 ? joules / seconds : 0; }
  double joules_per_op() const { return ops > 0 ? joules / ops : 0; }
};

// Operations the window enqueues without waiting for them, `in_flight` at a
// time so the GPU never waits on the host.
struct Ops {
  std::function<void(std::size_t i)> launch;    // enqueue operation i (0, 1, ...)
  std::function<bool(std::size_t i)> finished;  // whether operation i has finished; never waits
  std::size_t in_flight = 2;
};

// Runs operations back to back over a window of at least min_seconds between
// two steps of the counter. nullopt with *why set when the counter cannot be
// read or does not step within max_seconds.
std::optional<Window> measure_window(const Counter& c, const Ops& ops, double min_seconds, std::string* why,
                                     double max_seconds = 30);
// The same with an operation that waits for its own work (one in flight).
std::optional<Window> measure_window(const Counter& c, const std::function<void()>& op, double min_seconds,
                                     std::string* why, double max_seconds = 30);

}  // namespace sortbench::energy
