// Merge sort, PMPP 13.7 (Fig. 13.11) on the co-rank merge of ch. 12:
// blocks sort tiles, then log2(n / tile) merge passes. Before each pass a
// partition kernel finds the co-rank of every tile boundary (merge path), so
// every block, and inside it every thread, merges an equal share of output
// however the keys fall. Any comparator; stable.
//
// Layers (as in CUB): merge_sort (device entry) -> MergeSortDispatch
// (passes, buffers) -> kernels -> BlockSortTile / BlockMergeTile agents.
#pragma once

#include <cstddef>
#include <cstdint>

#include "../common/block_merge_sort.cuh"
#include "../common/chained_launch.cuh"
#include "../common/instance.cuh"
#include "sortbench/family_space.hpp"
#include "sortbench/traffic.hpp"

namespace sortbench::merge {

using common::kHasValues;

// MinBlocks: blocks an SM to ask registers for (__launch_bounds__; 0: as
// nvcc likes).
template <class Policy, class Key, class Value, class Less, int MinBlocks = 0>
__global__ void __launch_bounds__(Policy::kBlockThreads, MinBlocks)
    block_sort_kernel(const Key* kin, const Value* vin, Key* kout, Value* vout, long long n, Less less) {
  extern __shared__ __align__(16) unsigned char smem[];
  constexpr long long TILE = Policy::kTileItems;
  const long long base = blockIdx.x * TILE;
  const int count = int(n - base < TILE ? n - base : TILE);
  common::BlockSortTile<Policy, Key, Value, Less> agent(smem, less);
  agent.sort(kin + base, vin + base, kout + base, vout + base, count);
}

// Co-rank of every tile boundary for the pass that merges runs of width w.
template <class Policy, class Key, class Less>
__global__ void merge_partition_kernel(const Key* keys, long long n, long long w, long long num_tiles,
                                       long long* co_ranks, Less less) {
  constexpr long long TILE = Policy::kTileItems;
  common::chain_wait();
  common::chain_release();
  const long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (t > num_tiles) return;
  const long long pos = min(t * TILE, n);
  const long long gs = pos / (2 * w) * (2 * w);
  const long long alen = min(w, n - gs);
  const long long blen = max(0LL, min(w, n - gs - w));
  co_ranks[t] = common::co_rank<long long>(keys + gs, alen, keys + gs + w, blen, pos - gs, less);
}

template <class Policy, class Key, class Value, class Less>
__global__ void __launch_bounds__(Policy::kBlockThreads)
    merge_pass_kernel(const Key* kin, const Value* vin, Key* kout, Value* vout, long long n, long long w,
                      const long long* co_ranks, Less less) {
  extern __shared__ __align__(16) unsigned char smem[];
  constexpr long long TILE = Policy::kTileItems;
  common::chain_wait();
  common::chain_release();
  const long long t = blockIdx.x;
  const long long pos0 = t * TILE;
  const long long pos1 = min(pos0 + TILE, n);
  // A tile never straddles two merges: runs are whole multiples of a tile.
  const long long gs = pos0 / (2 * w) * (2 * w);
  const long long alen = min(w, n - gs);
  const long long blen = max(0LL, min(w, n - gs - w));
  const long long a0 = co_ranks[t];
  const long long a1 = (pos1 - gs == alen + blen) ? alen : co_ranks[t + 1];
  const long long b0 = (pos0 - gs) - a0, b1 = (pos1 - gs) - a1;
  common::BlockMergeTile<Policy, Key, Value, Less> agent(smem, less);
  agent.merge(kin + gs + a0, vin + gs + a0, int(a1 - a0), kin + gs + w + b0, vin + gs + w + b0, int(b1 - b0),
              kout + pos0, vout + pos0);
}

template <class Policy, class Key, class Value, class Less>
struct MergeSortDispatch {
  static constexpr long long TILE = Policy::kTileItems;
  static constexpr std::size_t kSmem = common::TileSmem<Policy, Key, Value>::kBytes;

