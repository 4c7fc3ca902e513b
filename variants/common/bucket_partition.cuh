// Top-down partitioning shared by sample sort and MSD radix sort (PMPP
// 13.8): a bucketer maps each key to a bucket, a count kernel builds the
// bucket x chunk histogram, an exclusive scan turns it into the offsets
// where each chunk writes each bucket, and a scatter kernel moves the keys.
// Then one block per bucket sorts it independently: in shared memory when
// the bucket fits a tile, otherwise by one block's merge sort over global
// memory (common/block_merge_sort.cuh). Unstable: keys of one bucket and
// chunk take their slots in the order warps reach them.
#pragma once

#include <cstddef>
#include <cstdint>

#include <cub/device/device_scan.cuh>

#include "block_merge_sort.cuh"
#include "warp_rank.cuh"

namespace sortbench::common {

template <int BlockThreads, int ItemsPerThread>
struct PartitionPolicy {
  static constexpr int kBlockThreads = BlockThreads;
  static constexpr int kItemsPerThread = ItemsPerThread;
  static constexpr int kChunkItems = BlockThreads * ItemsPerThread;
};

template <class Policy, class Key, class Bucketer>
__global__ void __launch_bounds__(Policy::kBlockThreads)
    bucket_count_kernel(const Key* keys, long long n, Bucketer bucketer, unsigned* counts, int num_chunks) {
  extern __shared__ __align__(16) unsigned char smem[];
  unsigned* hist = reinterpret_cast<unsigned*>(smem);
  const int nb = bucketer.num_buckets();
  for (int b = threadIdx.x; b < nb; b += Policy::kBlockThreads) hist[b] = 0;
  bucketer.load(smem + Bucketer::hist_bytes(nb));
  __syncthreads();
  const long long base = blockIdx.x * (long long)Policy::kChunkItems;
#pragma unroll 4
  for (int i = 0; i < Policy::kItemsPerThread; ++i) {
    const long long idx = base + i * Policy::kBlockThreads + threadIdx.x;
    const bool valid = idx < n;
    const unsigned active = __ballot_sync(0xffffffffu, valid);
    if (valid) aggregated_add(hist, bucketer(keys[idx]), active);
  }
  __syncthreads();
  for (int b = threadIdx.x; b < nb; b += Policy::kBlockThreads) counts[std::size_t(b) * num_chunks + blockIdx.x] = hist[b];
}

template <class Policy, class Key, class Value, class Bucketer>
__global__ void __launch_bounds__(Policy::kBlockThreads)
    bucket_scatter_kernel(const Key* kin, const Value* vin, Key* kout, Value* vout, long long n, Bucketer bucketer,
                          const unsigned* offsets, int num_chunks) {
  extern __shared__ __align__(16) unsigned char smem[];
  unsigned* cursor = reinterpret_cast<unsigned*>(smem);
  const int nb = bucketer.num_buckets();
  for (int b = threadIdx.x; b < nb; b += Policy::kBlockThreads) cursor[b] = offsets[std::size_t(b) * num_chunks + blockIdx.x];
  bucketer.load(smem + Bucketer::hist_bytes(nb));
  __syncthreads();
  const long long base = blockIdx.x * (long long)Policy::kChunkItems;
#pragma unroll 4
  for (int i = 0; i < Policy::kItemsPerThread; ++i) {
    const long long idx = base + i * Policy::kBlockThreads + threadIdx.x;
    const bool valid = idx < n;
    const unsigned active = __ballot_sync(0xffffffffu, valid);
    if (valid) {
      const Key k = kin[idx];
      const unsigned pos = aggregated_add(cursor, bucketer(k), active);
      kout[pos] = k;
      if constexpr (kHasValues<Value>) vout[pos] = vin[idx];
    }
  }
}

// One block per bucket; buckets are sorted in place in k (scratch o, the
// same range of the other buffer). skip_odd: odd buckets hold keys equal to
// a splitter and are already in order.
template <class SortPolicy, class Key, class Value, class Less>
__global__ void __launch_bounds__(SortPolicy::kBlockThreads)
    bucket_sort_kernel(Key* k, Value* v, Key* o_k, Value* o_v, const unsigned* offsets, int num_chunks,
                       int num_buckets, long long n, bool skip_odd, Less less) {
  extern __shared__ __align__(16) unsigned char smem[];
  const int d = blockIdx.x;
  if (skip_odd && (d & 1)) return;
  const long long begin = offsets[std::size_t(d) * num_chunks];
  const long long end = d + 1 < num_buckets ? (long long)offsets[std::size_t(d + 1) * num_chunks] : n;
  const long long m = end - begin;
  if (m <= 1) return;
  if (m <= SortPolicy::kTileItems) {
    BlockSortTile<SortPolicy, Key, Value, Less> tile(smem, less);
    tile.sort(k + begin, v + begin, k + begin, v + begin, int(m));
  } else {
    block_merge_sort_global<SortPolicy>(k + begin, v + begin, o_k + begin, o_v + begin, m, false, smem, less);
  }
}

// Host side: temp layout and the four launches after the bucketer is known.
template <class PartPolicy, class SortPolicy, class Key, class Value, class Less>
struct BucketSortPlan {
  static constexpr std::size_t kSortSmem = GlobalSortSmem<SortPolicy, Key, Value>::kBytes;

