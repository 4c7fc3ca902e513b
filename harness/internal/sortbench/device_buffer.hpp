// A device allocation the runners own (host code): freed on the GPU it was
// made on, and an allocation that fails is a false, not an error, so a point
// that does not fit is skipped with its reason.
#pragma once

#include <cstddef>
#include <cstdio>
#include <string>
#include <utility>

#include <cuda_runtime_api.h>

#include "sortbench/variant.hpp"

namespace sortbench {

class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  DeviceBuffer(DeviceBuffer&& o) noexcept { *this = std::move(o); }
  DeviceBuffer& operator=(DeviceBuffer&& o) noexcept {
    if (this != &o) {
      reset();
      std::swap(device, o.device);
      std::swap(p, o.p);
      std::swap(bytes, o.bytes);
    }
    return *this;
  }
  ~DeviceBuffer() { reset(); }

  void reset() {
    if (p) {
      cudaSetDevice(device);
      cudaFree(p);
    }
    p = nullptr;
    bytes = 0;
  }
  // On GPU dev (which becomes the current one); false, with the error
  // cleared, when it does not fit.
  bool alloc(int dev, std::size_t b) {
    reset();
    device = dev;
    if (b == 0) return true;
    cuda_check(cudaSetDevice(dev), "cudaSetDevice");
    if (cudaMalloc(&p, b) != cudaSuccess) {
      cudaGetLastError();
      p = nullptr;
      return false;
    }
    bytes = b;
    return true;
  }
  // On the current GPU.
  bool alloc(std::size_t b) {
    int dev = 0;
    cuda_check(cudaGetDevice(&dev), "cudaGetDevice");
    return alloc(dev, b);
  }

  int device = 0;
  void* p = nullptr;
  std::size_t bytes = 0;
};

// Bytes as GiB with two decimals, for skip reasons.
inline std::string gib(double bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", bytes / (1024.0 * 1024.0 * 1024.0));
  return buf;
}

}  // namespace sortbench
