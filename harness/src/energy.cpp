// NVML's energy counter, loaded at run time (sortbench/energy.hpp). The
// toolkit here ships no nvml.h: the few entry points are declared from NVML's
// stable C API (nvmlReturn_t is an int, nvmlDevice_t an opaque pointer).
#include "sortbench/energy.hpp"

#include <dlfcn.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <thread>
#include <type_traits>
#include <vector>

namespace sortbench::energy {
namespace {

using Ret = int;  // nvmlReturn_t: 0 is NVML_SUCCESS
constexpr Ret kSuccess = 0;

struct Nvml {
  Ret (*init)() = nullptr;
  Ret (*by_pci)(const char*, void**) = nullptr;
  Ret (*total_energy)(void*, unsigned long long*) = nullptr;
  Ret (*power)(void*, unsigned*) = nullptr;
  Ret (*limit)(void*, unsigned*) = nullptr;
  const char* (*error_string)(Ret) = nullptr;
  std::string why_not;  // empty once loaded and initialised

  std::string error(const char* call, Ret r) const {
    return std::string(call) + ": " + (error_string ? error_string(r) : "error " + std::to_string(r));
  }
};

std::string default_library() {
  const char* env = std::getenv("SORTBENCH_NVML_LIBRARY");
  return env && *env ? env : "libnvidia-ml.so.1";
}

// Loaded and initialised once per library path (the process's NVML, or a test's fake).
const Nvml& nvml(const std::string& path) {
  static std::mutex mu;
  static std::map<std::string, std::unique_ptr<Nvml>> loaded;
  std::lock_guard<std::mutex> lock(mu);
  auto& slot = loaded[path];
  if (slot) return *slot;
  slot = std::make_unique<Nvml>();
  Nvml& n = *slot;
  {
    void* lib = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
      const char* e = dlerror();
      n.why_not = "NVML not loaded (" + path + "): " + (e ? e : "dlopen failed");
      return n;
    }
    auto sym = [&](auto& fn, const char* name) {
      fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(lib, name));
      if (!fn && n.why_not.empty()) n.why_not = path + " has no " + name;
    };
    sym(n.init, "nvmlInit_v2");
    sym(n.by_pci, "nvmlDeviceGetHandleByPciBusId_v2");
    sym(n.total_energy, "nvmlDeviceGetTotalEnergyConsumption");
    sym(n.power, "nvmlDeviceGetPowerUsage");
    sym(n.limit, "nvmlDeviceGetEnforcedPowerLimit");
    sym(n.error_string, "nvmlErrorString");
    if (!n.why_not.empty()) return n;
    if (const Ret r = n.init(); r != kSuccess) n.why_not = n.error("nvmlInit_v2", r);
  }
  return n;
}

}  // namespace

std::string nvml_status(const std::string& library) {
  return nvml(library.empty() ? default_library() : library).why_not;
}

Counter Counter::open(const std::string& pci_bus_id, const std::string& library) {
  Counter c;
  const Nvml& n = nvml(library.empty() ? default_library() : library);
  c.nvml_ = &n;
  if (!n.why_not.empty()) {
    c.why_not_ = n.why_not;
    return c;
  }
  if (const Ret r = n.by_pci(pci_bus_id.c_str(), &c.device_); r != kSuccess) {
    c.why_not_ = n.error("nvmlDeviceGetHandleByPciBusId_v2", r) + " (" + pci_bus_id + ")";
    return c;
  }
  // A counter that cannot be read now (no permission, not supported on this GPU) never will be.
  unsigned long long mj = 0;
  if (const Ret r = n.total_energy(c.device_, &mj); r != kSuccess)
    c.why_not_ = n.error("nvmlDeviceGetTotalEnergyConsumption", r);
  return c;
}

std::optional<unsigned long long> Counter::total_mj() const {
  if (!available()) return std::nullopt;
  const Nvml& n = *static_cast<const Nvml*>(nvml_);
  unsigned long long mj = 0;
  if (const Ret r = n.total_energy(device_, &mj); r != kSuccess) {
    why_not_ = n.error("nvmlDeviceGetTotalEnergyConsumption", r);
    return std::nullopt;
  }
  return mj;
}

std::optional<double> Counter::power_w() const {
  unsigned mw = 0;
  if (!available() || static_cast<const Nvml*>(nvml_)->power(device_, &mw) != kSuccess) return std::nullopt;
  return mw / 1000.0;
}

std::optional<double> Counter::power_limit_w() const {
  unsigned mw = 0;
  if (!available() || static_cast<const Nvml*>(nvml_)->limit(device_, &mw) != kSuccess) return std::nullopt;
  return mw / 1000.0;
}

