// Registers the merge sort of PMPP 13.7 (merge_sort.cuh) at its default point
// (-DSORTBENCH_FULL_GRID: its curated points) and declares its family space:
// any other point is built on demand.
#include "merge/merge_default_calls.cuh"

namespace sortbench::merge {
namespace {

// The family space of the merge-path sort: every point of it not compiled in
// is built on demand (sortbench/on_demand.hpp) from the translation unit below.
FamilySpace merge_path_family_space() {
  FamilySpace s;
  s.method = "merge.merge_path";
  s.family = "merge";
  s.axes = MergePathSpace::axes();
  s.why_not = [](const SpacePoint& p, const PointTypes& types, std::size_t per_block, std::size_t, int) -> std::string {
    const int ipt = int(p[0]), tpb = int(p[1]);
    if (const char* e = MergePathSpace::shape_error(ipt, tpb)) return e;
    std::string first;
    for (KeyType k : types.keys)
      for (ValueType v : types.values) {
        const std::size_t smem = MergePathSpace::smem_bytes(ipt, tpb, key_bytes(k), value_bytes(v));
        if (smem <= per_block) return {};
        if (first.empty())
          first = to_string(k) + (v == ValueType::none ? " keys" : " keys with " + to_string(v) + " values") +
                  " need " + std::to_string(smem) + " B of shared memory per block; the GPU has " +
                  std::to_string(per_block);
      }
    return first;
  };
  // The comparators are per key type and order: only the sweep's key types are built.
  s.translation_unit = [](const SpacePoint& p, const std::vector<KeyType>& keys) {
    std::string set;
    for (KeyType k : keys) set += (set.empty() ? "KeyType::" : ", KeyType::") + to_string(k);
    return "#include \"merge/merge_sort.cuh\"\nnamespace sortbench::merge {\n"
           "SORTBENCH_REGISTER_VARIANT(merge_sort_info<" +
           std::to_string(p[1]) + ", " + std::to_string(p[0]) + ", KeyTypeSet<" + set + ">>());\n}\n";
  };
  return s;
}

}  // namespace

// The family's default point (configs' best:merge): every key type compiled
// in by the full grid; in the lean build from the key-type table, the 32- and
// 64-bit key types compiled in and the 8- and 16-bit ones built on demand.
#ifdef SORTBENCH_FULL_GRID
SORTBENCH_REGISTER_VARIANT(family_default_point(merge_sort_info<kDefaultBlockThreads, kDefaultItemsPerThread>()));
#else
namespace {
const library_calls::GroupDeclaration merge_default_calls(
    {"merge_default_calls", "merge/merge_default_calls.cuh", "SORTBENCH_MERGE_DEFAULT_CALLS",
     {merge_path_label(kDefaultBlockThreads, kDefaultItemsPerThread)}, {}});
VariantInfo default_point_from_table() {
  // Its own make, replaced by the table's, instantiates u32 alone: the table's u32 entry is the same code.
  VariantInfo v = merge_sort_info<kDefaultBlockThreads, kDefaultItemsPerThread, KeyTypeSet<KeyType::u32>>();
  v.key_types = {std::begin(kAllKeyTypes), std::end(kAllKeyTypes)};
  return family_default_point(library_calls::made_from_table(std::move(v)));
}
}  // namespace
SORTBENCH_REGISTER_VARIANT(default_point_from_table());
SORTBENCH_KEYS_32(SORTBENCH_MERGE_DEFAULT_CALLS)
SORTBENCH_KEYS_64(SORTBENCH_MERGE_DEFAULT_CALLS)
#endif
#ifdef SORTBENCH_FULL_GRID
SORTBENCH_REGISTER_VARIANT(merge_sort_info<256, 11>());
// 512 x 17 ran within 0.3 % of 256 x 17 on the H200 (results/h200/comparison.json)
// and cost a third of this file's build time.
SORTBENCH_REGISTER_VARIANT(merge_sort_info<512, 17>());
SORTBENCH_REGISTER_VARIANT(merge_sort_info<128, 17>());
SORTBENCH_REGISTER_VARIANT(merge_sort_info<256, 15>());
SORTBENCH_REGISTER_VARIANT(merge_sort_info<512, 9>());
SORTBENCH_REGISTER_VARIANT(merge_sort_info<512, 15>());
#endif

SORTBENCH_REGISTER_FAMILY_SPACE(merge_path_family_space());
}  // namespace sortbench::merge
