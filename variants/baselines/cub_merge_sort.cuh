// cub::DeviceMergeSort as a variant, with 32- and 64-bit num_items (as for the
// radix sort, each offset type is a label of its own). Each key type's instantiations
// are one group of the library-call table (merge_sort_calls.cuh).
#pragma once

#include <cstdint>
#include <memory>

#include "sortbench/variant.hpp"

namespace sortbench::baselines {

// SortKeysCopy / SortPairsCopy with the harness's key order as the comparator.
template <class Key, class Offset>
std::unique_ptr<Instance> make_cub_merge_sort(const Problem& p);

}  // namespace sortbench::baselines
