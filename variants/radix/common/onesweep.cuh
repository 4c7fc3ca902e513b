// Onesweep-class LSD radix sort (Adinets & Merrill 2022; the further reading
// of seed 001; method facts in shared/anchors.md):
//   histogram: one pass over the keys counts the digits of every pass at once
//              (privatized shared-memory counters), then one tiny scan per pass
//              turns the counts into each digit's first output position;
//   per pass:  one kernel. A tile takes its id from an atomic counter, counts
//              its digits and publishes the counts at once (early counts),
//              ranks its keys with warp match-any multisplit, finds its global
//              per-digit offsets by decoupled look-back over a (tile, digit)
//              word chain, reorders the tile in shared memory and writes each
//              digit's run contiguously.
// Keys are read once per pass (not twice as in reduce-then-scan) and the
// bucket table never goes through a separate scan.
// Any n: look-back words hold 30-bit counts, so a pass runs as one launch per
// portion of fewer than 2^30 keys (CUB's onesweep portions). Output positions
// are 64-bit; the last tile of a portion hands each digit's next free
// position to the next portion.
#pragma once

#include <memory>

#include "common/chained_launch.cuh"
#include "match_rank.cuh"
#include "radix_common.cuh"
#include "sortbench/device/mapped_flag.hpp"
#include "sortbench/family_space.hpp"
#include "sortbench/traffic.hpp"

namespace sortbench::radix {

// The Onesweep parameter space, declared once: the policy's label and checks
// below, and the on-demand points onesweep.cu registers it for, read it.
struct OnesweepSpace {
  // Why (radix_bits, items_per_thread, block_threads, min_blocks_per_sm,
  // lookback_window) is no point of these kernels; nullptr if it is one.
  static constexpr const char* shape_error(int rb, int ipt, int tpb, int mb, int lw) {
    if (rb < 1 || rb > 11) return "radix_bits outside 1..11 (digit counters and look-back words per tile)";
    if (ipt < 1 || ipt > 32) return "items_per_thread outside 1..32";
    if (tpb < 32 || tpb > 1024 || tpb % 32) return "block_threads not whole warps from 32 to 1024";
    if (std::size_t(tpb) * ipt > 65536) return "a tile above 65536 keys (ranks are 16-bit)";
    if (mb < 1 || mb > 8) return "min_blocks_per_sm outside 1..8";
    if (lw < 1 || lw > 32 || (lw & (lw - 1))) return "lookback_window not a power of two up to 32";
    return nullptr;
  }
  // sizeof(OnesweepPolicy<...>::Smem<Bits, V>), for points not compiled yet
  // (value_bytes 0: keys only); the policy asserts the two agree.
  static constexpr std::size_t smem_bytes(int rb, int ipt, int tpb, std::size_t key_bytes, std::size_t value_bytes) {
    const std::size_t bins = std::size_t(1) << rb, warps = std::size_t(tpb) / 32, tile = std::size_t(tpb) * ipt;
    const std::size_t slot = value_bytes ? value_bytes : key_bytes;
    std::size_t align_u = 4;
    if (key_bytes > align_u) align_u = key_bytes;
    if (slot > align_u) align_u = slot;
    const std::size_t u = tile * (slot > key_bytes ? slot : key_bytes);
    auto round_up = [](std::size_t x, std::size_t a) { return (x + a - 1) / a * a; };
    // The digit counters, the keys' and values' union, the 64-bit output
    // positions, the scan's warp sums and total, the tile id.
    const std::size_t end =
        round_up(round_up(warps * bins * 4, align_u) + round_up(u, align_u), 8) + bins * 8 + (warps + 1) * 4 + 4;
    return round_up(end, align_u > 8 ? align_u : 8);
  }
  static std::vector<SpaceAxis> axes() {
    auto range = [](long long lo, long long hi, long long step) {
      std::vector<long long> v;
      for (long long x = lo; x <= hi; x += step) v.push_back(x);
      return v;
    };
    return {{"radix_bits", "rb", range(1, 11, 1), std::nullopt},
            {"items_per_thread", "ipt", range(1, 32, 1), std::nullopt},
            {"block_threads", "tpb", range(32, 1024, 32), std::nullopt},
            {"min_blocks_per_sm", "mb", range(1, 8, 1), 1},
            {"lookback_window", "lw", {1, 2, 4, 8, 16, 32}, 8}};
  }
};

// MinBlocks > 1 asks the compiler to fit that many blocks per SM (a register
// cap): more tiles in flight hide the latency of loads and look-back.
// LookbackWindow: predecessors one look-back step reads at once (8 beat 16 and
// 32 on an H200: wider windows load words past the first inclusive prefix for
// nothing; radix-steps.json keeps a 16-wide point, `.lw16`).
template <int RadixBits, int ItemsPerThread, int BlockThreads, int MinBlocks = 1, int LookbackWindow = 8>
struct OnesweepPolicy {
  static constexpr int kRadixBits = RadixBits;
  static constexpr int kItemsPerThread = ItemsPerThread;
  static constexpr int kBlockThreads = BlockThreads;
  static constexpr int kMinBlocks = MinBlocks;
  static constexpr int kBins = 1 << RadixBits;
  static constexpr int kWarps = BlockThreads / 32;
  static constexpr int kTile = BlockThreads * ItemsPerThread;
  // Bins owned by one thread in the count, scan and look-back phases.
  static constexpr int kBinsPerThread = (kBins + BlockThreads - 1) / BlockThreads;
  static constexpr int kLookbackWindow = LookbackWindow;
  using Rank = WarpStripedMatchRank<RadixBits, ItemsPerThread, BlockThreads>;
  static_assert(OnesweepSpace::shape_error(RadixBits, ItemsPerThread, BlockThreads, MinBlocks, LookbackWindow) == nullptr,
                "not a point of OnesweepSpace (its shape_error says why)");

  static SpacePoint point() { return {RadixBits, ItemsPerThread, BlockThreads, MinBlocks, LookbackWindow}; }
  static Params params() { return space_params(OnesweepSpace::axes(), point()); }

