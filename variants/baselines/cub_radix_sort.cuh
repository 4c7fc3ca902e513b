// cub::DeviceRadixSort as a variant, in each form a user can call it. The
// type of num_items picks CUB's code path (anchors.md: on sm_90 64-bit sizes
// are faster for u32 keys, 32-bit sizes for u32 pairs), so each offset type is
// its own label. Each key type's
// instantiations are one group of the library-call table (radix_sort_calls.cuh).
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
