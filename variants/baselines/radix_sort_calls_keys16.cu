// The radix-sort library calls (radix_sort_calls.cuh) for the 16-bit key
// types. Compiled into every build: cub.radix_sort.off64 is the reference
// that validation and sortbench::sort's fallback use for every key type.
#include "radix_sort_calls.cuh"

SORTBENCH_KEYS_16(SORTBENCH_RADIX_SORT_CALLS)