  // V: the value type (NoValue for keys only).
  template <class Bits, class V>
  struct Smem {
    using ValueSlot = std::conditional_t<kHasValues<V>, V, Bits>;
    // Per-warp digit counts, then rank offsets. Not in the union with the
    // keys: a key is written to its place as soon as its row is ranked, while
    // other warps still rank theirs.
    typename Rank::Counters warp_offset;
    union {
      Bits keys[kTile];
      ValueSlot values[kTile];
    } u;
    // Address (as an integer) that local position 0 of each digit is written
    // to: keys_out's, then values_out's. One IMAD.WIDE a key forms the store
    // address; a position needed four instructions (64-bit add and scale).
    unsigned long long bin_out[kBins];
    typename BlockScanShfl<BlockThreads>::Storage scan;
    unsigned tile;
  };
  template <class Bits, class V>
  static constexpr std::size_t smem_bytes() {
    static_assert(sizeof(Smem<Bits, V>) == OnesweepSpace::smem_bytes(RadixBits, ItemsPerThread, BlockThreads, sizeof(Bits),
                                                                     kHasValues<V> ? sizeof(V) : 0),
                  "OnesweepSpace::smem_bytes must describe Smem");
    return sizeof(Smem<Bits, V>);
  }
  // The same for a run-time problem.
  static std::size_t smem_bytes(const Problem& p) {
    return with_bits_and_value(p, [](auto bits_tag, auto value_tag) {
      return smem_bytes<typename decltype(bits_tag)::type, typename decltype(value_tag)::type>();
    });
  }
};

namespace onesweep_detail {

constexpr int kHistThreads = 512;

// The digits of one key (PassKeyCode::ranked_bits) of every pass from
// first_pass on counted in shared counters counts[pass * bins + digit].
template <int RadixBits, class Bits>
__device__ __forceinline__ void count_digits(unsigned* counts, Bits ranked, int first_pass = 0) {
  constexpr int kBins = 1 << RadixBits;
  constexpr int kPasses = radix_passes<Bits>(RadixBits);
#pragma unroll
  for (int p = 0; p < kPasses; ++p)
    if (p >= first_pass) atomicAdd(&counts[p * kBins + unsigned(ranked >> (p * RadixBits)) % kBins], 1u);
}

// Counts of pass p's digits go to hist[p * pass_stride + digit]; 64-bit, as
// one digit may hold every key. One launch per portion adds to them. Passes
// before first_pass are not counted (OnesweepInstance's first_pass): one
// shared atomic a key per counted digit.
template <int RadixBits, class Bits>
__global__ void __launch_bounds__(kHistThreads)
    histogram_kernel(const Bits* __restrict__ keys, unsigned n, KeyMap<Bits> map, unsigned long long* __restrict__ hist,
                     unsigned pass_stride, int first_pass) {
  constexpr int kBins = 1 << RadixBits;
  constexpr int kPasses = radix_passes<Bits>(RadixBits);
  extern __shared__ unsigned counts[];  // [kPasses][kBins]
  for (int i = threadIdx.x; i < kPasses * kBins; i += kHistThreads) counts[i] = 0;
  __syncthreads();
  common::chain_wait();
  common::chain_release();
  auto count = [&](Bits key) { count_digits<RadixBits>(counts, PassKeyCode<Bits>::ranked_bits(map, key), first_pass); };
  // 16-byte loads, several in flight per thread: the kernel must stream the
  // keys at memory speed while the shared atomics keep up.
  using Vec = std::conditional_t<sizeof(Bits) == 4, uint4, ulonglong2>;
  constexpr int kPerVec = int(sizeof(Vec) / sizeof(Bits));
  constexpr int kUnroll = 4;
  const unsigned stride = gridDim.x * kHistThreads;
  // Keys before the first 16-byte boundary are counted one by one.
  const unsigned head =
      min(n, unsigned((16 - (reinterpret_cast<std::uintptr_t>(keys) & 15)) & 15) / unsigned(sizeof(Bits)));
  const unsigned nv = (n - head) / kPerVec;
  const Vec* vkeys = reinterpret_cast<const Vec*>(keys + head);
  unsigned i = blockIdx.x * kHistThreads + threadIdx.x;
  for (; i + (kUnroll - 1) * stride < nv; i += kUnroll * stride) {
    Vec v[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) v[u] = vkeys[i + u * stride];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      Bits k[kPerVec];
      memcpy(k, &v[u], sizeof(Vec));
#pragma unroll
      for (int e = 0; e < kPerVec; ++e) count(k[e]);
    }
  }
  for (; i < nv; i += stride) {
    Bits k[kPerVec];
    const Vec v = vkeys[i];
    memcpy(k, &v, sizeof(Vec));
#pragma unroll
    for (int e = 0; e < kPerVec; ++e) count(k[e]);
  }
  const unsigned g = blockIdx.x * kHistThreads + threadIdx.x;
  if (g < head) count(keys[g]);
  for (unsigned t = head + nv * kPerVec + g; t < n; t += stride) count(keys[t]);
  __syncthreads();
  for (int j = threadIdx.x; j < kPasses * kBins; j += kHistThreads)
    if (counts[j]) atomicAdd(&hist[std::size_t(j / kBins) * pass_stride + j % kBins], (unsigned long long)counts[j]);
}

// Thread t's digits of a pass, [t * Per, (t + 1) * Per): their counts, 0
// past the last digit.
template <int Bins, int Per>
__device__ __forceinline__ void load_digit_counts(const unsigned long long* counts, unsigned long long (&c)[Per]) {
#pragma unroll
  for (int k = 0; k < Per; ++k) {
    const int b = threadIdx.x * Per + k;
    c[k] = b < Bins ? counts[b] : 0u;
  }
}

// A pass's digit counts (each thread's, from load_digit_counts) turned into
// each digit's first output position, by one block of T threads.
template <int Bins, int T, int Per>
__device__ __forceinline__ void scan_digit_counts(const unsigned long long (&c)[Per], unsigned long long* start,
                                                  typename BlockScanShfl<T, unsigned long long>::Storage& scan) {
  unsigned long long sum = 0, total;
#pragma unroll
  for (int k = 0; k < Per; ++k) sum += c[k];
  unsigned long long run = BlockScanShfl<T, unsigned long long>::exclusive(sum, total, scan);
#pragma unroll
  for (int k = 0; k < Per; ++k) {
    const int b = threadIdx.x * Per + k;
    if (b < Bins) start[b] = run;
    run += c[k];
  }
}

// Block p turns pass p's digit counts into first output positions, in place.
constexpr int kBinScanThreads = 256;
template <int RadixBits>
__global__ void __launch_bounds__(kBinScanThreads) bin_scan_kernel(unsigned long long* hist, unsigned pass_stride) {
  __shared__ BlockScanShfl<kBinScanThreads, unsigned long long>::Storage s;
  common::chain_wait();
  common::chain_release();
  constexpr int kBins = 1 << RadixBits, kPer = (kBins + kBinScanThreads - 1) / kBinScanThreads;
  unsigned long long* h = hist + std::size_t(blockIdx.x) * pass_stride;
  unsigned long long c[kPer];
  load_digit_counts<kBins>(h, c);
  scan_digit_counts<kBins, kBinScanThreads>(c, h, s);
}

// Look-back for digit b of a tile: the sum of its predecessors' counts back to
// the first inclusive prefix, which it then publishes as its own inclusive
// prefix. Counts within the portion: the digit's first output position is
// added by the caller, so the 30-bit words never hold a position.
template <class P>
__device__ __forceinline__ unsigned lookback_prefix(unsigned* status, unsigned tile, int b, unsigned count) {
  constexpr int Bins = P::kBins;
  if (tile == 0) return 0;
  // Loads of a window of predecessors are in flight together: a serial
  // walk would pay one L2 round trip per predecessor, and the walks of
  // concurrent tiles would chain those latencies. The window's words
  // sit at constant offsets from one moving pointer, so the loads need
  // no address arithmetic of their own.
  constexpr int Window = P::kLookbackWindow;
  unsigned prefix = 0;
  int pred = int(tile) - 1;
  const unsigned* newest = status + std::size_t(pred) * Bins + b;
  bool done = false;
  while (!done) {
    unsigned x[Window];
    if (pred >= Window - 1) {
#pragma unroll
      for (int q = 0; q < Window; ++q) x[q] = lookback::load(newest - q * Bins);
    } else {
#pragma unroll
      for (int q = 0; q < Window; ++q) x[q] = q <= pred ? lookback::load(newest - q * Bins) : lookback::kInclusive;
    }
    // The words needed are those up to the nearest inclusive one (all of the
    // window if none is). They are summed without a branch per word: a
    // serial walk with an exit at the first inclusive word was a chain of
    // dependent branches, the look-back's largest cost in a one-wave pass
    // (PERFORMANCE.md, "Where the 2^20 pass spends its time, instruction by
    // instruction").
    constexpr unsigned kAll = Window == 32 ? ~0u : (1u << Window) - 1;
    unsigned inclusive = 0, unpublished = 0, needed;
    for (;;) {
#pragma unroll
      for (int q = 0; q < Window; ++q) {
        inclusive |= unsigned((x[q] & lookback::kFlag) == lookback::kInclusive) << q;
        unpublished |= unsigned((x[q] & lookback::kFlag) == lookback::kInvalid) << q;
      }
      needed = inclusive ? inclusive ^ (inclusive - 1) : kAll;
      if (!(unpublished & needed)) break;
#pragma unroll
      for (int q = 0; q < Window; ++q)
        if ((unpublished & needed) >> q & 1u) x[q] = lookback::wait(newest - q * Bins);
      unpublished = 0;
    }
    unsigned part[Window];
#pragma unroll
    for (int q = 0; q < Window; ++q) part[q] = (needed >> q & 1u) ? x[q] & lookback::kValue : 0u;
#pragma unroll
    for (int w = 1; w < Window; w *= 2)
#pragma unroll
      for (int q = 0; q + w < Window; q += 2 * w) part[q] += part[q + w];
    prefix += part[0];
    done = inclusive != 0;
    pred -= Window;
    newest -= Window * Bins;
  }
  lookback::store(status + std::size_t(tile) * Bins + b, lookback::kInclusive | (prefix + count));
  return prefix;
}

// Keys and values a tile reads. WrittenThisLaunch: by other blocks of the
// same launch (top_digit_first_kernel), so the loads must not take the
// read-only path, whose cache is not kept coherent with those writes.
template <bool WrittenThisLaunch, class T>
__device__ __forceinline__ T load_input(const T* p) {
  if constexpr (WrittenThisLaunch) return __ldcg(p);
  else return *p;
}

// One tile of one pass: counts, ranks, looks back and scatters it. The
// block's digit counters (s.warp_offset) are zero and every thread knows
// `tile` (a barrier since). tiles: the pass's tiles in this portion.
// DigitKind: the code's digit map (PassKeyCode::with_digit_kind). Full: the
// tile is known to hold Tile keys; else the tile tests at run time. Both are
// fixed for the whole tile (pass_tile chooses): left to run-time choices
// inside the loops, the compiler kept the choice and the descending flip in
// each key's code (69 SASS instructions a key in the ranking loop instead of
// 42 at u32 keys, 384 x 32); a lambda over the ranking alone held the keys in
// local memory.
template <class P, bool WrittenThisLaunch, bool Full, KeyKind DigitKind, class Bits, class V>
__device__ __forceinline__ void pass_tile_of(typename P::template Smem<Bits, V>& s, unsigned tile, unsigned tiles,
                                             const Bits* __restrict__ keys_in, Bits* __restrict__ keys_out,
                                             const V* __restrict__ values_in, V* __restrict__ values_out,
                                             unsigned n, PassKeyCode<Bits> code, int shift,
                                             const unsigned long long* __restrict__ bin_start,
                                             unsigned long long* __restrict__ next_start, unsigned* status) {
  constexpr int T = P::kBlockThreads, Items = P::kItemsPerThread, Tile = P::kTile, Bins = P::kBins,
                BPT = P::kBinsPerThread;
  constexpr unsigned kMask = Bins - 1;
  using Rank = typename P::Rank;
  const unsigned base = tile * Tile;
  const int valid = int(min(unsigned(Tile), n - base));
  const bool full = Full || valid == Tile;

  // Warp-striped: row j of warp w is 32 consecutive keys (coalesced).
  Bits key[Items];
#pragma unroll
  for (int j = 0; j < Items; ++j) {
    const int i = Rank::index(j);
    if (full || i < valid) key[j] = load_input<WrittenThisLaunch>(keys_in + base + i);
  }
  code.encode_loaded(key);

  const auto digit_of = code.template digit<DigitKind>(shift, kMask);
  auto digit = [&](int j) {
    // Keys past the end of a partial tile take the last digit: they rank
    // after every real key of the tile and are never written.
    return (full || Rank::index(j) < valid) ? digit_of(key[j]) : kMask;
  };

  // Early counts (CUB's BlockRadixRankMatchEarlyCounts): a per-warp digit
  // histogram from fire-and-forget shared atomics comes first, so the tile's
  // counts are published before ranking and the successors' look-back
  // overlaps this tile's ranking instead of waiting for it.
  // The counts take the digits in their other form (Digit::flipped_first).
  Rank::count(s.warp_offset,
              [&](int j) { return (full || Rank::index(j) < valid) ? digit_of.flipped_first(key[j]) : kMask; });
  __syncthreads();

  // Each thread owns BPT digits: the warp counts of a digit become
  // exclusive across warps, and the digit's tile total is published.
  unsigned bin_count[BPT], valid_count[BPT];
#pragma unroll
  for (int k = 0; k < BPT; ++k) {
    const int b = threadIdx.x * BPT + k;
    unsigned run = 0;
    if (b < Bins) {
      run = Rank::exclusive_over_warps(s.warp_offset, b);
      const unsigned c = run - (b == Bins - 1 ? unsigned(Tile - valid) : 0u);
      valid_count[k] = c;
      lookback::store(status + std::size_t(tile) * Bins + b, (tile == 0 ? lookback::kInclusive : lookback::kAggregate) | c);
    }
    bin_count[k] = run;
  }
  unsigned bin_local[BPT];
  Rank::add_tile_starts(s.warp_offset, bin_count, bin_local, s.scan);
  __syncthreads();

  // Reorder in shared memory while predecessors finish publishing. Keys
  // only: each key goes to its place as soon as its row is ranked, so no
  // array of ranks is live through the ranking, the kernel's register peak
  // (u32 keys at 28 keys a thread spilled 64 bytes, now none; 2^28 on an
  // H200 3-14 % less time at 512 x 16..32 tiles, u64 keys 2-11 % at 16..20:
  // results/h200/issue15-steps/fused-rank-reorder/). With values the ranks
  // are needed again for the values, and writing each key at once was 1-7 %
  // slower (sessions g84, g85 there); pairs keep the rank array and the
  // barrier before the reorder. With the counters out of the union the
  // barrier no longer guards shared memory, but removing it was no faster
  // (0.997-1.011x the time, results/h200/issue15-steps/pairs-barrier/).
  unsigned rank[kHasValues<V> ? Items : 1];
  if constexpr (kHasValues<V>) {
    Rank::rank(s.warp_offset, digit, rank);
    __syncthreads();
#pragma unroll
    for (int j = 0; j < Items; ++j)
      if (full || rank[j] < unsigned(valid)) s.u.keys[rank[j]] = key[j];
  } else {
    Rank::rank_each(s.warp_offset, digit, [&](int j, unsigned r) {
      if (full || r < unsigned(valid)) s.u.keys[r] = key[j];
    });
  }

  // Look-back after ranking, as CUB does: looking back before ranking makes
  // the tile wait for its predecessors with nothing to do (11-16 % slower
  // on an H200, in exploratory runs whose reports are not committed).
#pragma unroll
  for (int k = 0; k < BPT; ++k) {
    const int b = threadIdx.x * BPT + k;
    if (b < Bins) {
      // Output position of local position 0, below 0 where the digit's
      // first key here goes to a position smaller than its place in the
      // tile: the unsigned arithmetic wraps and every store lands inside.
      const unsigned long long pos = bin_start[b] + lookback_prefix<P>(status, tile, b, bin_count[k]) - bin_local[k];
      s.bin_out[b] = reinterpret_cast<unsigned long long>(keys_out) + pos * sizeof(Bits);
      if (tile == tiles - 1) next_start[b] = pos + bin_local[k] + valid_count[k];  // the next portion's first positions
    }
  }
  __syncthreads();

  // With values, each rank (16 bits: tiles hold at most 65536 keys) shares a
  // register with the digit of the key this thread writes at the same step
  // (at most 11 bits): rank, digit and value arrays side by side spilled to
  // local memory, whose traffic went to DRAM (variants/radix/PERFORMANCE.md).
  // The decoding is fixed for the loop, and a full tile's loop is
  // straight-line code with no per-key test of the tile's end: otherwise the
  // compiler recomputed the descending flip in every key's conditional
  // block, 16 SASS instructions a key instead of 7.
  code.with_static_decode([&](auto kind) {
    constexpr KeyKind K = decltype(kind)::value;
    auto scatter = [&](int k) {
      const unsigned i = k * T + threadIdx.x;
      const Bits kk = s.u.keys[i];
      const unsigned d = digit_of(kk);
      reinterpret_cast<Bits*>(s.bin_out[d])[i] = code.template decoded<K>(kk);
      if constexpr (kHasValues<V>) rank[k] |= d << 16;
    };
    if (full) {
#pragma unroll
      for (int k = 0; k < Items; ++k) scatter(k);
    } else {
#pragma unroll
      for (int k = 0; k < Items; ++k)
        if (k * T + threadIdx.x < unsigned(valid)) scatter(k);
    }
  });
  if constexpr (kHasValues<V>) {
    // Values are loaded only now, as CUB does: holding them in registers
    // through the ranking would cost the occupancy that hides its latency.
    V value[Items];
#pragma unroll
    for (int j = 0; j < Items; ++j) {
      const int i = Rank::index(j);
      if (full || i < valid) value[j] = load_input<WrittenThisLaunch>(values_in + base + i);
    }
    __syncthreads();
#pragma unroll
    for (int k = 0; k < BPT; ++k) {  // every key is written: the digits' addresses become the values'
      const int b = threadIdx.x * BPT + k;
      if (b < Bins)
        s.bin_out[b] = reinterpret_cast<unsigned long long>(values_out) +
                       static_cast<long long>(s.bin_out[b] - reinterpret_cast<unsigned long long>(keys_out)) /
                           static_cast<long long>(sizeof(Bits)) * static_cast<long long>(sizeof(V));
    }
#pragma unroll
    for (int j = 0; j < Items; ++j) {
      const unsigned r = rank[j] & 0xffffu;
      if (full || r < unsigned(valid)) s.u.values[r] = value[j];
    }
    __syncthreads();
#pragma unroll
    for (int k = 0; k < Items; ++k) {
      const unsigned i = k * T + threadIdx.x;
      if (full || i < unsigned(valid)) reinterpret_cast<V*>(s.bin_out[rank[k] >> 16])[i] = s.u.values[i];
    }
  }
}

// A tile of a pass with its digit map and (keys only) its fullness fixed at
// compile time. Pairs test the tile's end at run time: a full-tile copy of
// the pairs' tile was 6-10 % slower at 2^28 u32 + u32 on an H200 (sessions
// g92, g93 in results/h200/issue15-steps/pass-key-code/).
template <class P, bool WrittenThisLaunch, class Bits, class V>
__device__ __forceinline__ void pass_tile(typename P::template Smem<Bits, V>& s, unsigned tile, unsigned tiles,
                                          const Bits* __restrict__ keys_in, Bits* __restrict__ keys_out,
                                          const V* __restrict__ values_in, V* __restrict__ values_out, unsigned n,
                                          PassKeyCode<Bits> code, int shift,
                                          const unsigned long long* __restrict__ bin_start,
                                          unsigned long long* __restrict__ next_start, unsigned* status) {
  auto tile_of = [&](auto full, auto digit_kind) {
    pass_tile_of<P, WrittenThisLaunch, decltype(full)::value, decltype(digit_kind)::value>(
        s, tile, tiles, keys_in, keys_out, values_in, values_out, n, code, shift, bin_start, next_start, status);
  };
  code.with_digit_kind([&](auto digit_kind) {
    if constexpr (kHasValues<V>) tile_of(std::false_type{}, digit_kind);
    else if (n - tile * P::kTile >= unsigned(P::kTile)) tile_of(std::true_type{}, digit_kind);
    else tile_of(std::false_type{}, digit_kind);
  });
}

template <class P, class Bits, class V>
__global__ void __launch_bounds__(P::kBlockThreads, P::kMinBlocks)
    pass_kernel(const Bits* __restrict__ keys_in, Bits* __restrict__ keys_out, const V* __restrict__ values_in,
                V* __restrict__ values_out, unsigned n, PassKeyCode<Bits> code, int shift,
                const unsigned long long* __restrict__ bin_start, unsigned long long* __restrict__ next_start,
                unsigned* status, unsigned* tile_counter) {
  extern __shared__ __align__(16) unsigned char smem_raw[];
  auto& s = *reinterpret_cast<typename P::template Smem<Bits, V>*>(smem_raw);
  for (int i = threadIdx.x; i < P::kBins * P::kWarps; i += P::kBlockThreads) (&s.warp_offset[0][0])[i] = 0;
  common::chain_wait();
  common::chain_release();
  if (threadIdx.x == 0) s.tile = atomicAdd(tile_counter, 1u);
  __syncthreads();
  // Tiles are numbered in the order they start, so every tile this one waits
  // for in the look-back is already running: no deadlock.
  pass_tile<P, false>(s, s.tile, gridDim.x, keys_in, keys_out, values_in, values_out, n, code, shift, bin_start,
                      next_start, status);
}

// Where pass `pass` of `passes` reads and writes in OnesweepInstance's
// TopDigitFirst mode: the lower digits go keys_in -> out -> alt -> out ... ->
// keys_in (consecutive passes never share a buffer), so the top digit's pass,
// the last, reads keys_in whether they ran or not, and writes out.
template <class T>
__device__ PassIO<T> top_digit_first_io(int pass, int passes, T* in, T* out, T* alt) {
  auto buffer = [&](int i) { return i == 0 || i == passes - 1 ? in : (i % 2 ? out : alt); };
  return pass == passes - 1 ? PassIO<T>{in, out} : PassIO<T>{buffer(pass), buffer(pass + 1)};
}

// Shared memory of top_digit_first_kernel: a pass tile's, and the first
// output positions of the pass the block works on.
template <class P, class Bits, class V>
struct TopDigitFirstSmem {
  typename P::template Smem<Bits, V> tile;
  unsigned long long start[P::kBins];
  typename BlockScanShfl<P::kBlockThreads, unsigned long long>::Storage scan;
  unsigned ticket[2];
};

// Spins until a count that other blocks add to after their writes (behind a
// fence, or with red.release) reaches target; those writes are then visible
// to this thread.
__device__ __forceinline__ void spin_until_at_least(const unsigned* count, unsigned target) {
  unsigned c;
  do {
    asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(c) : "l"(count) : "memory");
  } while (c < target);
}

