// Quicksort with CUDA dynamic parallelism, after the seed 003 (CDP quicksort
// blog), on the CUDA 12+ device-launch API: the seed's device-side
// cudaDeviceSynchronize no longer exists, so children are launched into the
// cudaStreamFireAndForget stream and nobody waits for them. A parent grid
// is complete only when all its child grids are, so the one host-launched
// root grid covers the whole recursion: an event recorded after it on the
// stream times every child grid (the seed timed only the root).
//
// Each partition is one grid: every block splits its chunk around the pivot
// with block-local ranks and two global cursors (left part from the start
// of the range, right part from its end), and the last block to finish
// launches the two children. Ranges up to a tile are sorted by one block in
// shared memory (the seed's small-partition selection sort, made parallel);
// at the depth limit one block merge-sorts the range. The pivot is the
// median of three. If nothing is less than the pivot (it is the minimum),
// the range is split once more into "equal to the pivot" (final) and
// "greater", so duplicates cannot recurse forever. Not stable.
//
// Needs relocatable device code (CUDA_SEPARABLE_COMPILATION) and cudadevrt.
#include <cstddef>
#include <cstdint>

#include "common/block_merge_sort.cuh"
#include "common/instance.cuh"
#include "common/warp_rank.cuh"

namespace sortbench::quicksort {
namespace {

using common::kHasValues;

template <int MaxDepth>
struct QuicksortPolicy {
  static constexpr int kMaxDepth = MaxDepth;
  static constexpr int kBlockThreads = 256;
  static constexpr int kItemsPerThread = 16;  // keys per thread in a partition block
  static constexpr int kChunkItems = kBlockThreads * kItemsPerThread;
  using LeafSort = common::MergeSortPolicy<256, 15>;
};

struct QsNode {
  unsigned long long left;   // cursor of the left part, from the range start
  unsigned long long right;  // cursor of the right part, from the range end
  unsigned blocks_done;
};

template <class Key, class Value>
struct QsContext {
  Key* keys[2];  // [0]: keys_in (scratch), [1]: keys_out (result)
  Value* vals[2];
  QsNode* nodes;
  unsigned* node_count;
  unsigned node_capacity;
  unsigned long long* placed;  // keys in their final place; n when all work is done
};

template <class Policy, class Key, class Value, class Less>
__global__ void qs_partition_kernel(QsContext<Key, Value> ctx, unsigned node, long long begin, long long m, int src,
                                    int depth, Key pivot, int mode, Less less);

template <class Policy, class Key, class Value, class Less>
__global__ void __launch_bounds__(Policy::LeafSort::kBlockThreads)
    qs_leaf_kernel(QsContext<Key, Value> ctx, long long begin, long long m, int src, Less less) {
  extern __shared__ __align__(16) unsigned char smem[];
  common::BlockSortTile<typename Policy::LeafSort, Key, Value, Less> tile(smem, less);
  tile.sort(ctx.keys[src] + begin, ctx.vals[src] + begin, ctx.keys[1] + begin, ctx.vals[1] + begin, int(m));
  if (threadIdx.x == 0) atomicAdd(ctx.placed, (unsigned long long)m);
}

template <class Policy, class Key, class Value, class Less>
__global__ void __launch_bounds__(Policy::LeafSort::kBlockThreads)
    qs_depth_limit_kernel(QsContext<Key, Value> ctx, long long begin, long long m, int src, Less less) {
  extern __shared__ __align__(16) unsigned char smem[];
  common::block_merge_sort_global<typename Policy::LeafSort>(ctx.keys[src] + begin, ctx.vals[src] + begin,
                                                             ctx.keys[1 - src] + begin, ctx.vals[1 - src] + begin, m,
                                                             src == 0, smem, less);
  if (threadIdx.x == 0) atomicAdd(ctx.placed, (unsigned long long)m);
}

// Moves a finished range from keys_in to keys_out.
template <class Key, class Value>
__global__ void qs_copy_kernel(QsContext<Key, Value> ctx, long long begin, long long m) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < m; i += (long long)gridDim.x * blockDim.x) {
    ctx.keys[1][begin + i] = ctx.keys[0][begin + i];
    if constexpr (kHasValues<Value>) ctx.vals[1][begin + i] = ctx.vals[0][begin + i];
  }
  if (blockIdx.x == 0 && threadIdx.x == 0) atomicAdd(ctx.placed, (unsigned long long)m);
}

