// A plugin whose family space's method is not under its family: refused at load.
#include "sortbench/family_space.hpp"
#include "space_sort.hpp"

namespace {
sortbench::FamilySpace misnamed_space() {
  sortbench::FamilySpace s;
  s.method = "otherfamily.chunked";
  s.family = "pluginspace";
  s.axes = {{"chunk", "c", {32, 64}, std::nullopt}};
  s.why_not = [](const sortbench::SpacePoint&, const sortbench::PointTypes&, std::size_t, std::size_t, int) {
    return std::string();
  };
  s.translation_unit = [](const sortbench::SpacePoint&, const std::vector<sortbench::KeyType>&) {
    return std::string();
  };
  return s;
}
}  // namespace

SORTBENCH_REGISTER_VARIANT(plugin_space::chunked_info<64>());
SORTBENCH_REGISTER_FAMILY_SPACE(misnamed_space());
