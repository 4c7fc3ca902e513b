// Programmatic dependent launch (Hopper, CUDA programming guide "Programmatic
// Dependent Launch and Synchronization"): a kernel of a chain on one stream is
// launched, and its blocks take the SM slots its predecessor frees, while the
// predecessor still runs; each block then waits in chain_wait() until the
// predecessor has finished and its writes are visible. At small n a sort is a
// chain of short kernels and the gaps between them (launch, block ramp-up and
// drain) are a large part of its time.
//
// The rule a chained kernel follows: nothing before chain_wait() reads what an
// earlier kernel of the stream writes or writes what it reads, and
// chain_release() comes right after chain_wait(). A kernel launched without
// the attribute (or on a GPU before sm_90) waits for nothing in chain_wait(),
// so the same kernel is correct launched either way. CUB's radix sort (CCCL
// 3.0.1) does not chain its kernels.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <utility>

namespace sortbench::common {

// Blocks until every kernel this one was chained behind has completed.
__device__ __forceinline__ void chain_wait() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}

// Lets the next chained kernel be scheduled once every block of this grid has
// called this (or exited). Called right after chain_wait(), not before it: a
// block that releases before its wait lets the kernel after next launch too,
// and so on down the chain, so the blocks of several later kernels sit in the
// SM slots a one-wave pass leaves free. Releasing first, 2^20 u32 keys with
// three 384-thread blocks per SM took 76.0 us against 69.4 us not chained
// (H100; 9-21 % slower across key and value types, on the H200 too);
// releasing after the wait, 60.9 us (docs/experiments/issue15-steps.md).
__device__ __forceinline__ void chain_release() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
}

// Whether the current device runs chained launches (compute capability 9.0+);
// false where the device cannot be asked (the launch then reports the error).
inline bool chained_launch_supported() {
  int dev = 0, major = 0;
  return cudaGetDevice(&dev) == cudaSuccess &&
         cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev) == cudaSuccess && major >= 9;
}

// kernel<<<grid, block, smem, s>>>(args...), chained behind the stream's
// previous kernel when `chained`.
template <class... Params, class... Args>
cudaError_t launch_chained(bool chained, void (*kernel)(Params...), dim3 grid, dim3 block, std::size_t smem,
                           cudaStream_t s, Args&&... args) {
  cudaLaunchAttribute attr[1];
  attr[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attr[0].val.programmaticStreamSerializationAllowed = 1;
  cudaLaunchConfig_t config{};
  config.gridDim = grid;
  config.blockDim = block;
  config.dynamicSmemBytes = smem;
  config.stream = s;
  config.attrs = chained ? attr : nullptr;
  config.numAttrs = chained ? 1 : 0;
  return cudaLaunchKernelEx(&config, kernel, std::forward<Args>(args)...);
}

}  // namespace sortbench::common
