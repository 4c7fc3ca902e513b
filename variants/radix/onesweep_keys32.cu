// Onesweep kernels for 32-bit keys (u32, i32, f32 share them; the key map is
// chosen at run time), one instantiation per grid point
// (lean build: the default point and the best.json points of this width).
#include "onesweep_instantiate.cuh"

namespace sortbench::radix {
#define SORTBENCH_RADIX_INSTANTIATE_ONESWEEP(...) SORTBENCH_RADIX_INSTANTIATE_ONESWEEP_POINT(std::uint32_t, __VA_ARGS__)
#ifdef SORTBENCH_ONESWEEP_LEAN_POINTS
SORTBENCH_RADIX_INSTANTIATE_ONESWEEP(SORTBENCH_ONESWEEP_DEFAULT_POINT)
SORTBENCH_LEAN_ONESWEEP_32(SORTBENCH_RADIX_INSTANTIATE_ONESWEEP)
#else
SORTBENCH_ONESWEEP_GRID(SORTBENCH_RADIX_INSTANTIATE_ONESWEEP)
#endif
#undef SORTBENCH_RADIX_INSTANTIATE_ONESWEEP
}  // namespace sortbench::radix
