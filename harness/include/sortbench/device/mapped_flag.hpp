// Waiting for a kernel's small answer without a stream synchronization: the
// kernel writes the answer into host memory mapped for the device
// (cudaHostAllocMapped), then, after __threadfence_system(), a flag there;
// the host spins on the flag. A copy back and cudaStreamSynchronize cost a
// dispatch about 100 us a sort on an H200 (2^24 u32 keys); this costs the
// kernel's launch and a write across PCIe.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>

#include <cuda_runtime_api.h>

#include "sortbench/variant.hpp"

namespace sortbench {

// Spins until *flag is nonzero. Now and then it asks whether the stream has
// ended without the flag (the kernel failed): then the stream's error, or
// `what` ended without its answer, is thrown.
inline void wait_for_mapped_flag(const volatile std::uint32_t* flag, cudaStream_t s, const char* what) {
  for (unsigned spins = 1; !*flag; ++spins)
    if (spins % 4096 == 0 && cudaStreamQuery(s) != cudaErrorNotReady && !*flag) {
      cuda_check(cudaStreamSynchronize(s), what);
      if (!*flag) throw std::runtime_error(std::string(what) + ": the kernel ended without its answer");
    }
  std::atomic_thread_fence(std::memory_order_acquire);
}

// `count` objects of T in host memory mapped for the device, owned: the
// host's address and the device's. Empty (both null) until made with a count.
template <class T>
class MappedHost {
 public:
  MappedHost() = default;
  MappedHost(std::size_t count, const char* what) {
    cuda_check(cudaHostAlloc(reinterpret_cast<void**>(&host_), count * sizeof(T), cudaHostAllocMapped), what);
    const cudaError_t e = cudaHostGetDevicePointer(reinterpret_cast<void**>(&device_), host_, 0);
    if (e != cudaSuccess) {
      cudaFreeHost(host_);
      cuda_check(e, what);
    }
  }
  MappedHost(MappedHost&& o) noexcept { *this = std::move(o); }
  MappedHost& operator=(MappedHost&& o) noexcept {
    std::swap(host_, o.host_);
    std::swap(device_, o.device_);
    return *this;
  }
  ~MappedHost() { cudaFreeHost(host_); }
  T* host() const { return host_; }
  T* device() const { return device_; }

 private:
  T* host_ = nullptr;
  T* device_ = nullptr;
};

}  // namespace sortbench