template <class Policy, class Key, class Value>
constexpr std::size_t leaf_smem() {
  return common::TileSmem<typename Policy::LeafSort, Key, Value>::kBytes;
}
template <class Policy, class Key, class Value>
constexpr std::size_t depth_limit_smem() {
  return common::GlobalSortSmem<typename Policy::LeafSort, Key, Value>::kBytes;
}

template <class Key, class Less>
__device__ Key median_of_three(Key a, Key b, Key c, Less less) {
  if (less(b, a)) { const Key t = a; a = b; b = t; }
  if (less(c, b)) { b = c; if (less(b, a)) b = a; }
  return b;
}

// Called by one thread: sorts src[begin, begin + m) into keys_out.
template <class Policy, class Key, class Value, class Less>
__device__ void qs_launch_range(const QsContext<Key, Value>& ctx, long long begin, long long m, int src, int depth,
                                Less less) {
  if (m <= 0) return;
  if (m <= Policy::LeafSort::kTileItems) {
    qs_leaf_kernel<Policy, Key, Value, Less><<<1, Policy::LeafSort::kBlockThreads, leaf_smem<Policy, Key, Value>(),
                                               cudaStreamFireAndForget>>>(ctx, begin, m, src, less);
    return;
  }
  unsigned node = ctx.node_capacity;
  if (depth < Policy::kMaxDepth) node = atomicAdd(ctx.node_count, 1u);
  if (node >= ctx.node_capacity) {
    qs_depth_limit_kernel<Policy, Key, Value, Less>
        <<<1, Policy::LeafSort::kBlockThreads, depth_limit_smem<Policy, Key, Value>(), cudaStreamFireAndForget>>>(
            ctx, begin, m, src, less);
    return;
  }
  ctx.nodes[node] = QsNode{0, 0, 0};
  const Key* k = ctx.keys[src] + begin;
  const Key pivot = median_of_three(k[0], k[m / 2], k[m - 1], less);
  const unsigned blocks = unsigned((m + Policy::kChunkItems - 1) / Policy::kChunkItems);
  qs_partition_kernel<Policy, Key, Value, Less>
      <<<blocks, Policy::kBlockThreads, 0, cudaStreamFireAndForget>>>(ctx, node, begin, m, src, depth, pivot, 0, less);
}

