// Onesweep-class LSD radix sort of 32-bit integer keys with u32 values, each
// pair packed into one 64-bit word between the passes (the further reading of
// seed 001, Onesweep; design: common/onesweep_packed_pairs.cuh). Its kernels
// are instantiated here, apart from onesweep_keys64.cu's (a tag of their
// own: common/onesweep_agent.cuh's histogram_kernel).
#include "common/onesweep_packed_pairs.cuh"
#include "sortbench/traffic.hpp"

namespace sortbench::radix {
namespace {

// Tiles of 64-bit words (OnesweepPolicy's points): the u64 keys' picks at
// 2^24..2^28 (512 x 18 and 384 x 26 at two blocks an SM), and two smaller
// tiles for 2^24 (384 x 18 at three blocks an SM, 512 x 14).
#define SORTBENCH_PACKED_PAIRS_POINTS(X) \
  X(8, 18, 512, 2)                       \
  X(8, 26, 384, 2)                       \
  X(8, 18, 384, 3)                       \
  X(8, 14, 512, 2)

// SkipConstantDigits: the form that leaves out the passes of digits every
// key shares (OnesweepInstance's, onesweep.cu).
template <class P, bool SkipConstantDigits>
VariantInfo packed_pairs_info() {
  using Sort = OnesweepPackedPairsInstance<P>;
  VariantInfo v;
  Params params = P::params();
  if (SkipConstantDigits) params.push_back({"constant_digits", "", "skip_constant_digits"});
  v.label = "radix.onesweep_packed_pairs." + param_label(params);
  v.family = "radix";
  v.description = "Onesweep-class LSD radix over each 32-bit key and its u32 value packed into one 64-bit word: "
                  "the first pass packs, the passes move words as keys-only tiles, the last unpacks";
  v.seed = "001 further reading (Onesweep); anchors.md";
  v.key_types = {KeyType::u32, KeyType::i32};
  v.value_types = {ValueType::u32};
  v.descending = true;
  v.stable = true;
  v.const_input = true;
  v.params = params;
  v.tile_keys = P::kTile;
  v.bytes_per_key = [](const Problem& p) { return traffic::onesweep(p, P::kRadixBits); };
  v.unsupported = [](const Problem&) { return smem_reason(Sort::pass_smem()); };
  v.make = [](const Problem& p) -> std::unique_ptr<Instance> {
    return std::make_unique<Sort>(p, 0, SkipConstantDigits);
  };
  return v;
}

}  // namespace

template <class P>
std::unique_ptr<Instance> make_onesweep_packed_pairs(const Problem& p, int first_pass, bool skip_constant_digits) {
  return std::make_unique<OnesweepPackedPairsInstance<P>>(p, first_pass, skip_constant_digits);
}

#define SORTBENCH_RADIX_REGISTER_PACKED_PAIRS(...)                                                             \
  template std::unique_ptr<Instance> make_onesweep_packed_pairs<OnesweepPolicy<__VA_ARGS__>>(const Problem&, int, \
                                                                                             bool);            \
  SORTBENCH_REGISTER_VARIANT((packed_pairs_info<OnesweepPolicy<__VA_ARGS__>, false>()));                        \
  SORTBENCH_REGISTER_VARIANT((packed_pairs_info<OnesweepPolicy<__VA_ARGS__>, true>()));
SORTBENCH_PACKED_PAIRS_POINTS(SORTBENCH_RADIX_REGISTER_PACKED_PAIRS)
#undef SORTBENCH_RADIX_REGISTER_PACKED_PAIRS

}  // namespace sortbench::radix
