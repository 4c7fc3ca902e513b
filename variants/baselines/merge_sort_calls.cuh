// The comparison-sort library calls for one key type, as one group of the
// library-call table (sortbench/library_calls.hpp): cub::DeviceMergeSort with
// int and int64_t num_items, and thrust::sort with the harness's key order as
// comparator. They share a translation unit because Thrust merge-sorts
// through DispatchMergeSort with unsigned 32- and 64-bit offsets on Key*
// iterators, what CUB's SortKeysCopy / SortPairsCopy make of our Key* buffers
// and int / int64_t num_items, so the kernels compile once.
#pragma once

#include "cub_merge_sort_impl.cuh"
#include "sortbench/library_calls.hpp"
#include "sortbench/sort.hpp"
#include "thrust_sort_impl.cuh"

#define SORTBENCH_MERGE_SORT_CALLS(Key)                                                                               \
  SORTBENCH_ADD_LIBRARY_CALL("cub.merge_sort.off32", Key, ::sortbench::baselines::make_cub_merge_sort<Key, std::int32_t>) \
  SORTBENCH_ADD_LIBRARY_CALL("cub.merge_sort.off64", Key, ::sortbench::baselines::make_cub_merge_sort<Key, std::int64_t>) \
  SORTBENCH_ADD_LIBRARY_CALL("thrust.sort_comparator", Key, ::sortbench::baselines::make_thrust_sort_comparator<Key>)
