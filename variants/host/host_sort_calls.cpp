// The host baselines (host_sort_calls.hpp) for every key type, compiled in
// by the full grid only.
#include "host_sort_calls.hpp"

#define SORTBENCH_HOST_SORT_CALLS_OF(name, cpp, bytes, kind) SORTBENCH_HOST_SORT_CALLS(cpp)
SORTBENCH_KEY_TYPES(SORTBENCH_HOST_SORT_CALLS_OF)
