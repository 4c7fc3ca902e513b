// The reduce-then-scan radix pass of PMPP 13.4-13.6 with its parameters in one
// policy, shared by the local-sort (13.4), r-bit (13.5) with coarsening (13.6)
// and base-10 (seed 002) variants. Per digit pass:
//   1. count:   each tile counts its digits into a global bucket table stored
//               bucket-major (table[d * tiles + tile]), so that
//   2. scan:    one exclusive scan of the table gives every (bucket, tile) its
//               first output position (three launches or single pass);
//   3. scatter: each tile ranks its keys locally (in shared memory), reorders
//               them into local buckets there, and writes each local bucket to
//               consecutive output positions: coalesced writes.
#pragma once

#include <memory>

#include "block_rank.cuh"
#include "global_scan.cuh"
#include "sortbench/traffic.hpp"

namespace sortbench::radix {

template <Ranking R, int T, int Items, int Bins, BlockScanAlgo A>
struct RankerFor;
template <int T, int Items, int Bins, BlockScanAlgo A>
struct RankerFor<Ranking::split, T, Items, Bins, A> {
  static_assert((Bins & (Bins - 1)) == 0, "split ranking needs 2^r buckets");
  using type = RankSplit<T, Items, __builtin_ctz(Bins), A>;
};
template <int T, int Items, int Bins, BlockScanAlgo A>
struct RankerFor<Ranking::match, T, Items, Bins, A> {
  static_assert((Bins & (Bins - 1)) == 0, "match ranking here uses 2^r buckets");
  using type = RankMatch<T, Items, __builtin_ctz(Bins), A>;
};
template <int T, int Items, int Bins, BlockScanAlgo A>
struct RankerFor<Ranking::thread_counters, T, Items, Bins, A> {
  using type = RankThreadCounters<T, Items, Bins, A>;
};

// The parameter point of a reduce-then-scan radix sort. Bins is the number of
// buckets of one digit (2^r, or 10 for the decimal digits of seed 002).
template <int BlockThreads, int ItemsPerThread, int Bins, Ranking Rank, ScanStrategy Scan,
          BlockScanAlgo BScan>
struct TablePolicy {
  static constexpr int kBlockThreads = BlockThreads;
  static constexpr int kItemsPerThread = ItemsPerThread;
  static constexpr int kBins = Bins;
  static constexpr int kTile = BlockThreads * ItemsPerThread;
  static constexpr Ranking kRanking = Rank;
  static constexpr ScanStrategy kScan = Scan;
  static constexpr BlockScanAlgo kBlockScan = BScan;
  static_assert(BlockThreads % 32 == 0 && BlockThreads <= 1024, "whole warps, at most 1024 threads");
  using Ranker = typename RankerFor<Rank, BlockThreads, ItemsPerThread, Bins, BScan>::type;
  using TableScan = GlobalScan<256, BScan>;

