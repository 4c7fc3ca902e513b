// Host baselines: std::sort and a parallel sort (__gnu_parallel::sort with
// OpenMP where available, else std::sort) over the same workloads, with the
// harness's key order (OrderedLess / OrderedGreater of key_traits.cuh).
// Opt-in: selected only by a pattern that names the "host" family. Pairs
// are sorted as (key, value) records. Neither is stable.
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
#include "sortbench/variant.hpp"

namespace sortbench::host {
namespace {

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

template <Algo A>
std::unique_ptr<Instance> make_host(const Problem& p) {
  return with_key_type(p.key, [&](auto tag) -> std::unique_ptr<Instance> {
    using K = typename decltype(tag)::type;
    return with_value_type(p.value, [&](auto value_tag) -> std::unique_ptr<Instance> {
      using V = typename decltype(value_tag)::type;
      if (p.order == Order::descending) return std::make_unique<HostSort<K, V, OrderedGreater<K>>>(p, A);
      return std::make_unique<HostSort<K, V, OrderedLess<K>>>(p, A);
    });
  });
}

VariantInfo host_info(Algo a) {
  VariantInfo v;
  const bool par = a == Algo::parallel_sort;
  v.label = par ? "host.parallel_sort" : "host.std_sort";
  v.family = "host";
#ifdef SORTBENCH_GNU_PARALLEL
  v.description = par ? "__gnu_parallel::sort (OpenMP, all host threads)" : "std::sort";
#else
  v.description = par ? "std::sort (built without OpenMP: no parallel sort)" : "std::sort";
#endif
  v.seed = "003 CDP quicksort blog (CPU quicksort row); baseline";
  v.key_types = {std::begin(kAllKeyTypes), std::end(kAllKeyTypes)};
  v.value_types = {std::begin(kAllValueTypes), std::end(kAllValueTypes)};
  v.descending = true;
  v.stable = false;
  v.host = true;
  v.opt_in = true;
  v.bytes_per_key = [](const Problem& p) { return 2.0 * double(key_bytes(p.key) + value_bytes(p.value)); };
  v.make = par ? make_host<Algo::parallel_sort> : make_host<Algo::std_sort>;
  return v;
}

}  // namespace

SORTBENCH_REGISTER_VARIANT(host_info(Algo::std_sort));
SORTBENCH_REGISTER_VARIANT(host_info(Algo::parallel_sort));

}  // namespace sortbench::host
