// cub::DeviceMergeSort with int32_t num_items: 8-, 16- and 32-bit keys.
#include "cub_merge_sort_impl.cuh"

#define SORTBENCH_INSTANTIATE(Key) SORTBENCH_CUB_MERGE_SORT_INSTANTIATE(Key, std::int32_t)
SORTBENCH_KEYS_8_16(SORTBENCH_INSTANTIATE)
SORTBENCH_KEYS_32(SORTBENCH_INSTANTIATE)
