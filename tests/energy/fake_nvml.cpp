// A stand-in for libnvidia-ml.so.1 (the entry points sortbench/energy.hpp
// loads), for CPU tests. FAKE_NVML_MODE, read at each call: "ok" (default):
// a GPU drawing FAKE_NVML_WATTS (default 400) whose total-energy counter
// steps every 100 ms, as an H200's does; "no_permission" or "not_supported":
// the counter read fails with NVML's code for that. FAKE_NVML_READ_US slows
// each read of the counter down.
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <thread>

namespace {
const auto kStart = std::chrono::steady_clock::now();
const char* mode() {
  const char* m = std::getenv("FAKE_NVML_MODE");
  return m ? m : "ok";
}
double watts() {
  const char* w = std::getenv("FAKE_NVML_WATTS");
  return w ? std::atof(w) : 400.0;
}
}  // namespace

extern "C" {
int nvmlInit_v2() { return 0; }
int nvmlDeviceGetHandleByPciBusId_v2(const char* bus, void** device) {
  if (std::strcmp(bus, "0000:00:00.0") == 0) return 13;  // NVML_ERROR_NOT_FOUND
  *device = reinterpret_cast<void*>(1);
  return 0;
}
int nvmlDeviceGetTotalEnergyConsumption(void*, unsigned long long* mj) {
  // FAKE_NVML_READ_US: how long a read takes (on one H200 machine, 3.3 ms).
  if (const char* us = std::getenv("FAKE_NVML_READ_US")) std::this_thread::sleep_for(std::chrono::microseconds(std::atoi(us)));
  if (std::strcmp(mode(), "no_permission") == 0) return 4;
  if (std::strcmp(mode(), "not_supported") == 0) return 3;
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - kStart).count();
  const unsigned long long steps = static_cast<unsigned long long>(s / 0.1);
  *mj = 1000000ull + static_cast<unsigned long long>(double(steps) * 0.1 * watts() * 1000.0);
  return 0;
}
int nvmlDeviceGetPowerUsage(void*, unsigned* mw) {
  *mw = unsigned(watts() * 1000.0);
  return 0;
}
int nvmlDeviceGetEnforcedPowerLimit(void*, unsigned* mw) {
  *mw = 700000;
  return 0;
}
const char* nvmlErrorString(int r) {
  switch (r) {
    case 3: return "Not Supported";
    case 4: return "Insufficient Permissions";
    case 13: return "Not Found";
    default: return "Unknown Error";
  }
}
}