  // V: the value type (NoValue for keys only).
  template <class Bits, class V>
  struct Smem {
    using ValueSlot = std::conditional_t<kHasValues<V>, V, Bits>;
    union {
      typename Ranker::Storage rank;
      Bits keys[kTile];
      ValueSlot values[kTile];
    } u;
    unsigned bin_base[Bins];  // local_start[d], then table entry minus local_start[d]
  };
  template <class Bits, class V>
  static constexpr std::size_t smem_bytes() {
    return sizeof(Smem<Bits, V>);
  }
  // The same for a run-time problem.
  static std::size_t smem_bytes(const Problem& p) {
    return with_bits_and_value(p, [](auto bits_tag, auto value_tag) {
      return smem_bytes<typename decltype(bits_tag)::type, typename decltype(value_tag)::type>();
    });
  }
};

namespace table_detail {

template <int T, int Items, int Bins, class Bits, class Digit>
__global__ void __launch_bounds__(T)
    count_kernel(const Bits* __restrict__ keys, std::size_t n, unsigned* __restrict__ table, unsigned tiles,
                 Digit digit) {
  __shared__ unsigned hist[Bins];
  for (int d = threadIdx.x; d < Bins; d += T) hist[d] = 0;
  __syncthreads();
  const std::size_t base = std::size_t(blockIdx.x) * (T * Items);
#pragma unroll
  for (int j = 0; j < Items; ++j) {
    const std::size_t i = base + j * T + threadIdx.x;
    if (i < n) atomicAdd(&hist[digit(keys[i])], 1u);
  }
  __syncthreads();
  for (int d = threadIdx.x; d < Bins; d += T) table[std::size_t(d) * tiles + blockIdx.x] = hist[d];
}

template <class P, class Bits, class V, class Digit>
__global__ void __launch_bounds__(P::kBlockThreads)
    scatter_kernel(const Bits* __restrict__ keys_in, Bits* __restrict__ keys_out, const V* __restrict__ values_in,
                   V* __restrict__ values_out, std::size_t n, const unsigned* __restrict__ table, unsigned tiles,
                   Digit digit) {
  constexpr int T = P::kBlockThreads, Items = P::kItemsPerThread, Tile = P::kTile, Bins = P::kBins;
  constexpr bool HasValues = kHasValues<V>;
  using Ranker = typename P::Ranker;
  extern __shared__ __align__(16) unsigned char smem_raw[];
  auto& s = *reinterpret_cast<typename P::template Smem<Bits, V>*>(smem_raw);

  const std::size_t base = std::size_t(blockIdx.x) * Tile;
  const int valid = int(min(std::size_t(Tile), n - base));
  for (int d = threadIdx.x; d < Bins; d += T) s.bin_base[d] = 0;

  Bits key[Items];
  unsigned dig[Items], rank[Items];
  V value[Items];
#pragma unroll
  for (int j = 0; j < Items; ++j) {
    const int i = Ranker::index(threadIdx.x, j);
    if (i < valid) {
      key[j] = keys_in[base + i];
      dig[j] = digit(key[j]);
      if constexpr (HasValues) value[j] = values_in[base + i];
    } else {
      dig[j] = Bins - 1;  // padding sorts after every key of the tile
    }
  }
  Ranker::rank(dig, rank, s.bin_base, s.u.rank);

  for (int d = threadIdx.x; d < Bins; d += T)
    s.bin_base[d] = table[std::size_t(d) * tiles + blockIdx.x] - s.bin_base[d];
#pragma unroll
  for (int j = 0; j < Items; ++j)
    if (rank[j] < unsigned(valid)) s.u.keys[rank[j]] = key[j];
  __syncthreads();

  // Local bucket d occupies positions [local_start[d], ...) of the reordered
  // tile and lands at table[d][tile]...: consecutive threads write
  // consecutive addresses within a bucket.
  unsigned out_digit[Items];
#pragma unroll
  for (int k = 0; k < Items; ++k) {
    const int i = k * T + threadIdx.x;
    if (i < valid) {
      const Bits kk = s.u.keys[i];
      out_digit[k] = digit(kk);
      keys_out[s.bin_base[out_digit[k]] + i] = kk;
    }
  }
  if constexpr (HasValues) {
    __syncthreads();
#pragma unroll
    for (int j = 0; j < Items; ++j)
      if (rank[j] < unsigned(valid)) s.u.values[rank[j]] = value[j];
    __syncthreads();
#pragma unroll
    for (int k = 0; k < Items; ++k) {
      const int i = k * T + threadIdx.x;
      if (i < valid) values_out[s.bin_base[out_digit[k]] + i] = s.u.values[i];
    }
  }
}

}  // namespace table_detail

// Digits of an LSD radix sort in base 2^bits.
template <int RadixBits>
struct BinaryDigits {
  static constexpr int kBins = 1 << RadixBits;
  template <class Bits>
  static int passes() {
    return (int(sizeof(Bits) * 8) + RadixBits - 1) / RadixBits;
  }
  template <class Bits>
  static RadixDigit<Bits> digit(KeyMap<Bits> map, int pass) {
    return RadixDigit<Bits>{map, pass * RadixBits, unsigned(kBins - 1)};
  }
};

// A reduce-then-scan radix sort: Policy fixes the kernels, Digits the digit
// of each pass; Bits is the key width.
template <class Policy, class Digits, class Bits>
class TableRadixInstance final : public Instance {
 public:
  explicit TableRadixInstance(const Problem& p) : p_(p) {
    passes_ = Digits::template passes<Bits>();
    tiles_ = unsigned((p_.n + Policy::kTile - 1) / Policy::kTile);
    table_len_ = std::size_t(Policy::kBins) * tiles_;
    const bool alt = pass_chain_needs_alt(passes_);
    alt_keys_ = layout_.add(alt ? p_.n * sizeof(Bits) : 0);
    alt_values_ = layout_.add(alt ? p_.n * value_bytes(p_.value) : 0);
    table_ = layout_.add(table_len_ * 4);
    scan_temp_ = layout_.add(Policy::TableScan::temp_bytes(table_len_, Policy::kScan));
    with_value_type(p_.value, [](auto value_tag) {
      using V = typename decltype(value_tag)::type;
      allow_smem(table_detail::scatter_kernel<Policy, Bits, V, Digit>, Policy::template smem_bytes<Bits, V>());
    });
  }
  std::size_t temp_bytes(const Buffers&, cudaStream_t) override { return layout_.bytes; }
  std::vector<KernelLaunch> kernels() const override {
    constexpr int T = Policy::kBlockThreads;
    std::vector<KernelLaunch> out = {kernel_launch(
        "count", table_detail::count_kernel<T, Policy::kItemsPerThread, Policy::kBins, Bits, Digit>, T, 0)};
    Policy::TableScan::append_kernels(Policy::kScan, out);
    with_value_type(p_.value, [&](auto value_tag) {
      using V = typename decltype(value_tag)::type;
      out.push_back(kernel_launch("scatter", table_detail::scatter_kernel<Policy, Bits, V, Digit>, T,
                                  Policy::template smem_bytes<Bits, V>()));
    });
    return out;
  }
  void run(const Buffers& b, void* temp, std::size_t bytes, cudaStream_t s) override {
    if (p_.n <= 1) return copy_trivial(p_, b, s);
    if (bytes < layout_.bytes) throw std::invalid_argument("radix: temp storage too small");
    with_value_type(p_.value, [&](auto value_tag) { sort<typename decltype(value_tag)::type>(b, temp, s); });
  }

