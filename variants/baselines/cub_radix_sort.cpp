// Baselines: cub::DeviceRadixSort::SortKeys/SortPairs (and the Descending
// forms), with 32-bit and with 64-bit num_items, through the pointer and the
// DoubleBuffer overloads: CUB takes a different code path for each offset
// type, and which is faster depends on the workload (anchors.md); the
// DoubleBuffer forms are within about 1 % of the pointer forms, either way
// (results/<gpu-model>/cub-knobs.json). Reports take the fastest per workload.
#include <limits>

#include "sortbench/library_calls.hpp"
#include "sortbench/types.hpp"
#include "sortbench/traffic.hpp"

namespace sortbench::baselines {
namespace {

template <class Offset>
constexpr const char* offset_label() {
  return sizeof(Offset) == 4 ? "off32" : "off64";
}

// What the forms of one offset type share; `form` is "" or "double_buffer.".
template <class Offset>
VariantInfo cub_radix_sort_form(const std::string& form, const std::string& overloads) {
  VariantInfo v;
  v.label = "cub.radix_sort." + form + offset_label<Offset>();
  v.family = "cub";
  v.description = "cub::DeviceRadixSort::SortKeys/SortPairs" + overloads + " with " +
                  (sizeof(Offset) == 4 ? "int" : "int64_t") + " num_items (Onesweep on sm_90), all key bits";
  v.seed = "-";
  v.key_types = {std::begin(kAllKeyTypes), std::end(kAllKeyTypes)};
  v.value_types = {std::begin(kAllValueTypes), std::end(kAllValueTypes)};
  v.descending = true;
  v.stable = true;
  if constexpr (sizeof(Offset) == 4) {
    v.max_n = std::size_t(std::numeric_limits<Offset>::max());
    v.max_n_why = "num_items is a 32-bit int";
  }
  // CUB picks the Onesweep path for large inputs: an up-front histogram
  // (read keys once), then one read and one write of keys and values per
  // 8-bit digit pass.
  v.bytes_per_key = [](const Problem& p) { return traffic::onesweep(p, 8); };
  return v;
}

template <class Offset>
VariantInfo cub_radix_sort_info() {
  VariantInfo v = cub_radix_sort_form<Offset>("", "");
  v.const_input = true;  // the pointer forms leave d_keys_in and d_values_in as they were
  return library_calls::made_from_table(std::move(v));
}

template <class Offset>
VariantInfo cub_radix_sort_double_buffer_info() {
  VariantInfo v = cub_radix_sort_form<Offset>(
      "double_buffer.", ", DoubleBuffer overloads (a final copy when the result ends in the other buffer),");
  v.in_place = true;
  return library_calls::made_from_table(std::move(v));
}

// The reference form: compiled into every build (radix_sort_calls_keys*.cu),
// for validation and sortbench::sort's fallback.
const library_calls::GroupDeclaration radix_sort_calls({"radix_sort_calls", "baselines/radix_sort_calls.cuh",
                                                        "SORTBENCH_RADIX_SORT_CALLS",
                                                        {"cub.radix_sort.off64", "cub.radix_sort.double_buffer.off64",
                                                         "thrust.sort"},
                                                        {}});
// The lean build compiles it in at the key widths a committed best.json picks
// it for; other key types are built on demand.
const library_calls::GroupDeclaration radix_sort_off32_calls({"radix_sort_off32_calls", "baselines/radix_sort_calls.cuh",
                                                              "SORTBENCH_RADIX_SORT_OFF32_CALLS",
                                                              {"cub.radix_sort.off32",
                                                               "cub.radix_sort.double_buffer.off32"},
                                                              {}});

}  // namespace
SORTBENCH_REGISTER_VARIANT(cub_radix_sort_info<std::int32_t>());
SORTBENCH_REGISTER_VARIANT(cub_radix_sort_info<std::int64_t>());
SORTBENCH_REGISTER_VARIANT(cub_radix_sort_double_buffer_info<std::int32_t>());
SORTBENCH_REGISTER_VARIANT(cub_radix_sort_double_buffer_info<std::int64_t>());
}  // namespace sortbench::baselines
