// Baselines: thrust::sort / thrust::sort_by_key, with the default order
// (less / greater: Thrust dispatches to CUB's radix sort) and with a
// user comparator (Thrust dispatches to its merge sort). Temporary storage
// comes from a preallocated buffer, so the timed region holds the sort only.
#include <thrust/execution_policy.h>
#include <thrust/functional.h>
#include <thrust/sort.h>

#include "sortbench/device/key_traits.cuh"
#include "sortbench/traffic.hpp"
#include "thrust_allocator.cuh"

namespace sortbench::baselines {
namespace {

template <class Key, class Compare>
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
    if (p_.value == ValueType::none) {
      thrust::sort(policy, k, k + p_.n, Compare{});
    } else {
      thrust::sort_by_key(policy, k, k + p_.n, static_cast<std::uint32_t*>(b.values_out), Compare{});
    }
    cuda_check(cudaGetLastError(), "thrust::sort");
  }
  Problem p_;
};

// Radix path: thrust::less / thrust::greater on arithmetic keys.
template <class K> using DefaultLess = thrust::less<K>;
template <class K> using DefaultGreater = thrust::greater<K>;

template <template <class> class Less, template <class> class Greater>
std::unique_ptr<Instance> make_thrust(const Problem& p) {
  return with_key_type(p.key, [&](auto tag) -> std::unique_ptr<Instance> {
    using K = typename decltype(tag)::type;
    if (p.order == Order::descending) return std::make_unique<ThrustSort<K, Greater<K>>>(p);
    return std::make_unique<ThrustSort<K, Less<K>>>(p);
  });
}

VariantInfo thrust_sort_info() {
  VariantInfo v;
  v.label = "thrust.sort";
  v.family = "thrust";
  v.description = "thrust::sort / sort_by_key with less or greater (CUB radix sort underneath)";
  v.seed = "-";
  v.descending = true;
  v.stable = true;  // Thrust's radix path is stable
  v.in_place = true;
  v.bytes_per_key = [](const Problem& p) { return traffic::onesweep(p, 8); };
  v.make = make_thrust<DefaultLess, DefaultGreater>;
  return v;
}

VariantInfo thrust_sort_comparator_info() {
  VariantInfo v;
  v.label = "thrust.sort_comparator";
  v.family = "thrust";
  v.description = "thrust::sort / sort_by_key with a user comparator (Thrust's merge sort)";
  v.seed = "-";
  v.descending = true;
  v.stable = false;  // thrust::sort promises no stability
  v.in_place = true;
  v.bytes_per_key = [](const Problem& p) { return traffic::merge(p, 4096); };
  v.make = make_thrust<OrderedLess, OrderedGreater>;
  return v;
}

}  // namespace
SORTBENCH_REGISTER_VARIANT(thrust_sort_info());
SORTBENCH_REGISTER_VARIANT(thrust_sort_comparator_info());
}  // namespace sortbench::baselines
