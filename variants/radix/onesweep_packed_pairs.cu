// Onesweep-class LSD radix sort of 32-bit integer keys with u32 values, each
// pair packed into one 64-bit word between the passes (the further reading of
// seed 001, Onesweep; design: common/onesweep_packed_pairs.cuh), registered
// at its curated points; every other point of its space is built on demand
// (sortbench/on_demand.hpp). Its kernels are instantiated here, apart from
// onesweep_keys64.cu's (a tag of their own: common/onesweep_agent.cuh's
// histogram_kernel).
#include "common/onesweep_packed_pairs.cuh"
#include "sortbench/family_space.hpp"

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

// The space of on-demand points: OnesweepSpace's axes, for a tile of 64-bit
// words without values (the words are what the passes rank and move).
FamilySpace packed_pairs_family_space() {
  FamilySpace s;
  s.method = kPackedPairsMethod;
  s.family = "radix";
  s.axes = OnesweepSpace::axes();
  s.why_not = [](const SpacePoint& p, const PointTypes& types, std::size_t per_block, std::size_t per_sm,
                 int threads_per_sm) -> std::string {
    if (std::string e = OnesweepSpace::point_error(p, threads_per_sm); !e.empty()) return e;
    bool pairs = false;
    for (KeyType k : types.keys)
      for (ValueType v : types.values) pairs |= packs_pairs(Problem{k, v, Order::ascending, 0});
    if (!pairs) return std::string(kPackedPairsMethod) + " sorts u32 and i32 keys with u32 values only";
    return OnesweepSpace::smem_error(p, sizeof(std::uint64_t), 0, "pairs packed into 64-bit words", per_block, per_sm);
  };
  s.translation_unit = [](const SpacePoint& p, const std::vector<KeyType>&) {
    std::string args;
    for (long long x : p) args += (args.empty() ? "" : ", ") + std::to_string(x);
    return "#include \"radix/common/onesweep_packed_pairs.cuh\"\nnamespace sortbench::radix {\n"
           "SORTBENCH_REGISTER_VARIANT((onesweep_packed_pairs_info<OnesweepPolicy<" +
           args + ">, false>()));\n}\n";
  };
  return s;
}

}  // namespace

template <class P>
std::unique_ptr<Instance> make_onesweep_packed_pairs(const Problem& p, int first_pass, bool skip_constant_digits) {
  return std::make_unique<OnesweepPackedPairsInstance<P>>(p, first_pass, skip_constant_digits);
}

#define SORTBENCH_RADIX_REGISTER_PACKED_PAIRS(...)                                                             \
  template std::unique_ptr<Instance> make_onesweep_packed_pairs<OnesweepPolicy<__VA_ARGS__>>(const Problem&, int, \
                                                                                             bool);            \
  SORTBENCH_REGISTER_VARIANT((onesweep_packed_pairs_info<OnesweepPolicy<__VA_ARGS__>, false>()));              \
  SORTBENCH_REGISTER_VARIANT((onesweep_packed_pairs_info<OnesweepPolicy<__VA_ARGS__>, true>()));
SORTBENCH_PACKED_PAIRS_POINTS(SORTBENCH_RADIX_REGISTER_PACKED_PAIRS)
#undef SORTBENCH_RADIX_REGISTER_PACKED_PAIRS
SORTBENCH_REGISTER_FAMILY_SPACE(packed_pairs_family_space());

}  // namespace sortbench::radix
