// Onesweep kernels for 8-bit keys (u8, i8 share them; the key map is
// chosen at run time), one instantiation per grid point.
#include "onesweep_instantiate.cuh"

namespace sortbench::radix {
#define SORTBENCH_RADIX_INSTANTIATE_ONESWEEP(...) SORTBENCH_RADIX_INSTANTIATE_ONESWEEP_POINT(std::uint8_t, __VA_ARGS__)
SORTBENCH_ONESWEEP_GRID(SORTBENCH_RADIX_INSTANTIATE_ONESWEEP)
#undef SORTBENCH_RADIX_INSTANTIATE_ONESWEEP
}  // namespace sortbench::radix
