// Integer mixers shared by workload generation and validation. Host code
// compiled without nvcc (the CPU tests of the distributions) includes it too.
#pragma once

#include <cstdint>

#ifdef __CUDACC__
#define SORTBENCH_HASH_HD __host__ __device__ inline
#else
#define SORTBENCH_HASH_HD inline
#endif

namespace sortbench {

// SplitMix64's finalizer (with its increment): a bijection on 64-bit words.
SORTBENCH_HASH_HD std::uint64_t mix64(std::uint64_t z) {
  z += 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// MurmurHash3's 64-bit finalizer after an xor: independent of mix64, so the
// two together make a 128-bit multiset hash.
SORTBENCH_HASH_HD std::uint64_t murmur_mix64(std::uint64_t z) {
  z ^= 0x5851F42D4C957F2Dull;
  z = (z ^ (z >> 33)) * 0xFF51AFD7ED558CCDull;
  z = (z ^ (z >> 33)) * 0xC4CEB9FE1A85EC53ull;
  return z ^ (z >> 33);
}

// MurmurHash3's 32-bit finalizer: a bijection on 32-bit words.
SORTBENCH_HASH_HD std::uint32_t fmix32(std::uint32_t h) {
  h ^= h >> 16;
  h *= 0x85EBCA6Bu;
  h ^= h >> 13;
  h *= 0xC2B2AE35u;
  return h ^ (h >> 16);
}

// Independent uniform 64-bit words of a workload: stream s, position i.
SORTBENCH_HASH_HD std::uint64_t word(std::uint64_t seed, std::uint64_t stream, std::uint64_t i) {
  return mix64(mix64(seed ^ (stream * 0xD1B54A32D192ED03ull)) + i);
}

}  // namespace sortbench
