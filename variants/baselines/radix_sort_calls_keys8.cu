// cub::DeviceRadixSort (int and int64_t num_items) and thrust::sort with
// thrust::less / greater on 8-bit keys, in one translation unit: Thrust
// sorts such keys through the DoubleBuffer DeviceRadixSort call with 64-bit
// num_items, the same DispatchRadixSort as cub.radix_sort*.off64, so its
// kernels are compiled once, not once per library.
#include "cub_radix_sort_impl.cuh"
#include "thrust_sort_impl.cuh"

#define SORTBENCH_INSTANTIATE(Key)                              \
  SORTBENCH_CUB_RADIX_SORT_INSTANTIATE(Key, std::int32_t)       \
  SORTBENCH_CUB_RADIX_SORT_INSTANTIATE(Key, std::int64_t)       \
  SORTBENCH_THRUST_SORT_INSTANTIATE(make_thrust_sort, Key)
SORTBENCH_KEYS_8(SORTBENCH_INSTANTIATE)
