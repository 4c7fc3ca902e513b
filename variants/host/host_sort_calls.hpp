// The host baselines for one key type, as one group of the library-call table
// (sortbench/library_calls.hpp): std::sort and a parallel sort
// (__gnu_parallel::sort with OpenMP where available, else std::sort) with the
// harness's key order (OrderedLess / OrderedGreater of key_traits.cuh). Pairs
// are sorted as (key, value) records. Host code.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#if defined(_OPENMP) && defined(__GNUC__) && !defined(__clang__)
#include <parallel/algorithm>
#include <omp.h>
#define SORTBENCH_GNU_PARALLEL 1
#endif

#include "sortbench/device/key_traits.cuh"
#include "sortbench/library_calls.hpp"
#include "sortbench/sort.hpp"
#include "sortbench/variant.hpp"

namespace sortbench::host {

enum class Algo { std_sort, parallel_sort };

template <class It, class Cmp>
void host_sort(Algo a, It first, It last, Cmp cmp) {
#ifdef SORTBENCH_GNU_PARALLEL
  if (a == Algo::parallel_sort) {
    __gnu_parallel::sort(first, last, cmp);
    return;
  }
#else
  (void)a;
#endif
  std::sort(first, last, cmp);
}

template <class Key, class Value, class Less>
class HostSort final : public Instance {
 public:
  HostSort(const Problem& p, Algo a) : p_(p), algo_(a) {}
  std::size_t temp_bytes(const Buffers&, cudaStream_t) override { return 0; }
  void run(const Buffers& b, void*, std::size_t, cudaStream_t) override {
    auto* kin = static_cast<Key*>(b.keys_in);
    auto* kout = static_cast<Key*>(b.keys_out);
    const std::size_t n = p_.n;
    if constexpr (!kHasValues<Value>) {
      std::memcpy(kout, kin, n * sizeof(Key));
      host_sort(algo_, kout, kout + n, Less{});
    } else {
      // Pairs are sorted as (key, value) records; the vector is kept across
      // samples so only the first run allocates.
      recs_.resize(n);
      const auto* vin = static_cast<const Value*>(b.values_in);
      auto* vout = static_cast<Value*>(b.values_out);
      for (std::size_t i = 0; i < n; ++i) recs_[i] = {kin[i], vin[i]};
      host_sort(algo_, recs_.begin(), recs_.end(), [](const Rec& x, const Rec& y) { return Less{}(x.k, y.k); });
      for (std::size_t i = 0; i < n; ++i) {
        kout[i] = recs_[i].k;
        vout[i] = recs_[i].v;
      }
    }
  }

 private:
  struct Rec {
    Key k;
    Value v;
  };
  Problem p_;
  Algo algo_;
  std::vector<Rec> recs_;
};

template <Algo A, class K>
std::unique_ptr<Instance> make_host_sort(const Problem& p) {
  return with_value_type(p.value, [&](auto value_tag) -> std::unique_ptr<Instance> {
    using V = typename decltype(value_tag)::type;
    if (p.order == Order::descending) return std::make_unique<HostSort<K, V, OrderedGreater<K>>>(p, A);
    return std::make_unique<HostSort<K, V, OrderedLess<K>>>(p, A);
  });
}

}  // namespace sortbench::host

#define SORTBENCH_HOST_SORT_CALLS(Key)                                                                                 \
  SORTBENCH_ADD_LIBRARY_CALL("host.std_sort", Key, ::sortbench::host::make_host_sort<::sortbench::host::Algo::std_sort, Key>) \
  SORTBENCH_ADD_LIBRARY_CALL("host.parallel_sort", Key,                                                                  \
                             ::sortbench::host::make_host_sort<::sortbench::host::Algo::parallel_sort, Key>)
