// Seed 002 ("radix sort from Python to CUDA"): LSD radix sort in base 10 with
// three kernels per decimal digit: local histograms (one per block), a global
// prefix sum over the bucket-major table, and redistribution. The seed's
// redistribute kernel gives each thread private digit counters that start at
// zero, so threads of one block overwrite each other's slots; here the private
// counters live in shared memory digit-major, and one block scan over them
// (digit, then thread) turns them into stable ranks. Digits are decimal
// digits of the order-preserving bits (key_traits.cuh), so i32 sorts too; 10
// passes cover every 32-bit value (the seed's max-value scan is dropped: it
// would not be stable across signs and costs a pass of its own).
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
  static constexpr bool kWideKeys = false;
  template <class Bits>
  static int passes() {
    return 10;  // 4294967295 has ten decimal digits
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
  v.key_types = {KeyType::u32, KeyType::i32};
  v.descending = true;
  v.stable = true;
  v.tile_keys = P::kTile;
  v.max_n = kMaxKeys;
  v.bytes_per_key = [](const Problem& p) { return table_bytes_per_key<P>(p, 10); };
  v.unsupported = [](const Problem& p) { return table_smem_reason<P>(p); };
  v.make = [](const Problem& p) -> std::unique_ptr<Instance> {
    return std::make_unique<TableRadixInstance<P, DecimalDigits>>(p);
  };
  return v;
}

}  // namespace

SORTBENCH_REGISTER_VARIANT(base10_info<256, 4>());
#ifdef SORTBENCH_FULL_GRID
SORTBENCH_REGISTER_VARIANT(base10_info<256, 1>());
#endif

}  // namespace sortbench::radix
