// A family's parameter space, declared once beside its policy struct: every
// value each parameter may take and the constraints between them. Labels of
// the compiled-in points, the policy's own checks and on-demand points
// (sortbench/on_demand.hpp) all read the one declaration. Host code.
#pragma once

#include <deque>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "sortbench/variant.hpp"

namespace sortbench {

// One parameter: its name and label abbreviation, as in Param.
struct SpaceAxis {
  std::string name, abbrev;
  std::vector<long long> values;             // every value the kernels allow, ascending
  std::optional<long long> label_default;    // left out of the label at this value
};

using SpacePoint = std::vector<long long>;  // one value per axis, in axis order

// The key and value types a point is built and checked for.
struct PointTypes {
  std::vector<KeyType> keys;
  std::vector<ValueType> values;
};

struct FamilySpace {
  std::string method;  // the label prefix of its points, e.g. "radix.onesweep"
  std::string family;  // VariantInfo::family of its points, e.g. "radix"
  std::vector<SpaceAxis> axes;
  // Why the point cannot run any of the types (constraints between its
  // parameters: whole warps, shared memory that fits, tile limits); empty if
  // it can run at least one. max_smem_per_block/per_sm: the GPU's limits.
  std::function<std::string(const SpacePoint&, const PointTypes&, std::size_t max_smem_per_block,
                            std::size_t max_smem_per_sm, int max_threads_per_sm)>
      why_not;
  // The translation unit that instantiates the point for these key types and
  // registers it (headers relative to the variants/ folder, or to one of
  // include_dirs).
  std::function<std::string(const SpacePoint&, const std::vector<KeyType>& keys)> translation_unit;
  // Absolute folders of the headers translation_unit includes beyond
  // sortbench's own (a plugin's source folder: SORTBENCH_PLUGIN_SOURCE_DIR,
  // which sortbench_add_plugin defines). Every header in them is part of an
  // on-demand point's cache key.
  std::vector<std::string> include_dirs;

  Params params(const SpacePoint& p) const;  // label params: defaults left out
  std::string label(const SpacePoint& p) const;
  // The point a label names, if it names one of this space (any order of its
  // components is refused: a label has one spelling).
  std::optional<SpacePoint> parse_label(const std::string& label) const;
  // Why a label that starts with this space's method names none of its
  // points: the component that names no parameter, the value a parameter does
  // not take (with the values it does), the parameter missing, or the order.
  // Empty if it names one.
  std::string label_error(const std::string& label) const;
  // The value of every axis in `full`, e.g. for filters on parameters that
  // the label leaves out at their default.
  Params full_params(const SpacePoint& p) const;
};

// The label params of a point: every axis but those at their label default.
Params space_params(const std::vector<SpaceAxis>& axes, const SpacePoint& p);

// Registers a space; std::logic_error where it is incomplete or its method is
// taken. While a plugin loads, spaces are held back (staged) unchecked, like
// its variants (Registry::begin_staging), for the loader to check.
void register_family_space(FamilySpace s);
// Why s cannot be registered (incomplete, a method that is not under its
// family, a method already registered); empty if it can.
std::string family_space_problem(const FamilySpace& s);
void begin_space_staging();
std::vector<FamilySpace> end_space_staging();
const std::deque<FamilySpace>& family_spaces();
// The family space whose points a label or glob can name (its method prefix), or null.
const FamilySpace* family_space_of(const std::string& label);
// What to tell a user whose label matches no registered variant: the space's
// label_error where the label starts with a declared method, else the methods
// whose points can be built on demand. Empty where there is nothing to add.
std::string unmatched_label_hint(const std::string& label);

namespace detail {
struct SpaceRegistrar {
  explicit SpaceRegistrar(FamilySpace s) { register_family_space(std::move(s)); }
};
}  // namespace detail

}  // namespace sortbench

#define SORTBENCH_REGISTER_FAMILY_SPACE(...)                                                         \
  static const ::sortbench::detail::SpaceRegistrar SORTBENCH_CONCAT(sortbench_space_registrar_, \
                                                                    __COUNTER__)(__VA_ARGS__)
