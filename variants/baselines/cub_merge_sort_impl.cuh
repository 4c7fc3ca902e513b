#pragma once

#include <cub/device/device_merge_sort.cuh>

#include "cub_merge_sort.cuh"
#include "sortbench/device/key_traits.cuh"
#include "sortbench/device/two_phase.cuh"

namespace sortbench::baselines {

template <class Key, class Offset>
std::unique_ptr<Instance> make_cub_merge_sort(const Problem& p) {
  return with_value_type(p.value, [&](auto value_tag) {
    using V = typename decltype(value_tag)::type;
    auto make = [&](auto less) {
      using Less = decltype(less);
      return make_two_phase([p](void* temp, std::size_t& bytes, const Buffers& b, cudaStream_t s) {
        auto* kin = static_cast<Key*>(b.keys_in);
        auto* kout = static_cast<Key*>(b.keys_out);
        const auto n = static_cast<Offset>(p.n);
        cudaError_t e;
        if constexpr (!kHasValues<V>) {
          e = cub::DeviceMergeSort::SortKeysCopy(temp, bytes, kin, kout, n, Less{}, s);
        } else {
          e = cub::DeviceMergeSort::SortPairsCopy(temp, bytes, kin, static_cast<V*>(b.values_in), kout,
                                                  static_cast<V*>(b.values_out), n, Less{}, s);
        }
        cuda_check(e, "cub::DeviceMergeSort");
      });
    };
    return p.order == Order::descending ? make(OrderedGreater<Key>{}) : make(OrderedLess<Key>{});
  });
}

}  // namespace sortbench::baselines
