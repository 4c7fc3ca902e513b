#pragma once

#include <cub/device/device_radix_sort.cuh>
#include <cub/util_type.cuh>

#include "cub_radix_sort.cuh"
#include "sortbench/device/key_traits.cuh"
#include "sortbench/device/two_phase.cuh"

namespace sortbench::baselines {

template <class Key, class Offset>
std::unique_ptr<Instance> make_cub_radix_sort(const Problem& p) {
  return with_value_type(p.value, [&](auto value_tag) {
    using V = typename decltype(value_tag)::type;
    return make_two_phase([p](void* temp, std::size_t& bytes, const Buffers& b, cudaStream_t s) {
      auto* kin = static_cast<const Key*>(b.keys_in);
      auto* kout = static_cast<Key*>(b.keys_out);
      const auto n = static_cast<Offset>(p.n);
      constexpr int end_bit = int(sizeof(Key) * 8);
      const bool desc = p.order == Order::descending;
      cudaError_t e;
      if constexpr (!kHasValues<V>) {
        e = desc ? cub::DeviceRadixSort::SortKeysDescending(temp, bytes, kin, kout, n, 0, end_bit, s)
                 : cub::DeviceRadixSort::SortKeys(temp, bytes, kin, kout, n, 0, end_bit, s);
      } else {
        auto* vin = static_cast<const V*>(b.values_in);
        auto* vout = static_cast<V*>(b.values_out);
        e = desc ? cub::DeviceRadixSort::SortPairsDescending(temp, bytes, kin, kout, vin, vout, n, 0, end_bit, s)
                 : cub::DeviceRadixSort::SortPairs(temp, bytes, kin, kout, vin, vout, n, 0, end_bit, s);
      }
      cuda_check(e, "cub::DeviceRadixSort");
    });
  });
}

// The harness puts the input in keys_out (in_place); CUB alternates between
// keys_out and keys_in. When the pass count leaves the result in keys_in, it
// is copied to keys_out inside the timed call: the copy is what a caller who
// needs the result in a given buffer pays with this form. The kernels are the
// pointer form's (only the buffers differ), so this form costs the build
// nothing on the device side.
template <class Key, class Offset>
std::unique_ptr<Instance> make_cub_radix_sort_double_buffer(const Problem& p) {
  return with_value_type(p.value, [&](auto value_tag) {
    using V = typename decltype(value_tag)::type;
    return make_two_phase([p](void* temp, std::size_t& bytes, const Buffers& b, cudaStream_t s) {
      auto* primary = static_cast<Key*>(b.keys_out);
      cub::DoubleBuffer<Key> keys(primary, static_cast<Key*>(b.keys_in));
      const auto n = static_cast<Offset>(p.n);
      constexpr int end_bit = int(sizeof(Key) * 8);
      const bool desc = p.order == Order::descending;
      if constexpr (!kHasValues<V>) {
        cuda_check(desc ? cub::DeviceRadixSort::SortKeysDescending(temp, bytes, keys, n, 0, end_bit, s)
                        : cub::DeviceRadixSort::SortKeys(temp, bytes, keys, n, 0, end_bit, s),
                   "cub::DeviceRadixSort (DoubleBuffer)");
      } else {
        auto* vprimary = static_cast<V*>(b.values_out);
        cub::DoubleBuffer<V> values(vprimary, static_cast<V*>(b.values_in));
        cuda_check(desc ? cub::DeviceRadixSort::SortPairsDescending(temp, bytes, keys, values, n, 0, end_bit, s)
                        : cub::DeviceRadixSort::SortPairs(temp, bytes, keys, values, n, 0, end_bit, s),
                   "cub::DeviceRadixSort (DoubleBuffer)");
        if (temp && values.Current() != vprimary)
          cuda_check(cudaMemcpyAsync(vprimary, values.Current(), p.n * sizeof(V), cudaMemcpyDeviceToDevice, s),
                     "cub::DeviceRadixSort (DoubleBuffer): values to the output buffer");
      }
      if (temp && keys.Current() != primary)
        cuda_check(cudaMemcpyAsync(primary, keys.Current(), p.n * sizeof(Key), cudaMemcpyDeviceToDevice, s),
                   "cub::DeviceRadixSort (DoubleBuffer): keys to the output buffer");
    });
  });
}

}  // namespace sortbench::baselines
