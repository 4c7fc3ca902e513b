// Odd-even transposition sort, PMPP 13.8: alternate phases compare the
// (even, odd) and the (odd, even) neighbour pairs and swap those out of
// order, until a pair of phases swaps nothing (at most n phases). Its O(n^2)
// work suits only small inputs, so one block sorts the whole input in
// shared memory and the variant declares a cap. Adjacent swaps on strict
// less keep it stable.
#include <cstddef>
#include <cstdint>

#include "common/instance.cuh"

namespace sortbench::network {
namespace {

using common::kHasValues;

// The cap: the largest n whose keys and values (u64 + u32 = 12 bytes) fit in
// one block's shared memory (227 KB on sm_90).
constexpr long long kOddEvenMaxN = 1 << 14;

template <int BlockThreads>
struct OddEvenPolicy {
  static constexpr int kBlockThreads = BlockThreads;
};

template <class Policy, class Key, class Value, class Less>
__global__ void __launch_bounds__(Policy::kBlockThreads)
    odd_even_kernel(const Key* kin, const Value* vin, Key* kout, Value* vout, int n, Less less) {
  constexpr int T = Policy::kBlockThreads;
  extern __shared__ __align__(16) unsigned char smem[];
  Key* sk = reinterpret_cast<Key*>(smem);
  Value* sv = reinterpret_cast<Value*>(smem + (std::size_t(n) * sizeof(Key) + 15) / 16 * 16);
  for (int i = threadIdx.x; i < n; i += T) {
    sk[i] = kin[i];
    if constexpr (kHasValues<Value>) sv[i] = vin[i];
  }
  __syncthreads();
  for (int phase = 0; phase < n; phase += 2) {
    int swapped = 0;
    for (int parity = 0; parity < 2; ++parity) {
      for (int lo = 2 * threadIdx.x + parity; lo + 1 < n; lo += 2 * T) {
        const Key a = sk[lo], b = sk[lo + 1];
        if (less(b, a)) {
          sk[lo] = b;
          sk[lo + 1] = a;
          if constexpr (kHasValues<Value>) {
            const Value t = sv[lo];
            sv[lo] = sv[lo + 1];
            sv[lo + 1] = t;
          }
          swapped = 1;
        }
      }
      __syncthreads();
    }
    // Both phases swapped nothing: sorted (the textbook's stopping rule).
    if (!__syncthreads_or(swapped)) break;
  }
  for (int i = threadIdx.x; i < n; i += T) {
    kout[i] = sk[i];
    if constexpr (kHasValues<Value>) vout[i] = sv[i];
  }
}

template <class Policy>
struct OddEvenEntry {
  template <class Key, class Value, class Less>
  struct Sort {
    static std::size_t smem_bytes(long long n) {
      return (std::size_t(n) * sizeof(Key) + 15) / 16 * 16 + (kHasValues<Value> ? std::size_t(n) * sizeof(Value) : 0);
    }
    static cudaError_t sort(void* temp, std::size_t& bytes, Key* kin, Value* vin, Key* kout, Value* vout,
                            long long n, Less less, cudaStream_t s) {
      if (n > kOddEvenMaxN) return cudaErrorInvalidValue;
      if (temp == nullptr) {
        bytes = 1;
        return cudaFuncSetAttribute(odd_even_kernel<Policy, Key, Value, Less>,
                                    cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem_bytes(kOddEvenMaxN)));
      }
      if (n == 0) return cudaSuccess;
      odd_even_kernel<Policy, Key, Value, Less>
          <<<1, Policy::kBlockThreads, smem_bytes(n), s>>>(kin, vin, kout, vout, int(n), less);
      return cudaGetLastError();
    }
  };
};

template <int BlockThreads>
VariantInfo odd_even_info() {
  using Policy = OddEvenPolicy<BlockThreads>;
  VariantInfo v;
  v.params = {{"block_threads", "tpb", std::to_string(BlockThreads)}};
  v.label = "network.odd_even." + param_label(v.params);
  v.family = "network";
  v.description = "odd-even transposition sort by one block in shared memory (n <= 2^14)";
  v.seed = "000 PMPP 13.8 (odd-even transposition sort)";
  v.stable = true;
  v.max_n = kOddEvenMaxN;
  v.tile_keys = 0;
  v.bytes_per_key = [](const Problem& p) { return 2.0 * double(key_bytes(p.key) + value_bytes(p.value)); };
  v.make = common::make_entry_instance<OddEvenEntry<Policy>::template Sort, false>;
  return v;
}

}  // namespace

SORTBENCH_REGISTER_VARIANT(odd_even_info<1024>());
#ifdef SORTBENCH_FULL_GRID
SORTBENCH_REGISTER_VARIANT(odd_even_info<256>());
#endif

}  // namespace sortbench::network
