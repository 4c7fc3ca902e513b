// Baselines: cub::DeviceMergeSort::SortKeysCopy / SortPairsCopy with the
// harness's key order as the comparator (the reference for comparison sorts),
// with 32- and 64-bit num_items.
#include <limits>

#include "sortbench/library_calls.hpp"
#include "sortbench/types.hpp"
#include "sortbench/traffic.hpp"

namespace sortbench::baselines {
namespace {

template <class Offset>
VariantInfo cub_merge_sort_info() {
  VariantInfo v;
  v.label = sizeof(Offset) == 4 ? "cub.merge_sort.off32" : "cub.merge_sort.off64";
  v.family = "cub";
  v.description = std::string("cub::DeviceMergeSort::SortKeysCopy/SortPairsCopy with a comparator, ") +
                  (sizeof(Offset) == 4 ? "int" : "int64_t") + " num_items";
  v.seed = "-";
  v.key_types = {std::begin(kAllKeyTypes), std::end(kAllKeyTypes)};
  v.value_types = {std::begin(kAllValueTypes), std::end(kAllValueTypes)};
  v.descending = true;
  v.stable = false;  // CUB documents SortKeysCopy/SortPairsCopy as not guaranteed stable
  if constexpr (sizeof(Offset) == 4) {
    v.max_n = std::size_t(std::numeric_limits<Offset>::max());
    v.max_n_why = "num_items is a 32-bit int";
  }
  // CUB's merge sort policy for sm_90 sorts tiles of a few thousand keys;
  // 4096 is the tile we count merge passes from.
  v.bytes_per_key = [](const Problem& p) { return traffic::merge(p, 4096); };
  return library_calls::made_from_table(std::move(v));
}

// The lean build compiles none of these calls in; a sweep that names one
// builds its key types on demand.
const library_calls::GroupDeclaration merge_sort_calls({"merge_sort_calls", "baselines/merge_sort_calls.cuh",
                                                     "SORTBENCH_MERGE_SORT_CALLS",
                                                     {"cub.merge_sort.off32", "cub.merge_sort.off64",
                                                      "thrust.sort_comparator"},
                                                     {}});

}  // namespace
SORTBENCH_REGISTER_VARIANT(cub_merge_sort_info<std::int32_t>());
SORTBENCH_REGISTER_VARIANT(cub_merge_sort_info<std::int64_t>());
}  // namespace sortbench::baselines
