// One label registered twice by the same plugin.
#include "host_sort.hpp"
SORTBENCH_REGISTER_VARIANT(plugin_test::host_sort_info("plugintwice.host_sort"));
SORTBENCH_REGISTER_VARIANT(plugin_test::host_sort_info("plugintwice.host_sort"));
