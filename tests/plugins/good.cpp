// A plugin that loads: two variants of its own family.
#include "host_sort.hpp"
SORTBENCH_REGISTER_VARIANT(plugin_test::host_sort_info("plugintest.host_sort"));
SORTBENCH_REGISTER_VARIANT(plugin_test::host_sort_info("plugintest.host_sort_again"));
