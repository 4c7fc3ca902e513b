// Baselines: thrust::sort / thrust::sort_by_key, with the default order
// (less / greater: Thrust dispatches to CUB's radix sort, with the offset type
// it picks itself) and with a user comparator (Thrust's merge sort).
#include "sortbench/device/key_traits.cuh"
#include "sortbench/traffic.hpp"
#include "thrust_sort.cuh"

namespace sortbench::baselines {
namespace {

VariantInfo thrust_info() {
  VariantInfo v;
  v.family = "thrust";
  v.seed = "-";
  v.key_types = {std::begin(kAllKeyTypes), std::end(kAllKeyTypes)};
  v.value_types = {std::begin(kAllValueTypes), std::end(kAllValueTypes)};
  v.descending = true;
  v.in_place = true;
  return v;
}

VariantInfo thrust_sort_info() {
  VariantInfo v = thrust_info();
  v.label = "thrust.sort";
  v.description = "thrust::sort / sort_by_key with less or greater (CUB radix sort underneath)";
  v.stable = true;  // Thrust's radix path is stable
  v.bytes_per_key = [](const Problem& p) { return traffic::onesweep(p, 8); };
  v.make = [](const Problem& p) {
    return with_key_type(p.key, [&](auto tag) { return make_thrust_sort<typename decltype(tag)::type>(p); });
  };
  return v;
}

VariantInfo thrust_sort_comparator_info() {
  VariantInfo v = thrust_info();
  v.label = "thrust.sort_comparator";
  v.description = "thrust::sort / sort_by_key with a user comparator (Thrust's merge sort)";
  v.stable = false;  // thrust::sort promises no stability
  v.bytes_per_key = [](const Problem& p) { return traffic::merge(p, 4096); };
  v.make = [](const Problem& p) {
    return with_key_type(p.key, [&](auto tag) { return make_thrust_sort_comparator<typename decltype(tag)::type>(p); });
  };
  return v;
}

}  // namespace
SORTBENCH_REGISTER_VARIANT(thrust_sort_info());
SORTBENCH_REGISTER_VARIANT(thrust_sort_comparator_info());
}  // namespace sortbench::baselines
