// LSD radix sort in one launch for inputs that fit in the shared memory of one
// thread-block cluster (issue 15's latency lead for small n; Hopper's
// distributed shared memory). The passes are Onesweep's (001 further reading)
// with the device-memory round trip and the look-back taken out:
//   load:     block r of the cluster loads keys [r*slab, (r+1)*slab) once;
//   per pass: each block ranks its slab (Onesweep's warp match-any ranking)
//             and publishes its digit counts in its own shared memory; after a
//             cluster barrier every block reads all blocks' counts, so the
//             global position of each of its digits is a sum of counts
//             (digits before it everywhere, the same digit in blocks before
//             it), not a chained look-back; the block reorders its slab
//             locally and writes each key into the shared memory of the block
//             that owns its output position; a second barrier ends the pass;
//   store:    each block writes its slab once.
// Device memory sees one read and one write of keys (and values); the seven
// launches of Onesweep (clear, histogram, scan, a pass per digit) become one.
//
// Two rankings of a slab (the `ranking` parameter):
//   match            Onesweep's (the default; warp-striped slab);
//   thread_counters  CUB's BlockRadixRank, the ranking of CUB's single-tile
//                    sort: each thread counts its own consecutive keys in
//                    private packed 16-bit counters, and one raking scan turns
//                    them into ranks: no ballots and no atomics per key. Its
//                    counters grow with the digit's width, so it takes
//                    narrower digits and more passes.
#include <cooperative_groups.h>

#include <cub/block/block_radix_rank.cuh>

#include "common/match_rank.cuh"
#include "common/radix_common.cuh"
#ifdef SORTBENCH_LEAN_BUILD
#include "sortbench_lean_points.h"
#endif

namespace sortbench::radix {
namespace {

namespace cg = cooperative_groups;

// Blocks per cluster: 16 is the most Hopper schedules (a non-portable size).
constexpr int kMaxClusterBlocks = 16;

enum class ClusterRanking { match, thread_counters };

// CUB's BlockRadixRank on a blocked slab (thread t holds items
// [t*Items, (t+1)*Items), which is what makes its ranks stable).
template <int RadixBits, int Items, int BlockThreads>
struct ClusterCounterRank {
  static constexpr int kBins = 1 << RadixBits;
  // The raking segment (counter lanes + 1) stays in registers up to 6-bit
  // digits (33 registers); wider digits would spill it.
  using Cub = cub::BlockRadixRank<BlockThreads, RadixBits, false, (RadixBits <= 6), cub::BLOCK_SCAN_WARP_SCANS>;
  static_assert(Cub::BINS_TRACKED_PER_THREAD == (kBins + BlockThreads - 1) / BlockThreads, "digits per thread");
  struct Storage {
    typename Cub::TempStorage cub;
    unsigned start[kBins + 1];  // each digit's first position in the slab, then the slab's size
  };
  struct DigitIsKey {
    __device__ unsigned Digit(unsigned d) const { return d; }
  };
  __device__ static int index(int j) { return int(threadIdx.x) * Items + j; }

