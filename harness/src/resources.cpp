#include "sortbench/resources.hpp"

#include <cuda_occupancy.h>
#include <cuda_runtime_api.h>

#include <cstdio>
#include <utility>

namespace sortbench {

SmLimits sm90_limits() {
  SmLimits s;
  s.gpu = "NVIDIA H100 80GB HBM3";
  s.compute_major = 9;
  s.compute_minor = 0;
  s.max_threads_per_block = 1024;
  s.max_threads_per_sm = 2048;
  s.max_blocks_per_sm = 32;
  s.registers_per_block = 65536;
  s.registers_per_sm = 65536;
  s.warp_size = 32;
  s.smem_per_block = 48 * 1024;
  s.smem_per_block_optin = 227 * 1024;
  s.smem_per_sm = 228 * 1024;
  s.reserved_smem_per_block = 1024;
  return s;
}

SmLimits device_sm_limits(int device) {
  if (device < 0) cuda_check(cudaGetDevice(&device), "cudaGetDevice");
  cudaDeviceProp p{};
  cuda_check(cudaGetDeviceProperties(&p, device), "cudaGetDeviceProperties");
  SmLimits s;
  s.gpu = p.name;
  s.compute_major = p.major;
  s.compute_minor = p.minor;
  s.max_threads_per_block = p.maxThreadsPerBlock;
  s.max_threads_per_sm = p.maxThreadsPerMultiProcessor;
  s.max_blocks_per_sm = p.maxBlocksPerMultiProcessor;
  s.registers_per_block = p.regsPerBlock;
  s.registers_per_sm = p.regsPerMultiprocessor;
  s.warp_size = p.warpSize;
  s.smem_per_block = p.sharedMemPerBlock;
  s.smem_per_block_optin = p.sharedMemPerBlockOptin;
  s.smem_per_sm = p.sharedMemPerMultiprocessor;
  s.reserved_smem_per_block = p.reservedSharedMemPerBlock;
  return s;
}

namespace {

cudaOccDeviceProp occ_props(const SmLimits& s) {
  cudaOccDeviceProp p;
  p.computeMajor = s.compute_major;
  p.computeMinor = s.compute_minor;
  p.maxThreadsPerBlock = s.max_threads_per_block;
  p.maxThreadsPerMultiprocessor = s.max_threads_per_sm;
  p.regsPerBlock = s.registers_per_block;
  p.regsPerMultiprocessor = s.registers_per_sm;
  p.warpSize = s.warp_size;
  p.sharedMemPerBlock = s.smem_per_block;
  p.sharedMemPerMultiprocessor = s.smem_per_sm;
  p.numSms = 1;
  p.sharedMemPerBlockOptin = s.smem_per_block_optin;
  p.reservedSharedMemPerBlock = s.reserved_smem_per_block;
  return p;
}

cudaOccFuncAttributes occ_attributes(const KernelResources& k) {
  cudaOccFuncAttributes a;
  a.maxThreadsPerBlock = k.max_threads_per_block;
  a.numRegs = k.registers_per_thread;
  a.sharedSizeBytes = k.static_smem;
  a.partitionedGCConfig = PARTITIONED_GC_OFF;
  a.shmemLimitConfig = FUNC_SHMEM_LIMIT_OPTIN;
  a.maxDynamicSharedSizeBytes = k.max_dynamic_smem;
  a.numBlockBarriers = 1;  // what cudaOccFuncAttributes(cudaFuncAttributes) assumes
  a.virtualResourceCount = 0;
  return a;
}

std::string kib(std::size_t bytes) {
  const double k = double(bytes) / 1024.0;
  char buf[32];
  std::snprintf(buf, sizeof buf, k == double(std::size_t(k)) ? "%.0f KiB" : "%.1f KiB", k);
  return buf;
}

}  // namespace

Residency residency(const SmLimits& sm, const KernelResources& k) {
  const cudaOccDeviceProp props = occ_props(sm);
  const cudaOccFuncAttributes attr = occ_attributes(k);
  const cudaOccDeviceState state;
  cudaOccResult r{};
  Residency out;
  if (k.block_threads <= 0 ||
      cudaOccMaxActiveBlocksPerMultiprocessor(&r, &props, &attr, &state, k.block_threads, k.dynamic_smem) !=
          CUDA_OCC_SUCCESS)
    return out;
  out.blocks_per_sm = r.activeBlocksPerMultiprocessor;
  const std::pair<unsigned, const char*> factors[] = {{OCC_LIMIT_WARPS, "warps"},
                                                      {OCC_LIMIT_REGISTERS, "registers"},
                                                      {OCC_LIMIT_SHARED_MEMORY, "shared memory"},
                                                      {OCC_LIMIT_BLOCKS, "blocks"},
                                                      {OCC_LIMIT_BARRIERS, "barriers"}};
  for (const auto& [bit, name] : factors)
    if (r.limitingFactors & bit) out.limited_by += (out.limited_by.empty() ? "" : "+") + std::string(name);
  return out;
}

std::string resource_reason(const SmLimits& sm, const KernelResources& k) {
  const std::string who = "kernel '" + k.kernel + "' (" + std::to_string(k.block_threads) + " threads, " +
                          std::to_string(k.registers_per_thread) + " registers per thread, " +
                          kib(k.static_smem + k.dynamic_smem) + " shared memory per block)";
  if (k.block_threads <= 0) return who + ": no threads per block";
  if (k.block_threads > sm.max_threads_per_block)
    return who + ": more threads per block than the " + std::to_string(sm.max_threads_per_block) + " the " + sm.gpu +
           " allows";
  if (k.block_threads > k.max_threads_per_block)
    return who + ": the compiled kernel allows " + std::to_string(k.max_threads_per_block) +
           " threads per block at its register count";
  if (std::size_t(k.registers_per_thread) * std::size_t(k.block_threads) > std::size_t(sm.registers_per_block))
    return who + ": needs " + std::to_string(k.registers_per_thread * k.block_threads) +
           " registers per block, the " + sm.gpu + " has " + std::to_string(sm.registers_per_block);
  if (k.static_smem + k.dynamic_smem > sm.smem_per_block_optin)
    return who + ": needs more shared memory per block than the " + kib(sm.smem_per_block_optin) + " the " + sm.gpu +
           " allows";
  if (k.dynamic_smem > k.max_dynamic_smem)
    return who + ": launches with " + kib(k.dynamic_smem) + " of dynamic shared memory above the kernel's limit of " +
           kib(k.max_dynamic_smem) + " (cudaFuncAttributeMaxDynamicSharedMemorySize was not raised)";
  const Residency r = residency(sm, k);
  if (r.blocks_per_sm < 1)
    return who + ": no block can be resident on an SM of the " + sm.gpu +
           (r.limited_by.empty() ? std::string() : " (limited by " + r.limited_by + ")");
  return {};
}

std::vector<KernelResources> compiled_resources(const Instance& instance) {
  std::vector<KernelResources> out;
  for (const KernelLaunch& l : instance.kernels()) {
    cudaFuncAttributes a{};
    cuda_check(cudaFuncGetAttributes(&a, l.function), ("cudaFuncGetAttributes(" + l.name + ")").c_str());
    KernelResources k;
    k.kernel = l.name;
    k.block_threads = l.block_threads;
    k.registers_per_thread = a.numRegs;
    k.static_smem = a.sharedSizeBytes;
    k.dynamic_smem = l.dynamic_smem;
    k.max_dynamic_smem = std::size_t(a.maxDynamicSharedSizeBytes);
    k.max_threads_per_block = a.maxThreadsPerBlock;
    k.local_bytes = a.localSizeBytes;
    out.push_back(std::move(k));
  }
  return out;
}

nlohmann::json to_json(const KernelResources& k, const Residency& r) {
  return {{"kernel", k.kernel},
          {"block_threads", k.block_threads},
          {"registers_per_thread", k.registers_per_thread},
          {"static_smem_bytes", k.static_smem},
          {"dynamic_smem_bytes", k.dynamic_smem},
          {"local_bytes_per_thread", k.local_bytes},
          {"blocks_per_sm", r.blocks_per_sm},
          {"limited_by", r.limited_by}};
}

}  // namespace sortbench
