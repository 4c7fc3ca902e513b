// cub::DeviceRadixSort with int64_t num_items: 32-bit keys.
#include "cub_radix_sort_impl.cuh"

#define SORTBENCH_INSTANTIATE(Key) SORTBENCH_CUB_RADIX_SORT_INSTANTIATE(Key, std::int64_t)
SORTBENCH_KEYS_32(SORTBENCH_INSTANTIATE)
