// Registers the merge sort with four-way merge passes
// (four_way_merge_sort.cuh): PMPP 13.7 with ch. 12's co-rank merge twice
// per pass.
#include "merge/four_way_merge_sort.cuh"
#include "sortbench/traffic.hpp"

namespace sortbench::merge {
namespace {

template <int BlockThreads, int ItemsPerThread, int SamplesPerTile>
VariantInfo four_way_merge_sort_info() {
  using Policy = FourWayMergePolicy<BlockThreads, ItemsPerThread, SamplesPerTile>;
  VariantInfo v;
  v.params = {{"samples_per_tile", "sp", std::to_string(SamplesPerTile)},
              {"items_per_thread", "ipt", std::to_string(ItemsPerThread)},
              {"block_threads", "tpb", std::to_string(BlockThreads)}};
  v.label = "merge.four_way." + param_label(v.params);
  v.family = "merge";
  v.description =
      "block-sorted tiles, then four-way merge passes (two co-rank merges per tile, split at sampled exact splits); "
      "comparator OrderedLess/Greater";
  v.seed = "000 PMPP 13.7 Fig. 13.11 (co-rank merge of ch. 12, applied twice per pass)";
  v.key_types = {std::begin(kAllKeyTypes), std::end(kAllKeyTypes)};
  v.value_types = {std::begin(kAllValueTypes), std::end(kAllValueTypes)};
  v.descending = true;
  v.stable = true;
  v.tile_keys = Policy::kTileItems;
  v.bytes_per_key = [](const Problem& p) { return traffic::merge(p, Policy::kTileItems, 4); };
  v.make = common::make_entry_instance<FourWayMergeSortEntry<Policy>::template Sort, true, AllKeyTypes, true>;
  return v;
}

}  // namespace

// 29 keys a thread is the faster point for u32 and u64 keys and u32 pairs
// at 2^26, 25 for u64 keys with u32 values, whose 29-key tile leaves one
// block an SM (docs/experiments/issue15-steps.md on both GPUs; 17, 23
// and 31 were slower in items-per-thread-2/, and each point costs minutes
// of build).
// Not in the lean build: one point of it (72 instantiations: every key type,
// order and value type) took more compile time and binary than any other
// file, and best:merge runs the merge path's default point.
#ifdef SORTBENCH_FULL_GRID
SORTBENCH_REGISTER_VARIANT(four_way_merge_sort_info<256, 29, 8>());
SORTBENCH_REGISTER_VARIANT(four_way_merge_sort_info<256, 25, 8>());
#endif

}  // namespace sortbench::merge
