// cub::DeviceMergeSort as a variant, with 32- and 64-bit num_items (as for the
// radix sort, each offset type is a label of its own). Instantiations are
// split over cub_merge_sort_<offset>_<widths>.cu for a parallel build.
#pragma once

#include <cstdint>
#include <memory>

#include "sortbench/variant.hpp"

namespace sortbench::baselines {

// SortKeysCopy / SortPairsCopy with the harness's key order as the comparator.
template <class Key, class Offset>
std::unique_ptr<Instance> make_cub_merge_sort(const Problem& p);

}  // namespace sortbench::baselines

#define SORTBENCH_CUB_MERGE_SORT_INSTANTIATE(Key, Offset)                              \
  namespace sortbench::baselines {                                                    \
  template std::unique_ptr<Instance> make_cub_merge_sort<Key, Offset>(const Problem&); \
  }