  template <int BPT, class DigitOf, class ScanStorage>
  __device__ static void rank_tile(Storage& s, ScanStorage&, DigitOf digit, unsigned (&rank)[Items],
                                   unsigned (&bin_count)[BPT], unsigned (&bin_local)[BPT]) {
    unsigned d[Items];
    int r[Items], start[BPT];
#pragma unroll
    for (int j = 0; j < Items; ++j) d[j] = digit(j);
    Cub(s.cub).RankKeys(d, r, DigitIsKey{}, start);
#pragma unroll
    for (int k = 0; k < BPT; ++k) {
      const int b = threadIdx.x * BPT + k;
      if (b < kBins) s.start[b] = unsigned(start[k]);
      bin_local[k] = unsigned(start[k]);
    }
    if (threadIdx.x == 0) s.start[kBins] = unsigned(BlockThreads * Items);
    __syncthreads();
#pragma unroll
    for (int k = 0; k < BPT; ++k) {
      const int b = threadIdx.x * BPT + k;
      bin_count[k] = b < kBins ? s.start[b + 1] - s.start[b] : 0u;
    }
#pragma unroll
    for (int j = 0; j < Items; ++j) rank[j] = unsigned(r[j]);
  }
};

template <int RadixBits, int ItemsPerThread, int BlockThreads, ClusterRanking Ranking = ClusterRanking::match>
struct ClusterPolicy {
  static constexpr int kRadixBits = RadixBits;
  static constexpr int kBlockThreads = BlockThreads;
  static constexpr int kBins = 1 << RadixBits;
  static constexpr int kSlab = BlockThreads * ItemsPerThread;  // keys owned by one block
  static constexpr int kBinsPerThread = (kBins + BlockThreads - 1) / BlockThreads;
  static_assert(BlockThreads % 32 == 0 && BlockThreads <= 1024, "whole warps");
  static_assert(RadixBits >= 2, "digit counts are copied four at a time");
  static_assert(std::size_t(kSlab) * kMaxClusterBlocks < (std::size_t(1) << 32), "32-bit positions");
  using Rank = std::conditional_t<Ranking == ClusterRanking::match,
                                  SlabMatchRank<RadixBits, ItemsPerThread, BlockThreads>,
                                  ClusterCounterRank<RadixBits, ItemsPerThread, BlockThreads>>;

  // The match ranking is the default: its points keep their labels.
  static Params params() {
    Params p = {{"radix_bits", "rb", std::to_string(RadixBits)},
                {"items_per_thread", "ipt", std::to_string(ItemsPerThread)},
                {"block_threads", "tpb", std::to_string(BlockThreads)}};
    if (Ranking == ClusterRanking::thread_counters) p.push_back({"ranking", "", "thread_counters"});
    return p;
  }

