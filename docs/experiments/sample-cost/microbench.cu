// Raw data of docs/experiments/sample-cost.md: nvcc -O3 -std=c++17 -arch=sm_90 -Iharness/include microbench.cu
// kPairs is 4096 here, twice the sample's kClassSamplePairs (2048): the kernels of builds 376c79b
// (count_sample_kernel) and ed4a62a (count_sample_match) are copied in with that many pairs.
// What the key sample's time is made of (session 11): event-timed kernels after an L2 flush, median of 40.
#include <cstdio>
#include <cstdint>
#include <vector>
#include <algorithm>
#include <chrono>
#include "sortbench/device/spread_place.hpp"
using namespace sortbench;
constexpr unsigned kPairs = 4096;
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorString(e)); exit(1);} } while (0)

__device__ __forceinline__ size_t pos_of(size_t j, size_t n) { return spread_place(j, kPairs, n - 1); }

template <unsigned Threads>
__global__ void __launch_bounds__(Threads) loads_only(const unsigned* keys, size_t n, unsigned* out) {
  constexpr unsigned per = kPairs / Threads;  // per thread, when one block
  unsigned s = 0;
  unsigned a[per > 0 ? per : 1], b[per > 0 ? per : 1];
#pragma unroll
  for (unsigned k = 0; k < per; ++k) { size_t i = pos_of(threadIdx.x + k * Threads, n); a[k] = keys[i]; b[k] = keys[i + 1]; }
#pragma unroll
  for (unsigned k = 0; k < per; ++k) s += a[k] ^ b[k];
  if (s == 0x12345) out[0] = s;
}
// Many blocks, one pair a thread.
__global__ void loads_grid(const unsigned* keys, size_t n, unsigned* out) {
  const unsigned j = blockIdx.x * blockDim.x + threadIdx.x;
  size_t i = pos_of(j, n);
  unsigned s = keys[i] ^ keys[i + 1];
  if (s == 0x12345) out[0] = s;
}
template <unsigned Threads>
__global__ void positions_only(size_t n, unsigned* out) {
  constexpr unsigned per = kPairs / Threads;
  size_t s = 0;
#pragma unroll
  for (unsigned k = 0; k < per; ++k) s += pos_of(threadIdx.x + k * Threads, n);
  if (s == 0x12345) out[0] = unsigned(s);
}
// Precomputed places, read contiguously.
template <unsigned Threads>
__global__ void loads_table(const unsigned* keys, const size_t* places, unsigned* out) {
  constexpr unsigned per = kPairs / Threads;
  unsigned s = 0;
  unsigned a[per], b[per];
#pragma unroll
  for (unsigned k = 0; k < per; ++k) { size_t i = places[threadIdx.x + k * Threads]; a[k] = keys[i]; b[k] = keys[i + 1]; }
#pragma unroll
  for (unsigned k = 0; k < per; ++k) s += a[k] ^ b[k];
  if (s == 0x12345) out[0] = s;
}
__global__ void flag_kernel(unsigned* f) { __threadfence_system(); *(volatile unsigned*)f = 1; }
struct SampleCounts { unsigned ascending, descending, distinct_tops, first_same_pairs, same_top_pairs, shared_top_bits, done; };
#define ORD(x) (x)
constexpr unsigned kCountThreads = 1024;
constexpr int kFirstSlotBits = 13;
constexpr unsigned kFirstSlots = 1u << kFirstSlotBits;
template <class T>
__global__ void __launch_bounds__(kCountThreads)
    count_sample_kernel(const T* __restrict__ keys, std::size_t n, SampleCounts* out) {
  constexpr int kBits = int(sizeof(T) * 8), kTopBits = kBits < 16 ? kBits : 16;
  __shared__ unsigned seen[(1u << kTopBits) / 32 + 1];
  // Per hashed top-16-bit value, the first keys that had it so far: their
  // pairs with a repeated value (hash collisions add about 2^-13 of them).
  __shared__ unsigned first_count[kFirstSlots];
  __shared__ unsigned up, down, distinct, first_same, same_top;
  __shared__ unsigned long long all_and, all_or;
  // Every load of the thread is issued before the first is used: one trip
  // to DRAM a sample, not one a pair, and it overlaps clearing the counters.
  constexpr unsigned kPerThread = unsigned(kPairs / kCountThreads);
  static_assert(kPairs % kCountThreads == 0, "whole pairs a thread");
  T first[kPerThread], second[kPerThread];
#pragma unroll
  for (unsigned k = 0; k < kPerThread; ++k) {
    const std::size_t i = pos_of(threadIdx.x + k * kCountThreads, n);
    first[k] = keys[i];
    second[k] = keys[i + 1];
  }
  for (unsigned i = threadIdx.x; i < sizeof(seen) / 4; i += kCountThreads) seen[i] = 0;
  for (unsigned i = threadIdx.x; i < kFirstSlots; i += kCountThreads) first_count[i] = 0;
  if (threadIdx.x == 0) {
    up = down = distinct = first_same = same_top = 0;
    all_and = ~0ull;
    all_or = 0;
  }
  __syncthreads();
  auto top_of = [](T key) { return unsigned(std::uint64_t(ORD(key)) >> (kBits - kTopBits)); };
  // Whether a top-16-bit value is new to the sample.
  auto fresh = [&](unsigned top) {
    const unsigned bit = 1u << (top & 31);
    return unsigned((atomicOr(&seen[top >> 5], bit) & bit) == 0);
  };
  unsigned u = 0, d = 0, same = 0, fresh_first = 0, fresh_second = 0, same_first = 0;
  unsigned long long a_and = ~0ull, a_or = 0;
#pragma unroll
  for (unsigned k = 0; k < kPerThread; ++k) {
    const auto a = ORD(first[k]), b = ORD(second[k]);
    u += a < b;
    d += b < a;
    same += top_of(first[k]) == top_of(second[k]);
    fresh_first += fresh(top_of(first[k]));
    same_first += atomicAdd(&first_count[(top_of(first[k]) * 2654435761u) >> (32 - kFirstSlotBits)], 1u);
    a_and &= std::uint64_t(a);
    a_or |= std::uint64_t(a);
  }
  __syncthreads();
  // Then the second keys: places in strides are evenly spread, so the first
  // keys of a monotone input (timestamps) fall in values of their own however
  // few values it fills; their neighbours do not.
#pragma unroll
  for (unsigned k = 0; k < kPerThread; ++k) fresh_second += fresh(top_of(second[k]));
  atomicAnd(&all_and, a_and);
  atomicOr(&all_or, a_or);
  atomicAdd(&up, u);
  atomicAdd(&down, d);
  atomicAdd(&same_top, same);
  atomicAdd(&first_same, same_first);
  atomicAdd(&distinct, fresh_first + fresh_second);
  __syncthreads();
  if (threadIdx.x == 0) {
    out->ascending = up;
    out->descending = down;
    out->distinct_tops = distinct;
    out->first_same_pairs = first_same;
    out->same_top_pairs = same_top;
    out->shared_top_bits = unsigned(all_and ^ all_or);
    __threadfence_system();  // the counts reach the host before the flag
    *reinterpret_cast<volatile std::uint32_t*>(&out->done) = 1;
  }
}


