// thrust::sort with a comparator: 32-bit keys.
#include "thrust_sort_impl.cuh"

#define SORTBENCH_INSTANTIATE(Key) SORTBENCH_THRUST_SORT_INSTANTIATE(make_thrust_sort_comparator, Key)
SORTBENCH_KEYS_32(SORTBENCH_INSTANTIATE)
