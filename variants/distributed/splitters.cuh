// Splitters from samples of every GPU's keys, and the class (destination
// GPU) of each key among them, equal keys split by (rank, position).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include "piece_schedule.hpp"
#include "sortbench/device/key_traits.cuh"

namespace sortbench::distributed {

struct Sample {
  std::uint64_t bits;  // ordered key bits (ordered_bits: ascending in the requested order)
  std::uint64_t pos;   // position in the rank's sorted shard
  std::uint32_t rank;
  std::uint32_t valid;
};

__host__ __device__ inline bool sample_less(const Sample& a, const Sample& b) {
  if (a.bits != b.bits) return a.bits < b.bits;
  if (a.rank != b.rank) return a.rank < b.rank;
  return a.pos < b.pos;
}

template <class T>
// Regular positions (a sorted shard: its quantiles) or, `scattered`,
// positions drawn by a fixed hash of (rank, j): an unsorted shard's samples
// then do not depend on how the input is laid out.
__global__ void draw_samples_kernel(const T* keys, std::size_t n, int s, std::uint32_t rank, bool desc, Sample* out,
                                    bool scattered = false) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= s) return;
  if (n == 0) {
    out[j] = {0, 0, rank, 0};
    return;
  }
  std::size_t pos = std::size_t((2 * (unsigned __int128)j + 1) * n / (2 * unsigned(s)));
  if (scattered) {
    std::uint64_t z = (std::uint64_t(rank) << 32 | std::uint32_t(j)) + 0x9E3779B97F4A7C15ull;  // splitmix64
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    pos = std::size_t((z ^ (z >> 31)) % n);
  }
  const T* sorted = keys;
  out[j] = {std::uint64_t(ordered_bits(sorted[pos], desc)), pos, rank, 1};
}

// Splitters among the gathered samples in (key, rank, position) order, at
// splitter_positions: g * weights.size() - 1 of them (all past every key
// when there are no samples: no keys). One weight: every g-th sample, g - 1
// splitters.
inline std::vector<Sample> pick_splitters(const std::vector<char>& raw, int g,
                                          const std::vector<std::uint64_t>& weights = {1}) {
  std::vector<Sample> all(raw.size() / sizeof(Sample)), valid;
  std::memcpy(all.data(), raw.data(), all.size() * sizeof(Sample));
  for (const auto& x : all)
    if (x.valid) valid.push_back(x);
  std::sort(valid.begin(), valid.end(), [](const Sample& a, const Sample& b) { return sample_less(a, b); });
  const std::vector<std::size_t> at = splitter_positions(valid.size(), g, weights);
  std::vector<Sample> splitters(at.size(), Sample{~0ull, ~0ull, ~0u, 1});
  for (std::size_t b = 0; b < at.size() && !valid.empty(); ++b) splitters[b] = valid[at[b]];
  return splitters;
}

// The class (destination GPU) of key k at index i of rank r's shard among
// splitters (key, rank, position): those of ranks below r take equal keys
// to the left, those above to the right, r's own by position.
inline constexpr int kMaxSplitters = 7;
template <class T>
struct SplitterClassify {
  int g;
  bool desc;
  int mode[kMaxSplitters];  // 0: left when ob <= bits; 1: ob < bits; 2: ob < bits, or equal and i < pos
  std::uint64_t bits[kMaxSplitters], pos[kMaxSplitters];
  static SplitterClassify make(const std::vector<Sample>& sp, int rank, int g, bool desc) {
    SplitterClassify c{};
    c.g = g;
    c.desc = desc;
    for (std::size_t b = 0; b < sp.size(); ++b) {
      c.mode[b] = int(sp[b].rank) > rank ? 0 : int(sp[b].rank) < rank ? 1 : 2;
      c.bits[b] = sp[b].bits;
      c.pos[b] = sp[b].pos;
    }
    return c;
  }
  __host__ __device__ int classes() const { return g; }
  __device__ int operator()(const T& k, std::size_t i) const {
    const std::uint64_t ob = ordered_bits(k, desc);
    for (int b = 0; b < g - 1; ++b) {
      const bool left = mode[b] == 0 ? ob <= bits[b] : mode[b] == 1 ? ob < bits[b] : (ob < bits[b] || (ob == bits[b] && i < pos[b]));
      if (left) return b;
    }
    return g - 1;
  }
};

}  // namespace sortbench::distributed
