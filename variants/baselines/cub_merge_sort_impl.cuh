#pragma once

#include <cub/device/device_merge_sort.cuh>

#include "cub_merge_sort.cuh"
#include "sortbench/device/key_traits.cuh"
#include "sortbench/device/two_phase.cuh"

namespace sortbench::baselines {

// The harness's key order as the comparator, one instantiation per key width
// (Bits: the key's unsigned word), the key type's map and the order chosen at
// run time, as for the comparison sorts of ours it is measured beside
// (common/instance.cuh).
template <class Bits, class Offset>
std::unique_ptr<Instance> make_cub_merge_sort(const Problem& p) {
  using Less = RunTimeOrderedLess<Bits>;
  const Less less = Less::of(key_kind(p.key), p.order == Order::descending);
  return with_value_type(p.value, [&](auto value_tag) {
    using V = typename decltype(value_tag)::type;
    return make_two_phase([p, less](void* temp, std::size_t& bytes, const Buffers& b, cudaStream_t s) {
      auto* kin = static_cast<Bits*>(b.keys_in);
      auto* kout = static_cast<Bits*>(b.keys_out);
      const auto n = static_cast<Offset>(p.n);
      cudaError_t e;
      if constexpr (!kHasValues<V>) {
        e = cub::DeviceMergeSort::SortKeysCopy(temp, bytes, kin, kout, n, less, s);
      } else {
        e = cub::DeviceMergeSort::SortPairsCopy(temp, bytes, kin, static_cast<V*>(b.values_in), kout,
                                                static_cast<V*>(b.values_out), n, less, s);
      }
      cuda_check(e, "cub::DeviceMergeSort");
    });
  });
}

}  // namespace sortbench::baselines
