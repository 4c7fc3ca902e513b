#include "sortbench/gpu_status.hpp"

#include <dlfcn.h>

#include <cstdlib>

#include <cuda_runtime_api.h>

#include "sortbench/device.hpp"

namespace sortbench {

namespace {
std::string cuda_version_text(int v) { return std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10); }
}  // namespace

std::string GpuStatus::text() const {
  if (usable) return {};
  return detail.empty() ? missing : missing + " (" + detail + ")";
}

GpuStatus classify_gpu(const GpuProbe& p) {
  GpuStatus s;
  if (p.count_error == cudaSuccess && p.device_count > 0) {
    s.usable = true;
    return s;
  }
  const std::string runtime_said =
      p.count_error == cudaSuccess ? "cudaGetDeviceCount found 0 devices" : "cudaGetDeviceCount: " + p.count_error_text;
  // Without libcuda the runtime reports an "insufficient" driver: there is none at all.
  if (!p.driver_loadable) {
    s.missing = "no NVIDIA driver";
    s.detail = p.driver_load_error.empty() ? "libcuda.so.1 cannot be loaded" : p.driver_load_error;
    return s;
  }
  if (p.count_error == cudaSuccess || p.count_error == cudaErrorNoDevice) {
    s.missing = "no GPU";
    s.detail = "the NVIDIA driver is installed but finds no CUDA device";
    if (p.visible_devices_set) s.detail += ", and CUDA_VISIBLE_DEVICES='" + p.visible_devices + "' may hide them";
    s.detail += "; " + runtime_said;
    return s;
  }
  if (p.count_error == cudaErrorInsufficientDriver) {
    s.missing = "NVIDIA driver too old";
    s.detail = "this build's CUDA runtime " + cuda_version_text(p.runtime_version) + " needs a newer driver; " + runtime_said;
    return s;
  }
  s.missing = "no usable GPU";
  s.detail = runtime_said;
  return s;
}

GpuProbe probe_gpu() {
  GpuProbe p;
  p.runtime_version = CUDART_VERSION;
  const cudaError_t e = cudaGetDeviceCount(&p.device_count);
  p.count_error = int(e);
  if (e != cudaSuccess) {
    p.count_error_text = cudaGetErrorString(e);
    p.device_count = 0;
    cudaGetLastError();  // the failed call is not a later call's error
  }
  if (e == cudaSuccess && p.device_count > 0) return p;
  // Only where CUDA fails: the runtime itself loads this library.
  dlerror();
  if (void* h = ::dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL)) {
    ::dlclose(h);
  } else {
    p.driver_loadable = false;
    const char* why = dlerror();
    p.driver_load_error = why ? why : "";
  }
  if (const char* v = std::getenv("CUDA_VISIBLE_DEVICES")) {
    p.visible_devices_set = true;
    p.visible_devices = v;
  }
  return p;
}

GpuStatus gpu_status() { return classify_gpu(probe_gpu()); }

bool gpu_available(std::string* why) {
  const GpuStatus s = gpu_status();
  if (!s.usable && why) *why = s.text();
  return s.usable;
}

}  // namespace sortbench
