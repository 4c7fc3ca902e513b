// What a variant's compiled kernels ask of an SM (registers, shared memory,
// threads) and whether a block of each fits: the tuner's pruning before a
// point runs. The residency arithmetic is NVIDIA's host-side occupancy
// calculator (cuda_occupancy.h), so it is tested on the CPU with written-out
// limits and checked against cudaOccupancyMaxActiveBlocksPerMultiprocessor on
// the GPU (tests/gpu/test_resources.cpp).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include <cuda_occupancy.h>
#include <nlohmann/json.hpp>

#include "sortbench/variant.hpp"

namespace sortbench {

// One launch of a compiled kernel: cudaFuncGetAttributes plus the launch's
// block size and dynamic shared memory.
struct KernelResources {
  std::string kernel;
  int block_threads = 0;
  int registers_per_thread = 0;
  std::size_t static_smem = 0;       // bytes per block
  std::size_t dynamic_smem = 0;      // bytes per block, as launched
  std::size_t max_dynamic_smem = 0;  // the function's limit (cudaFuncAttributeMaxDynamicSharedMemorySize)
  int max_threads_per_block = 0;     // the function's limit, from its registers and launch bounds
  std::size_t local_bytes = 0;       // per thread: register spills and stack
};

// The limits of one SM of a GPU, in the form NVIDIA's occupancy calculator
// reads them (cudaOccDeviceProp converts from cudaDeviceProp).
struct SmLimits {
  std::string gpu;  // the model, for messages
  cudaOccDeviceProp props;
};

// The limits of an H100 SXM (sm_90), written out for CPU tests and the fake
// evaluator.
SmLimits sm90_limits();
// The limits of CUDA device `device`, -1: the current one (cudaGetDeviceProperties).
// Throws CudaError.
SmLimits device_sm_limits(int device = -1);

struct Residency {
  int blocks_per_sm = 0;
  std::string limited_by;  // "warps", "registers", "shared memory", "blocks" (joined with '+')
};
// Blocks of the launch resident on one SM at once (cudaOccMaxActiveBlocksPerMultiprocessor).
Residency residency(const SmLimits& sm, const KernelResources& k);

// Why a block of the launch cannot be resident on an SM of this kind, naming
// the kernel, its numbers and the limit; empty when at least one block fits.
std::string resource_reason(const SmLimits& sm, const KernelResources& k);

// cudaFuncGetAttributes of each launch of `instance` (on the current device).
// Throws CudaError.
std::vector<KernelResources> compiled_resources(const Instance& instance);

nlohmann::json to_json(const KernelResources& k, const Residency& r);
nlohmann::json to_json(const SmLimits& sm);

}  // namespace sortbench