// Keys one histogram ticket of top_digit_first_kernel counts, per thread:
// 4, not 16, was 0.8-3.7 us faster at 2^14..2^17 when the histogram was a
// kernel of its own (8 to 32 blocks at 2^16; H100,
// issue15-steps/msd-local/top-pass/); 8 was no faster in this kernel
// (fused-histogram/release-add/).
constexpr int kTopHistItems = 4;

// A whole TopDigitFirst sort but the clear in one persistent launch: the
// histogram and every pass, with no digit scan launched for them. Blocks take
// tickets in the order they start. The first hist_chunks tickets count the
// digits of kTopHistItems keys per thread into the block's shared counters,
// which the block adds to the global counts when it takes its first later
// ticket, the top digit's first. The later tickets are pass tiles. Each block
// waits once until the top digit of every chunk is counted, checks the top
// digit's counts against bucket_limit, and scans the digit counts of the pass
// it works on itself (256 counts). While the top digit's buckets fit, the
// tickets are the top digit's tiles only; else the lower digits' tiles come
// first, pass by pass, after every digit of every chunk is counted, and a tile
// of pass p waits until every tile of pass p - 1 is written. What a ticket
// waits for holds earlier tickets, so it is running or done: no deadlock,
// whatever the grid.
// counts: pass p's digit counts at counts[p * counts_stride], its digits'
// ends written after them by its last tile. counters: the ticket, the chunks
// whose top digits are counted, the chunks whose digits are all counted, then
// one count of finished tiles per pass.
// *buckets_fit: the verdict, for the kernels after this one.
template <class P, class Bits, class V>
__global__ void __launch_bounds__(P::kBlockThreads, P::kMinBlocks)
    top_digit_first_kernel(Bits* keys_in, Bits* keys_out, Bits* keys_alt, V* values_in, V* values_out, V* values_alt,
                           unsigned n, KeyMap<Bits> map, unsigned hist_chunks,
                           unsigned long long* counts, unsigned counts_stride, unsigned* status, unsigned* counters,
                           unsigned long long bucket_limit, unsigned* buckets_fit) {
  constexpr int T = P::kBlockThreads, BPT = P::kBinsPerThread;
  constexpr int kPasses = radix_passes<Bits>(P::kRadixBits);
  extern __shared__ __align__(16) unsigned char smem_raw[];
  auto& sm = *reinterpret_cast<TopDigitFirstSmem<P, Bits, V>*>(smem_raw);
  auto& s = sm.tile;
  // The chunk counters share the tile's memory: a block has flushed them
  // before its first tile.
  static_assert(sizeof(s.u) >= kPasses * P::kBins * sizeof(unsigned), "chunk counters fit in the tile's memory");
  unsigned* chunk_counts = reinterpret_cast<unsigned*>(&s.u);
  for (int i = threadIdx.x; i < kPasses * P::kBins; i += T) chunk_counts[i] = 0;
  common::chain_wait();
  common::chain_release();
  unsigned* const ticket_counter = counters;
  unsigned* const top_counted = counters + 1;
  unsigned* const all_counted = counters + 2;
  unsigned* const done = counters + 3;
  // The next ticket is taken while the chunk is counted, into the other
  // slot: threads may still be reading this one.
  if (threadIdx.x == 0) sm.ticket[0] = atomicAdd(ticket_counter, 1u);
  __syncthreads();
  unsigned chunks = 0, ticket = sm.ticket[0];
  while (ticket < hist_chunks) {
    if (threadIdx.x == 0) sm.ticket[(chunks + 1) % 2] = atomicAdd(ticket_counter, 1u);
    const unsigned base = ticket * unsigned(T * kTopHistItems) + threadIdx.x;
    Bits key[kTopHistItems];
#pragma unroll
    for (int j = 0; j < kTopHistItems; ++j)
      if (base + j * T < n) key[j] = __ldcg(keys_in + base + j * T);
#pragma unroll
    for (int j = 0; j < kTopHistItems; ++j)
      if (base + j * T < n) count_digits<P::kRadixBits>(chunk_counts, PassKeyCode<Bits>::ranked_bits(map, key[j]));
    ++chunks;
    __syncthreads();
    ticket = sm.ticket[chunks % 2];
  }
  if (chunks) {
    // The top digit's counts go first: they decide the passes, and while the
    // buckets fit they are the only ones a pass reads.
    auto flush = [&](int from, int to, unsigned* counted) {
      for (int j = from + int(threadIdx.x); j < to; j += T)
        if (chunk_counts[j])
          atomicAdd(&counts[std::size_t(j / P::kBins) * counts_stride + j % P::kBins], (unsigned long long)chunk_counts[j]);
      __syncthreads();
      if (threadIdx.x == 0)
        asm volatile("red.release.gpu.global.add.u32 [%0], %1;" ::"l"(counted), "r"(chunks) : "memory");
    };
    flush((kPasses - 1) * P::kBins, kPasses * P::kBins, top_counted);
    flush(0, (kPasses - 1) * P::kBins, all_counted);
  }
  const unsigned tiles = (n + P::kTile - 1) / P::kTile;
  if (ticket - hist_chunks >= unsigned(kPasses) * tiles) return;
  auto wait_for = [&](const unsigned* counted) {
    if (threadIdx.x == 0) spin_until_at_least(counted, hist_chunks);
    __syncthreads();
  };
  wait_for(top_counted);
  // The top digit's counts, read once: they decide the passes, and while
  // the buckets fit they are the only pass's.
  unsigned long long top_counts[BPT];
  load_digit_counts<P::kBins>(counts + std::size_t(kPasses - 1) * counts_stride, top_counts);
  bool over = false;
#pragma unroll
  for (int k = 0; k < BPT; ++k) over |= top_counts[k] > bucket_limit;
  const int first = __syncthreads_or(over) ? 0 : kPasses - 1;
  if (first == 0) wait_for(all_counted);
  if (ticket == hist_chunks && threadIdx.x == 0) *buckets_fit = first == kPasses - 1;
  const unsigned tickets = unsigned(kPasses - first) * tiles;
  int scanned = -1;  // the pass whose first positions sm.start holds
  for (;;) {
    const unsigned t = ticket - hist_chunks;
    if (t >= tickets) return;
    for (int i = threadIdx.x; i < P::kBins * P::kWarps; i += T) (&s.warp_offset[0][0])[i] = 0;
    const int pass = first + int(t / tiles);
    unsigned long long* pass_counts = counts + std::size_t(pass) * counts_stride;
    if (pass != scanned) {
      // Each thread writes the positions of its own BPT digits, the ones
      // pass_tile reads.
      if (pass == kPasses - 1) {
        scan_digit_counts<P::kBins, T>(top_counts, sm.start, sm.scan);
      } else {
        unsigned long long c[BPT];
        load_digit_counts<P::kBins>(pass_counts, c);
        scan_digit_counts<P::kBins, T>(c, sm.start, sm.scan);
      }
      scanned = pass;
    }
    if (pass > first && threadIdx.x == 0) spin_until_at_least(done + pass - 1, tiles);
    __syncthreads();
    const auto k = top_digit_first_io(pass, kPasses, keys_in, keys_out, keys_alt);
    const auto v = top_digit_first_io(pass, kPasses, values_in, values_out, values_alt);
    pass_tile<P, true>(s, t % tiles, tiles, k.src, k.dst, v.src, v.dst, n,
                       PassKeyCode<Bits>::of_pass(map, pass, first, kPasses - 1), pass * P::kRadixBits, sm.start,
                       pass_counts + P::kBins, status + std::size_t(pass) * tiles * P::kBins);
    __syncthreads();  // the tile is written, and the next one may reuse shared memory
    if (threadIdx.x == 0) {
      __threadfence();
      atomicAdd(done + pass, 1u);
      sm.ticket[0] = atomicAdd(ticket_counter, 1u);
    }
    __syncthreads();
    ticket = sm.ticket[0];
  }
}

}  // namespace onesweep_detail

