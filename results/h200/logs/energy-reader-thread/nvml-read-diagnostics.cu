// NVML energy-window diagnostics: call cost, and copy windows by the blocking and in-flight paths.
#include "sortbench/energy.hpp"
#include <cuda_runtime.h>
#include <chrono>
#include <cstdio>
#include <string>
using namespace sortbench;
using clk = std::chrono::steady_clock;
static double ms_since(clk::time_point t) { return std::chrono::duration<double, std::milli>(clk::now() - t).count(); }
int main() {
  char bus[32];
  cudaDeviceGetPCIBusId(bus, sizeof bus, 0);
  auto c = energy::Counter::open(bus);
  if (!c.available()) { printf("no counter: %s\n", c.why_not().c_str()); return 1; }
  const size_t bytes = size_t(1) << 30;
  void *a, *b;
  cudaMalloc(&a, bytes); cudaMalloc(&b, bytes); cudaMemset(a, 1, bytes); cudaDeviceSynchronize();
  cudaStream_t s; cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  for (int rep = 0; rep < 2; ++rep) {
    auto t = clk::now();
    for (int i = 0; i < 200; ++i) c.total_mj();
    printf("total_mj idle: %.3f ms/call\n", ms_since(t) / 200);
    t = clk::now();
    for (int i = 0; i < 200; ++i) c.power_w();
    printf("power_w idle: %.3f ms/call\n", ms_since(t) / 200);
  }
  auto copy = [&] { cudaMemcpyAsync(b, a, bytes, cudaMemcpyDeviceToDevice, s); cudaStreamSynchronize(s); };
  auto t = clk::now();
  for (int i = 0; i < 200; ++i) copy();
  printf("copy alone: %.3f ms\n", ms_since(t) / 200);
  t = clk::now();
  for (int i = 0; i < 200; ++i) { copy(); c.total_mj(); }
  printf("copy + total_mj: %.3f ms\n", ms_since(t) / 200);
  cudaEvent_t ev[2]; cudaEventCreateWithFlags(&ev[0], cudaEventDisableTiming); cudaEventCreateWithFlags(&ev[1], cudaEventDisableTiming);
  // busy GPU: total_mj cost while copies are queued
  for (int i = 0; i < 50; ++i) cudaMemcpyAsync(b, a, bytes, cudaMemcpyDeviceToDevice, s);
  t = clk::now(); int calls = 0;
  while (cudaStreamQuery(s) == cudaErrorNotReady) { c.total_mj(); ++calls; }
  printf("50 queued copies with %d total_mj polls: %.3f ms/copy\n", calls, ms_since(t) / 50);
  for (int w = 0; w < 2; ++w) {
    for (double win : {1.0, 3.0}) {
      std::string why;
      std::optional<energy::Window> r;
      if (w == 0) r = energy::measure_window(c, copy, win, &why);
      else r = energy::measure_window(c, energy::Ops{[&](size_t i) { for (int k = 0; k < 9; ++k) cudaMemcpyAsync(b, a, bytes, cudaMemcpyDeviceToDevice, s); cudaEventRecord(ev[i % 2], s); },
                                                     [&](size_t i) { return cudaEventQuery(ev[i % 2]) == cudaSuccess; }, 2}, win, &why);
      if (!r) { printf("window failed: %s\n", why.c_str()); continue; }
      const double copies = r->ops * (w ? 9 : 1);
      printf("%s %.0f s: %.2f copies in %.4f s = %.4f ms/copy, %.1f W (reading %.1f), %.2f pJ/B, rel_error %.5f\n",
             w ? "in-flight" : "blocking", win, copies, r->seconds, r->seconds / copies * 1e3, r->watts_mean(), r->power_reading_w,
             r->joules / copies / double(bytes) * 1e12, r->rel_error);
    }
  }
}