template <class T>
__global__ void __launch_bounds__(kCountThreads)
    count_sample_match(const T* __restrict__ keys, std::size_t n, SampleCounts* out) {
  constexpr int kBits = int(sizeof(T) * 8), kTopBits = kBits < 16 ? kBits : 16;
  __shared__ unsigned seen[(1u << kTopBits) / 32 + 1];
  // Per hashed top-16-bit value, the first keys that had it so far: their
  // pairs with a repeated value (hash collisions add about 2^-13 of them).
  __shared__ unsigned first_count[kFirstSlots];
  __shared__ unsigned up, down, distinct, first_same, same_top;
  __shared__ unsigned long long all_and, all_or;
  // Every load of the thread is issued before the first is used: one trip
  // to DRAM a sample, not one a pair, and it overlaps clearing the counters.
  constexpr unsigned kPerThread = unsigned(kPairs / kCountThreads);
  static_assert(kPairs % kCountThreads == 0, "whole pairs a thread");
  T first[kPerThread], second[kPerThread];
#pragma unroll
  for (unsigned k = 0; k < kPerThread; ++k) {
    const std::size_t i = pos_of(threadIdx.x + k * kCountThreads, n);
    first[k] = keys[i];
    second[k] = keys[i + 1];
  }
  for (unsigned i = threadIdx.x; i < sizeof(seen) / 4; i += kCountThreads) seen[i] = 0;
  for (unsigned i = threadIdx.x; i < kFirstSlots; i += kCountThreads) first_count[i] = 0;
  if (threadIdx.x == 0) {
    up = down = distinct = first_same = same_top = 0;
    all_and = ~0ull;
    all_or = 0;
  }
  __syncthreads();
  auto top_of = [](T key) { return unsigned(std::uint64_t(ORD(key)) >> (kBits - kTopBits)); };
  // Skewed keys give many lanes of a warp one top value, and shared-memory
  // atomics on one address serialise: one lane per value of the warp (the
  // lowest) speaks for its peers.
  const unsigned lane = threadIdx.x % 32;
  // 1 where a top-16-bit value is new to the sample, for the lowest lane
  // holding it; 0 for its peers, whose value is then no longer new.
  auto fresh = [&](unsigned top, unsigned peers) {
    if (__ffs(peers) - 1 != int(lane)) return 0u;
    const unsigned bit = 1u << (top & 31);
    return unsigned((atomicOr(&seen[top >> 5], bit) & bit) == 0);
  };
  unsigned u = 0, d = 0, same = 0, fresh_first = 0, fresh_second = 0, same_first = 0;
  unsigned long long a_and = ~0ull, a_or = 0;
#pragma unroll
  for (unsigned k = 0; k < kPerThread; ++k) {
    const auto a = ORD(first[k]), b = ORD(second[k]);
    u += a < b;
    d += b < a;
    const unsigned top = top_of(first[k]);
    same += top == top_of(second[k]);
    const unsigned peers = __match_any_sync(~0u, top);
    fresh_first += fresh(top, peers);
    // Each first key counts the first keys its slot held before it: the
    // slot's m keys give m (m - 1) / 2 in any order, so the lowest peer adds
    // its c peers' share at once.
    if (__ffs(peers) - 1 == int(lane)) {
      const unsigned c = __popc(peers);
      const unsigned before = atomicAdd(&first_count[(top * 2654435761u) >> (32 - kFirstSlotBits)], c);
      same_first += c * before + c * (c - 1) / 2;
    }
    a_and &= std::uint64_t(a);
    a_or |= std::uint64_t(a);
  }
  __syncthreads();
  // Then the second keys: places in strides are evenly spread, so the first
  // keys of a monotone input (timestamps) fall in values of their own however
  // few values it fills; their neighbours do not.
#pragma unroll
  for (unsigned k = 0; k < kPerThread; ++k) {
    const unsigned top = top_of(second[k]);
    fresh_second += fresh(top, __match_any_sync(~0u, top));
  }
  // One atomic a warp for the block's totals, not one a thread.
  const unsigned and_lo = __reduce_and_sync(~0u, unsigned(a_and)), and_hi = __reduce_and_sync(~0u, unsigned(a_and >> 32));
  const unsigned or_lo = __reduce_or_sync(~0u, unsigned(a_or)), or_hi = __reduce_or_sync(~0u, unsigned(a_or >> 32));
  u = __reduce_add_sync(~0u, u);
  d = __reduce_add_sync(~0u, d);
  same = __reduce_add_sync(~0u, same);
  same_first = __reduce_add_sync(~0u, same_first);
  const unsigned fresh_all = __reduce_add_sync(~0u, fresh_first + fresh_second);
  if (lane == 0) {
    atomicAnd(&all_and, (static_cast<unsigned long long>(and_hi) << 32) | and_lo);
    atomicOr(&all_or, (static_cast<unsigned long long>(or_hi) << 32) | or_lo);
    atomicAdd(&up, u);
    atomicAdd(&down, d);
    atomicAdd(&same_top, same);
    atomicAdd(&first_same, same_first);
    atomicAdd(&distinct, fresh_all);
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    out->ascending = up;
    out->descending = down;
    out->distinct_tops = distinct;
    out->first_same_pairs = first_same;
    out->same_top_pairs = same_top;
    out->shared_top_bits = unsigned(all_and ^ all_or);
    __threadfence_system();  // the counts reach the host before the flag
    *reinterpret_cast<volatile std::uint32_t*>(&out->done) = 1;
  }
}


