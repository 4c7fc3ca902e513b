// On-demand points: parameter points of a declared family space
// (sortbench/family_space.hpp) that the binary does not hold are generated as
// one small translation unit each, compiled with the binary's own CUDA flags
// for the GPU's architecture into plugins (sortbench/plugin.hpp) in a cache
// folder, in parallel, then loaded, validated and measured like any other
// point (README "On-demand points"). Host code.
//
// Cache: one entry per point, named by a SHA-256 over the translation unit,
// the kernel headers it can include, the compiler's identity, its flags and
// the architecture. An entry appears only complete (compiled to a temporary
// name, then renamed), so a killed run leaves none torn; a point that fails to
// compile is cached as failed with the compiler's first error line.
#pragma once

#include <cstddef>
#include <iosfwd>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sortbench/family_space.hpp"
#include "sortbench/library_calls.hpp"
#include "sortbench/resources.hpp"
#include "sortbench/tune.hpp"

namespace sortbench::on_demand {

// The name in the identity of every plugin an on-demand build makes (a
// plugin's own points of its space are compiled in; these are not).
inline constexpr const char* kOnDemandPluginName = "on-demand";

// The GPU limits the constraints are checked against.
struct Limits {
  std::size_t smem_per_block = 232448;  // sm_90: 227 KB opt-in
  std::size_t smem_per_sm = 233472;     // 228 KB
  int threads_per_sm = 2048;
};

// The limits and architecture ("90") of a GPU.
Limits limits_of(const SmLimits& sm);
std::string arch_of(const SmLimits& sm);

// The key and value types of every sweep of a config.
PointTypes point_types(const SweepConfig& c);

struct Settings {
  std::string cache_dir;  // --jit-cache; default_cache_dir()
  unsigned jobs = 1;      // -j; default all host cores
  std::string arch;       // "90": the GPU's compute capability
};

// $XDG_CACHE_HOME/sortbench/on-demand, else ~/.cache/sortbench/on-demand.
std::string default_cache_dir();

// One point of a family space that a sweep or tune selected, or one key type
// of a group of library calls (sortbench/library_calls.hpp): `group` set,
// `space` null.
struct Planned {
  std::string label;
  const FamilySpace* space = nullptr;
  SpacePoint point;
  std::string pruned;        // why it cannot run (constraints); empty if it can
  bool compiled_in = false;  // the binary holds it already
  bool replaces = false;     // the binary holds it at other key widths only: the build replaces it
  const LibraryCallGroup* group = nullptr;
  KeyType key = KeyType::u32;
};

// Every point of each family space whose method a pattern can match
// ("radix.*", "radix.onesweep.*"), with every filter's parameter among its
// axes, filtered on all of its axes (defaults included). ConfigError (where:
// the JSON path of the filters) when a filter names no parameter of any such
// space or the points are more than max_points.
std::vector<Planned> plan_space(const std::vector<std::string>& patterns, const std::vector<tune::ParamFilter>& filters,
                                const PointTypes& types, const Limits& limits, const std::string& where,
                                std::size_t max_points);
// The point an exact label (no wildcards) names, when the binary lacks it and
// a family space declares it; empty otherwise.
std::vector<Planned> plan_labels(const std::vector<std::string>& labels, const PointTypes& types, const Limits& limits);

// The library calls the variants need for the key types and the binary (and
// what is loaded) lacks: one unit per group and key type ("merge_sort_calls.u16").
std::vector<Planned> plan_library_calls(const std::vector<const VariantInfo*>& variants, const PointTypes& types);
// plan_library_calls' units that `planned` lacks, appended to it and marked
// pending (register_placeholders), so a dry run plans their points to measure.
void add_library_calls(const std::vector<const VariantInfo*>& variants, const PointTypes& types,
                       std::vector<Planned>& planned);

// What happened to each planned point, and the totals, for reports.
struct Outcome {
  std::string label;
  std::string status;  // compiled_in, cached, compiled, failed, pruned
  std::string reason;  // failed: the compiler's first error line; pruned: the constraint
  std::string plugin;  // the cache entry loaded
  std::string key;     // cache key
  double compile_s = 0;
};
struct Summary {
  std::vector<Outcome> points;
  std::string cache_dir, arch, compiler, flags;
  unsigned jobs = 0;
  double wall_s = 0;  // compiling and loading, all points
  std::size_t count(const std::string& status) const;
  nlohmann::json to_json() const;
  std::string line() const;  // "on-demand: 300 points: 12 compiled in, 250 cached, ..."
};

// Compiles (or finds in the cache) every planned point that the binary lacks
// and is not pruned; loads nothing (Outcome::plugin: the library to load).
Summary build(const std::vector<Planned>& points, const PointTypes& types, const Settings& settings, std::ostream& log);

// Builds (or finds in the cache) every planned point that the binary lacks
// and is not pruned, loads them, and registers the pruned and failed ones as
// variants that skip with their reason, so sweeps record them (a library
// call's key type that failed skips with its reason too). Progress (with an
// ETA) goes to `log`. Throws ConfigError when no CUDA compiler or kernel
// headers are found for a family-space point (library calls alone: they fail
// with that reason), std::runtime_error when the cache folder cannot be used.
Summary build_and_load(const std::vector<Planned>& points, const PointTypes& types, const Settings& settings,
                       std::ostream& log);

// Takes the placeholders of register_placeholders out again, re-checks the
// constraints against the GPU's limits and builds what is needed (build_and_load).
Summary replace_placeholders_and_build(std::vector<Planned>& points, const PointTypes& types, const Limits& limits,
                                       const Settings& settings, std::ostream& log);

// What a dry run says: how many points are compiled in, cached, to compile, pruned.
Summary dry_plan(const std::vector<Planned>& points, const PointTypes& types, const Settings& settings);

// The compile times (seconds) the cache folder's entries recorded (KEY.json
// compile_s), for a dry run's estimate (sortbench/plan.hpp); none for a
// folder that does not exist yet.
std::vector<double> recorded_compile_times(const std::string& cache_dir);

// For a dry run: registers the points to build as placeholders (they plan like
// any variant, and a measurement of one fails) and the pruned ones as skips;
// marks the library calls to build as pending.
void register_placeholders(const std::vector<Planned>& points);

// The compiler and headers on-demand points are built with (exposed for tests).
std::string find_nvcc();
std::vector<std::string> include_dirs();
std::vector<std::string> compile_flags(const std::string& arch);
// space_include_dirs: a plugin space's own header folders (FamilySpace::include_dirs).
std::string cache_key(const std::string& translation_unit, const std::string& arch,
                      const std::vector<std::string>& space_include_dirs = {});

}  // namespace sortbench::on_demand
