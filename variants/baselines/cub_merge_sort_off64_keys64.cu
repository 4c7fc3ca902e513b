// cub::DeviceMergeSort with int64_t num_items: 64-bit keys.
#include "cub_merge_sort_impl.cuh"

#define SORTBENCH_INSTANTIATE(Key) SORTBENCH_CUB_MERGE_SORT_INSTANTIATE(Key, std::int64_t)
SORTBENCH_KEYS_64(SORTBENCH_INSTANTIATE)
