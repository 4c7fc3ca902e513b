// Seed 002 ("radix sort from Python to CUDA"): LSD radix sort in base 10 with
// three kernels per decimal digit: local histograms (one per block), a global
// prefix sum over the bucket-major table, and redistribution. The seed's
// redistribute kernel gives each thread private digit counters that start at
// zero, so threads of one block overwrite each other's slots; here the private
// counters live in shared memory digit-major, and one block scan over them
// (digit, then thread) turns them into stable ranks. Digits are decimal
// digits of the order-preserving bits (key_traits.cuh), so signed and float
// keys sort too; the passes cover every value of the key width (3 for 8-bit,
// 5, 10, 20 for 64-bit keys; the seed's max-value scan is dropped: it would
// not be stable across signs and costs a pass of its own).
#include "common/table_variants.cuh"

namespace sortbench::radix {
namespace {

template <class Bits>
struct DecimalDigit {
  KeyMap<Bits> map;
  Bits divisor;
  __device__ __forceinline__ unsigned operator()(Bits b) const { return unsigned(map.ordered(b) / divisor % 10u); }
};

struct DecimalDigits {
  // Decimal digits of the largest value of the key width.
  template <class Bits>
  static int passes() {
    int digits = 0;
    for (Bits m = Bits(~Bits(0)); m; m /= 10) ++digits;
    return digits;
  }
  template <class Bits>
  static DecimalDigit<Bits> digit(KeyMap<Bits> map, int pass) {
    Bits d = 1;
    for (int i = 0; i < pass; ++i) d *= 10;
    return DecimalDigit<Bits>{map, d};
  }
};

template <int BlockThreads, int ItemsPerThread>
VariantInfo base10_info() {
  using P = TablePolicy<BlockThreads, ItemsPerThread, 10, Ranking::thread_counters, ScanStrategy::three_launch,
                        BlockScanAlgo::blelloch>;
  VariantInfo v;
  v.params = {{"items_per_thread", "ipt", std::to_string(ItemsPerThread)},
              {"block_threads", "tpb", std::to_string(BlockThreads)}};
  v.label = "radix.base10." + param_label(v.params);
  v.family = "radix";
  v.description = "base-10 LSD radix (teaching baseline): local histograms, global prefix sum, stable "
                  "redistribution through per-thread counters";
  v.seed = "002 sec. 5 (three kernels), corrected";
  take_every_type(v);
  v.descending = true;
  v.stable = true;
  v.tile_keys = P::kTile;
  v.max_n = kMaxKeys;
  v.bytes_per_key = [](const Problem& p) {
    return with_key_bits(p.key, [&](auto bits_tag) {
      return table_bytes_per_key<P>(p, DecimalDigits::passes<typename decltype(bits_tag)::type>());
    });
  };
  v.unsupported = [](const Problem& p) { return table_smem_reason<P>(p); };
  v.make = make_table_radix<P, DecimalDigits>;
  return v;
}

}  // namespace

SORTBENCH_REGISTER_VARIANT(base10_info<256, 4>());
#ifdef SORTBENCH_FULL_GRID
SORTBENCH_REGISTER_VARIANT(base10_info<256, 1>());
#endif

}  // namespace sortbench::radix
