// Bitonic sorting network, PMPP 13.8 (Batcher 1968). The network is drawn
// in its "flip" form: the first step of every merge compares i with its
// mirror in the block, the later steps are half-cleaners, and every
// comparator puts the smaller key at the lower index. A comparator whose
// upper index is >= n would face a virtual +inf that never moves, so any n
// works by skipping those comparators (padding to 2^k without memory).
// Steps with strides below a tile run fused in shared memory; larger
// strides are one global pass each. Not stable.
#include <cstddef>
#include <cstdint>

#include "common/instance.cuh"
#include "sortbench/traffic.hpp"

namespace sortbench::network {
namespace {

using common::kHasValues;

template <int BlockThreads>
struct BitonicPolicy {
  static constexpr int kBlockThreads = BlockThreads;
  static constexpr int kItemsPerThread = 4;  // two comparators per thread per step
  static constexpr int kTileItems = BlockThreads * kItemsPerThread;
};

// The comparator between lo and hi (lo < hi): ordered by less, so the
// network sorts by any strict weak order.
template <class Key, class Value, class Less>
__device__ __forceinline__ void compare_exchange(Key* k, Value* v, long long lo, long long hi, Less less) {
  const Key a = k[lo], b = k[hi];
  if (less(b, a)) {
    k[lo] = b;
    k[hi] = a;
    if constexpr (kHasValues<Value>) {
      const Value t = v[lo];
      v[lo] = v[hi];
      v[hi] = t;
    }
  }
}

// Comparator p of the step with half-size j; `flip` marks the first step
// of a merge of blocks of 2j.
__device__ __forceinline__ void pair_of(long long p, long long j, bool flip, long long& lo, long long& hi) {
  lo = (p / j) * 2 * j + (p % j);
  hi = flip ? (lo / (2 * j)) * 2 * j + (2 * j - 1 - (lo % (2 * j))) : lo + j;
}

// Shared-memory steps of one tile: from merge size k_begin (with its flip
// step when `full_sort`) down to stride 1. full_sort sorts the tile from
// scratch (k = 2 .. TILE); otherwise only the half-cleaners j < TILE of the
// current merge remain.
template <class Policy, class Key, class Value, class Less>
__global__ void __launch_bounds__(Policy::kBlockThreads)
    bitonic_tile_kernel(Key* keys, Value* vals, long long n, bool full_sort, Less less) {
  constexpr int TILE = Policy::kTileItems, T = Policy::kBlockThreads;
  extern __shared__ __align__(16) unsigned char smem[];
  Key* sk = reinterpret_cast<Key*>(smem);
  Value* sv = reinterpret_cast<Value*>(smem + TILE * sizeof(Key));
  const long long base = blockIdx.x * (long long)TILE;
  const int count = int(n - base < TILE ? n - base : TILE);
  for (int i = threadIdx.x; i < count; i += T) {
    sk[i] = keys[base + i];
    if constexpr (kHasValues<Value>) sv[i] = vals[base + i];
  }
  __syncthreads();
  auto step = [&](int j, bool flip) {
    for (int p = threadIdx.x; p < TILE / 2; p += T) {
      long long lo, hi;
      pair_of(p, j, flip, lo, hi);
      if (hi < count) compare_exchange(sk, sv, lo, hi, less);
    }
    __syncthreads();
  };
  if (full_sort) {
    for (int k = 2; k <= TILE; k *= 2) {
      step(k / 2, true);
      for (int j = k / 4; j >= 1; j /= 2) step(j, false);
    }
  } else {
    for (int j = TILE / 2; j >= 1; j /= 2) step(j, false);
  }
  for (int i = threadIdx.x; i < count; i += T) {
    keys[base + i] = sk[i];
    if constexpr (kHasValues<Value>) vals[base + i] = sv[i];
  }
}

template <class Key, class Value, class Less>
__global__ void bitonic_global_step_kernel(Key* keys, Value* vals, long long n, long long j, bool flip, Less less) {
  const long long p = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  long long lo, hi;
  pair_of(p, j, flip, lo, hi);
  if (hi < n) compare_exchange(keys, vals, lo, hi, less);
}

template <class Policy>
struct BitonicEntry {
  template <class Key, class Value, class Less>
  struct Sort {
    static constexpr long long TILE = Policy::kTileItems;
    static constexpr std::size_t kSmem = TILE * (sizeof(Key) + (kHasValues<Value> ? sizeof(Value) : 0));
    static cudaError_t sort(void* temp, std::size_t& bytes, Key* kin, Value* vin, Key* kout, Value* vout,
                            long long n, Less less, cudaStream_t s) {
      if (temp == nullptr) {
        bytes = 1;
        return kSmem > 48 * 1024 ? cudaFuncSetAttribute(bitonic_tile_kernel<Policy, Key, Value, Less>,
                                                        cudaFuncAttributeMaxDynamicSharedMemorySize, int(kSmem))
                                 : cudaSuccess;
      }
      if (n == 0) return cudaSuccess;
      // The network sorts in place: keys_out starts as a copy of the input.
      cudaError_t e = cudaMemcpyAsync(kout, kin, n * sizeof(Key), cudaMemcpyDeviceToDevice, s);
      if constexpr (kHasValues<Value>) {
        if (e == cudaSuccess) e = cudaMemcpyAsync(vout, vin, n * sizeof(Value), cudaMemcpyDeviceToDevice, s);
      }
      if (e != cudaSuccess) return e;
      const unsigned tiles = unsigned((n + TILE - 1) / TILE);
      bitonic_tile_kernel<Policy, Key, Value, Less><<<tiles, Policy::kBlockThreads, kSmem, s>>>(kout, vout, n, true, less);
      long long n_pow2 = TILE;
      while (n_pow2 < n) n_pow2 *= 2;
      const long long pairs = n_pow2 / 2;
      const unsigned step_blocks = unsigned((pairs + 255) / 256);
      for (long long k = 2 * TILE; k <= n_pow2; k *= 2) {
        bitonic_global_step_kernel<<<step_blocks, 256, 0, s>>>(kout, vout, n, k / 2, true, less);
        for (long long j = k / 4; j >= TILE; j /= 2)
          bitonic_global_step_kernel<<<step_blocks, 256, 0, s>>>(kout, vout, n, j, false, less);
        bitonic_tile_kernel<Policy, Key, Value, Less><<<tiles, Policy::kBlockThreads, kSmem, s>>>(kout, vout, n, false, less);
      }
      return cudaGetLastError();
    }
  };
};

template <int BlockThreads>
VariantInfo bitonic_info() {
  using Policy = BitonicPolicy<BlockThreads>;
  VariantInfo v;
  v.params = {{"block_threads", "tpb", std::to_string(BlockThreads)}};
  v.label = "network.bitonic." + param_label(v.params);
  v.family = "network";
  v.description = "Batcher's bitonic network; strides below a tile fused in shared memory, larger ones one global pass each";
  v.seed = "000 PMPP 13.8 (Batcher's bitonic sort)";
  v.stable = false;
  v.tile_keys = Policy::kTileItems;
  // A copy into keys_out, the tile sort, then per merge level above the
  // tile: one read + write per global step plus one fused shared pass.
  v.bytes_per_key = [](const Problem& p) {
    const double kv = double(key_bytes(p.key) + value_bytes(p.value));
    double passes = 2;  // copy + tile sort
    long long levels = 0;
    for (long long k = 2LL * Policy::kTileItems; k / 2 < (long long)p.n; k *= 2) {
      ++levels;
      passes += double(levels) + 1;  // global steps k/2 .. TILE, then the shared pass
    }
    return 2.0 * kv * passes;
  };
  v.make = common::make_entry_instance<BitonicEntry<Policy>::template Sort, false>;
  return v;
}

}  // namespace

// The network family's default point (configs' best:network): bitonic beats
// odd-even transposition at every size of results/h200/comparison.json.
SORTBENCH_REGISTER_VARIANT(family_default_point(bitonic_info<512>()));
#ifdef SORTBENCH_FULL_GRID
SORTBENCH_REGISTER_VARIANT(bitonic_info<256>());
SORTBENCH_REGISTER_VARIANT(bitonic_info<1024>());
#endif

}  // namespace sortbench::network
