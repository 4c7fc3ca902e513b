// PMPP 13.3, Fig. 13.4 (seed 000; study notes 004): one thread per key and
// one pass per key bit. Each thread extracts its bit into bits[i], an
// exclusive scan over the whole array gives ones_before = bits[i] and
// ones_total = bits[n], and the key moves to
//   i - ones_before                     if its bit is 0,
//   n - ones_total + ones_before        if its bit is 1.
// The scan is a device-wide operation between the two kernels (the book's
// exclusiveScan(bits, N) sits outside the bounds check for that reason).
// Writes land wherever the destination formula points: uncoalesced.
#include "common/global_scan.cuh"
#include "sortbench/traffic.hpp"

namespace sortbench::radix {
namespace {

template <int BlockThreads>
struct NaivePolicy {
  static constexpr int kBlockThreads = BlockThreads;
  using Scan = GlobalScan<256, BlockScanAlgo::blelloch>;
  static constexpr ScanStrategy kScan = ScanStrategy::three_launch;
};

template <int T, class Bits>
__global__ void __launch_bounds__(T)
    extract_bits_kernel(const Bits* __restrict__ keys, unsigned* __restrict__ bits, std::size_t n,
                        KeyMap<Bits> map, int iter) {
  const std::size_t i = std::size_t(blockIdx.x) * T + threadIdx.x;
  if (i < n) bits[i] = unsigned(map.ordered(keys[i]) >> iter) & 1u;
  if (i == n) bits[n] = 0;  // scanned, bits[n] becomes ones_total
}

template <int T, class Bits, class V>
__global__ void __launch_bounds__(T)
    scatter_kernel(const Bits* __restrict__ keys_in, Bits* __restrict__ keys_out, const V* __restrict__ values_in,
                   V* __restrict__ values_out, const unsigned* __restrict__ ones_before_all, std::size_t n,
                   KeyMap<Bits> map, int iter) {
  const std::size_t i = std::size_t(blockIdx.x) * T + threadIdx.x;
  if (i >= n) return;
  const Bits key = keys_in[i];
  const unsigned bit = unsigned(map.ordered(key) >> iter) & 1u;
  const std::size_t ones_before = ones_before_all[i], ones_total = ones_before_all[n];
  const std::size_t dst = bit == 0 ? i - ones_before : n - ones_total + ones_before;
  keys_out[dst] = key;
  if constexpr (kHasValues<V>) values_out[dst] = values_in[i];
}

template <class P, class Bits>
class NaiveInstance final : public Instance {
 public:
  explicit NaiveInstance(const Problem& p) : p_(p) {
    alt_keys_ = layout_.add(p.n * sizeof(Bits));  // sizeof(Bits)*8 passes: even
    alt_values_ = layout_.add(p.n * value_bytes(p.value));
    bits_ = layout_.add((p.n + 1) * 4);
    scan_ = layout_.add(P::Scan::temp_bytes(p.n + 1, P::kScan));
  }
  std::size_t temp_bytes(const Buffers&, cudaStream_t) override { return layout_.bytes; }
  std::vector<KernelLaunch> kernels() const override {
    constexpr int T = P::kBlockThreads;
    std::vector<KernelLaunch> out = {kernel_launch("bits", extract_bits_kernel<T, Bits>, T, 0)};
    P::Scan::append_kernels(P::kScan, out);
    with_value_type(p_.value, [&](auto value_tag) {
      out.push_back(kernel_launch("scatter", scatter_kernel<T, Bits, typename decltype(value_tag)::type>, T, 0));
    });
    return out;
  }
  void run(const Buffers& b, void* temp, std::size_t bytes, cudaStream_t s) override {
    if (p_.n <= 1) return copy_trivial(p_, b, s);
    if (bytes < layout_.bytes) throw std::invalid_argument("radix.naive_scatter: temp storage too small");
    with_value_type(p_.value, [&](auto value_tag) { sort<typename decltype(value_tag)::type>(b, temp, s); });
  }

 private:
  template <class V>
  void sort(const Buffers& b, void* temp, cudaStream_t s) {
    constexpr int T = P::kBlockThreads;
    constexpr int passes = int(sizeof(Bits) * 8);
    const KeyMap<Bits> map = key_map<Bits>(p_);
    auto* kin = static_cast<Bits*>(b.keys_in);
    auto* kout = static_cast<Bits*>(b.keys_out);
    auto* vin = static_cast<V*>(b.values_in);
    auto* vout = static_cast<V*>(b.values_out);
    auto* bits = temp_at<unsigned>(temp, bits_);
    const unsigned blocks = unsigned((p_.n + 1 + T - 1) / T);
    for (int iter = 0; iter < passes; ++iter) {
      const auto k = pass_io(iter, passes, kin, kout, temp_at<Bits>(temp, alt_keys_));
      const auto v = pass_io(iter, passes, vin, vout, temp_at<V>(temp, alt_values_));
      extract_bits_kernel<T, Bits><<<blocks, T, 0, s>>>(k.src, bits, p_.n, map, iter);
      check_launch("radix.naive_scatter: bits");
      P::Scan::run(bits, p_.n + 1, P::kScan, temp_at<void>(temp, scan_), s);
      scatter_kernel<T, Bits, V><<<blocks, T, 0, s>>>(k.src, k.dst, v.src, v.dst, bits, p_.n, map, iter);
      check_launch("radix.naive_scatter: scatter");
    }
  }
  Problem p_;
  TempLayout layout_;
  std::size_t alt_keys_ = 0, alt_values_ = 0, bits_ = 0, scan_ = 0;
};

template <int BlockThreads>
VariantInfo naive_scatter_info() {
  using P = NaivePolicy<BlockThreads>;
  VariantInfo v;
  v.params = {{"block_threads", "tpb", std::to_string(BlockThreads)}};
  v.label = "radix.naive_scatter." + param_label(v.params);
  v.family = "radix";
  v.description = "1-bit LSD radix, one thread per key: bit extraction, device-wide exclusive scan, scatter";
  v.seed = "000 PMPP 13.3 Fig. 13.4";
  take_every_type(v);
  v.descending = true;
  v.stable = true;
  v.tile_keys = BlockThreads;
  v.max_n = kMaxKeys;
  // One u32 flag per key, written, scanned in three launches, read.
  v.bytes_per_key = [](const Problem& p) {
    return traffic::reduce_then_scan_table(p, int(key_bytes(p.key) * 8), 1.0, 3);
  };
  v.make = [](const Problem& p) -> std::unique_ptr<Instance> {
    return with_key_bits(p.key, [&](auto bits_tag) -> std::unique_ptr<Instance> {
      return std::make_unique<NaiveInstance<P, typename decltype(bits_tag)::type>>(p);
    });
  };
  return v;
}

}  // namespace

SORTBENCH_REGISTER_VARIANT(naive_scatter_info<256>());
#ifdef SORTBENCH_FULL_GRID
SORTBENCH_REGISTER_VARIANT(naive_scatter_info<128>());
SORTBENCH_REGISTER_VARIANT(naive_scatter_info<512>());
SORTBENCH_REGISTER_VARIANT(naive_scatter_info<1024>());
#endif

}  // namespace sortbench::radix