  template <class Bits, class V>
  struct Smem {
    using ValueSlot = std::conditional_t<kHasValues<V>, V, char>;
    ValueSlot values[2][kHasValues<V> ? kSlab : 1];  // the slab before and after a pass
    Bits keys[2][kSlab];
    typename Rank::Storage rank;
    alignas(16) unsigned count[kBins];    // this block's digit counts, read by the whole cluster
    unsigned cluster_count[kMaxClusterBlocks][kBins];  // every block's, copied
    unsigned bin_offset[kBins];           // output position of local position 0 of each digit
    typename BlockScanShfl<BlockThreads>::Storage scan;
  };
};

template <class P, class Bits, class V>
__global__ void __launch_bounds__(P::kBlockThreads)
    cluster_sort_kernel(const Bits* __restrict__ keys_in, Bits* __restrict__ keys_out,
                        const V* __restrict__ values_in, V* __restrict__ values_out, unsigned n, KeyMap<Bits> map,
                        int passes) {
  constexpr int T = P::kBlockThreads, Slab = P::kSlab, Bins = P::kBins, BPT = P::kBinsPerThread;
  constexpr int Items = Slab / T;
  constexpr unsigned kMask = Bins - 1;
  using Rank = typename P::Rank;
  extern __shared__ __align__(16) unsigned char smem_raw[];
  auto& s = *reinterpret_cast<typename P::template Smem<Bits, V>*>(smem_raw);
  cg::cluster_group cluster = cg::this_cluster();
  const unsigned me = cluster.block_rank(), blocks = cluster.num_blocks();
  const unsigned base = me * Slab;
  const int valid = int(min(unsigned(Slab), n - base));

  for (int i = threadIdx.x; i < valid; i += T) {
    s.keys[0][i] = keys_in[base + i];
    if constexpr (kHasValues<V>) s.values[0][i] = values_in[base + i];
  }
  __syncthreads();

  int cur = 0;
  for (int pass = 0; pass < passes; ++pass) {
    const int shift = pass * P::kRadixBits;
    Bits key[Items];
    [[maybe_unused]] V value[Items];
#pragma unroll
    for (int j = 0; j < Items; ++j) {
      const int i = Rank::index(j);
      if (i < valid) {
        key[j] = s.keys[cur][i];
        if constexpr (kHasValues<V>) value[j] = s.values[cur][i];
      }
    }
    auto digit = [&](int j) { return Rank::index(j) < valid ? map.digit(key[j], shift, kMask) : kMask; };
    unsigned bin_count[BPT], bin_local[BPT], rank[Items];
    Rank::rank_tile(s.rank, s.scan, digit, rank, bin_count, bin_local);
#pragma unroll
    for (int k = 0; k < BPT; ++k) {
      const int b = threadIdx.x * BPT + k;
      // Items past the slab's end counted as the last digit are not keys.
      if (b < Bins) s.count[b] = bin_count[k] - (b == Bins - 1 ? unsigned(Slab - valid) : 0u);
    }

    cluster.sync();  // every block's counts are published
    {
      // One copy of all blocks' counts, its remote loads in flight together:
      // a loop over blocks per digit would pay a round trip per block.
      constexpr int kVecs = kMaxClusterBlocks * Bins / 4, kPer = (kVecs + T - 1) / T;
      uint4 c[kPer];
#pragma unroll
      for (int k = 0; k < kPer; ++k) {
        const int v = k * T + threadIdx.x, r = v / (Bins / 4);
        if (r < int(blocks)) c[k] = cluster.map_shared_rank(reinterpret_cast<const uint4*>(s.count), r)[v % (Bins / 4)];
      }
#pragma unroll
      for (int k = 0; k < kPer; ++k) {
        const int v = k * T + threadIdx.x, r = v / (Bins / 4);
        if (r < int(blocks)) reinterpret_cast<uint4*>(&s.cluster_count[r][0])[v % (Bins / 4)] = c[k];
      }
    }
    __syncthreads();
    // A digit's output position: the keys of smaller digits in every block
    // and of the same digit in the blocks before this one.
    unsigned smaller = 0, before[BPT], all[BPT];
#pragma unroll
    for (int k = 0; k < BPT; ++k) {
      const int b = threadIdx.x * BPT + k;
      before[k] = all[k] = 0;
      if (b < Bins)
        for (unsigned r = 0; r < blocks; ++r) {
          const unsigned c = s.cluster_count[r][b];
          all[k] += c;
          if (r < me) before[k] += c;
        }
      smaller += all[k];
    }
    unsigned total;
    smaller = BlockScanShfl<T>::exclusive(smaller, total, s.scan);
#pragma unroll
    for (int k = 0; k < BPT; ++k) {
      const int b = threadIdx.x * BPT + k;
      if (b < Bins) s.bin_offset[b] = smaller + before[k] - bin_local[k];
      smaller += all[k];
    }
    // Reorder locally first, so that consecutive threads write consecutive
    // positions of the destination block (whole runs of a digit).
#pragma unroll
    for (int j = 0; j < Items; ++j)
      if (rank[j] < unsigned(valid)) {
        s.keys[cur][rank[j]] = key[j];
        if constexpr (kHasValues<V>) s.values[cur][rank[j]] = value[j];
      }
    __syncthreads();
    const int next = cur ^ 1;
#pragma unroll
    for (int k = 0; k < Items; ++k) {
      const int i = k * T + threadIdx.x;
      if (i < valid) {
        const Bits kk = s.keys[cur][i];
        const unsigned g = s.bin_offset[map.digit(kk, shift, kMask)] + i;
        const unsigned owner = g / Slab, at = g % Slab;
        cluster.map_shared_rank(&s.keys[next][0], owner)[at] = kk;
        if constexpr (kHasValues<V>) cluster.map_shared_rank(&s.values[next][0], owner)[at] = s.values[cur][i];
      }
    }
    cluster.sync();  // the next slabs are complete; this pass's counts are no longer read
    cur = next;
  }

  for (int i = threadIdx.x; i < valid; i += T) {
    keys_out[base + i] = s.keys[cur][i];
    if constexpr (kHasValues<V>) values_out[base + i] = s.values[cur][i];
  }
}

template <class P, class Bits, class V>
struct ClusterLaunch {
  static constexpr auto kernel = cluster_sort_kernel<P, Bits, V>;
  static constexpr std::size_t smem = sizeof(typename P::template Smem<Bits, V>);

