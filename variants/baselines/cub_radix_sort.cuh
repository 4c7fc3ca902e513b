// cub::DeviceRadixSort as a variant, in each form a user can call it. The
// type of num_items picks CUB's code path (anchors.md: on sm_90 64-bit sizes
// are faster for u32 keys, 32-bit sizes for u32 pairs), so each offset type is
// its own label. Instantiations are split over several translation units
// (cub_radix_sort_<offset>_<widths>.cu) so a parallel build shares them out.
#pragma once

#include <cstdint>
#include <memory>

#include "sortbench/variant.hpp"

namespace sortbench::baselines {

// SortKeys / SortPairs (and the Descending forms) on (keys_in, keys_out) with
// num_items of type Offset.
template <class Key, class Offset>
std::unique_ptr<Instance> make_cub_radix_sort(const Problem& p);

// The DoubleBuffer overloads: CUB may overwrite both buffers and needs no
// third one; the result lands in whichever buffer the pass count leaves it.
template <class Key, class Offset>
std::unique_ptr<Instance> make_cub_radix_sort_double_buffer(const Problem& p);

}  // namespace sortbench::baselines

// Explicit instantiations of both forms for one key type and offset type.
#define SORTBENCH_CUB_RADIX_SORT_INSTANTIATE(Key, Offset)                                            \
  namespace sortbench::baselines {                                                                  \
  template std::unique_ptr<Instance> make_cub_radix_sort<Key, Offset>(const Problem&);               \
  template std::unique_ptr<Instance> make_cub_radix_sort_double_buffer<Key, Offset>(const Problem&); \
  }
