// thrust::sort / thrust::sort_by_key as variants: with the default order
// (less / greater: Thrust dispatches to CUB's radix sort) and with a user
// comparator (Thrust dispatches to its merge sort). Temporary storage comes
// from a preallocated buffer, so the timed region holds the sort only.
// Instantiated with CUB's calls of the same dispatch (radix_sort_calls.cuh,
// merge_sort_calls.cuh).
#pragma once

#include <memory>

#include "sortbench/variant.hpp"

namespace sortbench::baselines {

template <class Key>
std::unique_ptr<Instance> make_thrust_sort(const Problem& p);             // less / greater
template <class Key>
std::unique_ptr<Instance> make_thrust_sort_comparator(const Problem& p);  // OrderedLess / OrderedGreater

}  // namespace sortbench::baselines