std::optional<Window> measure_window(const Counter& c, const Ops& ops, double min_seconds, std::string* why,
                                     double max_seconds) {
  using clock = std::chrono::steady_clock;
  const auto begin = clock::now();
  auto secs = [&](clock::time_point t) { return std::chrono::duration<double>(t - begin).count(); };
  auto fail = [&](const std::string& w) -> std::optional<Window> {
    if (why) *why = w;
    return std::nullopt;
  };
  auto cannot = [&] {
    return fail(c.why_not().empty() ? "the energy counter did not step within " + std::to_string(int(max_seconds)) + " s"
                                    : c.why_not());
  };
  struct Step {
    unsigned long long mj;
    double t, sigma;  // the step's time (the middle of the polls around it) and its uniform error
  };
  struct Span {
    double start, end;  // when the operation had the GPU to itself
  };
  const std::size_t ahead = std::max<std::size_t>(1, ops.in_flight);
  std::vector<double> launched;  // when each operation was enqueued
  std::vector<Span> done;
  std::vector<Step> steps;
  double power_sum = 0;
  std::size_t power_reads = 0;
  auto first = c.total_mj();
  if (!first) return cannot();
  unsigned long long last = *first;
  double last_poll = 0;
  // Operations run back to back, `ahead` enqueued at a time; between
  // launches the counter and the oldest operation are polled, so each step
  // of the counter and each operation's end are known to within a poll.
  // The window runs from the first step to the first step at least
  // min_seconds later, and ends once the operation that step fell in is done.
  for (;;) {
    while (launched.size() < done.size() + ahead) {
      launched.push_back(secs(clock::now()));
      ops.launch(launched.size() - 1);
    }
    const auto now_mj = c.total_mj();
    const double t = secs(clock::now());
    if (!now_mj) return cannot();
    // The window's first step is one taken after an operation has finished:
    // the GPU is busy and its clocks settled on both sides of it.
    if (*now_mj != last) {
      last = *now_mj;
      if (!steps.empty() || (!done.empty() && last_poll >= done.front().end))
        steps.push_back({last, 0.5 * (last_poll + t), (t - last_poll) / std::sqrt(12.0)});
      if (steps.size() > 1)
        if (const auto w = c.power_w()) power_sum += *w, ++power_reads;
    }
    last_poll = t;
    if (ops.finished(done.size())) {
      const double end = secs(clock::now());
      const double start = std::max(launched[done.size()], done.empty() ? launched[0] : done.back().end);
      done.push_back({start, end});
    } else {
      std::this_thread::sleep_for(std::chrono::microseconds(20));
    }
    const bool closed = steps.size() >= 2 && steps.back().t - steps.front().t >= min_seconds;
    if (closed && !done.empty() && done.back().end >= steps.back().t) break;
    if (steps.size() >= 2 && !closed) steps.erase(steps.begin() + 1);  // only the first and the latest matter
    if (t > max_seconds) return cannot();
  }
  while (done.size() < launched.size()) {  // nothing left running on return
    if (ops.finished(done.size())) done.push_back({done.back().end, secs(clock::now())});
  }
  const Step& s0 = steps.front();
  const Step& s1 = steps.back();
  Window w;
  w.joules = double(s1.mj - s0.mj) / 1000.0;
  w.seconds = s1.t - s0.t;
  // Each operation counts by the share of its span inside the window; the
  // two cut at the ends carry the steps' timing error.
  double var = 0;
  for (const Span& o : done) {
    const double len = o.end - o.start;
    if (len <= 0) continue;
    w.ops += std::clamp((std::min(o.end, s1.t) - std::max(o.start, s0.t)) / len, 0.0, 1.0);
    for (const Step* st : {&s0, &s1})
      if (o.start <= st->t && st->t < o.end) var += (st->sigma / len) * (st->sigma / len);
  }
  w.rel_error = w.ops > 0 ? std::sqrt(var) / w.ops : 0;
  if (const auto p = c.power_w()) power_sum += *p, ++power_reads;
  w.power_reading_w = power_reads ? power_sum / double(power_reads) : 0;
  return w;
}

std::optional<Window> measure_window(const Counter& c, const std::function<void()>& op, double min_seconds,
                                     std::string* why, double max_seconds) {
  // Each operation waits for itself: its span is its launch, and a step of
  // the counter is only seen between operations.
  return measure_window(c, Ops{[&](std::size_t) { op(); }, [](std::size_t) { return true; }, 1}, min_seconds, why,
                        max_seconds);
}

}  // namespace sortbench::energy
