// What is missing where no GPU is usable (sortbench/gpu_status.hpp), from
// made-up probes: no driver at all, a driver that finds no GPU, an old driver.
#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include "sortbench/device.hpp"
#include "sortbench/gpu_status.hpp"

using namespace sortbench;

namespace {
GpuProbe failed_probe(cudaError_t e, bool driver_loadable) {
  GpuProbe p;
  p.count_error = int(e);
  p.count_error_text = cudaGetErrorString(e);
  p.runtime_version = 13000;
  p.driver_loadable = driver_loadable;
  if (!driver_loadable) p.driver_load_error = "libcuda.so.1: cannot open shared object file: No such file or directory";
  return p;
}
}  // namespace

TEST(GpuStatus, DevicesFoundAreUsable) {
  GpuProbe p;
  p.device_count = 2;
  const GpuStatus s = classify_gpu(p);
  EXPECT_TRUE(s.usable);
  EXPECT_EQ(s.text(), "");
}

// The runtime says "insufficient" where there is no driver at all: the driver library decides.
TEST(GpuStatus, NoDriverLibraryIsNoDriverWhateverTheRuntimeSays) {
  for (cudaError_t e : {cudaErrorInsufficientDriver, cudaErrorNoDevice, cudaErrorUnknown}) {
    const GpuStatus s = classify_gpu(failed_probe(e, false));
    EXPECT_FALSE(s.usable);
    EXPECT_EQ(s.missing, "no NVIDIA driver");
    EXPECT_EQ(s.text(), "no NVIDIA driver (libcuda.so.1: cannot open shared object file: No such file or directory)");
  }
  GpuProbe quiet = failed_probe(cudaErrorInsufficientDriver, false);
  quiet.driver_load_error.clear();
  EXPECT_EQ(classify_gpu(quiet).text(), "no NVIDIA driver (libcuda.so.1 cannot be loaded)");
}

TEST(GpuStatus, ADriverThatFindsNoDeviceIsNoGpu) {
  GpuProbe p = failed_probe(cudaErrorNoDevice, true);
  GpuStatus s = classify_gpu(p);
  EXPECT_EQ(s.missing, "no GPU");
  EXPECT_EQ(s.text(), std::string("no GPU (the NVIDIA driver is installed but finds no CUDA device; cudaGetDeviceCount: ") +
                          cudaGetErrorString(cudaErrorNoDevice) + ")");
  p.visible_devices_set = true;
  p.visible_devices = "";
  s = classify_gpu(p);
  EXPECT_EQ(s.missing, "no GPU");
  EXPECT_NE(s.detail.find("CUDA_VISIBLE_DEVICES='' may hide them"), std::string::npos) << s.detail;
  // Success with no device at all says the same.
  GpuProbe zero;
  zero.device_count = 0;
  s = classify_gpu(zero);
  EXPECT_FALSE(s.usable);
  EXPECT_EQ(s.missing, "no GPU");
  EXPECT_NE(s.detail.find("cudaGetDeviceCount found 0 devices"), std::string::npos) << s.detail;
}

TEST(GpuStatus, AnInsufficientDriverThatLoadsIsTooOld) {
  const GpuStatus s = classify_gpu(failed_probe(cudaErrorInsufficientDriver, true));
  EXPECT_EQ(s.missing, "NVIDIA driver too old");
  EXPECT_EQ(s.detail.rfind("this build's CUDA runtime 13.0 needs a newer driver; cudaGetDeviceCount: ", 0), 0u) << s.detail;
}

TEST(GpuStatus, OtherErrorsSayWhatTheRuntimeSaid) {
  const GpuStatus s = classify_gpu(failed_probe(cudaErrorDevicesUnavailable, true));
  EXPECT_EQ(s.missing, "no usable GPU");
  EXPECT_EQ(s.detail, std::string("cudaGetDeviceCount: ") + cudaGetErrorString(cudaErrorDevicesUnavailable));
}

// Whatever this machine has, every command words it the same way.
TEST(GpuStatus, GpuAvailableSaysWhatGpuStatusSays) {
  const GpuStatus s = gpu_status();
  std::string why;
  EXPECT_EQ(gpu_available(&why), s.usable);
  EXPECT_EQ(why, s.text());
  if (!s.usable) EXPECT_NE(s.missing, "");
}
