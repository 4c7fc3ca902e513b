// Thrust allocates temporary storage inside every sort call unless it is
// given an allocator. These two allocators keep that allocation out of the
// timed region: RecordingAllocator measures what a call needs (untimed), and
// BufferAllocator hands out slices of the harness's preallocated temp buffer.
#pragma once

#include <cstddef>
#include <vector>

#include <cuda_runtime_api.h>

#include "sortbench/variant.hpp"

namespace sortbench::baselines {

class RecordingAllocator {
 public:
  using value_type = char;
  ~RecordingAllocator() {
    for (void* p : live_) cudaFree(p);
  }
  char* allocate(std::ptrdiff_t bytes) {
    void* p = nullptr;
    cuda_check(cudaMalloc(&p, std::size_t(bytes)), "thrust temp allocation");
    live_.push_back(p);
    in_use_ += align(std::size_t(bytes));
    peak_ = in_use_ > peak_ ? in_use_ : peak_;
    return static_cast<char*>(p);
  }
  void deallocate(char*, std::size_t bytes) { in_use_ -= align(bytes); }
  std::size_t peak() const { return peak_; }
  static std::size_t align(std::size_t b) { return (b + 255) / 256 * 256; }

 private:
  std::vector<void*> live_;
  std::size_t in_use_ = 0, peak_ = 0;
};

class BufferAllocator {
 public:
  using value_type = char;
  BufferAllocator(void* base, std::size_t bytes) : base_(static_cast<char*>(base)), bytes_(bytes) {}
  char* allocate(std::ptrdiff_t bytes) {
    const std::size_t b = RecordingAllocator::align(std::size_t(bytes));
    if (used_ + b > bytes_) throw CudaError(cudaErrorMemoryAllocation, "thrust asked for more temp storage than measured");
    char* p = base_ + used_;
    used_ += b;
    return p;
  }
  // Thrust frees in reverse order of allocation within one call.
  void deallocate(char*, std::size_t bytes) { used_ -= RecordingAllocator::align(bytes); }

 private:
  char* base_;
  std::size_t bytes_, used_ = 0;
};

}  // namespace sortbench::baselines
