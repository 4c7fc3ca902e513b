// Whether this process can use a CUDA GPU and, where it cannot, what is
// missing, in the words every command uses: "no NVIDIA driver", "no GPU",
// "NVIDIA driver too old". The CUDA runtime alone says "CUDA driver version is
// insufficient for CUDA runtime version" both where no driver is installed and
// where an old one is, so the driver library is looked for separately. Host code.
#pragma once

#include <string>

namespace sortbench {

// What the checks saw: the inputs of classify_gpu, filled by probe_gpu.
struct GpuProbe {
  int count_error = 0;           // cudaGetDeviceCount's cudaError_t (0: success)
  std::string count_error_text;  // cudaGetErrorString of it
  int device_count = 0;
  int runtime_version = 0;       // CUDART_VERSION of this build, e.g. 13000
  bool driver_loadable = true;   // dlopen("libcuda.so.1") succeeded
  std::string driver_load_error; // dlerror() where it did not
  bool visible_devices_set = false;
  std::string visible_devices;   // CUDA_VISIBLE_DEVICES where set
};

struct GpuStatus {
  bool usable = false;
  std::string missing;  // "no NVIDIA driver", "no GPU", "NVIDIA driver too old", "no usable GPU"; empty when usable
  std::string detail;   // what was seen, for the parenthesis
  // "no NVIDIA driver (libcuda.so.1 cannot be loaded: ...)"; empty when usable.
  std::string text() const;
};

// Pure: the status the probe's facts mean.
GpuStatus classify_gpu(const GpuProbe& p);
// Asks the CUDA runtime for the device count and, only where that fails or
// finds none, whether the driver library loads.
GpuProbe probe_gpu();
GpuStatus gpu_status();

}  // namespace sortbench
