// Onesweep-class LSD radix sort, registered at every point of its grid
// (onesweep_grid.cuh; in the lean build the default point and the points
// best.json names); kernels are instantiated in onesweep_keys{8,16,32,64}.cu.
// Design: common/onesweep.cuh. Every other point of OnesweepSpace is built on
// demand (sortbench/on_demand.hpp) from the translation unit below.
#include <algorithm>

#include "common/onesweep.cuh"
#include "onesweep_grid.cuh"
#include "sortbench/family_space.hpp"

namespace sortbench::radix {
namespace {
template <class P, bool SkipConstantDigits = false>
VariantInfo registered_onesweep() {
  VariantInfo v = onesweep_info<P, SkipConstantDigits>();
  v.family_default = !SkipConstantDigits && std::is_same_v<P, OnesweepPolicy<SORTBENCH_ONESWEEP_DEFAULT_POINT>>;
  return v;
}

// The lean build's best.json points, at the key widths (a mask of their
// bytes: 1, 2, 4, 8) they are picked for.
template <class P, int Widths, bool SkipConstantDigits, class... Bits>
VariantInfo onesweep_info_of_widths() {
  constexpr bool S = SkipConstantDigits;
  if constexpr ((Widths & 1) != 0) return onesweep_info_of_widths<P, (Widths & ~1), S, Bits..., std::uint8_t>();
  else if constexpr ((Widths & 2) != 0) return onesweep_info_of_widths<P, (Widths & ~2), S, Bits..., std::uint16_t>();
  else if constexpr ((Widths & 4) != 0) return onesweep_info_of_widths<P, (Widths & ~4), S, Bits..., std::uint32_t>();
  else if constexpr ((Widths & 8) != 0) return onesweep_info_of_widths<P, (Widths & ~8), S, Bits..., std::uint64_t>();
  else return onesweep_info<P, S, Bits...>();
}

std::string key_bits_type(KeyType k) { return "std::uint" + std::to_string(8 * key_bytes(k)) + "_t"; }

FamilySpace onesweep_family_space() {
  FamilySpace s;
  s.method = "radix.onesweep";
  s.family = "radix";
  s.axes = OnesweepSpace::axes();
  s.why_not = [](const SpacePoint& p, const PointTypes& types, std::size_t per_block, std::size_t per_sm,
                 int threads_per_sm) -> std::string {
    const int pad = int(p[5]);
    if (std::string e = OnesweepSpace::point_error(p, threads_per_sm); !e.empty()) return e;
    if (!pad && std::find(types.values.begin(), types.values.end(), ValueType::none) == types.values.end())
      return "padded_slots 0 sorts keys only (tiles with values are never padded)";
    // Runnable when one of the sweep's key and value types fits; the
    // variant's own check skips the others when they are measured.
    std::string first;
    for (KeyType k : types.keys)
      for (ValueType v : types.values) {
        if (!pad && v != ValueType::none) continue;
        const std::string what = to_string(k) + (v == ValueType::none ? " keys" : " keys with " + to_string(v) + " values");
        const std::string why = OnesweepSpace::smem_error(p, key_bytes(k), value_bytes(v), what, per_block, per_sm);
        if (why.empty()) return {};
        if (first.empty()) first = why;
      }
    return first;
  };
  s.translation_unit = [](const SpacePoint& p, const std::vector<KeyType>& keys) {
    std::string args;
    for (long long x : p) args += (args.empty() ? "" : ", ") + std::to_string(x);
    std::string text = "#include \"radix/onesweep_instantiate.cuh\"\nnamespace sortbench::radix {\n";
    std::string bits;
    for (KeyType k : keys) {
      text += "SORTBENCH_RADIX_INSTANTIATE_ONESWEEP_POINT(" + key_bits_type(k) + ", " + args + ")\n";
      bits += ", " + key_bits_type(k);
    }
    text += "SORTBENCH_REGISTER_VARIANT((onesweep_info<OnesweepPolicy<" + args + ">, false" + bits + ">()));\n}\n";
    return text;
  };
  return s;
}
}  // namespace
// Every point also as its skip_constant_digits form (host code only: the
// kernels are the point's own).
#ifdef SORTBENCH_ONESWEEP_LEAN_POINTS
SORTBENCH_REGISTER_VARIANT(registered_onesweep<OnesweepPolicy<SORTBENCH_ONESWEEP_DEFAULT_POINT>>());
SORTBENCH_REGISTER_VARIANT((registered_onesweep<OnesweepPolicy<SORTBENCH_ONESWEEP_DEFAULT_POINT>, true>()));
#define SORTBENCH_RADIX_REGISTER_ONESWEEP(widths, ...)                                                   \
  SORTBENCH_REGISTER_VARIANT((onesweep_info_of_widths<OnesweepPolicy<__VA_ARGS__>, widths, false>())); \
  SORTBENCH_REGISTER_VARIANT((onesweep_info_of_widths<OnesweepPolicy<__VA_ARGS__>, widths, true>()));
SORTBENCH_LEAN_ONESWEEP(SORTBENCH_RADIX_REGISTER_ONESWEEP)
#else
#define SORTBENCH_RADIX_REGISTER_ONESWEEP(...)                                       \
  SORTBENCH_REGISTER_VARIANT(registered_onesweep<OnesweepPolicy<__VA_ARGS__>>()); \
  SORTBENCH_REGISTER_VARIANT((registered_onesweep<OnesweepPolicy<__VA_ARGS__>, true>()));
SORTBENCH_ONESWEEP_GRID(SORTBENCH_RADIX_REGISTER_ONESWEEP)
#endif
#undef SORTBENCH_RADIX_REGISTER_ONESWEEP
SORTBENCH_REGISTER_FAMILY_SPACE(onesweep_family_space());
}  // namespace sortbench::radix
