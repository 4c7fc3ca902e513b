// Baseline: cub::DeviceMergeSort::SortKeysCopy / SortPairsCopy with the
// harness's key order as the comparator (the reference for comparison sorts).
#include <cub/device/device_merge_sort.cuh>

#include "sortbench/device/key_traits.cuh"
#include "sortbench/device/two_phase.cuh"
#include "sortbench/traffic.hpp"
#include "sortbench/variant.hpp"

namespace sortbench::baselines {
namespace {

template <class Key, class Less>
std::unique_ptr<Instance> make_cub_merge_sort(const Problem& p) {
  return make_two_phase([p](void* temp, std::size_t& bytes, const Buffers& b, cudaStream_t s) {
    auto* kin = static_cast<Key*>(b.keys_in);
    auto* kout = static_cast<Key*>(b.keys_out);
    auto* vin = static_cast<std::uint32_t*>(b.values_in);
    auto* vout = static_cast<std::uint32_t*>(b.values_out);
    const auto n = static_cast<std::int64_t>(p.n);
    const cudaError_t e = p.value == ValueType::none
                              ? cub::DeviceMergeSort::SortKeysCopy(temp, bytes, kin, kout, n, Less{}, s)
                              : cub::DeviceMergeSort::SortPairsCopy(temp, bytes, kin, vin, kout, vout, n, Less{}, s);
    cuda_check(e, "cub::DeviceMergeSort");
  });
}

VariantInfo cub_merge_sort_info() {
  VariantInfo v;
  v.label = "cub.merge_sort";
  v.family = "cub";
  v.description = "cub::DeviceMergeSort::SortKeysCopy/SortPairsCopy with a comparator";
  v.seed = "-";
  v.descending = true;
  v.stable = false;  // CUB documents SortKeysCopy/SortPairsCopy as not guaranteed stable
  // CUB's merge sort policy for sm_90 sorts tiles of a few thousand keys;
  // 4096 is the tile we count merge passes from.
  v.bytes_per_key = [](const Problem& p) { return traffic::merge(p, 4096); };
  v.make = [](const Problem& p) -> std::unique_ptr<Instance> {
    return with_key_type(p.key, [&](auto tag) -> std::unique_ptr<Instance> {
      using K = typename decltype(tag)::type;
      if (p.order == Order::descending) return make_cub_merge_sort<K, OrderedGreater<K>>(p);
      return make_cub_merge_sort<K, OrderedLess<K>>(p);
    });
  };
  return v;
}

}  // namespace
SORTBENCH_REGISTER_VARIANT(cub_merge_sort_info());
}  // namespace sortbench::baselines
