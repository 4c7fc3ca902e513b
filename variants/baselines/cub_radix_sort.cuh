// cub::DeviceRadixSort as a variant. The instantiations for 32- and 64-bit
// keys live in separate translation units so a parallel build splits them.
#pragma once

#include <memory>

#include "sortbench/variant.hpp"

namespace sortbench::baselines {

template <class Key>
std::unique_ptr<Instance> make_cub_radix_sort(const Problem& p);

}  // namespace sortbench::baselines
