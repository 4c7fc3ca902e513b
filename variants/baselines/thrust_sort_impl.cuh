#pragma once

#include <thrust/execution_policy.h>
#include <thrust/functional.h>
#include <thrust/sort.h>

#include "sortbench/device/key_traits.cuh"
#include "thrust_allocator.cuh"
#include "thrust_sort.cuh"

namespace sortbench::baselines {

template <class Key, class Value, class Compare>
class ThrustSort final : public Instance {
 public:
  explicit ThrustSort(const Problem& p) : p_(p) {}
  std::size_t temp_bytes(const Buffers& b, cudaStream_t s) override {
    RecordingAllocator rec;
    sort(b, rec, s);
    cuda_check(cudaStreamSynchronize(s), "thrust::sort (sizing run)");
    return rec.peak();
  }
  void run(const Buffers& b, void* temp, std::size_t bytes, cudaStream_t s) override {
    BufferAllocator alloc(temp, bytes);
    sort(b, alloc, s);
  }

 private:
  template <class Alloc>
  void sort(const Buffers& b, Alloc& alloc, cudaStream_t s) {
    auto* k = static_cast<Key*>(b.keys_out);
    const auto policy = thrust::cuda::par_nosync(alloc).on(s);
    if constexpr (kHasValues<Value>) {
      thrust::sort_by_key(policy, k, k + p_.n, static_cast<Value*>(b.values_out), Compare{});
    } else {
      thrust::sort(policy, k, k + p_.n, Compare{});
    }
    cuda_check(cudaGetLastError(), "thrust::sort");
  }
  Problem p_;
};

template <class Key, template <class> class Less, template <class> class Greater>
std::unique_ptr<Instance> make_thrust(const Problem& p) {
  return with_value_type(p.value, [&](auto value_tag) -> std::unique_ptr<Instance> {
    using V = typename decltype(value_tag)::type;
    if (p.order == Order::descending) return std::make_unique<ThrustSort<Key, V, Greater<Key>>>(p);
    return std::make_unique<ThrustSort<Key, V, Less<Key>>>(p);
  });
}

// Radix path: thrust::less / thrust::greater on arithmetic keys (and __half,
// __nv_bfloat16, which Thrust also sends to CUB's radix sort).
template <class K> using DefaultLess = thrust::less<K>;
template <class K> using DefaultGreater = thrust::greater<K>;

template <class Key>
std::unique_ptr<Instance> make_thrust_sort(const Problem& p) {
  return make_thrust<Key, DefaultLess, DefaultGreater>(p);
}
template <class Key>
std::unique_ptr<Instance> make_thrust_sort_comparator(const Problem& p) {
  return make_thrust<Key, OrderedLess, OrderedGreater>(p);
}

}  // namespace sortbench::baselines
