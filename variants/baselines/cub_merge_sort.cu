// Baseline: cub::DeviceMergeSort::SortKeysCopy / SortPairsCopy with the
// harness's key order as the comparator (the reference for comparison sorts).
#include <cub/device/device_merge_sort.cuh>

#include "sortbench/device/key_traits.cuh"
#include "sortbench/traffic.hpp"
#include "sortbench/variant.hpp"

namespace sortbench::baselines {
namespace {

template <class Key, class Less>
class CubMergeSort final : public Instance {
 public:
  explicit CubMergeSort(const Problem& p) : p_(p) {}
  std::size_t temp_bytes(const Buffers& b, cudaStream_t s) override {
    std::size_t bytes = 0;
    call(b, nullptr, bytes, s);
    return bytes;
  }
  void run(const Buffers& b, void* temp, std::size_t bytes, cudaStream_t s) override {
    call(b, temp, bytes, s);
  }

 private:
  void call(const Buffers& b, void* temp, std::size_t& bytes, cudaStream_t s) {
    auto* kin = static_cast<Key*>(b.keys_in);
    auto* kout = static_cast<Key*>(b.keys_out);
    const auto n = static_cast<std::int64_t>(p_.n);
    cudaError_t e;
    if (p_.value == ValueType::none) {
      e = cub::DeviceMergeSort::SortKeysCopy(temp, bytes, kin, kout, n, Less{}, s);
    } else {
      e = cub::DeviceMergeSort::SortPairsCopy(temp, bytes, kin, static_cast<std::uint32_t*>(b.values_in),
                                              kout, static_cast<std::uint32_t*>(b.values_out), n,
                                              Less{}, s);
    }
    cuda_check(e, "cub::DeviceMergeSort");
  }
  Problem p_;
};

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
      if (p.order == Order::descending) return std::make_unique<CubMergeSort<K, OrderedGreater<K>>>(p);
      return std::make_unique<CubMergeSort<K, OrderedLess<K>>>(p);
    });
  };
  return v;
}

}  // namespace
SORTBENCH_REGISTER_VARIANT(cub_merge_sort_info());
}  // namespace sortbench::baselines
