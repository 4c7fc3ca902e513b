// Registers the merge sort of PMPP 13.7 (merge_sort.cuh) at its curated
// policy points; -DSORTBENCH_FULL_GRID adds the rest of the space.
#include "merge/merge_sort.cuh"
#include "sortbench/traffic.hpp"

namespace sortbench::merge {
namespace {

template <int BlockThreads, int ItemsPerThread>
VariantInfo merge_sort_info() {
  using Policy = common::MergeSortPolicy<BlockThreads, ItemsPerThread>;
  VariantInfo v;
  v.params = {{"items_per_thread", "ipt", std::to_string(ItemsPerThread)},
              {"block_threads", "tpb", std::to_string(BlockThreads)}};
  v.label = "merge.merge_path." + param_label(v.params);
  v.family = "merge";
  v.description =
      "block-sorted tiles, then merge passes split by co-rank (merge path); the key order of key_traits.cuh as a "
      "run-time comparator, one kernel per key width";
  v.seed = "000 PMPP 13.7 Fig. 13.11 (co-rank merge of ch. 12)";
  v.key_types = {std::begin(kAllKeyTypes), std::end(kAllKeyTypes)};
  v.value_types = {std::begin(kAllValueTypes), std::end(kAllValueTypes)};
  v.descending = true;
  v.stable = true;
  v.tile_keys = Policy::kTileItems;
  v.bytes_per_key = [](const Problem& p) { return traffic::merge(p, Policy::kTileItems); };
  v.make = common::make_entry_instance<MergeSortEntry<Policy>::template Sort, true, AllKeyTypes, true>;
  return v;
}

}  // namespace

// The family's default point (configs' best:merge): 256 x 17 is the faster
// curated point at 2^26 in results/h200/comparison.json.
SORTBENCH_REGISTER_VARIANT(family_default_point(merge_sort_info<256, 17>()));
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

}  // namespace sortbench::merge
