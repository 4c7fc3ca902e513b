#include <algorithm>
#include <cctype>
#include <cstdio>
#include <vector>

#include <cuda/version>

#include "sortbench/device.hpp"
#include "sortbench/energy.hpp"

namespace sortbench {

std::string device_model_slug(const std::string& name) {
  std::string s;
  for (char c : name) {
    const char l = char(std::tolower(static_cast<unsigned char>(c)));
    if (std::isalnum(static_cast<unsigned char>(l))) s += l;
    else if (!s.empty() && s.back() != '-') s += '-';
  }
  while (!s.empty() && s.back() == '-') s.pop_back();
  if (s.rfind("nvidia-", 0) == 0) s = s.substr(7);
  return s.empty() ? "unknown-gpu" : s;
}

namespace {

std::string uuid_string(const cudaUUID_t& u) {
  char buf[64];
  const auto* b = reinterpret_cast<const unsigned char*>(u.bytes);
  std::snprintf(buf, sizeof buf, "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", b[0],
                b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]);
  return buf;
}

// Median of device-to-device copies of a large buffer, counting bytes read
// plus bytes written (as ../shared/anchors.md reports copy bandwidth).
double copy_bandwidth(std::size_t free_bytes) {
  std::size_t bytes = std::size_t(1) << 30;
  while (bytes > (std::size_t(1) << 24) && 2 * bytes > free_bytes / 2) bytes /= 2;
  void *a = nullptr, *b = nullptr;
  cudaEvent_t e0, e1;
  cuda_check(cudaMalloc(&a, bytes), "copy bandwidth");
  cuda_check(cudaMalloc(&b, bytes), "copy bandwidth");
  cuda_check(cudaEventCreate(&e0), "copy bandwidth");
  cuda_check(cudaEventCreate(&e1), "copy bandwidth");
  cuda_check(cudaMemset(a, 1, bytes), "copy bandwidth");
  std::vector<float> ms;
  for (int i = 0; i < 12; ++i) {
    cuda_check(cudaEventRecord(e0), "copy bandwidth");
    cuda_check(cudaMemcpyAsync(b, a, bytes, cudaMemcpyDeviceToDevice), "copy bandwidth");
    cuda_check(cudaEventRecord(e1), "copy bandwidth");
    cuda_check(cudaEventSynchronize(e1), "copy bandwidth");
    float t = 0;
    cuda_check(cudaEventElapsedTime(&t, e0, e1), "copy bandwidth");
    if (i >= 2) ms.push_back(t);  // the first copies warm up clocks and TLBs
  }
  std::sort(ms.begin(), ms.end());
  const double med = ms[ms.size() / 2];
  cudaEventDestroy(e0);
  cudaEventDestroy(e1);
  cudaFree(a);
  cudaFree(b);
  return 2.0 * double(bytes) / (med * 1e-3) / 1e9;
}

}  // namespace

DeviceInfo query_device(bool measure_copy_bandwidth) {
  DeviceInfo d;
  cuda_check(cudaGetDevice(&d.ordinal), "cudaGetDevice");
  cudaDeviceProp p{};
  cuda_check(cudaGetDeviceProperties(&p, d.ordinal), "cudaGetDeviceProperties");
  d.name = p.name;
  d.uuid = uuid_string(p.uuid);
  d.sm_count = p.multiProcessorCount;
  d.cc_major = p.major;
  d.cc_minor = p.minor;
  d.l2_bytes = std::size_t(p.l2CacheSize);
  d.total_mem = p.totalGlobalMem;
  int v = 0;
  cuda_check(cudaDeviceGetAttribute(&v, cudaDevAttrClockRate, d.ordinal), "clock rate");
  d.sm_clock_peak_mhz = v / 1000;
  cuda_check(cudaDeviceGetAttribute(&v, cudaDevAttrMemoryClockRate, d.ordinal), "memory clock rate");
  d.mem_clock_peak_mhz = v / 1000;
  cuda_check(cudaDeviceGetAttribute(&v, cudaDevAttrGlobalMemoryBusWidth, d.ordinal), "bus width");
  d.mem_bus_width_bits = v;
  cuda_check(cudaDriverGetVersion(&d.driver_version), "driver version");
  cuda_check(cudaRuntimeGetVersion(&d.runtime_version), "runtime version");
  d.cccl_version = std::to_string(CCCL_MAJOR_VERSION) + "." + std::to_string(CCCL_MINOR_VERSION) + "." +
                   std::to_string(CCCL_PATCH_VERSION);
  std::size_t free_b = 0, total_b = 0;
  cuda_check(cudaMemGetInfo(&free_b, &total_b), "cudaMemGetInfo");
  d.free_mem = free_b;
  // The draw before this process's first work on the GPU (the copy below included).
  char bus[32] = {};
  cuda_check(cudaDeviceGetPCIBusId(bus, int(sizeof bus), d.ordinal), "PCI bus id");
  d.pci_bus_id = bus;
  const energy::Counter counter = energy::Counter::open(d.pci_bus_id);
  d.energy_missing = counter.why_not();
  if (const auto w = counter.power_w()) d.idle_w = *w;
  if (const auto w = counter.power_limit_w()) d.power_limit_w = *w;
  if (measure_copy_bandwidth) d.copy_gb_per_s = copy_bandwidth(free_b);
  return d;
}

}  // namespace sortbench