__global__ void empty_kernel(unsigned* out) { if (threadIdx.x == 12345) out[0] = 1; }
__global__ void shared_clear(unsigned* out) {
  __shared__ unsigned seen[2049];
  __shared__ unsigned fc[8192];
  for (unsigned i = threadIdx.x; i < 2049; i += 1024) seen[i] = 0;
  for (unsigned i = threadIdx.x; i < 8192; i += 1024) fc[i] = 0;
  __syncthreads();
  if (fc[threadIdx.x * 7 % 8192] + seen[threadIdx.x % 2049] == 5) out[0] = 1;
}
__global__ void fill(unsigned* k, size_t n) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
    uint64_t h = i * 0x9E3779B97F4A7C15ull; h ^= h >> 29; k[i] = unsigned(h * 0xBF58476D1CE4E5B9ull >> 32);
  }
}

int main() {
  const size_t flush_bytes = size_t(256) << 20;
  void* flush; CK(cudaMalloc(&flush, flush_bytes));
  unsigned* out; CK(cudaMalloc(&out, 64));
  SampleCounts* counts; CK(cudaMalloc(&counts, sizeof(SampleCounts)));
  cudaStream_t s; CK(cudaStreamCreate(&s));
  cudaEvent_t e0, e1; CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));
  for (size_t n : {size_t(1) << 24, size_t(1) << 26, size_t(1) << 28}) {
    unsigned* keys; CK(cudaMalloc(&keys, n * 4));
    fill<<<1024, 256>>>(keys, n);
    std::vector<size_t> hp(kPairs);
    for (unsigned j = 0; j < kPairs; ++j) hp[j] = spread_place(j, kPairs, n - 1);
    size_t* places; CK(cudaMalloc(&places, kPairs * 8)); CK(cudaMemcpy(places, hp.data(), kPairs * 8, cudaMemcpyHostToDevice));
    CK(cudaDeviceSynchronize());
    auto time = [&](const char* name, bool flushed, auto launch) {
      std::vector<float> t;
      for (int r = 0; r < 41; ++r) {
        if (flushed) CK(cudaMemsetAsync(flush, r, flush_bytes, s));
        CK(cudaEventRecord(e0, s)); launch(); CK(cudaEventRecord(e1, s)); CK(cudaEventSynchronize(e1));
        float ms; CK(cudaEventElapsedTime(&ms, e0, e1)); if (r) t.push_back(ms * 1000);
      }
      std::sort(t.begin(), t.end());
      printf("n=2^%d %-34s %s median %6.2f us  min %6.2f\n", __builtin_ctzll(n), name, flushed ? "flushed" : "warm   ", t[t.size() / 2], t[0]);
    };
    for (bool fl : {true, false}) {
      time("empty 1x1024", fl, [&] { empty_kernel<<<1, 1024, 0, s>>>(out); });
      time("shared clear 1x1024", fl, [&] { shared_clear<<<1, 1024, 0, s>>>(out); });
      time("positions only 1x1024", fl, [&] { positions_only<1024><<<1, 1024, 0, s>>>(n, out); });
      time("loads 1x1024 (4 pairs a thread)", fl, [&] { loads_only<1024><<<1, 1024, 0, s>>>(keys, n, out); });
      time("loads 1x256 (16 pairs a thread)", fl, [&] { loads_only<256><<<1, 256, 0, s>>>(keys, n, out); });
      time("loads from a place table 1x1024", fl, [&] { loads_table<1024><<<1, 1024, 0, s>>>(keys, places, out); });
      time("count_sample_kernel (HEAD~1)", fl, [&] { count_sample_kernel<unsigned><<<1, 1024, 0, s>>>(keys, n, counts); });
      time("count_sample_match (HEAD)", fl, [&] { count_sample_match<unsigned><<<1, 1024, 0, s>>>(keys, n, counts); });
      time("loads 32x128 (1 pair a thread)", fl, [&] { loads_grid<<<32, 128, 0, s>>>(keys, n, out); });
      time("loads 128x32 (1 pair a thread)", fl, [&] { loads_grid<<<128, 32, 0, s>>>(keys, n, out); });
    }
    CK(cudaFree(keys)); CK(cudaFree(places));
  }
  // The host's round trip: launch, spin on a mapped flag, launch again.
  volatile unsigned* flag; CK(cudaHostAlloc((void**)&flag, 64, cudaHostAllocMapped));
  unsigned* dflag; CK(cudaHostGetDevicePointer((void**)&dflag, (void*)flag, 0));
  std::vector<double> rt;
  for (int r = 0; r < 41; ++r) {
    CK(cudaMemsetAsync(flush, r, flush_bytes, s)); CK(cudaStreamSynchronize(s));
    *flag = 0;
    auto t0 = std::chrono::steady_clock::now();
    empty_kernel<<<1, 32, 0, s>>>(out);
    flag_kernel<<<1, 1, 0, s>>>(dflag);
    while (!*flag) {}
    auto t1 = std::chrono::steady_clock::now();
    if (r) rt.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count());
    CK(cudaStreamSynchronize(s));
  }
  std::sort(rt.begin(), rt.end());
  printf("host: two launches and a mapped flag seen: median %.2f us min %.2f\n", rt[rt.size() / 2], rt[0]);
  return 0;
}
