// Stands in for a plugin built against a later sortbench: its registrations
// go through the next interface's entry point, which this binary lacks.
#include "host_sort.hpp"
extern "C" void sortbench_register_variant_v3(sortbench::VariantInfo* v);
namespace {
struct RegisterV3 {
  RegisterV3() {
    auto v = plugin_test::host_sort_info("pluginv3.host_sort");
    sortbench_register_variant_v3(&v);
  }
} register_v3;
}  // namespace
