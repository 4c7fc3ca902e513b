// Merge sort with four-way merge passes: PMPP 13.7 (Fig. 13.11) with the
// co-rank merge of ch. 12 applied twice per pass, merge(merge(A, B),
// merge(C, D)), so log4(n / tile) passes read and write the keys instead of
// the two-way sort's log2(n / tile). At 2^26 u32 keys that is 7 passes
// instead of 14; the two-way sort (like cub::DeviceMergeSort) runs at about
// 80 % of the copy bandwidth, so the bytes are what it spends its time on.
//
// A four-way co-rank at an arbitrary output position needs a search inside a
// search (log^2 dependent loads). Instead the partition kernel finds exact
// splits at sampled positions: every S-th key x of merge(A, B) (a two-way
// co-rank) with the number of keys of C and D that go before it (a lower
// bound each), and every S-th key of merge(C, D) with the keys of A and B
// at or before it (an upper bound each; A and B come first among equal keys).
// Between two consecutive sampled splits at most S keys of each pair go
// out, so a block that takes the splits around its share of the output
// (R = TILE - 2S - IPT keys) holds fewer than TILE - IPT keys, and every key
// is read once. The probes of these searches are what the partition costs:
// each lands on its own DRAM sector. Searching 16 samples a tile across the
// whole runs took 307 us a pass at 2^26 on the H100, as long as the merge;
// searching only one sample a tile so and the rest between their two
// neighbours, 173 us; 8 samples a tile, 107 us (PERFORMANCE.md).
//
// Layers (as in CUB): four_way_merge_sort (device entry) and
// FourWayMergeSortDispatch (passes, buffers) here -> kernels
// (four_way_kernels.cuh) -> BlockSortTile (common/block_merge_sort.cuh) and
// BlockFourWayMergeTile (four_way_agent.cuh) agents, on the policy of
// four_way_policy.cuh.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "../common/block_merge_sort.cuh"
#include "../common/chained_launch.cuh"
#include "../common/instance.cuh"
#include "four_way_kernels.cuh"
#include "four_way_policy.cuh"
#include "merge_sort.cuh"

namespace sortbench::merge {

template <class Policy, class Key, class Value, class Less>
struct FourWayMergeSortDispatch {
  static constexpr long long TILE = Policy::kTileItems;
  static constexpr std::size_t kSortSmem = common::TileSmem<Policy, Key, Value>::kBytes;
  static constexpr std::size_t kMergeSmem = FourWayTileSmem<Policy, Key, Value>::kBytes;
  using Tile = BlockFourWayMergeTile<Policy, Key, Value, Less>;

  struct Pass {
    long long groups, coarse_per_pair, slots_per_pair, blocks_per_group;
    Pass(long long n, long long w)
        : groups((n + 4 * w - 1) / (4 * w)),
          coarse_per_pair((std::min(2 * w, n) + TILE - 1) / TILE),
          slots_per_pair(coarse_per_pair * Policy::kSamplesPerTile),
          blocks_per_group((std::min(4 * w, n) + Policy::kOutputPerBlock - 1) / Policy::kOutputPerBlock) {}
    long long slots() const { return groups * 2 * slots_per_pair; }
    long long blocks() const { return groups * blocks_per_group; }
  };

  // Temp: the sampled splits, then the merge blocks' layouts, each sized for
  // the pass that needs the most.
  static long long most_slots(long long n) {
    long long most = 1;
    for (long long w = TILE; w < n; w *= 4) most = std::max(most, Pass(n, w).slots());
    return most;
  }
  static long long most_blocks(long long n) {
    long long most = 1;
    for (long long w = TILE; w < n; w *= 4) most = std::max(most, Pass(n, w).blocks());
    return most;
  }

  static cudaError_t set_smem_limits() {
    cudaError_t e = cudaSuccess;
    if (kSortSmem > 48 * 1024)
      e = cudaFuncSetAttribute(block_sort_kernel<Policy, Key, Value, Less, kFourWayMinBlocks<Key, Value>>,
                               cudaFuncAttributeMaxDynamicSharedMemorySize, int(kSortSmem));
    if (e == cudaSuccess && kMergeSmem > 48 * 1024)
      e = cudaFuncSetAttribute(four_way_merge_kernel<Policy, Key, Value, Less>,
                               cudaFuncAttributeMaxDynamicSharedMemorySize, int(kMergeSmem));
    return e;
  }

