#pragma once

#include <cub/device/device_radix_sort.cuh>

#include "cub_radix_sort.cuh"
#include "sortbench/device/two_phase.cuh"

namespace sortbench::baselines {

template <class Key>
std::unique_ptr<Instance> make_cub_radix_sort(const Problem& p) {
  return make_two_phase([p](void* temp, std::size_t& bytes, const Buffers& b, cudaStream_t s) {
    auto* kin = static_cast<const Key*>(b.keys_in);
    auto* kout = static_cast<Key*>(b.keys_out);
    auto* vin = static_cast<const std::uint32_t*>(b.values_in);
    auto* vout = static_cast<std::uint32_t*>(b.values_out);
    const auto n = static_cast<std::int64_t>(p.n);
    constexpr int end_bit = int(sizeof(Key) * 8);
    const bool desc = p.order == Order::descending;
    cudaError_t e;
    if (p.value == ValueType::none) {
      e = desc ? cub::DeviceRadixSort::SortKeysDescending(temp, bytes, kin, kout, n, 0, end_bit, s)
               : cub::DeviceRadixSort::SortKeys(temp, bytes, kin, kout, n, 0, end_bit, s);
    } else {
      e = desc ? cub::DeviceRadixSort::SortPairsDescending(temp, bytes, kin, kout, vin, vout, n, 0, end_bit, s)
               : cub::DeviceRadixSort::SortPairs(temp, bytes, kin, kout, vin, vout, n, 0, end_bit, s);
    }
    cuda_check(e, "cub::DeviceRadixSort");
  });
}

}  // namespace sortbench::baselines
