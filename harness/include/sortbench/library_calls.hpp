// Library calls by key type. A library's sort call (cub.merge_sort.off32,
// thrust.sort_comparator, ...) is one registered variant for every key type,
// but each key type is its own instantiation of the library's templates, and
// those take most of a build's time (docs/build-times.md). So the variant
// finds the instantiation for a problem's key type in a table, filled by
// static initializers: those of the translation units compiled into the
// binary, and those of the units a run builds on demand
// (sortbench/on_demand.hpp) for the key types it sweeps and the binary lacks.
// A family of ours can use it too: the merge family's default point
// (variants/merge/merge_default_calls.cuh) builds its 8- and 16-bit keys so.
//
// A group is what one header instantiates for one key type: `macro(Key)`,
// defined in `header` (under the variants' include folder), adds every call of
// `labels` for Key. Host code.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "sortbench/variant.hpp"

namespace sortbench {

using InstanceFactory = std::unique_ptr<Instance> (*)(const Problem&);

struct LibraryCallGroup {
  std::string name;                      // "merge_sort_calls": unit names and messages
  std::string header;                    // "baselines/merge_sort_calls.cuh"
  std::string macro;                     // "SORTBENCH_MERGE_SORT_CALLS"
  std::vector<std::string> labels;       // the variants whose calls it adds
  std::vector<std::string> extra_flags;  // compiler flags an on-demand unit adds to the binary's own
  bool host_code = false;                // the header is host code: units are C++ (.cpp), not CUDA
};

namespace library_calls {

// A group, once, from the file that registers its variants.
void declare_group(LibraryCallGroup g);
struct GroupDeclaration {  // at namespace scope: declares at static initialization
  explicit GroupDeclaration(LibraryCallGroup g) { declare_group(std::move(g)); }
};
const std::vector<LibraryCallGroup>& groups();
// The group that adds `label`'s calls, or null for a label of no group.
const LibraryCallGroup* group_of(const std::string& label);

// The instantiation of `label` for key type k; null where none is loaded.
InstanceFactory find(const std::string& label, KeyType k);
// How many (label, key type) instantiations are loaded.
std::size_t count();

// Why `label` cannot sort key type k in this process: empty where its
// instantiation is loaded (or a dry run plans to build it), else where it
// would come from, or why building it failed.
std::string missing(const std::string& label, KeyType k);
// The instance of `label` for p.key; std::runtime_error with missing()'s
// reason where none is loaded.
std::unique_ptr<Instance> make(const std::string& label, const Problem& p);
// A registration of a group's label: v with make and unsupported from the table.
VariantInfo made_from_table(VariantInfo v);

// For on-demand builds: a dry run's plan to build group × k (missing() is
// then empty, and make() still fails), and a build that failed, with the reason.
void mark_pending(const std::string& group, KeyType k);
void mark_failed(const std::string& group, KeyType k, const std::string& reason);

}  // namespace library_calls
}  // namespace sortbench

// The one door into the table for the binary's translation units and for the
// units built on demand alike (they resolve it from the binary that loads them).
extern "C" void sortbench_add_library_call_v2(const char* label, int key_type, sortbench::InstanceFactory make);

// Adds `factory` (a function template's specialization, commas allowed) as
// the instantiation of `label` for the C++ key type Key, at static
// initialization. Needs sortbench/sort.hpp's key_type_of (every call header
// includes it). A second instantiation of a (label, key type) is ignored.
#define SORTBENCH_ADD_LIBRARY_CALL(label, Key, ...)                                                       \
  static const bool SORTBENCH_CONCAT(sortbench_library_call_, __COUNTER__) =                            \
      (sortbench_add_library_call_v2(label, static_cast<int>(::sortbench::detail::key_type_of<Key>()), \
                                     &__VA_ARGS__),                                                      \
       true);
