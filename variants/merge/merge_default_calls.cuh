// The merge family's default point (merge_sort.cu) for one key type, as a
// group of the key-type table (sortbench/library_calls.hpp): the lean build
// compiles it in for the 32- and 64-bit key types and builds the 8- and 16-bit
// ones on demand when a sweep names them.
#pragma once

#include "merge/merge_sort.cuh"
#include "sortbench/library_calls.hpp"
#include "sortbench/sort.hpp"

namespace sortbench::merge {
// 256 x 17 is the faster curated point at 2^26 in results/h200/comparison.json.
inline constexpr int kDefaultBlockThreads = 256;
inline constexpr int kDefaultItemsPerThread = 17;
}  // namespace sortbench::merge

#define SORTBENCH_MERGE_DEFAULT_CALLS(Key)                                                                       \
  SORTBENCH_ADD_LIBRARY_CALL(                                                                                    \
      ::sortbench::merge::merge_path_label(::sortbench::merge::kDefaultBlockThreads,                            \
                                           ::sortbench::merge::kDefaultItemsPerThread)                          \
          .c_str(),                                                                                              \
      Key,                                                                                                       \
      ::sortbench::common::make_entry_instance<                                                                  \
          ::sortbench::merge::MergeSortEntry<::sortbench::common::MergeSortPolicy<                               \
              ::sortbench::merge::kDefaultBlockThreads, ::sortbench::merge::kDefaultItemsPerThread>>::template Sort, \
          true, ::sortbench::KeyTypeSet<::sortbench::detail::key_type_of<Key>()>, true>)
