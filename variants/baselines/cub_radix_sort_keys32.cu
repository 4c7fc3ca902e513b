#include "cub_radix_sort_impl.cuh"

namespace sortbench::baselines {
template std::unique_ptr<Instance> make_cub_radix_sort<std::uint32_t>(const Problem&);
template std::unique_ptr<Instance> make_cub_radix_sort<std::int32_t>(const Problem&);
template std::unique_ptr<Instance> make_cub_radix_sort<float>(const Problem&);
}  // namespace sortbench::baselines
