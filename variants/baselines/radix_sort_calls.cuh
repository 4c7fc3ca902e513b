// The radix-sort library calls for one key type, as two groups of the
// library-call table (sortbench/library_calls.hpp): cub::DeviceRadixSort with
// int and int64_t num_items through the pointer and DoubleBuffer overloads,
// and thrust::sort with thrust::less / greater. They share a translation unit
// because Thrust sorts such keys through the DoubleBuffer DeviceRadixSort call
// with 64-bit num_items, the same DispatchRadixSort as cub.radix_sort*.off64,
// so its kernels compile once, not once per library.
#pragma once

#include "cub_radix_sort_impl.cuh"
#include "sortbench/library_calls.hpp"
#include "sortbench/sort.hpp"
#include "thrust_sort_impl.cuh"

// The reference (cub.radix_sort.off64, which validation and sortbench::sort's
// fallback use), its DoubleBuffer form and thrust::sort: one dispatch.
#define SORTBENCH_RADIX_SORT_CALLS(Key)                                                                                  \
  SORTBENCH_ADD_LIBRARY_CALL("cub.radix_sort.off64", Key, ::sortbench::baselines::make_cub_radix_sort<Key, std::int64_t>)  \
  SORTBENCH_ADD_LIBRARY_CALL("cub.radix_sort.double_buffer.off64", Key,                                                 \
                             ::sortbench::baselines::make_cub_radix_sort_double_buffer<Key, std::int64_t>)                \
  SORTBENCH_ADD_LIBRARY_CALL("thrust.sort", Key, ::sortbench::baselines::make_thrust_sort<Key>)

// int num_items: CUB's other code path, both overloads.
#define SORTBENCH_RADIX_SORT_OFF32_CALLS(Key)                                                                            \
  SORTBENCH_ADD_LIBRARY_CALL("cub.radix_sort.off32", Key, ::sortbench::baselines::make_cub_radix_sort<Key, std::int32_t>)  \
  SORTBENCH_ADD_LIBRARY_CALL("cub.radix_sort.double_buffer.off32", Key,                                                 \
                             ::sortbench::baselines::make_cub_radix_sort_double_buffer<Key, std::int32_t>)
