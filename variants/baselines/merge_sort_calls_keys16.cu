// The comparison-sort library calls (merge_sort_calls.cuh) for the 16-bit key
// types, compiled in by the full grid only: the lean build compiles each key
// type on demand, for the sweeps that name one (docs/build-times.md).
#include "merge_sort_calls.cuh"

SORTBENCH_KEYS_16(SORTBENCH_MERGE_SORT_CALLS)
