// Onesweep's kernels (common/onesweep.cuh has the design): the histogram of
// every pass, the digit scan, the per-pass kernel a tile runs (rank, look
// back, scatter), the persistent histogram-and-passes kernel of the top digit
// first mode, and the check of digits every key shares. The host side that
// launches them is onesweep_dispatch.cuh.
#pragma once

#include "match_rank.cuh"
#include "onesweep_policy.cuh"
#include "radix_common.cuh"

namespace sortbench::radix {

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
// shared atomic a key per counted digit. *negative_zero becomes nonzero where
// a float key is -0.0 (PassKeyCode::with_digit_kind).
// Owner: a design whose translation unit instantiates the kernel beside
// onesweep_keys{8,16,32,64}.cu's own (a kernel instantiated in two files of
// one program failed to launch from one of them: onesweep_dispatch.cuh).
template <int RadixBits, class Bits, class Owner = void>
__global__ void __launch_bounds__(kHistThreads)
    histogram_kernel(const Bits* __restrict__ keys, unsigned n, KeyMap<Bits> map, unsigned long long* __restrict__ hist,
                     unsigned pass_stride, int first_pass, unsigned* __restrict__ negative_zero) {
  constexpr int kBins = 1 << RadixBits;
  constexpr int kPasses = radix_passes<Bits>(RadixBits);
  extern __shared__ unsigned counts[];  // [kPasses][kBins]
  for (int i = threadIdx.x; i < kPasses * kBins; i += kHistThreads) counts[i] = 0;
  __syncthreads();
  common::chain_wait();
  common::chain_release();
  bool saw_negative_zero = false;
  auto count = [&](Bits key) {
    count_digits<RadixBits>(counts, PassKeyCode<Bits>::ranked_bits(map, key), first_pass);
    saw_negative_zero |= PassKeyCode<Bits>::is_negative_zero(map, key);
  };
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
  if (__syncthreads_or(saw_negative_zero) && threadIdx.x == 0) *negative_zero = 1;
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
// verdict (skip_constant_digits; else null): block p also writes
// verdict[p], in host memory mapped for the device, 2 where one digit holds
// all n keys (the pass would leave them where they are), else 1.
constexpr int kBinScanThreads = 256;
template <int RadixBits>
__global__ void __launch_bounds__(kBinScanThreads)
    bin_scan_kernel(unsigned long long* hist, unsigned pass_stride, std::uint32_t* verdict, unsigned long long n) {
  __shared__ BlockScanShfl<kBinScanThreads, unsigned long long>::Storage s;
  common::chain_wait();
  common::chain_release();
  constexpr int kBins = 1 << RadixBits, kPer = (kBins + kBinScanThreads - 1) / kBinScanThreads;
  unsigned long long* h = hist + std::size_t(blockIdx.x) * pass_stride;
  unsigned long long c[kPer];
  load_digit_counts<kBins>(h, c);
  if (verdict) {
    bool whole = false;
#pragma unroll
    for (int k = 0; k < kPer; ++k) whole |= c[k] == n;
    whole = __syncthreads_or(whole);
    if (threadIdx.x == 0) reinterpret_cast<volatile std::uint32_t*>(verdict)[blockIdx.x] = whole ? 2 : 1;
  }
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

// How a pass's tiles load and store their keys: keys_in and keys_out of the
// pass's key width, with values (if any) beside them. A design that keeps
// its items in another form between the passes (onesweep_packed_pairs.cuh)
// has an IO of its own: kPacksOnLoad, load(i) builds the tile's key of input
// position i; kUnpacksOnStore, out_address(pos) is where a digit's output
// position pos goes and store(address, i, key) writes the key of tile
// position i there. kCodedByPass: the pass's PassKeyCode encodes the keys it
// loads and decodes those it stores; else they are unsigned codes already,
// and the tile compiles no other key kind.
struct PlainTileIO {
  static constexpr bool kPacksOnLoad = false, kUnpacksOnStore = false, kCodedByPass = true;
};

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
template <class P, bool WrittenThisLaunch, bool Full, KeyKind DigitKind, class Bits, class V, class IO>
__device__ __forceinline__ void pass_tile_of(typename P::template Smem<Bits, V>& s, unsigned tile, unsigned tiles,
                                             const Bits* __restrict__ keys_in, Bits* __restrict__ keys_out,
                                             const V* __restrict__ values_in, V* __restrict__ values_out,
                                             unsigned n, PassKeyCode<Bits> code, int shift,
                                             const unsigned long long* __restrict__ bin_start,
                                             unsigned long long* __restrict__ next_start, unsigned* status,
                                             const IO& io) {
  static_assert(!(IO::kPacksOnLoad || IO::kUnpacksOnStore) || !kHasValues<V>, "a packing IO moves keys only");
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
    if (full || i < valid) {
      if constexpr (IO::kPacksOnLoad) key[j] = io.load(base + i);
      else key[j] = load_input<WrittenThisLaunch>(keys_in + base + i);
    }
  }
  if constexpr (IO::kCodedByPass) code.encode_loaded(key);

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
  // Keys only: a full tile whose keys all share one digit is in order
  // already (CUB's TryShortCircuit), so each key's rank is its place in the
  // tile and the ranking is skipped. In the upper passes of keys with few
  // distinct values or heavy hitters most tiles are such. CUB also copies
  // such a tile straight from registers to device memory; here it still
  // goes through shared memory: the keys, held or loaded again, took
  // registers through the look-back, and 512 x 32 and 384 x 32 tiles
  // spilled. Pairs do not take it: their passes got slower on most
  // distributions, few unique values included for u64 keys
  // (variants/radix/PERFORMANCE.md, "Tiles of one digit").
  bool one_digit = false;
  if constexpr (!kHasValues<V>) {
#pragma unroll
    for (int k = 0; k < BPT; ++k) one_digit |= full && bin_count[k] == unsigned(Tile);
    one_digit = __syncthreads_or(one_digit);
  } else {
    __syncthreads();
  }

  // Reorder in shared memory while predecessors finish publishing. Keys
  // only: each key goes to its place as soon as its row is ranked, so no
  // array of ranks is live through the ranking, the kernel's register peak
  // (u32 keys at 28 keys a thread spilled 64 bytes, now none; 2^28 on an
  // H200 3-14 % less time at 512 x 16..32 tiles, u64 keys 2-11 % at 16..20:
  // docs/experiments/issue15-steps.md). With values the ranks
  // are needed again for the values, and writing each key at once was 1-7 %
  // slower; pairs keep the rank array and the
  // barrier before the reorder. With the counters out of the union the
  // barrier no longer guards shared memory, but removing it was no faster
  // (0.997-1.011x the time, docs/experiments/issue15-steps.md).
  unsigned rank[kHasValues<V> ? Items : 1];
  if constexpr (kHasValues<V>) {
    Rank::rank(s.warp_offset, digit, rank);
    __syncthreads();
#pragma unroll
    for (int j = 0; j < Items; ++j)
      if (full || rank[j] < unsigned(valid)) s.u.keys[rank[j]] = key[j];
  } else if (one_digit) {
#pragma unroll
    for (int j = 0; j < Items; ++j) s.u.keys[P::template slot<Bits, V>(unsigned(Rank::index(j)))] = key[j];
  } else {
    Rank::rank_each(s.warp_offset, digit, [&](int j, unsigned r) {
      if (full || r < unsigned(valid)) s.u.keys[P::template slot<Bits, V>(r)] = key[j];
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
      if constexpr (IO::kUnpacksOnStore) s.bin_out[b] = io.out_address(pos);
      else s.bin_out[b] = reinterpret_cast<unsigned long long>(keys_out) + pos * sizeof(Bits);
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
  auto scatter_tile = [&](auto kind) {
    [[maybe_unused]] constexpr KeyKind K = decltype(kind)::value;  // an unpacking store decodes nothing
    auto scatter = [&](int k) {
      const unsigned i = k * T + threadIdx.x;
      const Bits kk = s.u.keys[P::template slot<Bits, V>(i)];
      const unsigned d = digit_of(kk);
      if constexpr (IO::kUnpacksOnStore) io.store(s.bin_out[d], i, kk);
      else reinterpret_cast<Bits*>(s.bin_out[d])[i] = code.template decoded<K>(kk);
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
  };
  if constexpr (IO::kCodedByPass) code.with_static_decode(scatter_tile);
  else scatter_tile(std::integral_constant<KeyKind, KeyKind::unsigned_int>{});
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
// the pairs' tile was 6-10 % slower at 2^28 u32 + u32 on an H200
// (docs/experiments/issue15-steps.md).
template <class P, bool WrittenThisLaunch, class Bits, class V, class IO = PlainTileIO>
__device__ __forceinline__ void pass_tile(typename P::template Smem<Bits, V>& s, unsigned tile, unsigned tiles,
                                          const Bits* __restrict__ keys_in, Bits* __restrict__ keys_out,
                                          const V* __restrict__ values_in, V* __restrict__ values_out, unsigned n,
                                          PassKeyCode<Bits> code, int shift,
                                          const unsigned long long* __restrict__ bin_start,
                                          unsigned long long* __restrict__ next_start, unsigned* status,
                                          bool negative_zero_possible, const IO& io = {}) {
  auto tile_of = [&](auto full, auto digit_kind) {
    pass_tile_of<P, WrittenThisLaunch, decltype(full)::value, decltype(digit_kind)::value>(
        s, tile, tiles, keys_in, keys_out, values_in, values_out, n, code, shift, bin_start, next_start, status, io);
  };
  auto tile_of_digit_kind = [&](auto digit_kind) {
    if constexpr (kHasValues<V>) tile_of(std::false_type{}, digit_kind);
    else if (n - tile * P::kTile >= unsigned(P::kTile)) tile_of(std::true_type{}, digit_kind);
    else tile_of(std::false_type{}, digit_kind);
  };
  if constexpr (IO::kCodedByPass) code.with_digit_kind(negative_zero_possible, tile_of_digit_kind);
  else tile_of_digit_kind(std::integral_constant<KeyKind, KeyKind::unsigned_int>{});
}

// IO: PlainTileIO, or a design's own (pass_tile_of).
template <class P, class Bits, class V, class IO = PlainTileIO>
__global__ void __launch_bounds__(P::kBlockThreads, P::kMinBlocks)
    pass_kernel(const Bits* __restrict__ keys_in, Bits* __restrict__ keys_out, const V* __restrict__ values_in,
                V* __restrict__ values_out, unsigned n, PassKeyCode<Bits> code, int shift,
                const unsigned long long* __restrict__ bin_start, unsigned long long* __restrict__ next_start,
                unsigned* status, unsigned* tile_counter, const unsigned* __restrict__ negative_zero, IO io) {
  extern __shared__ __align__(16) unsigned char smem_raw[];
  auto& s = *reinterpret_cast<typename P::template Smem<Bits, V>*>(smem_raw);
  for (int i = threadIdx.x; i < P::kBins * P::kWarps; i += P::kBlockThreads) (&s.warp_offset[0][0])[i] = 0;
  common::chain_wait();
  common::chain_release();
  if (threadIdx.x == 0) s.tile = atomicAdd(tile_counter, 1u);
  __syncthreads();
  // Tiles are numbered in the order they start, so every tile this one waits
  // for in the look-back is already running: no deadlock.
  // *negative_zero is read after chain_wait: the histogram kernel, two
  // launches back, has set it.
  pass_tile<P, false>(s, s.tile, gridDim.x, keys_in, keys_out, values_in, values_out, n, code, shift, bin_start,
                      next_start, status, *negative_zero != 0, io);
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
// docs/experiments/issue15-steps.md); 8 was no faster in this kernel.
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
                       pass_counts + P::kBins, status + std::size_t(pass) * tiles * P::kBins, true);
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

}  // namespace sortbench::radix
