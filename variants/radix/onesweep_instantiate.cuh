// Included by onesweep_keys{8,16,32,64}.cu only: the definition of
// make_onesweep and its instantiation at every grid point for one key width
// (the registration in onesweep.cu sees only the declaration, so the kernels
// compile once, in these files, side by side in a parallel build).
#pragma once

#include "common/onesweep.cuh"
#include "onesweep_grid.cuh"

namespace sortbench::radix {
template <class P, class Bits>
std::unique_ptr<Instance> make_onesweep(const Problem& p, int first_pass, bool skip_constant_digits) {
  return std::make_unique<OnesweepInstance<P, Bits>>(p, 0, first_pass, skip_constant_digits);
}
}  // namespace sortbench::radix

#define SORTBENCH_RADIX_INSTANTIATE_ONESWEEP_POINT(Bits, ...) \
  template std::unique_ptr<Instance> make_onesweep<OnesweepPolicy<__VA_ARGS__>, Bits>(const Problem&, int, bool);