  static unsigned blocks(std::size_t n) { return unsigned((n + P::kSlab - 1) / P::kSlab); }
  static void allow() {
    allow_smem(kernel, smem);
    cuda_check(cudaFuncSetAttribute(kernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1),
               "cudaFuncSetAttribute(non-portable cluster size)");
  }
  static cudaLaunchConfig_t config(unsigned blocks, cudaStream_t s, cudaLaunchAttribute& cluster) {
    cluster.id = cudaLaunchAttributeClusterDimension;
    cluster.val.clusterDim.x = blocks;
    cluster.val.clusterDim.y = cluster.val.clusterDim.z = 1;
    cudaLaunchConfig_t c = {};
    c.gridDim = dim3(blocks);
    c.blockDim = dim3(P::kBlockThreads);
    c.dynamicSmemBytes = smem;
    c.stream = s;
    c.attrs = &cluster;
    c.numAttrs = 1;
    return c;
  }
  // Why this GPU cannot hold the cluster for n keys; empty if it can.
  static std::string why_not(std::size_t n) {
    if (std::string r = smem_reason(smem); !r.empty()) return r;
    if (n <= 1) return {};
    allow();
    cudaLaunchAttribute cluster;
    const cudaLaunchConfig_t c = config(blocks(n), nullptr, cluster);
    int fit = 0;
    cuda_check(cudaOccupancyMaxActiveClusters(&fit, kernel, &c), "cudaOccupancyMaxActiveClusters");
    if (fit > 0) return {};
    return "a cluster of " + std::to_string(blocks(n)) + " blocks with " + std::to_string(smem) +
           " B of shared memory each does not fit this GPU";
  }
};

template <class P, class Bits>
class ClusterInstance final : public Instance {
 public:
  explicit ClusterInstance(const Problem& p) : p_(p) {
    with_value_type(p_.value, [](auto tag) { ClusterLaunch<P, Bits, typename decltype(tag)::type>::allow(); });
  }
  std::size_t temp_bytes(const Buffers&, cudaStream_t) override { return 0; }
  std::vector<KernelLaunch> kernels() const override {
    return with_value_type(p_.value, [&](auto tag) -> std::vector<KernelLaunch> {
      using L = ClusterLaunch<P, Bits, typename decltype(tag)::type>;
      return {kernel_launch("sort", L::kernel, P::kBlockThreads, L::smem)};
    });
  }
  void run(const Buffers& b, void*, std::size_t, cudaStream_t s) override {
    if (p_.n <= 1) return copy_trivial(p_, b, s);
    with_value_type(p_.value, [&](auto tag) {
      using V = typename decltype(tag)::type;
      using L = ClusterLaunch<P, Bits, V>;
      cudaLaunchAttribute cluster;
      const cudaLaunchConfig_t c = L::config(L::blocks(p_.n), s, cluster);
      const int passes = (int(sizeof(Bits) * 8) + P::kRadixBits - 1) / P::kRadixBits;
      cuda_check(cudaLaunchKernelEx(&c, L::kernel, static_cast<const Bits*>(b.keys_in), static_cast<Bits*>(b.keys_out),
                                    static_cast<const V*>(b.values_in), static_cast<V*>(b.values_out), unsigned(p_.n),
                                    key_map<Bits>(p_), passes),
                 "radix.cluster: launch");
    });
  }

