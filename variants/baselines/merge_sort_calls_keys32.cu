// cub::DeviceMergeSort (int and int64_t num_items) and thrust::sort with the
// harness's key order as comparator on 32-bit keys, in one translation unit:
// Thrust merge-sorts through DispatchMergeSort with unsigned 32- and 64-bit
// offsets on Key* iterators, what CUB's SortKeysCopy / SortPairsCopy make of
// our Key* buffers and int / int64_t num_items, so the kernels compile once.
#include "cub_merge_sort_impl.cuh"
#include "thrust_sort_impl.cuh"

#define SORTBENCH_INSTANTIATE(Key)                                   \
  SORTBENCH_CUB_MERGE_SORT_INSTANTIATE(Key, std::int32_t)            \
  SORTBENCH_CUB_MERGE_SORT_INSTANTIATE(Key, std::int64_t)            \
  SORTBENCH_THRUST_SORT_INSTANTIATE(make_thrust_sort_comparator, Key)
SORTBENCH_KEYS_32(SORTBENCH_INSTANTIATE)
