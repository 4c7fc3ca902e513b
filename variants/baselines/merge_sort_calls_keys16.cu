// cub::DeviceMergeSort (int and int64_t num_items) and thrust::sort with the
// harness's key order as comparator on 16-bit keys (all key types of the
// width: the comparator's map and order are run-time values), in one
// translation unit: Thrust merge-sorts through DispatchMergeSort with
// unsigned 32- and 64-bit offsets on Key* iterators, what CUB's SortKeysCopy /
// SortPairsCopy make of our Key* buffers and int / int64_t num_items, so the
// kernels compile once.
#include "cub_merge_sort_impl.cuh"
#include "thrust_sort_impl.cuh"

SORTBENCH_CUB_MERGE_SORT_INSTANTIATE(std::uint16_t, std::int32_t)
SORTBENCH_CUB_MERGE_SORT_INSTANTIATE(std::uint16_t, std::int64_t)
SORTBENCH_THRUST_SORT_INSTANTIATE(make_thrust_sort_comparator, std::uint16_t)