// mode 0: left = keys less than the pivot, right = the rest.
// mode 1 (the pivot was the minimum): left = keys not greater than the
// pivot, all equal to it and so in their final place once in keys_out.
template <class Policy, class Key, class Value, class Less>
__global__ void __launch_bounds__(Policy::kBlockThreads)
    qs_partition_kernel(QsContext<Key, Value> ctx, unsigned node, long long begin, long long m, int src, int depth,
                        Key pivot, int mode, Less less) {
  constexpr int T = Policy::kBlockThreads, IPT = Policy::kItemsPerThread;
  __shared__ unsigned counts[2];
  __shared__ unsigned long long base[2];
  __shared__ bool last;
  if (threadIdx.x < 2) counts[threadIdx.x] = 0;
  __syncthreads();
  const Key* kin = ctx.keys[src] + begin;
  const Value* vin = ctx.vals[src] + begin;
  const long long chunk = blockIdx.x * (long long)Policy::kChunkItems;
  Key k[IPT];
  Value v[IPT];
  unsigned rank[IPT];
  bool right[IPT];
#pragma unroll
  for (int i = 0; i < IPT; ++i) {
    const long long idx = chunk + i * T + threadIdx.x;
    const bool valid = idx < m;
    const unsigned active = __ballot_sync(0xffffffffu, valid);
    if (valid) {
      k[i] = kin[idx];
      if constexpr (kHasValues<Value>) v[i] = vin[idx];
      right[i] = mode == 0 ? !less(k[i], pivot) : less(pivot, k[i]);
      rank[i] = common::aggregated_add(counts, right[i] ? 1 : 0, active);
    }
  }
  __syncthreads();
  if (threadIdx.x < 2) base[threadIdx.x] = atomicAdd(threadIdx.x == 0 ? &ctx.nodes[node].left : &ctx.nodes[node].right,
                                                     (unsigned long long)counts[threadIdx.x]);
  __syncthreads();
  const int dst = 1 - src;
#pragma unroll
  for (int i = 0; i < IPT; ++i) {
    const long long idx = chunk + i * T + threadIdx.x;
    if (idx < m) {
      if (right[i]) {
        const long long pos = begin + m - 1 - (long long)(base[1] + rank[i]);
        ctx.keys[dst][pos] = k[i];
        if constexpr (kHasValues<Value>) ctx.vals[dst][pos] = v[i];
      } else {
        // Never into src, which other blocks may still be reading.
        const long long pos = begin + (long long)(base[0] + rank[i]);
        ctx.keys[dst][pos] = k[i];
        if constexpr (kHasValues<Value>) ctx.vals[dst][pos] = v[i];
      }
    }
  }
  // Last block done launches the children (writes of every block are made
  // visible by the fence before the count that elects it).
  __threadfence();
  __syncthreads();
  if (threadIdx.x == 0) last = atomicAdd(&ctx.nodes[node].blocks_done, 1u) == gridDim.x - 1;
  __syncthreads();
  if (!last || threadIdx.x != 0) return;
  __threadfence();
  const long long left = (long long)atomicAdd(&ctx.nodes[node].left, 0ULL);
  if (mode == 1) {
    // The keys equal to the pivot are in their final place, in dst; only
    // keys_out counts as final.
    if (dst == 1) {
      atomicAdd(ctx.placed, (unsigned long long)left);
    } else {
      qs_copy_kernel<Key, Value><<<unsigned((left + 1023) / 1024), 256, 0, cudaStreamFireAndForget>>>(ctx, begin, left);
    }
    qs_launch_range<Policy, Key, Value, Less>(ctx, begin + left, m - left, dst, depth + 1, less);
  } else if (left == 0) {
    // Nothing below the pivot: split the same keys into == pivot and > pivot.
    const unsigned again = depth + 1 < Policy::kMaxDepth ? atomicAdd(ctx.node_count, 1u) : ctx.node_capacity;
    if (again >= ctx.node_capacity) {
      qs_depth_limit_kernel<Policy, Key, Value, Less>
          <<<1, Policy::LeafSort::kBlockThreads, depth_limit_smem<Policy, Key, Value>(), cudaStreamFireAndForget>>>(
              ctx, begin, m, dst, less);
      return;
    }
    ctx.nodes[again] = QsNode{0, 0, 0};
    qs_partition_kernel<Policy, Key, Value, Less><<<gridDim.x, T, 0, cudaStreamFireAndForget>>>(
        ctx, again, begin, m, dst, depth + 1, pivot, 1, less);
  } else {
    qs_launch_range<Policy, Key, Value, Less>(ctx, begin, left, dst, depth + 1, less);
    qs_launch_range<Policy, Key, Value, Less>(ctx, begin + left, m - left, dst, depth + 1, less);
  }
}

template <class Policy, class Key, class Value, class Less>
__global__ void qs_root_kernel(QsContext<Key, Value> ctx, long long n, Less less) {
  *ctx.node_count = 0;
  *ctx.placed = 0;
  qs_launch_range<Policy, Key, Value, Less>(ctx, 0, n, 0, 0, less);
}

