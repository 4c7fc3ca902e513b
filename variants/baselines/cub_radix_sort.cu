// Baseline: cub::DeviceRadixSort (SortKeys / SortPairs and their Descending
// forms), the reference every report compares against.
#include "cub_radix_sort.cuh"
#include "sortbench/device/key_traits.cuh"
#include "sortbench/traffic.hpp"

namespace sortbench::baselines {
namespace {

VariantInfo cub_radix_sort_info() {
  VariantInfo v;
  v.label = "cub.radix_sort";
  v.family = "cub";
  v.description = "cub::DeviceRadixSort::SortKeys/SortPairs (Onesweep on sm_90), all key bits";
  v.seed = "-";
  v.descending = true;
  v.stable = true;
  // CUB picks the Onesweep path for large inputs: an up-front histogram
  // (read keys once), then one read and one write of keys and values per
  // 8-bit digit pass.
  v.bytes_per_key = [](const Problem& p) { return traffic::onesweep(p, 8); };
  v.make = [](const Problem& p) {
    return with_key_type(p.key, [&](auto tag) {
      return make_cub_radix_sort<typename decltype(tag)::type>(p);
    });
  };
  return v;
}

}  // namespace
SORTBENCH_REGISTER_VARIANT(cub_radix_sort_info());
}  // namespace sortbench::baselines
