// Onesweep kernels for 64-bit keys (u64, i64, f64 share them; the key map
// is chosen at run time), one instantiation per grid point.
#include "common/onesweep.cuh"
#include "onesweep_grid.cuh"

namespace sortbench::radix {
template <class P, class Bits>
std::unique_ptr<Instance> make_onesweep(const Problem& p) {
  return std::make_unique<OnesweepInstance<P, Bits>>(p);
}
#define SORTBENCH_RADIX_INSTANTIATE_ONESWEEP(...) \
  template std::unique_ptr<Instance> make_onesweep<OnesweepPolicy<__VA_ARGS__>, std::uint64_t>(const Problem&);
SORTBENCH_ONESWEEP_GRID(SORTBENCH_RADIX_INSTANTIATE_ONESWEEP)
#undef SORTBENCH_RADIX_INSTANTIATE_ONESWEEP
}  // namespace sortbench::radix
