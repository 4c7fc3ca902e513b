// Onesweep-class LSD radix sort, registered at every point of its grid
// (onesweep_grid.cuh); kernels are instantiated in onesweep_keys32.cu and
// onesweep_keys64.cu. Design: common/onesweep.cuh.
#include "common/onesweep.cuh"
#include "onesweep_grid.cuh"

namespace sortbench::radix {
namespace {
template <class P>
VariantInfo registered_onesweep() {
  VariantInfo v = onesweep_info<P>();
  v.family_default = std::is_same_v<P, OnesweepPolicy<SORTBENCH_ONESWEEP_DEFAULT_POINT>>;
  return v;
}
}  // namespace
#define SORTBENCH_RADIX_REGISTER_ONESWEEP(...) \
  SORTBENCH_REGISTER_VARIANT(registered_onesweep<OnesweepPolicy<__VA_ARGS__>>());
SORTBENCH_ONESWEEP_GRID(SORTBENCH_RADIX_REGISTER_ONESWEEP)
#undef SORTBENCH_RADIX_REGISTER_ONESWEEP
}  // namespace sortbench::radix
