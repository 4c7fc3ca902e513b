// NVML's energy counter, loaded at run time (sortbench/energy.hpp). The
// toolkit here ships no nvml.h: the few entry points are declared from NVML's
// stable C API (nvmlReturn_t is an int, nvmlDevice_t an opaque pointer).
#include "sortbench/energy.hpp"

#include <dlfcn.h>

#include <chrono>
#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <type_traits>

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

std::optional<Window> measure_window(const Counter& c, const std::function<void()>& op, double min_seconds,
                                     std::string* why, double max_seconds) {
  using clock = std::chrono::steady_clock;
  auto fail = [&](const std::string& w) -> std::optional<Window> {
    if (why) *why = w;
    return std::nullopt;
  };
  const auto begin = clock::now();
  auto since = [](clock::time_point t) { return std::chrono::duration<double>(clock::now() - t).count(); };
  // Runs op until the counter steps; the step's reading and time.
  auto until_step = [&](std::size_t* ops) -> std::optional<std::pair<unsigned long long, clock::time_point>> {
    const auto first = c.total_mj();
    if (!first) return std::nullopt;
    for (;;) {
      op();
      if (ops) ++*ops;
      const auto now = c.total_mj();
      if (!now) return std::nullopt;
      if (*now != *first) return std::make_pair(*now, clock::now());
      if (since(begin) > max_seconds) return std::nullopt;
    }
  };
  const auto start = until_step(nullptr);
  if (!start) return fail(c.why_not().empty() ? "the energy counter did not step within " +
                                                    std::to_string(int(max_seconds)) + " s"
                                              : c.why_not());
  std::size_t ops = 0;
  // The power reading at every step of the counter in the window.
  double power_sum = 0;
  std::size_t power_reads = 0;
  unsigned long long last = start->first;
  while (since(start->second) < min_seconds) {
    op();
    ++ops;
    if (const auto now = c.total_mj(); now && *now != last) {
      last = *now;
      if (const auto w = c.power_w()) power_sum += *w, ++power_reads;
    }
  }
  const auto end = until_step(&ops);
  if (!end) return fail(c.why_not().empty() ? "the energy counter did not step within " +
                                                  std::to_string(int(max_seconds)) + " s"
                                            : c.why_not());
  Window w;
  w.joules = double(end->first - start->first) / 1000.0;
  w.ops = ops;
  w.seconds = std::chrono::duration<double>(end->second - start->second).count();
  if (const auto p = c.power_w()) power_sum += *p, ++power_reads;
  w.power_reading_w = power_reads ? power_sum / double(power_reads) : 0;
  return w;
}

}  // namespace sortbench::energy
