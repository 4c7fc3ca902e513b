// A plugin that declares a family space: one point compiled in (chunk 64),
// every other point of the space built on demand from space_sort.hpp, found
// through SORTBENCH_PLUGIN_SOURCE_DIR.
#include "sortbench/family_space.hpp"
#include "space_sort.hpp"

namespace {
sortbench::FamilySpace chunked_space() {
  sortbench::FamilySpace s;
  s.method = "pluginspace.chunked";
  s.family = "pluginspace";
  s.axes = {{"chunk", "c", {16, 32, 64, 128}, std::nullopt}};
  s.why_not = [](const sortbench::SpacePoint& p, const sortbench::PointTypes&, std::size_t, std::size_t,
                 int) -> std::string { return p[0] < 32 ? "chunks of fewer than 32 keys merge too often" : ""; };
  s.translation_unit = [](const sortbench::SpacePoint& p, const std::vector<sortbench::KeyType>&) {
    return "#include \"space_sort.hpp\"\nSORTBENCH_REGISTER_VARIANT(plugin_space::chunked_info<" + std::to_string(p[0]) +
           ">());\n";
  };
  s.include_dirs = {SORTBENCH_PLUGIN_SOURCE_DIR};
  return s;
}
}  // namespace

SORTBENCH_REGISTER_VARIANT(plugin_space::chunked_info<64>());
SORTBENCH_REGISTER_FAMILY_SPACE(chunked_space());