  static cudaError_t sort(void* temp, std::size_t& temp_bytes, Key* kin, Value* vin, Key* kout, Value* vout,
                          long long n, Less less, cudaStream_t s) {
    const long long num_tiles = (n + TILE - 1) / TILE;
    const std::size_t need = std::size_t(num_tiles + 1) * sizeof(long long);
    if (temp == nullptr) {
      temp_bytes = need;
      if (kSmem > 48 * 1024) {
        cudaError_t e = cudaFuncSetAttribute(block_sort_kernel<Policy, Key, Value, Less>,
                                             cudaFuncAttributeMaxDynamicSharedMemorySize, int(kSmem));
        if (e == cudaSuccess)
          e = cudaFuncSetAttribute(merge_pass_kernel<Policy, Key, Value, Less>,
                                   cudaFuncAttributeMaxDynamicSharedMemorySize, int(kSmem));
        return e;
      }
      return cudaSuccess;
    }
    if (temp_bytes < need) return cudaErrorInvalidValue;
    if (n == 0) return cudaSuccess;
    int passes = 0;
    for (long long w = TILE; w < n; w *= 2) ++passes;
    // keys_in may be clobbered, so the passes ping-pong between it and
    // keys_out; the tiles start in whichever buffer makes the last pass
    // land in keys_out.
    Key* cur_k = (passes % 2 == 0) ? kout : kin;
    Value* cur_v = (passes % 2 == 0) ? vout : vin;
    Key* nxt_k = (passes % 2 == 0) ? kin : kout;
    Value* nxt_v = (passes % 2 == 0) ? vin : vout;
    block_sort_kernel<Policy, Key, Value, Less>
        <<<unsigned(num_tiles), Policy::kBlockThreads, kSmem, s>>>(kin, vin, cur_k, cur_v, n, less);
    cudaError_t e = cudaGetLastError();
    auto* co_ranks = static_cast<long long*>(temp);
    // Each partition and merge pass is chained behind the kernel before it
    // (common/chained_launch.cuh): 2 (log2(n / tile)) short gaps otherwise.
    const bool chained = common::chained_launch_supported();
    for (long long w = TILE; w < n && e == cudaSuccess; w *= 2) {
      e = common::launch_chained(chained, merge_partition_kernel<Policy, Key, Less>,
                                 unsigned((num_tiles + 1 + 255) / 256), 256, 0, s, cur_k, n, w, num_tiles, co_ranks,
                                 less);
      if (e == cudaSuccess)
        e = common::launch_chained(chained, merge_pass_kernel<Policy, Key, Value, Less>, unsigned(num_tiles),
                                   Policy::kBlockThreads, kSmem, s, cur_k, cur_v, nxt_k, nxt_v, n, w, co_ranks, less);
      Key* tk = cur_k; cur_k = nxt_k; nxt_k = tk;
      Value* tv = cur_v; cur_v = nxt_v; nxt_v = tv;
    }
    return e;
  }
};

// Device entry point: sorts kin[0, n) (values vin) into kout (vout) with
// `less`; kin/vin are clobbered. CUB's convention: with temp == nullptr it
// only sets temp_bytes (and prepares the kernels' shared memory limits).
// Value = common::NoValue sorts keys only.
template <class Policy, class Key, class Value, class Less>
cudaError_t merge_sort(void* temp, std::size_t& temp_bytes, Key* kin, Value* vin, Key* kout, Value* vout, long long n,
                       Less less, cudaStream_t s) {
  return MergeSortDispatch<Policy, Key, Value, Less>::sort(temp, temp_bytes, kin, vin, kout, vout, n, less, s);
}

// Adapter for common::make_entry_instance.
template <class Policy>
struct MergeSortEntry {
  template <class Key, class Value, class Less>
  struct Sort {
    static cudaError_t sort(void* temp, std::size_t& bytes, Key* kin, Value* vin, Key* kout, Value* vout,
                            long long n, Less less, cudaStream_t s) {
      return merge_sort<Policy>(temp, bytes, kin, vin, kout, vout, n, less, s);
    }
  };
};

// The parameter space of the merge-path sort, declared once: the label's
// axes in label order, the shapes the kernels take and the shared memory a
// point needs (common::TileSmem), for points not compiled yet.
struct MergePathSpace {
  static std::vector<SpaceAxis> axes() {
    std::vector<long long> ipt;
    for (long long x = 1; x <= 32; ++x) ipt.push_back(x);
    return {{"items_per_thread", "ipt", ipt, std::nullopt},
            {"block_threads", "tpb", {32, 64, 128, 256, 512, 1024}, std::nullopt}};
  }
  static constexpr const char* shape_error(int ipt, int tpb) {
    if (ipt < 1 || ipt > 32) return "items_per_thread outside 1..32";
    if (tpb < 32 || tpb > 1024 || (tpb & (tpb - 1))) return "block_threads not a power of two from 32 to 1024";
    return nullptr;
  }
  static constexpr std::size_t smem_bytes(int ipt, int tpb, std::size_t key_bytes, std::size_t value_bytes) {
    const std::size_t tile = std::size_t(ipt) * tpb;
    return ((tile + 1) * key_bytes + 15) / 16 * 16 + (tile * value_bytes + 15) / 16 * 16;
  }
};

template <KeyType... Ks>
std::vector<KeyType> key_types_of(KeyTypeSet<Ks...>) {
  return {Ks...};
}

inline std::string merge_path_label(int block_threads, int items_per_thread) {
  return "merge.merge_path." + param_label({{"items_per_thread", "ipt", std::to_string(items_per_thread)},
                                            {"block_threads", "tpb", std::to_string(block_threads)}});
}

// The variant at one point: the key types of KeySet (an on-demand point
// builds those its sweep sorts), keys alone or with u32 or u64 values, both
// orders, stable.
template <int BlockThreads, int ItemsPerThread, class KeySet = AllKeyTypes>
VariantInfo merge_sort_info() {
  using Policy = common::MergeSortPolicy<BlockThreads, ItemsPerThread>;
  static_assert(MergePathSpace::smem_bytes(ItemsPerThread, BlockThreads, 8, 8) ==
                    common::TileSmem<Policy, std::uint64_t, std::uint64_t>::kBytes,
                "MergePathSpace::smem_bytes and TileSmem disagree");
  VariantInfo v;
  v.params = {{"items_per_thread", "ipt", std::to_string(ItemsPerThread)},
              {"block_threads", "tpb", std::to_string(BlockThreads)}};
  v.label = merge_path_label(BlockThreads, ItemsPerThread);
  v.family = "merge";
  v.description = "block-sorted tiles, then merge passes split by co-rank (merge path); comparator OrderedLess/Greater";
  v.seed = "000 PMPP 13.7 Fig. 13.11 (co-rank merge of ch. 12)";
  v.key_types = key_types_of(KeySet{});
  v.value_types = {std::begin(kAllValueTypes), std::end(kAllValueTypes)};
  v.descending = true;
  v.stable = true;
  v.tile_keys = Policy::kTileItems;
  v.bytes_per_key = [](const Problem& p) { return traffic::merge(p, Policy::kTileItems); };
  v.make = common::make_entry_instance<MergeSortEntry<Policy>::template Sort, true, KeySet, true>;
  return v;
}

}  // namespace sortbench::merge
