// Exclusive scan of a device array of u32 counts (the global bucket table of a
// reduce-then-scan radix pass, or the bit flags of PMPP Fig. 13.4), in place,
// by one of two strategies (seed 001):
//   three_launch:         reduce (one sum per tile), scan of the tile sums in
//                         one block, downsweep (rescan each tile with its carry).
//   single_pass_lookback: one kernel; tiles take ids from an atomic counter,
//                         publish their sum and find their carry by decoupled
//                         look-back (Merrill & Garland's chained scan).
// Inside a tile the block scan is Hillis-Steele or Blelloch, a parameter.
#pragma once

#include "radix_common.cuh"

namespace sortbench::radix {

enum class ScanStrategy { three_launch, single_pass_lookback };
inline const char* to_string(ScanStrategy s) {
  return s == ScanStrategy::three_launch ? "three_launch" : "single_pass_lookback";
}

namespace global_scan_detail {

template <int T, int Items, BlockScanAlgo A>
struct TileScan {
  static constexpr int kTile = T * Items;
  using Scan = BlockScan<T, A>;
  struct Storage {
    unsigned tile[kTile];
    typename Scan::Storage scan;
    unsigned carry;
    int tile_id;
  };
  // Coalesced load through shared memory; thread t then owns the Items
  // consecutive counts t*Items.. (the order a scan needs).
  __device__ static void load(const unsigned* data, std::size_t len, std::size_t base, Storage& s) {
#pragma unroll
    for (int j = 0; j < Items; ++j) {
      const std::size_t i = base + j * T + threadIdx.x;
      s.tile[j * T + threadIdx.x] = i < len ? data[i] : 0u;
    }
    __syncthreads();
  }
  __device__ static unsigned thread_sum(Storage& s) {
    unsigned sum = 0;
#pragma unroll
    for (int j = 0; j < Items; ++j) sum += s.tile[threadIdx.x * Items + j];
    return sum;
  }
  __device__ static void scan_and_store(unsigned* data, std::size_t len, std::size_t base, unsigned excl,
                                        Storage& s) {
    unsigned run = excl;
#pragma unroll
    for (int j = 0; j < Items; ++j) {
      const unsigned c = s.tile[threadIdx.x * Items + j];
      s.tile[threadIdx.x * Items + j] = run;
      run += c;
    }
    __syncthreads();
#pragma unroll
    for (int j = 0; j < Items; ++j) {
      const std::size_t i = base + j * T + threadIdx.x;
      if (i < len) data[i] = s.tile[j * T + threadIdx.x];
    }
  }
};

template <int T, int Items, BlockScanAlgo A>
__global__ void __launch_bounds__(T) reduce_kernel(const unsigned* data, std::size_t len, unsigned* sums) {
  using TS = TileScan<T, Items, A>;
  __shared__ typename TS::Storage s;
  const std::size_t base = std::size_t(blockIdx.x) * TS::kTile;
  unsigned sum = 0;
#pragma unroll
  for (int j = 0; j < Items; ++j) {
    const std::size_t i = base + j * T + threadIdx.x;
    if (i < len) sum += data[i];
  }
  unsigned total;
  TS::Scan::exclusive(sum, total, s.scan);
  if (threadIdx.x == 0) sums[blockIdx.x] = total;
}

// One block walks the tile sums T at a time, carrying the running total.
template <int T, BlockScanAlgo A>
__global__ void __launch_bounds__(T) scan_sums_kernel(unsigned* sums, unsigned count) {
  using Scan = BlockScan<T, A>;
  __shared__ typename Scan::Storage s;
  unsigned carry = 0;
  for (unsigned c = 0; c < count; c += T) {
    const unsigned i = c + threadIdx.x;
    const unsigned v = i < count ? sums[i] : 0u;
    unsigned total;
    const unsigned e = Scan::exclusive(v, total, s);
    if (i < count) sums[i] = carry + e;
    carry += total;
  }
}

template <int T, int Items, BlockScanAlgo A>
__global__ void __launch_bounds__(T) downsweep_kernel(unsigned* data, std::size_t len, const unsigned* sums) {
  using TS = TileScan<T, Items, A>;
  __shared__ typename TS::Storage s;
  const std::size_t base = std::size_t(blockIdx.x) * TS::kTile;
  TS::load(data, len, base, s);
  unsigned total;
  const unsigned e = TS::Scan::exclusive(TS::thread_sum(s), total, s.scan);
  TS::scan_and_store(data, len, base, sums[blockIdx.x] + e, s);
}

template <int T, int Items, BlockScanAlgo A>
__global__ void __launch_bounds__(T) single_pass_kernel(unsigned* data, std::size_t len, unsigned* status,
                                                        unsigned* tile_counter) {
  using TS = TileScan<T, Items, A>;
  __shared__ typename TS::Storage s;
  if (threadIdx.x == 0) s.tile_id = int(atomicAdd(tile_counter, 1u));
  __syncthreads();
  const int tile = s.tile_id;
  const std::size_t base = std::size_t(tile) * TS::kTile;
  TS::load(data, len, base, s);
  unsigned aggregate;
  const unsigned e = TS::Scan::exclusive(TS::thread_sum(s), aggregate, s.scan);
  if (threadIdx.x < 32) {
    unsigned prefix = 0;
    if (tile == 0) {
      if (threadIdx.x == 0) lookback::store(status, lookback::kInclusive | aggregate);
    } else {
      if (threadIdx.x == 0) lookback::store(status + tile, lookback::kAggregate | aggregate);
      prefix = lookback::warp_exclusive_prefix(status, tile, 1);
      if (threadIdx.x == 0) lookback::store(status + tile, lookback::kInclusive | (prefix + aggregate));
    }
    if (threadIdx.x == 0) s.carry = prefix;
  }
  __syncthreads();
  TS::scan_and_store(data, len, base, s.carry + e, s);
}

}  // namespace global_scan_detail

// Exclusive scan of `len` counts in place. The counts' total must stay under
// 2^30 (the look-back words' count field).
template <int T, BlockScanAlgo A>
struct GlobalScan {
  static constexpr int kItems = 8;
  static constexpr int kTile = T * kItems;
  static unsigned tiles(std::size_t len) { return unsigned((len + kTile - 1) / kTile); }
  static std::size_t temp_bytes(std::size_t len, ScanStrategy) { return (std::size_t(tiles(len)) + 1) * 4; }

