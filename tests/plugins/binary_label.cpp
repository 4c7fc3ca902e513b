// A label the sortbench binary registers itself.
#include "host_sort.hpp"
SORTBENCH_REGISTER_VARIANT(plugin_test::host_sort_info("cub.radix_sort.off64"));
