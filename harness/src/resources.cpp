#include "sortbench/resources.hpp"

#include <cuda_occupancy.h>
#include <cuda_runtime_api.h>

#include <cstdio>
#include <utility>

namespace sortbench {

SmLimits sm90_limits() {
  SmLimits s;
  s.gpu = "NVIDIA H100 80GB HBM3";
  cudaOccDeviceProp& p = s.props;
  p.computeMajor = 9;
  p.computeMinor = 0;
  p.maxThreadsPerBlock = 1024;
  p.maxThreadsPerMultiprocessor = 2048;
  p.regsPerBlock = 65536;
  p.regsPerMultiprocessor = 65536;
  p.warpSize = 32;
  p.sharedMemPerBlock = 48 * 1024;
  p.sharedMemPerMultiprocessor = 228 * 1024;
  p.numSms = 132;
  p.sharedMemPerBlockOptin = 227 * 1024;
  p.reservedSharedMemPerBlock = 1024;
  return s;
}

SmLimits device_sm_limits(int device) {
  if (device < 0) cuda_check(cudaGetDevice(&device), "cudaGetDevice");
  cudaDeviceProp p{};
  cuda_check(cudaGetDeviceProperties(&p, device), "cudaGetDeviceProperties");
  return {p.name, cudaOccDeviceProp(p)};
}

namespace {

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
  const cudaOccFuncAttributes attr = occ_attributes(k);
  const cudaOccDeviceState state;
  cudaOccResult r{};
  Residency out;
  if (k.block_threads <= 0 ||
      cudaOccMaxActiveBlocksPerMultiprocessor(&r, &sm.props, &attr, &state, k.block_threads, k.dynamic_smem) !=
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
  if (k.block_threads > sm.props.maxThreadsPerBlock)
    return who + ": more threads per block than the " + std::to_string(sm.props.maxThreadsPerBlock) + " the " + sm.gpu +
           " allows";
  if (k.block_threads > k.max_threads_per_block)
    return who + ": the compiled kernel allows " + std::to_string(k.max_threads_per_block) +
           " threads per block at its register count";
  if (std::size_t(k.registers_per_thread) * std::size_t(k.block_threads) > std::size_t(sm.props.regsPerBlock))
    return who + ": needs " + std::to_string(k.registers_per_thread * k.block_threads) +
           " registers per block, the " + sm.gpu + " has " + std::to_string(sm.props.regsPerBlock);
  if (k.static_smem + k.dynamic_smem > sm.props.sharedMemPerBlockOptin)
    return who + ": needs more shared memory per block than the " + kib(sm.props.sharedMemPerBlockOptin) + " the " + sm.gpu +
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
    cuda_check(l.attributes ? l.attributes(&a, l.function) : cudaFuncGetAttributes(&a, l.function),
               ("cudaFuncGetAttributes(" + l.name + ")").c_str());
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

nlohmann::json to_json(const SmLimits& sm) {
  const cudaOccDeviceProp& p = sm.props;
  return {{"gpu", sm.gpu},
          {"compute_capability", std::to_string(p.computeMajor) + "." + std::to_string(p.computeMinor)},
          {"max_threads_per_block", p.maxThreadsPerBlock},
          {"max_threads_per_sm", p.maxThreadsPerMultiprocessor},
          {"registers_per_block", p.regsPerBlock},
          {"registers_per_sm", p.regsPerMultiprocessor},
          {"smem_per_block_optin_bytes", p.sharedMemPerBlockOptin},
          {"smem_per_sm_bytes", p.sharedMemPerMultiprocessor},
          {"reserved_smem_per_block_bytes", p.reservedSharedMemPerBlock}};
}

}  // namespace sortbench