  // The launches run() makes, for the resource check.
  static void append_kernels(ScanStrategy strategy, std::vector<KernelLaunch>& out) {
    using namespace global_scan_detail;
    if (strategy == ScanStrategy::three_launch) {
      out.push_back(kernel_launch("scan: reduce", reduce_kernel<T, kItems, A>, T, 0));
      out.push_back(kernel_launch("scan: tile sums", scan_sums_kernel<T, A>, T, 0));
      out.push_back(kernel_launch("scan: downsweep", downsweep_kernel<T, kItems, A>, T, 0));
    } else {
      out.push_back(kernel_launch("scan: single pass", single_pass_kernel<T, kItems, A>, T, 0));
    }
  }

  static void run(unsigned* data, std::size_t len, ScanStrategy strategy, void* temp, cudaStream_t st) {
    using namespace global_scan_detail;
    if (len == 0) return;
    const unsigned nt = tiles(len);
    auto* words = static_cast<unsigned*>(temp);
    if (strategy == ScanStrategy::three_launch) {
      reduce_kernel<T, kItems, A><<<nt, T, 0, st>>>(data, len, words);
      check_launch("global scan: reduce");
      scan_sums_kernel<T, A><<<1, T, 0, st>>>(words, nt);
      check_launch("global scan: scan of tile sums");
      downsweep_kernel<T, kItems, A><<<nt, T, 0, st>>>(data, len, words);
      check_launch("global scan: downsweep");
    } else {
      cuda_check(cudaMemsetAsync(words, 0, temp_bytes(len, strategy), st), "global scan: clear status");
      single_pass_kernel<T, kItems, A><<<nt, T, 0, st>>>(data, len, words, words + nt);
      check_launch("global scan: single pass");
    }
  }
};

}  // namespace sortbench::radix
