// thrust::sort: 8- and 16-bit keys.
#include "thrust_sort_impl.cuh"

#define SORTBENCH_INSTANTIATE(Key) SORTBENCH_THRUST_SORT_INSTANTIATE(make_thrust_sort, Key)
SORTBENCH_KEYS_8_16(SORTBENCH_INSTANTIATE)
