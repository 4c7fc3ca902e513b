// Host baselines: std::sort and a parallel sort (host_sort_calls.hpp) over
// the same workloads as the GPU sorts. Opt-in: selected only by a pattern that
// names the "host" family. Neither is stable. Each key type's instantiations
// are one group of the library-call table, compiled in by the full grid only:
// the lean build compiles a key type when a sweep names it.
#include "host_sort_calls.hpp"

namespace sortbench::host {
namespace {

LibraryCallGroup host_sort_calls() {
  LibraryCallGroup g{"host_sort_calls", "host/host_sort_calls.hpp", "SORTBENCH_HOST_SORT_CALLS",
                     {"host.std_sort", "host.parallel_sort"}, {}, true};
#ifdef SORTBENCH_GNU_PARALLEL
  // As this file is built: the parallel sort is __gnu_parallel::sort.
  g.extra_flags = {"-Xcompiler=-fopenmp", "-lgomp"};
#endif
  return g;
}
const library_calls::GroupDeclaration declared(host_sort_calls());

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
  return library_calls::made_from_table(std::move(v));
}

}  // namespace

SORTBENCH_REGISTER_VARIANT(host_info(Algo::std_sort));
SORTBENCH_REGISTER_VARIANT(host_info(Algo::parallel_sort));

}  // namespace sortbench::host
