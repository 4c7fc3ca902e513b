// A label the registry refuses (a space in it).
#include "host_sort.hpp"
SORTBENCH_REGISTER_VARIANT(plugin_test::host_sort_info("pluginbad.host sort"));
