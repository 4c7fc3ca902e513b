// Onesweep kernels for 16-bit keys (u16, i16, f16, bf16 share them; the key map is
// chosen at run time), one instantiation per grid point.
#include "onesweep_instantiate.cuh"

namespace sortbench::radix {
#define SORTBENCH_RADIX_INSTANTIATE_ONESWEEP(...) SORTBENCH_RADIX_INSTANTIATE_ONESWEEP_POINT(std::uint16_t, __VA_ARGS__)
SORTBENCH_ONESWEEP_GRID(SORTBENCH_RADIX_INSTANTIATE_ONESWEEP)
#undef SORTBENCH_RADIX_INSTANTIATE_ONESWEEP
}  // namespace sortbench::radix
