// The radix-sort library calls (radix_sort_calls.cuh) for the 64-bit key
// types: the 64-bit-num_items group in every build (cub.radix_sort.off64 is
// the reference that validation and sortbench::sort's fallback use); the
// 32-bit one in the full grid, and in the lean build for the key types a
// committed best.json picks it for (variants/baselines/lean_points.cmake).
#include "radix_sort_calls.cuh"

SORTBENCH_KEYS_64(SORTBENCH_RADIX_SORT_CALLS)
#ifdef SORTBENCH_FULL_GRID
SORTBENCH_KEYS_64(SORTBENCH_RADIX_SORT_OFF32_CALLS)
#else
#include "sortbench_lean_points.h"
SORTBENCH_LEAN_CUB_RADIX_OFF32_KEYS_64(SORTBENCH_RADIX_SORT_OFF32_CALLS)
#endif