// TopDigitFirst: for designs that sort the top digit's buckets themselves
// (radix.msd_local_lsd). When every top digit holds at most bucket_limit keys
// (decided on the device, after the histogram), only the top digit's pass
// runs, from keys_in to keys_out: a stable MSD partition into buckets. Else
// the other passes run first, ending in keys_in, and the sort is complete
// after the top digit's pass, as without the mode. Either way the histogram
// and the passes are one persistent launch (top_digit_first_kernel), so the
// path not taken costs no launches, and that launch scans the digit counts
// itself: the sort is a memset and one launch. buckets_fit() tells the
// kernels after it which happened. Keys of at least three digits; one portion.
// first_pass (without TopDigitFirst): the passes of the digits below it are
// left out, so the keys come out stably sorted on the digits from first_pass
// up, grouped by them, and keys_in is left as it was when two passes run
// (radix.two_digit_msd_local_lsd's partition).
namespace onesweep_detail {
// skip_constant_digits: per pass, whether one digit holds all n keys (the
// pass would leave them where they are), as bits of answer[0..1] in mapped
// host memory, then answer[2] = 1. A warp per pass.
template <int Bins>
__global__ void __launch_bounds__(1024) constant_digits_kernel(const unsigned long long* __restrict__ counts,
                                                               unsigned pass_stride, int passes,
                                                               unsigned long long n, std::uint32_t* answer) {
  __shared__ unsigned long long mask;
  if (threadIdx.x == 0) mask = 0;
  __syncthreads();
  const int warp = int(threadIdx.x / 32), lane = int(threadIdx.x % 32);
  for (int pass = warp; pass < passes; pass += int(blockDim.x / 32)) {
    bool whole = false;
    for (int d = lane; d < Bins; d += 32) whole |= counts[std::size_t(pass) * pass_stride + d] == n;
    if (__any_sync(~0u, whole) && lane == 0) atomicOr(&mask, 1ull << pass);
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    answer[0] = std::uint32_t(mask);
    answer[1] = std::uint32_t(mask >> 32);
    __threadfence_system();
    *reinterpret_cast<volatile std::uint32_t*>(&answer[2]) = 1;
  }
}
}  // namespace onesweep_detail