 private:
  using Digit = decltype(Digits::digit(KeyMap<Bits>{}, 0));

  template <class V>
  void sort(const Buffers& b, void* temp, cudaStream_t s) {
    constexpr int T = Policy::kBlockThreads;
    constexpr std::size_t smem = Policy::template smem_bytes<Bits, V>();
    const KeyMap<Bits> map = key_map<Bits>(p_);
    auto* kin = static_cast<Bits*>(b.keys_in);
    auto* kout = static_cast<Bits*>(b.keys_out);
    auto* kalt = temp_at<Bits>(temp, alt_keys_);
    auto* vin = static_cast<V*>(b.values_in);
    auto* vout = static_cast<V*>(b.values_out);
    auto* valt = temp_at<V>(temp, alt_values_);
    unsigned* table = temp_at<unsigned>(temp, table_);
    for (int pass = 0; pass < passes_; ++pass) {
      const auto digit = Digits::digit(map, pass);
      const auto k = pass_io(pass, passes_, kin, kout, kalt);
      const auto v = pass_io(pass, passes_, vin, vout, valt);
      table_detail::count_kernel<T, Policy::kItemsPerThread, Policy::kBins>
          <<<tiles_, T, 0, s>>>(k.src, p_.n, table, tiles_, digit);
      check_launch("radix: count");
      Policy::TableScan::run(table, table_len_, Policy::kScan, temp_at<void>(temp, scan_temp_), s);
      table_detail::scatter_kernel<Policy, Bits, V>
          <<<tiles_, T, smem, s>>>(k.src, k.dst, v.src, v.dst, p_.n, table, tiles_, digit);
      check_launch("radix: scatter");
    }
  }

  Problem p_;
  TempLayout layout_;
  int passes_ = 0;
  unsigned tiles_ = 0;
  std::size_t table_len_ = 0, alt_keys_ = 0, alt_values_ = 0, table_ = 0, scan_temp_ = 0;
};

// The instance for the problem's key width.
template <class Policy, class Digits>
std::unique_ptr<Instance> make_table_radix(const Problem& p) {
  return with_key_bits(p.key, [&](auto bits_tag) -> std::unique_ptr<Instance> {
    return std::make_unique<TableRadixInstance<Policy, Digits, typename decltype(bits_tag)::type>>(p);
  });
}

template <class Policy>
std::string table_smem_reason(const Problem& p) {
  return smem_reason(Policy::smem_bytes(p));
}

// Bytes per key of one of these sorts: keys read twice and written once per
// pass, the bucket table (Bins words per tile) written, scanned and read.
template <class Policy>
double table_bytes_per_key(const Problem& p, int passes) {
  return traffic::reduce_then_scan_table(p, passes, double(Policy::kBins) / Policy::kTile,
                                         Policy::kScan == ScanStrategy::three_launch ? 3 : 2);
}

}  // namespace sortbench::radix