template <class Policy>
struct QuicksortEntry {
  template <class Key, class Value, class Less>
  struct Sort {
    static std::size_t capacity(long long n) {
      return std::size_t(Policy::kMaxDepth) * std::size_t(n / Policy::LeafSort::kTileItems + 2) + 16;
    }
    static cudaError_t sort(void* temp, std::size_t& bytes, Key* kin, Value* vin, Key* kout, Value* vout,
                            long long n, Less less, cudaStream_t s) {
      const std::size_t cap = capacity(n);
      const std::size_t need = 256 + cap * sizeof(QsNode);
      if (temp == nullptr) {
        bytes = need;
        cudaError_t e = cudaSuccess;
        if (leaf_smem<Policy, Key, Value>() > 48 * 1024)
          e = cudaFuncSetAttribute(qs_leaf_kernel<Policy, Key, Value, Less>,
                                   cudaFuncAttributeMaxDynamicSharedMemorySize, int(leaf_smem<Policy, Key, Value>()));
        if (e == cudaSuccess && depth_limit_smem<Policy, Key, Value>() > 48 * 1024)
          e = cudaFuncSetAttribute(qs_depth_limit_kernel<Policy, Key, Value, Less>,
                                   cudaFuncAttributeMaxDynamicSharedMemorySize,
                                   int(depth_limit_smem<Policy, Key, Value>()));
        // Every range up to a tile becomes one pending child launch.
        std::size_t pending = 0;
        if (e == cudaSuccess) e = cudaDeviceGetLimit(&pending, cudaLimitDevRuntimePendingLaunchCount);
        const std::size_t want = 4 * std::size_t(n / Policy::LeafSort::kTileItems) + 4096;
        if (e == cudaSuccess && pending < want) e = cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, want);
        return e;
      }
      if (bytes < need) return cudaErrorInvalidValue;
      if (n == 0) return cudaSuccess;
      auto* base = static_cast<unsigned char*>(temp);
      QsContext<Key, Value> ctx;
      ctx.keys[0] = kin;
      ctx.keys[1] = kout;
      ctx.vals[0] = vin;
      ctx.vals[1] = vout;
      ctx.node_count = reinterpret_cast<unsigned*>(base);
      ctx.placed = reinterpret_cast<unsigned long long*>(base + 8);
      ctx.nodes = reinterpret_cast<QsNode*>(base + 256);
      ctx.node_capacity = unsigned(cap);
      qs_root_kernel<Policy, Key, Value, Less><<<1, 1, 0, s>>>(ctx, n, less);
      return cudaGetLastError();
    }
  };
};

template <int MaxDepth>
VariantInfo quicksort_info() {
  using Policy = QuicksortPolicy<MaxDepth>;
  VariantInfo v;
  v.params = {{"max_depth", "depth", std::to_string(MaxDepth)}};
  v.label = "quicksort.cdp." + param_label(v.params);
  v.family = "quicksort";
  v.description = "quicksort by dynamic parallelism (fire-and-forget children), tile sort below 3840 keys";
  v.seed = "003 CDP quicksort blog (cdp_simple_quicksort)";
  v.stable = false;
  v.tile_keys = Policy::LeafSort::kTileItems;
  // One read and write per partition level (about log2(n / tile)), then the
  // leaf sort.
  v.bytes_per_key = [](const Problem& p) {
    const double kv = double(key_bytes(p.key) + value_bytes(p.value));
    double levels = 1;
    for (std::size_t t = Policy::LeafSort::kTileItems; t < p.n; t *= 2) levels += 1;
    return 2.0 * kv * levels;
  };
  v.make = common::make_entry_instance<QuicksortEntry<Policy>::template Sort, false>;
  return v;
}

}  // namespace

// The family's default point (configs' best:quicksort): the only curated one.
SORTBENCH_REGISTER_VARIANT(family_default_point(quicksort_info<16>()));
#ifdef SORTBENCH_FULL_GRID
SORTBENCH_REGISTER_VARIANT(quicksort_info<8>());
SORTBENCH_REGISTER_VARIANT(quicksort_info<20>());
#endif

}  // namespace sortbench::quicksort
