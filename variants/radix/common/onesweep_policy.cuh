// Onesweep's tuning space and policy (common/onesweep.cuh has the design):
// every value of each parameter and the constraints between them, declared
// once, and the policy struct a point instantiates. The kernels are in
// onesweep_agent.cuh, the host side in onesweep_dispatch.cuh.
#pragma once

#include "radix_common.cuh"
#include "sortbench/family_space.hpp"

namespace sortbench::radix {

// The Onesweep parameter space, declared once: the policy's label and checks
// below, and the on-demand points onesweep.cu registers it for, read it.
struct OnesweepSpace {
  // Why (radix_bits, items_per_thread, block_threads, min_blocks_per_sm,
  // lookback_window, padded_slots) is no point of these kernels; nullptr if
  // it is one.
  static constexpr const char* shape_error(int rb, int ipt, int tpb, int mb, int lw, int pad = 1) {
    if (rb < 1 || rb > 11) return "radix_bits outside 1..11 (digit counters and look-back words per tile)";
    if (ipt < 1 || ipt > 32) return "items_per_thread outside 1..32";
    if (tpb < 32 || tpb > 1024 || tpb % 32) return "block_threads not whole warps from 32 to 1024";
    if (std::size_t(tpb) * ipt > 65536) return "a tile above 65536 keys (ranks are 16-bit)";
    if (mb < 1 || mb > 8) return "min_blocks_per_sm outside 1..8";
    if (lw < 1 || lw > 32 || (lw & (lw - 1))) return "lookback_window not a power of two up to 32";
    if (pad != 0 && pad != 1) return "padded_slots neither 0 nor 1";
    return nullptr;
  }
  // Elements of a keys-only tile between two padding elements: 128 bytes,
  // one row of the 32 banks (OnesweepPolicy::slot).
  static constexpr unsigned padding_period(std::size_t element_bytes) { return unsigned(128 / element_bytes); }
  // Elements of a keys-only tile's shared array with its padding (pad 0:
  // none).
  static constexpr std::size_t padded_tile(std::size_t tile, std::size_t element_bytes, int pad = 1) {
    return pad ? tile + tile / padding_period(element_bytes) : tile;
  }
  // sizeof(OnesweepPolicy<...>::Smem<Bits, V>), for points not compiled yet
  // (value_bytes 0: keys only); the policy asserts the two agree.
  static constexpr std::size_t smem_bytes(int rb, int ipt, int tpb, std::size_t key_bytes, std::size_t value_bytes,
                                         int pad = 1) {
    const std::size_t bins = std::size_t(1) << rb, warps = std::size_t(tpb) / 32, tile = std::size_t(tpb) * ipt;
    const std::size_t slot = value_bytes ? value_bytes : key_bytes;
    std::size_t align_u = 4;
    if (key_bytes > align_u) align_u = key_bytes;
    if (slot > align_u) align_u = slot;
    const std::size_t u =
        value_bytes ? tile * (slot > key_bytes ? slot : key_bytes) : padded_tile(tile, key_bytes, pad) * key_bytes;
    auto round_up = [](std::size_t x, std::size_t a) { return (x + a - 1) / a * a; };
    // The digit counters, the keys' and values' union, the 64-bit output
    // positions, the scan's warp sums and total, the tile id.
    const std::size_t end =
        round_up(round_up(warps * bins * 4, align_u) + round_up(u, align_u), 8) + bins * 8 + (warps + 1) * 4 + 4;
    return round_up(end, align_u > 8 ? align_u : 8);
  }
  // Why point p (of axes()) cannot run on a GPU of threads_per_sm threads
  // an SM: its shape or its blocks' threads; empty if it can.
  static std::string point_error(const SpacePoint& p, int threads_per_sm) {
    const int rb = int(p[0]), ipt = int(p[1]), tpb = int(p[2]), mb = int(p[3]), lw = int(p[4]), pad = int(p[5]);
    if (const char* e = shape_error(rb, ipt, tpb, mb, lw, pad)) return e;
    if (mb * tpb > threads_per_sm)
      return "min_blocks_per_sm x block_threads = " + std::to_string(mb * tpb) + " threads, above the GPU's " +
             std::to_string(threads_per_sm) + " per SM";
    return {};
  }
  // Why point p's tile of `what` (key_bytes keys, each with value_bytes of
  // value, 0: none) does not fit the GPU's shared memory per block or, at
  // min_blocks_per_sm blocks, per SM; empty if it fits.
  static std::string smem_error(const SpacePoint& p, std::size_t key_bytes, std::size_t value_bytes,
                                const std::string& what, std::size_t per_block, std::size_t per_sm) {
    const int mb = int(p[3]);
    const std::size_t smem = smem_bytes(int(p[0]), int(p[1]), int(p[2]), key_bytes, value_bytes, int(p[5]));
    if (smem > per_block)
      return what + " need " + std::to_string(smem) + " B of shared memory per block; the GPU has " +
             std::to_string(per_block);
    if (mb > 1 && std::size_t(mb) * (smem + 1024) > per_sm)
      return what + ": " + std::to_string(mb) + " blocks of " + std::to_string(smem) +
             " B shared memory (and 1 KB reserved each) do not fit one SM's " + std::to_string(per_sm) + " B";
    return {};
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
            {"lookback_window", "lw", {1, 2, 4, 8, 16, 32}, 8},
            {"padded_slots", "pad", {0, 1}, 1}};
  }
};

