// Where a sample of keys reads: place j of `count` places spread over
// [0, span), at a place in its stride fixed by a hash of j, not at the
// stride's start, so a sample does not alias with periodic structure in the
// keys (windows or runs of a power-of-2 length, keys evenly spaced within
// each run). Host and device; dispatch.sort's sample (input_class.hpp) and
// the skew check of radix.two_digit_msd_local_lsd read through it.
#pragma once

#include <cstddef>
#include <cstdint>

#ifdef __CUDACC__
#define SORTBENCH_SPREAD_HD __host__ __device__ inline
#else
#define SORTBENCH_SPREAD_HD inline
#endif

namespace sortbench {

SORTBENCH_SPREAD_HD std::size_t spread_place(std::size_t j, std::size_t count, std::size_t span) {
  const std::size_t stride = span / count;
  if (stride < 2) return j * span / count;
  std::uint64_t h = std::uint64_t(j) * 0x9E3779B97F4A7C15ull;
  h = (h ^ (h >> 31)) * 0xBF58476D1CE4E5B9ull;
  return j * stride + std::size_t((h ^ (h >> 29)) % stride);  // < (j + 1) x stride <= span
}

}  // namespace sortbench
