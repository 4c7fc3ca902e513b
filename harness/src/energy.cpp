// NVML's energy counter, loaded at run time (sortbench/energy.hpp). The
// toolkit here ships no nvml.h: the few entry points are declared from NVML's
// stable C API (nvmlReturn_t is an int, nvmlDevice_t an opaque pointer).
#include "sortbench/energy.hpp"

#include <dlfcn.h>

#include <algorithm>
#include <atomic>
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
  auto now = [&] { return std::chrono::duration<double>(clock::now() - begin).count(); };
  auto fail = [&](const std::string& w) -> std::optional<Window> {
    if (why) *why = w;
    return std::nullopt;
  };
  const std::string no_step = "the energy counter did not step within " + std::to_string(int(max_seconds)) + " s";
  const auto first = c.total_mj();
  if (!first) return fail(c.why_not());

  // A thread of its own reads the counter back to back and times each step
  // to within the reads around it: a read can take milliseconds (3.3 ms on
  // one H200 machine), and operations launched between reads would leave
  // the GPU idle, its idle draw counted as theirs.
  struct Step {
    unsigned long long mj;
    double t, sigma;  // the middle of the reads around the step, and its uniform error
    double power_w;   // NVML's instantaneous reading just after it (0: none)
  };
  std::mutex mu;
  std::vector<Step> steps;
  std::string read_error;
  std::atomic<bool> stop{false};
  std::thread poller([&, last = *first, last_t = now()]() mutable {
    while (!stop.load()) {
      const auto mj = c.total_mj();
      const double t = now();
      if (!mj) {
        std::lock_guard<std::mutex> lock(mu);
        read_error = c.why_not();
        return;
      }
      if (*mj != last) {
        const double p = c.power_w().value_or(0);
        std::lock_guard<std::mutex> lock(mu);
        steps.push_back({*mj, 0.5 * (last_t + t), (t - last_t) / std::sqrt(12.0), p});
        last = *mj;
      }
      last_t = t;
      std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
  });
  struct Join {
    std::atomic<bool>& stop;
    std::thread& t;
    ~Join() {
      stop = true;
      if (t.joinable()) t.join();
    }
  } join{stop, poller};

  // Operations run back to back, `ahead` enqueued at a time, each span from
  // when the GPU could start it to when it was seen finished. The window runs
  // from the first step after an operation has finished (the GPU busy and
  // its clocks settled) to the first step at least min_seconds later, and
  // closes once the operation that step fell in is done.
  struct Span {
    double start, end;
  };
  const std::size_t ahead = std::max<std::size_t>(1, ops.in_flight);
  std::vector<double> launched;
  std::vector<Span> done;
  std::optional<Step> s0, s1;
  for (;;) {
    while (launched.size() < done.size() + ahead) {
      launched.push_back(now());
      ops.launch(launched.size() - 1);
    }
    if (ops.finished(done.size())) {
      const double end = now();
      done.push_back({std::max(launched[done.size()], done.empty() ? launched[0] : done.back().end), end});
    } else {
      std::this_thread::sleep_for(std::chrono::microseconds(20));
    }
    {
      std::lock_guard<std::mutex> lock(mu);
      if (!read_error.empty()) return fail(read_error);
      for (const Step& st : steps) {
        if (!s0 && !done.empty() && st.t - st.sigma * std::sqrt(3.0) >= done.front().end) s0 = st;
        if (s0 && !s1 && st.t >= s0->t + min_seconds) s1 = st;
      }
    }
    if (s1 && done.back().end >= s1->t) break;
    if (now() > max_seconds) return fail(no_step);
  }
  while (done.size() < launched.size())  // nothing left running on return
    if (ops.finished(done.size())) done.push_back({done.back().end, now()});
  stop = true;
  poller.join();

  Window w;
  w.joules = double(s1->mj - s0->mj) / 1000.0;
  w.seconds = s1->t - s0->t;
  // Each operation counts by the share of its span inside the window; the
  // two cut at the ends carry the steps' timing error.
  double var = 0;
  for (const Span& o : done) {
    const double len = o.end - o.start;
    if (len <= 0) continue;
    w.ops += std::clamp((std::min(o.end, s1->t) - std::max(o.start, s0->t)) / len, 0.0, 1.0);
    for (const Step* st : {&*s0, &*s1})
      if (o.start <= st->t && st->t < o.end) var += (st->sigma / len) * (st->sigma / len);
  }
  w.rel_error = w.ops > 0 ? std::sqrt(var) / w.ops : 0;
  double power_sum = 0;
  std::size_t power_reads = 0;
  for (const Step& st : steps)
    if (st.t > s0->t && st.t <= s1->t && st.power_w > 0) power_sum += st.power_w, ++power_reads;
  w.power_reading_w = power_reads ? power_sum / double(power_reads) : 0;
  return w;
}

std::optional<Window> measure_window(const Counter& c, const std::function<void()>& op, double min_seconds,
                                     std::string* why, double max_seconds) {
  // Each operation waits for itself: its span is its launch.
  return measure_window(c, Ops{[&](std::size_t) { op(); }, [](std::size_t) { return true; }, 1}, min_seconds, why,
                        max_seconds);
}

}  // namespace sortbench::energy
