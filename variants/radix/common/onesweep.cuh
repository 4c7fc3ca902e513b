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
// In layers, as CUB lays out its radix sort: the space and policy
// (onesweep_policy.cuh), the kernels (onesweep_agent.cuh), the host side that
// launches them (onesweep_dispatch.cuh), and here the variant's registration.
#pragma once

#include "onesweep_dispatch.cuh"
#include "onesweep_policy.cuh"
#include "sortbench/traffic.hpp"

namespace sortbench::radix {

// What the points of every Onesweep design (onesweep_info,
// onesweep_packed_pairs_info) share in their VariantInfo: the family and
// seed, both orders, stability, a kept input, the policy's parameters (with
// the skip_constant_digits form's), its tile and its traffic.
template <class P>
void onesweep_point_info(VariantInfo& v, bool skip_constant_digits) {
  v.params = P::params();
  if (skip_constant_digits) v.params.push_back({"constant_digits", "", "skip_constant_digits"});
  v.family = "radix";
  v.seed = "001 further reading (Onesweep); anchors.md";
  v.descending = true;
  v.stable = true;
  v.const_input = true;
  v.tile_keys = P::kTile;
  v.bytes_per_key = [](const Problem& p) { return traffic::onesweep(p, P::kRadixBits); };
}

// The variant of policy P. KeyBits: the key widths its kernels are
// instantiated for (an on-demand point builds only the widths its sweep
// sorts); none: every width (the compiled-in grid).
// SkipConstantDigits: the same kernels; the digit scan also says which
// digits every key shares, and their passes are left out (64-bit keys
// holding 32-bit values sort in four passes, not eight). The first pass
// runs while the host waits for that answer, and the chain after it takes a
// third buffer where the passes left are even (common/pass_chain.hpp).
template <class P, bool SkipConstantDigits = false, class... KeyBits>
VariantInfo onesweep_info() {
  VariantInfo v;
  onesweep_point_info<P>(v, SkipConstantDigits);
  v.label = "radix.onesweep." + param_label(v.params);
  v.description = "Onesweep-class LSD radix: one histogram pass, then per digit one kernel that ranks "
                  "(warp match-any), looks back for its offsets and scatters through shared memory";
  take_every_type(v);
  // A tile with values is never padded: a `.pad0` point with values would
  // run its padded sibling's kernels.
  if (!P::kPaddedSlots) v.value_types = {ValueType::none};
  if constexpr (sizeof...(KeyBits) > 0) {
    v.key_types.clear();
    for (KeyType k : kAllKeyTypes)
      if (((key_bytes(k) == sizeof(KeyBits)) || ...)) v.key_types.push_back(k);
  }
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