  static cudaError_t sort(void* temp, std::size_t& temp_bytes, Key* kin, Value* vin, Key* kout, Value* vout,
                          long long n, Less less, cudaStream_t s) {
    const std::size_t need =
        std::size_t(most_slots(n)) * sizeof(FourWaySplit) + std::size_t(most_blocks(n)) * sizeof(FourWayBlock);
    if (temp == nullptr) {
      temp_bytes = need;
      return set_smem_limits();
    }
    if (temp_bytes < need) return cudaErrorInvalidValue;
    if (n == 0) return cudaSuccess;
    int passes = 0;
    for (long long w = TILE; w < n; w *= 4) ++passes;
    // As in the two-way sort: the tiles start in whichever buffer makes the
    // last pass land in keys_out.
    Key* cur_k = (passes % 2 == 0) ? kout : kin;
    Value* cur_v = (passes % 2 == 0) ? vout : vin;
    Key* nxt_k = (passes % 2 == 0) ? kin : kout;
    Value* nxt_v = (passes % 2 == 0) ? vin : vout;
    const long long num_tiles = (n + TILE - 1) / TILE;
    block_sort_kernel<Policy, Key, Value, Less, kFourWayMinBlocks<Key, Value>>
        <<<unsigned(num_tiles), Policy::kBlockThreads, kSortSmem, s>>>(kin, vin, cur_k, cur_v, n, less);
    cudaError_t e = cudaGetLastError();
    auto* splits = static_cast<FourWaySplit*>(temp);
    auto* plans = reinterpret_cast<FourWayBlock*>(splits + most_slots(n));
    const bool chained = common::chained_launch_supported();
    // The block-starts kernel runs 256-thread blocks, kPlansPerWarp merge blocks a warp.
    constexpr long long kPlansPerBlock = kPlansPerWarp * (256 / 32);
    for (long long w = TILE; w < n && e == cudaSuccess; w *= 4) {
      const Pass pass(n, w);
      e = common::launch_chained(chained, four_way_partition_kernel<Policy, Key, Less>,
                                 unsigned((pass.slots() + 255) / 256), 256, 0, s, cur_k, n, w, pass.coarse_per_pair,
                                 pass.groups, splits, less);
      if (e == cudaSuccess)
        e = common::launch_chained(chained, four_way_block_starts_kernel<Policy, Tile, Key>,
                                   unsigned((pass.blocks() + kPlansPerBlock - 1) / kPlansPerBlock), 256, 0, s, cur_k, n, w,
                                   pass.slots_per_pair, pass.blocks_per_group, pass.blocks(), splits, plans);
      if (e == cudaSuccess)
        e = common::launch_chained(chained, four_way_merge_kernel<Policy, Key, Value, Less>, unsigned(pass.blocks()),
                                   Policy::kBlockThreads, kMergeSmem, s, cur_k, cur_v, nxt_k, nxt_v, plans, less);
      Key* tk = cur_k; cur_k = nxt_k; nxt_k = tk;
      Value* tv = cur_v; cur_v = nxt_v; nxt_v = tv;
    }
    return e;
  }
};

// Device entry point, with merge_sort's conventions (merge_sort.cuh).
template <class Policy, class Key, class Value, class Less>
cudaError_t four_way_merge_sort(void* temp, std::size_t& temp_bytes, Key* kin, Value* vin, Key* kout, Value* vout,
                                long long n, Less less, cudaStream_t s) {
  return FourWayMergeSortDispatch<Policy, Key, Value, Less>::sort(temp, temp_bytes, kin, vin, kout, vout, n, less, s);
}

// Adapter for common::make_entry_instance.
template <class Policy>
struct FourWayMergeSortEntry {
  template <class Key, class Value, class Less>
  struct Sort {
    static cudaError_t sort(void* temp, std::size_t& bytes, Key* kin, Value* vin, Key* kout, Value* vout,
                            long long n, Less less, cudaStream_t s) {
      return four_way_merge_sort<Policy>(temp, bytes, kin, vin, kout, vout, n, less, s);
    }
  };
};

}  // namespace sortbench::merge
