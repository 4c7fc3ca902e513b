// A label that good.cpp registers too: loading both is refused.
#include "host_sort.hpp"
SORTBENCH_REGISTER_VARIANT(plugin_test::host_sort_info("plugintest.host_sort"));