template <class P, class Bits, bool TopDigitFirst = false>
class OnesweepInstance final : public Instance {
 public:
  explicit OnesweepInstance(const Problem& p, unsigned long long bucket_limit = 0, int first_pass = 0,
                            bool skip_constant_digits = false)
      : p_(p), first_pass_(first_pass), bucket_limit_(bucket_limit), skip_constant_digits_(skip_constant_digits) {
    passes_ = radix_passes<Bits>(P::kRadixBits);
    tiles_ = unsigned((p_.n + P::kTile - 1) / P::kTile);
    portions_ = unsigned((p_.n + kPortionKeys - 1) / kPortionKeys);
    if (TopDigitFirst && (passes_ < 3 || portions_ > 1))
      throw std::invalid_argument("radix.onesweep: the top digit first needs three digits and one portion");
    if (first_pass < 0 || first_pass >= passes_ || (TopDigitFirst && first_pass))
      throw std::invalid_argument("radix.onesweep: first_pass must name a digit, and only without TopDigitFirst");
    if (skip_constant_digits_ && TopDigitFirst)
      throw std::invalid_argument("radix.onesweep: skipping constant digits needs the histogram kernel");
    if (p_.const_input && (TopDigitFirst || first_pass))
      throw std::invalid_argument("radix.onesweep: a const input needs every pass of the plain chain");
    // Skipped passes change the chain's length, and with it whether it needs
    // the third buffer; a const input always needs it.
    const bool alt =
        TopDigitFirst || skip_constant_digits_ || p_.const_input || pass_chain_needs_alt(passes_ - first_pass_);
    alt_keys_ = layout_.add(alt ? p_.n * sizeof(Bits) : 0);
    alt_values_ = layout_.add(alt ? p_.n * value_bytes(p_.value) : 0);
    fits_off_ = layout_.add(TopDigitFirst ? sizeof(unsigned) : 0);
    // One block that a single memset clears: per pass the digit counts, which
    // become the first output positions of portion 0, and those of the
    // portions after it (64-bit); a tile counter per pass and portion; the
    // look-back words of every tile of every pass.
    // (TopDigitFirst: a ticket counter and a count of finished tiles per pass.)
    cleared_ = std::size_t(passes_) * starts_stride() * 8 + counter_words() * 4 +
               std::size_t(passes_) * tiles_ * P::kBins * 4;
    cleared_off_ = layout_.add(cleared_);
    int dev = 0, per_sm = 0;
    cuda_check(cudaGetDevice(&dev), "cudaGetDevice");
    cuda_check(cudaDeviceGetAttribute(&sms_, cudaDevAttrMultiProcessorCount, dev), "multiprocessor count");
    with_value_type(p_.value, [&](auto value_tag) {
      using V = typename decltype(value_tag)::type;
      const auto pass = pass_kernel_for<V>();
      allow_smem(pass, pass_smem<V>());
      if constexpr (TopDigitFirst) {
        int blocks = 0;
        cuda_check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, pass, P::kBlockThreads, pass_smem<V>()),
                   "pass occupancy");
        persistent_blocks_ = unsigned(std::max(1, blocks) * sms_);
      }
    });
    if constexpr (!TopDigitFirst) {
      allow_smem(onesweep_detail::histogram_kernel<P::kRadixBits, Bits>, hist_smem());
      cuda_check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
                     &per_sm, onesweep_detail::histogram_kernel<P::kRadixBits, Bits>, onesweep_detail::kHistThreads,
                     hist_smem()),
                 "histogram occupancy");
      hist_blocks_per_sm_ = std::max(1, per_sm);
    }
    chained_ = common::chained_launch_supported();
    if (skip_constant_digits_) {
      cuda_check(cudaHostAlloc(reinterpret_cast<void**>(&constant_host_), 3 * sizeof(std::uint32_t), cudaHostAllocMapped),
                 "radix.onesweep: mapped answer");
      constant_dev_ = mapped_device_pointer(constant_host_, "radix.onesweep: mapped answer");
    }
  }
  ~OnesweepInstance() override { cudaFreeHost(constant_host_); }
  OnesweepInstance(const OnesweepInstance&) = delete;
  OnesweepInstance& operator=(const OnesweepInstance&) = delete;
  std::size_t temp_bytes(const Buffers&, cudaStream_t) override { return layout_.bytes; }
  std::vector<KernelLaunch> kernels() const override {
    using namespace onesweep_detail;
    return with_value_type(p_.value, [&](auto value_tag) -> std::vector<KernelLaunch> {
      using V = typename decltype(value_tag)::type;
      if constexpr (TopDigitFirst)
        return {kernel_launch("histogram and passes", pass_kernel_for<V>(), P::kBlockThreads, pass_smem<V>())};
      else
        return {kernel_launch("histogram", histogram_kernel<P::kRadixBits, Bits>, kHistThreads, hist_smem()),
                kernel_launch("digit scan", bin_scan_kernel<P::kRadixBits>, kBinScanThreads, 0),
                kernel_launch("pass", pass_kernel_for<V>(), P::kBlockThreads, pass_smem<V>())};
    });
  }
  void run(const Buffers& b, void* temp, std::size_t bytes, cudaStream_t s) override {
    if (p_.n <= 1) return copy_trivial(p_, b, s);
    if (bytes < layout_.bytes) throw std::invalid_argument("radix.onesweep: temp storage too small");
    with_value_type(p_.value, [&](auto value_tag) { sort<typename decltype(value_tag)::type>(b, temp, s); });
  }
  // TopDigitFirst, after run(): nonzero when only the top digit's pass ran;
  // top digit d's keys are then keys_out[d ? end[d - 1] : 0, end[d]).
  const unsigned* buckets_fit(void* temp) const { return temp_at<unsigned>(temp, fits_off_); }
  const unsigned long long* digit_ends(void* temp) const {
    return temp_at<unsigned long long>(temp, cleared_off_) + std::size_t(passes_ - 1) * starts_stride() + P::kBins;
  }
  // Dynamic shared memory of the pass kernel, for a variant's check that a
  // point fits before it is built.
  template <class V>
  static constexpr std::size_t pass_smem() {
    if constexpr (TopDigitFirst) return sizeof(onesweep_detail::TopDigitFirstSmem<P, Bits, V>);
    else return P::template smem_bytes<Bits, V>();
  }

 private:
  std::size_t hist_smem() const { return std::size_t(passes_) * P::kBins * 4; }
  // Keys each histogram thread counts, which sets its grid below a full
  // wave.
  static constexpr unsigned kHistKeysPerThread = 16;
  // Portions hold whole tiles, fewer than 2^30 keys (30-bit look-back counts).
  static constexpr std::size_t kPortionKeys = ((std::size_t(1) << 30) - 1) / P::kTile * P::kTile;
  unsigned starts_stride() const { return (portions_ + 1) * unsigned(P::kBins); }
  std::size_t counter_words() const { return TopDigitFirst ? 3 + passes_ : std::size_t(passes_) * portions_; }
  template <class V>
  static auto pass_kernel_for() {
    if constexpr (TopDigitFirst) return onesweep_detail::top_digit_first_kernel<P, Bits, V>;
    else return onesweep_detail::pass_kernel<P, Bits, V>;
  }

  template <class V>
  void sort(const Buffers& b, void* temp, cudaStream_t s) {
    using namespace onesweep_detail;
    const KeyMap<Bits> map = key_map<Bits>(p_);
    auto* kin = static_cast<Bits*>(b.keys_in);
    auto* kout = static_cast<Bits*>(b.keys_out);
    auto* kalt = temp_at<Bits>(temp, alt_keys_);
    auto* vin = static_cast<V*>(b.values_in);
    auto* vout = static_cast<V*>(b.values_out);
    auto* valt = temp_at<V>(temp, alt_values_);
    auto* starts = temp_at<unsigned long long>(temp, cleared_off_);
    auto* counters = reinterpret_cast<unsigned*>(starts + std::size_t(passes_) * starts_stride());
    unsigned* status = counters + counter_words();
    cuda_check(cudaMemsetAsync(starts, 0, cleared_, s), "radix.onesweep: clear counters");
    if constexpr (TopDigitFirst) {
      // A block per histogram chunk or per tile of a pass, whichever are
      // more, up to as many as fit at once: the tickets they take are the
      // chunks, then the tiles of the top digit alone, or of every pass when
      // a bucket is too large.
      constexpr unsigned kChunk = unsigned(P::kBlockThreads * kTopHistItems);
      const unsigned chunks = unsigned((p_.n + kChunk - 1) / kChunk);
      const unsigned grid = std::min(persistent_blocks_, std::max(chunks, tiles_));
      cuda_check(common::launch_chained(chained_, top_digit_first_kernel<P, Bits, V>, grid, P::kBlockThreads,
                                        pass_smem<V>(), s, kin, kout, kalt, vin, vout, valt, unsigned(p_.n), map,
                                        chunks, starts, starts_stride(), status, counters, bucket_limit_,
                                        temp_at<unsigned>(temp, fits_off_)),
                 "radix.onesweep: histogram and passes");
      return;
    }
    constexpr unsigned kHistBlockKeys = kHistThreads * kHistKeysPerThread;
    const unsigned hist_blocks = unsigned(std::min<std::size_t>(
        std::size_t(sms_) * hist_blocks_per_sm_, (std::min(p_.n, kPortionKeys) + kHistBlockKeys - 1) / kHistBlockKeys));
    for (unsigned q = 0; q < portions_; ++q) {
      cuda_check(common::launch_chained(chained_, histogram_kernel<P::kRadixBits, Bits>, hist_blocks, kHistThreads,
                                        hist_smem(), s, kin + q * kPortionKeys, portion_keys(q), map, starts,
                                        starts_stride(), first_pass_),
                 "radix.onesweep: histogram");
    }
    // The passes to run: all of them, or (skip_constant_digits_, one
    // portion) those whose digit is not the same for every key: a pass whose
    // digit has one value for all n keys would leave them in place. The
    // histogram's counts say which (one small kernel, its answer waited for
    // in mapped host memory, sortbench/device/mapped_flag.hpp).
    std::vector<int> run_passes;
    for (int pass = first_pass_; pass < passes_; ++pass) run_passes.push_back(pass);
    const bool skip = skip_constant_digits_ && portions_ == 1;
    if (skip) {
      reinterpret_cast<volatile std::uint32_t*>(constant_host_)[2] = 0;
      constant_digits_kernel<P::kBins><<<1, 32 * std::min(passes_, 32), 0, s>>>(
          starts, starts_stride(), passes_, p_.n, constant_dev_);
      check_launch("radix.onesweep: constant digits");
    }
    cuda_check(common::launch_chained(chained_ && !skip, bin_scan_kernel<P::kRadixBits>, passes_, kBinScanThreads, 0,
                                      s, starts, starts_stride()),
               "radix.onesweep: digit scan");
    if (skip) {
      wait_for_mapped_flag(&constant_host_[2], s, "radix.onesweep: constant digits");
      const unsigned long long constant = constant_host_[0] | (std::uint64_t(constant_host_[1]) << 32);
      run_passes.erase(std::remove_if(run_passes.begin(), run_passes.end(),
                                      [&](int pass) { return (constant >> pass) & 1; }),
                       run_passes.end());
      if (run_passes.empty()) return copy_trivial(p_, b, s);  // every key the same in the ranked bits: stable as is
    }
    const int chain = int(run_passes.size());
    const unsigned tiles_per_portion = unsigned(kPortionKeys / P::kTile);
    for (int j = 0; j < chain; ++j) {
      const int pass = run_passes[std::size_t(j)];
      const auto k = p_.const_input ? kept_input_io(j, chain, kin, kout, kalt) : pass_io(j, chain, kin, kout, kalt);
      const auto v = p_.const_input ? kept_input_io(j, chain, vin, vout, valt) : pass_io(j, chain, vin, vout, valt);
      unsigned long long* pass_starts = starts + std::size_t(pass) * starts_stride();
      for (unsigned q = 0; q < portions_; ++q) {
        const std::size_t first = q * kPortionKeys;
        const unsigned nq = portion_keys(q);
        const unsigned tiles = (nq + P::kTile - 1) / P::kTile;
        cuda_check(
            common::launch_chained(
                chained_, pass_kernel<P, Bits, V>, tiles, P::kBlockThreads, P::template smem_bytes<Bits, V>(), s,
                k.src + first, k.dst, v.src ? v.src + first : nullptr, v.dst, nq,
                PassKeyCode<Bits>::of_pass(map, pass, run_passes.front(), run_passes.back()), pass * P::kRadixBits,
                pass_starts + std::size_t(q) * P::kBins, pass_starts + std::size_t(q + 1) * P::kBins,
                status + (std::size_t(pass) * tiles_ + std::size_t(q) * tiles_per_portion) * P::kBins,
                counters + std::size_t(pass) * portions_ + q),
            "radix.onesweep: pass");
      }
    }
  }
  unsigned portion_keys(unsigned q) const { return unsigned(std::min(kPortionKeys, p_.n - q * kPortionKeys)); }

  Problem p_;
  TempLayout layout_;
  int passes_ = 0, first_pass_ = 0, sms_ = 0, hist_blocks_per_sm_ = 1;
  unsigned long long bucket_limit_ = 0;
  // The histogram, the digit scan and every pass are chained behind the
  // kernel before them (common/chained_launch.cuh; the memset that starts the
  // sort is not chained): it took 2^20 u32 keys from 63.3 to 56.0 us on the
  // H100 (variants/radix/PERFORMANCE.md).
  bool chained_ = false;
  bool skip_constant_digits_ = false;
  // Mapped: constant_digits_kernel's answer (skip_constant_digits_), the host's and the device's address.
  std::uint32_t* constant_host_ = nullptr;
  std::uint32_t* constant_dev_ = nullptr;
  unsigned tiles_ = 0, portions_ = 0, persistent_blocks_ = 0;
  std::size_t alt_keys_ = 0, alt_values_ = 0, fits_off_ = 0, cleared_ = 0, cleared_off_ = 0;
};