  long long n;
  int num_buckets, num_chunks;
  std::size_t counts_bytes, scan_bytes;

  static std::size_t align(std::size_t b) { return (b + 255) / 256 * 256; }

  BucketSortPlan(long long n_, int buckets) : n(n_), num_buckets(buckets) {
    num_chunks = int((n + PartPolicy::kChunkItems - 1) / PartPolicy::kChunkItems);
    if (num_chunks == 0) num_chunks = 1;
    counts_bytes = align(std::size_t(num_buckets) * num_chunks * sizeof(unsigned));
    scan_bytes = 0;
    unsigned* p = nullptr;
    cub::DeviceScan::ExclusiveSum(nullptr, scan_bytes, p, p, num_buckets * num_chunks);
    scan_bytes = align(scan_bytes);
  }
  std::size_t bytes() const { return 2 * counts_bytes + scan_bytes; }

  static cudaError_t prepare_smem() {
    if (kSortSmem <= 48 * 1024) return cudaSuccess;
    return cudaFuncSetAttribute(bucket_sort_kernel<SortPolicy, Key, Value, Less>,
                                cudaFuncAttributeMaxDynamicSharedMemorySize, int(kSortSmem));
  }

  // Partitions kin into kout by the bucketer, then sorts every bucket in
  // kout (kin is the scratch).
  template <class Bucketer>
  cudaError_t run(void* temp, Key* kin, Value* vin, Key* kout, Value* vout, const Bucketer& bucketer, bool skip_odd,
                  Less less, cudaStream_t s) const {
    auto* base = static_cast<unsigned char*>(temp);
    auto* counts = reinterpret_cast<unsigned*>(base);
    auto* offsets = reinterpret_cast<unsigned*>(base + counts_bytes);
    void* scan_temp = base + 2 * counts_bytes;
    const std::size_t part_smem = Bucketer::hist_bytes(num_buckets) + Bucketer::state_bytes(num_buckets);
    bucket_count_kernel<PartPolicy, Key, Bucketer>
        <<<num_chunks, PartPolicy::kBlockThreads, part_smem, s>>>(kin, n, bucketer, counts, num_chunks);
    std::size_t sb = scan_bytes;
    cudaError_t e = cub::DeviceScan::ExclusiveSum(scan_temp, sb, counts, offsets, num_buckets * num_chunks, s);
    if (e != cudaSuccess) return e;
    bucket_scatter_kernel<PartPolicy, Key, Value, Bucketer>
        <<<num_chunks, PartPolicy::kBlockThreads, part_smem, s>>>(kin, vin, kout, vout, n, bucketer, offsets, num_chunks);
    bucket_sort_kernel<SortPolicy, Key, Value, Less><<<num_buckets, SortPolicy::kBlockThreads, kSortSmem, s>>>(
        kout, vout, kin, vin, offsets, num_chunks, num_buckets, n, skip_odd, less);
    return cudaGetLastError();
  }
};

}  // namespace sortbench::common
