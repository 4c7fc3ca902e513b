// The look at the keys a dispatch takes before it sorts
// (sortbench/input_class.hpp): one block counts kClassSamplePairs sampled
// adjacent pairs and writes the counts straight into host memory mapped for
// the device (sortbench/device/mapped_flag.hpp).
#include "sortbench/device.hpp"
#include "sortbench/device/key_traits.cuh"
#include "sortbench/device/mapped_flag.hpp"

namespace sortbench {
namespace {

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
  constexpr unsigned kPerThread = unsigned(kClassSamplePairs / kCountThreads);
  static_assert(kClassSamplePairs % kCountThreads == 0, "whole pairs a thread");
  T first[kPerThread], second[kPerThread];
#pragma unroll
  for (unsigned k = 0; k < kPerThread; ++k) {
    const std::size_t i = sample_position(threadIdx.x + k * kCountThreads, n);
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
  auto top_of = [](T key) { return unsigned(std::uint64_t(KeyTraits<T>::ordered(key)) >> (kBits - kTopBits)); };
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
    const auto a = KeyTraits<T>::ordered(first[k]), b = KeyTraits<T>::ordered(second[k]);
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
    out->shared_top_bits = shared_leading_bits(all_and, all_or, kBits);
    __threadfence_system();  // the counts reach the host before the flag
    *reinterpret_cast<volatile std::uint32_t*>(&out->done) = 1;
  }
}

}  // namespace

void count_sample(KeyType key, const void* keys, std::size_t n, const MappedSampleCounts& counts, cudaStream_t s) {
  reinterpret_cast<volatile SampleCounts*>(counts.p)->done = 0;
  if (n < 2) return;
  with_key_type(key, [&](auto tag) {
    using T = typename decltype(tag)::type;
    count_sample_kernel<T><<<1, kCountThreads, 0, s>>>(static_cast<const T*>(keys), n, counts.dev);
  });
  cuda_check(cudaGetLastError(), "count_sample");
}

InputFeatures wait_for_sample(KeyType key, std::size_t n, const SampleCounts* mapped, cudaStream_t s) {
  const int bits = int(key_bytes(key) * 8);
  if (n < 2) return classify_counts({}, 0, bits);
  const volatile SampleCounts* c = mapped;
  wait_for_mapped_flag(&c->done, s, "the key sample");
  SampleCounts counts;
  counts.ascending = c->ascending;
  counts.descending = c->descending;
  counts.distinct_tops = c->distinct_tops;
  counts.first_same_pairs = c->first_same_pairs;
  counts.same_top_pairs = c->same_top_pairs;
  counts.shared_top_bits = c->shared_top_bits;
  return classify_counts(counts, kClassSamplePairs, bits);
}

MappedSampleCounts::MappedSampleCounts() {
  cuda_check(cudaHostAlloc(reinterpret_cast<void**>(&p), sizeof(SampleCounts), cudaHostAllocMapped),
             "mapped sample counts");
  dev = mapped_device_pointer(p, "mapped sample counts");
}
MappedSampleCounts::~MappedSampleCounts() { cudaFreeHost(p); }

InputFeatures classify_keys(KeyType key, const void* keys, std::size_t n, cudaStream_t s) {
  MappedSampleCounts counts;
  count_sample(key, keys, n, counts, s);
  return wait_for_sample(key, n, counts.p, s);
}

}  // namespace sortbench