// Defined and instantiated per key width in onesweep_keys{8,16,32,64}.cu, so
// a parallel build compiles the widths side by side. Other designs that run
// Onesweep's passes at a grid point build them here too (first_pass: see
// OnesweepInstance): a kernel template instantiated in two files of one
// program (without relocatable device code) failed to launch from one of
// them, cudaErrorInvalidValue at the pass's launch (H100, CUDA 13.0, session
// g102: results/h100-80gb-hbm3/logs/).
template <class P, class Bits>
std::unique_ptr<Instance> make_onesweep(const Problem& p, int first_pass = 0, bool skip_constant_digits = false);

// The variant of policy P. KeyBits: the key widths its kernels are
// instantiated for (an on-demand point builds only the widths its sweep
// sorts); none: every width (the compiled-in grid).
// SkipConstantDigits: the same kernels; after the histogram one small kernel
// says which digits every key shares, and their passes are left out (64-bit
// keys holding 32-bit values sort in four passes, not eight). The host waits
// for that answer (about 20 us a sort), a gain only where digits are
// constant, so the tuner picks it per input class.
template <class P, bool SkipConstantDigits = false, class... KeyBits>
VariantInfo onesweep_info() {
  VariantInfo v;
  Params params = P::params();
  if (SkipConstantDigits) params.push_back({"constant_digits", "", "skip_constant_digits"});
  v.label = "radix.onesweep." + param_label(params);
  v.family = "radix";
  v.description = "Onesweep-class LSD radix: one histogram pass, then per digit one kernel that ranks "
                  "(warp match-any), looks back for its offsets and scatters through shared memory";
  v.seed = "001 further reading (Onesweep); anchors.md";
  take_every_type(v);
  if constexpr (sizeof...(KeyBits) > 0) {
    v.key_types.clear();
    for (KeyType k : kAllKeyTypes)
      if (((key_bytes(k) == sizeof(KeyBits)) || ...)) v.key_types.push_back(k);
  }
  v.descending = true;
  v.stable = true;
  v.const_input = true;
  v.params = params;
  v.tile_keys = P::kTile;
  v.bytes_per_key = [](const Problem& p) { return traffic::onesweep(p, P::kRadixBits); };
  v.unsupported = [](const Problem& p) { return smem_reason(P::smem_bytes(p)); };
  v.make = [](const Problem& p) {
    return with_key_bits(p.key, [&](auto bits_tag) -> std::unique_ptr<Instance> {
      using Bits = typename decltype(bits_tag)::type;
      if constexpr (sizeof...(KeyBits) == 0 || (std::is_same_v<Bits, KeyBits> || ...))
        return make_onesweep<P, Bits>(p, 0, SkipConstantDigits);
      else
        throw std::logic_error("radix.onesweep: key width not built into this point");
    });
  };
  return v;
}

}  // namespace sortbench::radix