 private:
  Problem p_;
};

template <int RadixBits, int ItemsPerThread, int BlockThreads, ClusterRanking Ranking = ClusterRanking::match>
VariantInfo cluster_info() {
  using P = ClusterPolicy<RadixBits, ItemsPerThread, BlockThreads, Ranking>;
  VariantInfo v;
  v.label = "radix.cluster." + param_label(P::params());
  v.family = "radix";
  v.description = std::string("LSD radix in one launch: a thread-block cluster holds the keys in shared memory, ranks "
                              "them ") +
                  (Ranking == ClusterRanking::match ? "as Onesweep does" : "with CUB's BlockRadixRank (per-thread counters)") +
                  " and moves them between its blocks through distributed shared memory";
  v.seed = "001 further reading (Onesweep); issue 15 (one launch for small n)";
  take_every_type(v);
  v.descending = true;
  v.stable = true;
  v.params = P::params();
  v.tile_keys = P::kSlab;
  v.max_n = std::size_t(P::kSlab) * kMaxClusterBlocks;
  v.max_n_why = "one cluster of at most " + std::to_string(kMaxClusterBlocks) + " blocks of " +
                std::to_string(P::kSlab) + " keys";
  // Device memory: the keys (and values) are read once and written once.
  v.bytes_per_key = [](const Problem& p) { return 2.0 * double(key_bytes(p.key) + value_bytes(p.value)); };
  v.unsupported = [](const Problem& p) {
    return with_bits_and_value(p, [&](auto bits_tag, auto value_tag) {
      return ClusterLaunch<P, typename decltype(bits_tag)::type, typename decltype(value_tag)::type>::why_not(p.n);
    });
  };
  v.make = [](const Problem& p) {
    return with_key_bits(p.key, [&](auto bits_tag) -> std::unique_ptr<Instance> {
      return std::make_unique<ClusterInstance<P, typename decltype(bits_tag)::type>>(p);
    });
  };
  return v;
}

}  // namespace

// Clusters of up to 16 blocks sort up to 16 slabs: slabs of 1024, 2048, 4096
// and 8192 keys reach 2^14, 2^15, 2^16 and 2^17 keys. Smaller slabs put more
// SMs to work at a given n, which is what wins below 2^16; the tuner picks
// per size (results/<gpu>/best.json). 1024-thread blocks with 16 keys per
// thread spilled registers and were the slowest point at every size on an
// H100. With CUB's ranking, 6- and 7-bit digits at 4352-key slabs
// (rb6.ipt17.tpb256, rb7.ipt17.tpb256) and rb6.ipt9.tpb256 were measured and
// never won a size on either GPU (docs/experiments/issue15-steps.md);
// rb6.ipt9.tpb128 (1152-key slabs) wins at 2^14 for
// 64-bit keys.
#ifdef SORTBENCH_LEAN_BUILD
// The lean build: the points a committed best.json names (cmake/lean_points.cmake).
#define SORTBENCH_RADIX_REGISTER_CLUSTER(...) SORTBENCH_REGISTER_VARIANT((cluster_info<__VA_ARGS__>()));
SORTBENCH_LEAN_CLUSTER(SORTBENCH_RADIX_REGISTER_CLUSTER)
#undef SORTBENCH_RADIX_REGISTER_CLUSTER
#else
SORTBENCH_REGISTER_VARIANT(cluster_info<8, 2, 512>());
SORTBENCH_REGISTER_VARIANT(cluster_info<8, 4, 512>());
SORTBENCH_REGISTER_VARIANT(cluster_info<8, 8, 512>());
SORTBENCH_REGISTER_VARIANT(cluster_info<8, 16, 512>());
SORTBENCH_REGISTER_VARIANT(cluster_info<8, 4, 1024>());
SORTBENCH_REGISTER_VARIANT(cluster_info<6, 9, 128, ClusterRanking::thread_counters>());
#endif

}  // namespace sortbench::radix
