#include "cub_radix_sort_impl.cuh"

namespace sortbench::baselines {
template std::unique_ptr<Instance> make_cub_radix_sort<std::uint64_t>(const Problem&);
template std::unique_ptr<Instance> make_cub_radix_sort<std::int64_t>(const Problem&);
template std::unique_ptr<Instance> make_cub_radix_sort<double>(const Problem&);
}  // namespace sortbench::baselines
