#pragma once

#include <cub/device/device_radix_sort.cuh>

#include "cub_radix_sort.cuh"

namespace sortbench::baselines {

template <class Key>
class CubRadixSort final : public Instance {
 public:
  explicit CubRadixSort(const Problem& p) : p_(p) {}

  std::size_t temp_bytes(const Buffers& b, cudaStream_t s) override {
    std::size_t bytes = 0;
    call(b, nullptr, bytes, s);
    return bytes;
  }
  void run(const Buffers& b, void* temp, std::size_t bytes, cudaStream_t s) override {
    call(b, temp, bytes, s);
  }

 private:
  void call(const Buffers& b, void* temp, std::size_t& bytes, cudaStream_t s) {
    auto* kin = static_cast<const Key*>(b.keys_in);
    auto* kout = static_cast<Key*>(b.keys_out);
    auto* vin = static_cast<const std::uint32_t*>(b.values_in);
    auto* vout = static_cast<std::uint32_t*>(b.values_out);
    const auto n = static_cast<std::int64_t>(p_.n);
    constexpr int end_bit = int(sizeof(Key) * 8);
    cudaError_t e;
    const bool desc = p_.order == Order::descending;
    if (p_.value == ValueType::none) {
      e = desc ? cub::DeviceRadixSort::SortKeysDescending(temp, bytes, kin, kout, n, 0, end_bit, s)
               : cub::DeviceRadixSort::SortKeys(temp, bytes, kin, kout, n, 0, end_bit, s);
    } else {
      e = desc ? cub::DeviceRadixSort::SortPairsDescending(temp, bytes, kin, kout, vin, vout, n, 0,
                                                            end_bit, s)
               : cub::DeviceRadixSort::SortPairs(temp, bytes, kin, kout, vin, vout, n, 0, end_bit, s);
    }
    cuda_check(e, "cub::DeviceRadixSort");
  }
  Problem p_;
};

template <class Key>
std::unique_ptr<Instance> make_cub_radix_sort(const Problem& p) {
  return std::make_unique<CubRadixSort<Key>>(p);
}

}  // namespace sortbench::baselines
