// Baselines: thrust::sort / thrust::sort_by_key, with the default order
// (less / greater: Thrust dispatches to CUB's radix sort, with the offset type
// it picks itself) and with a user comparator (Thrust's merge sort).
#include "sortbench/library_calls.hpp"
#include "sortbench/traffic.hpp"

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
  return library_calls::made_from_table(std::move(v));
}

VariantInfo thrust_sort_comparator_info() {
  VariantInfo v = thrust_info();
  v.label = "thrust.sort_comparator";
  v.description = "thrust::sort / sort_by_key with a user comparator (Thrust's merge sort)";
  v.stable = false;  // thrust::sort promises no stability
  v.bytes_per_key = [](const Problem& p) { return traffic::merge(p, 4096); };
  return library_calls::made_from_table(std::move(v));
}

}  // namespace
SORTBENCH_REGISTER_VARIANT(thrust_sort_info());
SORTBENCH_REGISTER_VARIANT(thrust_sort_comparator_info());
}  // namespace sortbench::baselines
