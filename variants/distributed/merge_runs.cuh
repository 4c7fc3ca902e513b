// Two sorted runs merged, stably by (ordered key, value) where values are
// global indices: the g-way merge of the received runs.
#pragma once

#include <cstddef>
#include <cstdint>

#include <cub/device/device_merge.cuh>
#include <thrust/iterator/zip_iterator.h>
#include "sortbench/device/key_traits.cuh"
#include "sortbench/variant.hpp"

namespace sortbench::distributed {

// Two sorted runs merged by (ordered key, value): values are global indices,
// so the merge is stable (cub::DeviceMerge alone is not).
template <class T>
struct KeyOrder {
  bool desc;
  __host__ __device__ bool operator()(const T& a, const T& b) const { return ordered_bits(a, desc) < ordered_bits(b, desc); }
};
template <class T, class V>
struct KeyThenValue {
  bool desc;
  template <class Tuple>
  __host__ __device__ bool operator()(const Tuple& a, const Tuple& b) const {
    const auto ka = ordered_bits(T(thrust::get<0>(a)), desc), kb = ordered_bits(T(thrust::get<0>(b)), desc);
    return ka != kb ? ka < kb : V(thrust::get<1>(a)) < V(thrust::get<1>(b));
  }
};

template <class T, class V>
cudaError_t merge_runs(void* temp, std::size_t& bytes, const T* k0, const V* v0, std::size_t n0, const T* k1,
                       const V* v1, std::size_t n1, T* kout, V* vout, bool desc, cudaStream_t s) {
  if constexpr (kHasValues<V>) {
    auto in0 = thrust::make_zip_iterator(k0, v0);
    auto in1 = thrust::make_zip_iterator(k1, v1);
    auto out = thrust::make_zip_iterator(kout, vout);
    return cub::DeviceMerge::MergeKeys(temp, bytes, in0, std::int64_t(n0), in1, std::int64_t(n1), out,
                                       KeyThenValue<T, V>{desc}, s);
  } else {
    return cub::DeviceMerge::MergeKeys(temp, bytes, k0, std::int64_t(n0), k1, std::int64_t(n1), kout, KeyOrder<T>{desc}, s);
  }
}

// merge_runs's temporary bytes for two runs of `cap` elements in all, of the problem's types.
inline std::size_t merge_temp_bytes(const Problem& p, std::size_t cap) {
  std::size_t bytes = 0;
  with_key_type_in<WordKeyTypes>(p.key, [&](auto tag) {
    using T = typename decltype(tag)::type;
    with_value_type(p.value, [&](auto vtag) {
      using V = typename decltype(vtag)::type;
      const T* k = nullptr;
      const V* v = nullptr;
      cuda_check(merge_runs<T, V>(nullptr, bytes, k, v, cap / 2, k, v, cap - cap / 2, static_cast<T*>(nullptr),
                                  static_cast<V*>(nullptr), false, nullptr),
                 "merge temp");
    });
  });
  return bytes;
}

}  // namespace sortbench::distributed
