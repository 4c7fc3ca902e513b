// A stable partition of keys (and values) into classes on one GPU: the
// keys of class c contiguous, in class order, each class in input order.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/device/device_scan.cuh>
#include "sortbench/variant.hpp"

namespace sortbench::distributed {

// --- stable class partition ----------------------------------------------
// Each key gets a class 0..C-1 (a functor of its key); the keys of class c
// end up contiguous, in class order, each class in input order. Per tile of
// 4096 keys (256 threads x 16 consecutive keys each): a count per class, an
// exclusive scan over the class-major tile table, then a scatter that ranks
// the tile's keys per class with one block scan of per-thread class counts,
// stages them in shared memory in their output order, and writes each class's
// run out coalesced.
inline constexpr int kPartitionThreads = 256;
inline constexpr int kPartitionItems = 16;
inline constexpr int kPartitionTile = kPartitionThreads * kPartitionItems;
inline constexpr int kMaxClasses = 16;

inline std::size_t partition_tiles(std::size_t n) { return (n + kPartitionTile - 1) / kPartitionTile; }

// Per-class counts of up to 2^16 - 1 keys, 16 bits each, four to a word: what one block scan adds.
template <int W>
struct ClassCounts {
  unsigned long long w[W];
  __device__ void clear() {
    for (auto& x : w) x = 0;
  }
  __device__ void add(int c) { w[c >> 2] += 1ull << (16 * (c & 3)); }
  __device__ unsigned get(int c) const { return unsigned(w[c >> 2] >> (16 * (c & 3))) & 0xffffu; }
  __device__ ClassCounts operator+(const ClassCounts& o) const {
    ClassCounts r;
    for (int i = 0; i < W; ++i) r.w[i] = w[i] + o.w[i];
    return r;
  }
};
struct ClassCountsSum {
  template <class Counts>
  __device__ Counts operator()(const Counts& a, const Counts& b) const { return a + b; }
};

template <int W, class T, class Classify>
__global__ void __launch_bounds__(kPartitionThreads)
    class_count_kernel(const T* keys, std::size_t n, Classify classify, std::size_t tiles,
                       unsigned long long* counts) {
  using ClassCounts = distributed::ClassCounts<W>;
  using Reduce = cub::BlockReduce<ClassCounts, kPartitionThreads>;
  __shared__ typename Reduce::TempStorage tmp;
  const int C = classify.classes();
  const std::size_t first = std::size_t(blockIdx.x) * kPartitionTile + std::size_t(threadIdx.x) * kPartitionItems;
  ClassCounts mine;
  mine.clear();
#pragma unroll
  for (int i = 0; i < kPartitionItems; ++i)
    if (first + i < n) mine.add(classify(keys[first + i], first + i));
  const ClassCounts tile = Reduce(tmp).Reduce(mine, ClassCountsSum{});
  if (threadIdx.x == 0)
    for (int c = 0; c < C; ++c) counts[std::size_t(c) * tiles + blockIdx.x] = tile.get(c);
}

// Where each class begins in the output: the scan at the class's first tile.
static __global__ void class_starts_kernel(const unsigned long long* offsets, std::size_t tiles, int classes,
                                    unsigned long long* starts) {
  if (threadIdx.x < classes) starts[threadIdx.x] = offsets[std::size_t(threadIdx.x) * tiles];
}

template <int W, class T, class V, class Classify>
__global__ void __launch_bounds__(kPartitionThreads)
    class_scatter_kernel(const T* kin, const V* vin, T* kout, V* vout, std::size_t n, Classify classify,
                         std::size_t tiles, const unsigned long long* offsets) {
  using ClassCounts = distributed::ClassCounts<W>;
  using Scan = cub::BlockScan<ClassCounts, kPartitionThreads>;
  constexpr std::size_t kStageBytes = kPartitionTile * (sizeof(T) > sizeof(V) ? sizeof(T) : sizeof(V));
  __shared__ typename Scan::TempStorage tmp;
  __shared__ __align__(16) unsigned char stage[kStageBytes];
  __shared__ unsigned tile_start[kMaxClasses + 1];
  __shared__ unsigned long long base[kMaxClasses];
  const int C = classify.classes();
  const std::size_t tile_first = std::size_t(blockIdx.x) * kPartitionTile;
  const std::size_t first = tile_first + std::size_t(threadIdx.x) * kPartitionItems;
  const unsigned tile_n = unsigned(n - tile_first < std::size_t(kPartitionTile) ? n - tile_first : kPartitionTile);
  T k[kPartitionItems];
  int c[kPartitionItems];
  ClassCounts mine;
  mine.clear();
#pragma unroll
  for (int i = 0; i < kPartitionItems; ++i) {
    c[i] = -1;
    if (first + i < n) {
      k[i] = kin[first + i];
      c[i] = classify(k[i], first + i);
      mine.add(c[i]);
    }
  }
  ClassCounts before, total;
  Scan(tmp).ExclusiveScan(mine, before, ClassCounts{}, ClassCountsSum{}, total);
  if (threadIdx.x == 0) {
    unsigned run = 0;
    for (int cls = 0; cls < C; ++cls) {
      tile_start[cls] = run;
      run += total.get(cls);
    }
    tile_start[C] = run;
  }
  if (threadIdx.x < C) base[threadIdx.x] = offsets[std::size_t(threadIdx.x) * tiles + blockIdx.x];
  __syncthreads();
  unsigned short at[kPartitionItems];
  T* sk = reinterpret_cast<T*>(stage);
#pragma unroll
  for (int i = 0; i < kPartitionItems; ++i)
    if (c[i] >= 0) {
      at[i] = (unsigned short)(tile_start[c[i]] + before.get(c[i]));
      before.add(c[i]);
      sk[at[i]] = k[i];
    }
  __syncthreads();
  // Out in staged order: position q belongs to the class whose range holds it.
  auto out_index = [&](unsigned q) {
    int cls = 0;
    while (tile_start[cls + 1] <= q) ++cls;
    return base[cls] + (q - tile_start[cls]);
  };
  for (unsigned q = threadIdx.x; q < tile_n; q += kPartitionThreads) kout[out_index(q)] = sk[q];
  if constexpr (kHasValues<V>) {
    __syncthreads();
    V* sv = reinterpret_cast<V*>(stage);
#pragma unroll
    for (int i = 0; i < kPartitionItems; ++i)
      if (c[i] >= 0) sv[at[i]] = vin[first + i];
    __syncthreads();
    for (unsigned q = threadIdx.x; q < tile_n; q += kPartitionThreads) vout[out_index(q)] = sv[q];
  }
}

// The partition's temp: the tile x class table twice (counts, offsets), the
// class starts, and the scan's own storage.
struct ClassPartitionTemp {
  std::size_t counts = 0, offsets = 0, starts = 0, scan = 0, scan_bytes = 0;
  static ClassPartitionTemp plan(Layout& layout, std::size_t n, int classes) {
    ClassPartitionTemp t;
    const std::size_t cells = std::max<std::size_t>(1, partition_tiles(n) * std::size_t(classes));
    t.counts = layout.add(cells * 8);
    t.offsets = layout.add(cells * 8);
    t.starts = layout.add(kMaxClasses * 8);
    cub::DeviceScan::ExclusiveSum(nullptr, t.scan_bytes, static_cast<unsigned long long*>(nullptr),
                                  static_cast<unsigned long long*>(nullptr), cells);
    t.scan = layout.add(t.scan_bytes);
    return t;
  }
};

// Enqueues the partition of n keys (and values) of kin into kout by class on
// s; class_starts() then reads where each class begins (it waits for s), so
// several GPUs partition at once.
template <class T, class V, class Classify>
void class_partition(const T* kin, const V* vin, T* kout, V* vout, std::size_t n, const Classify& classify,
                     char* temp, const ClassPartitionTemp& at, cudaStream_t s) {
  const int C = classify.classes();
  if (n == 0) return;
  const std::size_t tiles = partition_tiles(n);
  auto* counts = reinterpret_cast<unsigned long long*>(temp + at.counts);
  auto* offsets = reinterpret_cast<unsigned long long*>(temp + at.offsets);
  // One word of counts for up to four classes (two GPUs), four words for more.
  auto launch = [&](auto words) {
    constexpr int W = decltype(words)::value;
    class_count_kernel<W, T><<<unsigned(tiles), kPartitionThreads, 0, s>>>(kin, n, classify, tiles, counts);
    cuda_check(cudaGetLastError(), "class count");
    std::size_t scan_bytes = at.scan_bytes;
    cuda_check(cub::DeviceScan::ExclusiveSum(temp + at.scan, scan_bytes, counts, offsets, tiles * std::size_t(C), s),
               "class offsets");
    class_scatter_kernel<W, T, V><<<unsigned(tiles), kPartitionThreads, 0, s>>>(kin, vin, kout, vout, n, classify,
                                                                                tiles, offsets);
    cuda_check(cudaGetLastError(), "class scatter");
  };
  if (C <= 4) launch(std::integral_constant<int, 1>{});
  else launch(std::integral_constant<int, kMaxClasses / 4>{});
  class_starts_kernel<<<1, 32, 0, s>>>(offsets, tiles, C, reinterpret_cast<unsigned long long*>(temp + at.starts));
  cuda_check(cudaGetLastError(), "class starts");
}

// start[c] for c = 0..C (start[C] = n), after class_partition on s.
inline std::vector<std::uint64_t> class_starts(const char* temp, const ClassPartitionTemp& at, int classes, std::size_t n,
                                               cudaStream_t s) {
  std::vector<std::uint64_t> start(std::size_t(classes) + 1, 0);
  if (n) {
    cuda_check(cudaMemcpyAsync(start.data(), temp + at.starts, std::size_t(classes) * 8, cudaMemcpyDeviceToHost, s),
               "class starts");
    cuda_check(cudaStreamSynchronize(s), "class starts");
  }
  start[std::size_t(classes)] = n;
  return start;
}

}  // namespace sortbench::distributed