// MinBlocks > 1 asks the compiler to fit that many blocks per SM (a register
// cap): more tiles in flight hide the latency of loads and look-back.
// LookbackWindow: predecessors one look-back step reads at once (8 beat 16 and
// 32 on an H200: wider windows load words past the first inclusive prefix for
// nothing; radix-steps.json keeps a 16-wide point, `.lw16`).
// PaddedSlots: whether a keys-only tile's shared array has a padding element
// after every 128 bytes (slot() says why); `.pad0` points leave it out, one
// instruction or two less a key where no digit's share lines up with the
// banks. Tiles with values are never padded, so a `.pad0` point with values
// runs its padded sibling's kernels (Padded).
template <int RadixBits, int ItemsPerThread, int BlockThreads, int MinBlocks = 1, int LookbackWindow = 8,
          int PaddedSlots = 1>
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
  static constexpr int kPaddedSlots = PaddedSlots;
  using Padded = OnesweepPolicy<RadixBits, ItemsPerThread, BlockThreads, MinBlocks, LookbackWindow, 1>;
  using Rank = WarpStripedMatchRank<RadixBits, ItemsPerThread, BlockThreads>;
  static_assert(OnesweepSpace::shape_error(RadixBits, ItemsPerThread, BlockThreads, MinBlocks, LookbackWindow,
                                           PaddedSlots) == nullptr,
                "not a point of OnesweepSpace (its shape_error says why)");

  static SpacePoint point() {
    return {RadixBits, ItemsPerThread, BlockThreads, MinBlocks, LookbackWindow, PaddedSlots};
  }
  static Params params() { return space_params(OnesweepSpace::axes(), point()); }

  // Where the key at tile position r sits in a keys-only tile's shared
  // array: one padding element after every 128 bytes (32 banks). Where every
  // digit gets the same share of a tile (sorted keys after the first pass,
  // timestamps' top digit) and the share is a multiple of 32 words, the keys
  // of a row, whose ranks within their digits advance together, would all
  // go to one bank (docs/experiments/realistic-data.md, run 32). A warp's
  // reads of consecutive positions stay in distinct banks. Pairs keep the
  // plain index: the pass with values already holds a rank array, and the
  // index spilled it (16 bytes at 512 x 19 with u32 values).
  template <class Bits, class V>
  __device__ __forceinline__ static unsigned slot(unsigned r) {
    if constexpr (kHasValues<V> || !PaddedSlots) return r;
    else return r + r / OnesweepSpace::padding_period(sizeof(Bits));
  }
  // V: the value type (NoValue for keys only).
  template <class Bits, class V>
  struct Smem {
    using ValueSlot = std::conditional_t<kHasValues<V>, V, Bits>;
    // Per-warp digit counts, then rank offsets. Not in the union with the
    // keys: a key is written to its place as soon as its row is ranked, while
    // other warps still rank theirs.
    typename Rank::Counters warp_offset;
    union {
      Bits keys[kHasValues<V> ? kTile : OnesweepSpace::padded_tile(kTile, sizeof(Bits), PaddedSlots)];
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
                                                                     kHasValues<V> ? sizeof(V) : 0, PaddedSlots),
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

}  // namespace sortbench::radix
