// Family parameter spaces (sortbench/family_space.hpp).
#include "sortbench/family_space.hpp"

#include <algorithm>
#include <deque>
#include <stdexcept>

namespace sortbench {

namespace {
// A deque: spaces registered later (the fake family) leave pointers to earlier ones valid.
std::deque<FamilySpace>& spaces() {
  static std::deque<FamilySpace> s;
  return s;
}
}  // namespace

Params space_params(const std::vector<SpaceAxis>& axes, const SpacePoint& p) {
  Params out;
  for (std::size_t i = 0; i < axes.size(); ++i)
    if (!axes[i].label_default || *axes[i].label_default != p.at(i))
      out.push_back({axes[i].name, axes[i].abbrev, std::to_string(p[i])});
  return out;
}

Params FamilySpace::params(const SpacePoint& p) const { return space_params(axes, p); }

Params FamilySpace::full_params(const SpacePoint& p) const {
  Params out;
  for (std::size_t i = 0; i < axes.size(); ++i) out.push_back({axes[i].name, axes[i].abbrev, std::to_string(p.at(i))});
  return out;
}

std::string FamilySpace::label(const SpacePoint& p) const { return method + "." + param_label(params(p)); }

std::optional<SpacePoint> FamilySpace::parse_label(const std::string& text) const {
  if (text.rfind(method + ".", 0) != 0) return std::nullopt;
  SpacePoint p;
  for (const auto& a : axes) p.push_back(a.label_default.value_or(-1));
  std::vector<bool> seen(axes.size(), false);
  std::size_t pos = method.size() + 1;
  while (pos <= text.size()) {
    const std::size_t dot = std::min(text.find('.', pos), text.size());
    const std::string part = text.substr(pos, dot - pos);
    bool matched = false;
    for (std::size_t i = 0; i < axes.size() && !matched; ++i) {
      const auto& a = axes[i];
      if (seen[i] || part.size() <= a.abbrev.size() || part.compare(0, a.abbrev.size(), a.abbrev) != 0) continue;
      const std::string digits = part.substr(a.abbrev.size());
      if (digits.find_first_not_of("0123456789") != std::string::npos || digits.size() > 9) continue;
      p[i] = std::stoll(digits);
      if (std::find(a.values.begin(), a.values.end(), p[i]) == a.values.end()) return std::nullopt;
      seen[i] = matched = true;
    }
    if (!matched) return std::nullopt;
    pos = dot + 1;
  }
  for (std::size_t i = 0; i < axes.size(); ++i)
    if (!seen[i] && !axes[i].label_default) return std::nullopt;
  // One spelling per point: the components in axis order, defaults left out.
  if (label(p) != text) return std::nullopt;
  return p;
}

std::string FamilySpace::label_error(const std::string& text) const {
  if (parse_label(text)) return {};
  auto axis_list = [&] {
    std::string out;
    for (const auto& a : axes)
      out += a.label_default ? "[." + a.abbrev + "<" + a.name + "> unless " + std::to_string(*a.label_default) + "]"
                             : "." + a.abbrev + "<" + a.name + ">";
    return out;
  };
  auto values_of = [](const SpaceAxis& a) {
    std::string out;
    for (long long v : a.values) out += (out.empty() ? "" : ", ") + std::to_string(v);
    return out;
  };
  const std::string components = axis_list();
  const std::string head = method + " points are " + method + components;
  if (text.size() <= method.size() + 1) return head;
  std::vector<bool> seen(axes.size(), false);
  std::size_t pos = method.size() + 1;
  while (pos <= text.size()) {
    const std::size_t dot = std::min(text.find('.', pos), text.size());
    const std::string part = text.substr(pos, dot - pos);
    bool matched = false;
    for (std::size_t i = 0; i < axes.size() && !matched; ++i) {
      const auto& a = axes[i];
      if (part.size() <= a.abbrev.size() || part.compare(0, a.abbrev.size(), a.abbrev) != 0) continue;
      const std::string digits = part.substr(a.abbrev.size());
      if (digits.find_first_not_of("0123456789") != std::string::npos || digits.size() > 9) continue;
      if (seen[i]) return "'" + part + "': " + a.name + " (" + a.abbrev + ") given twice; " + head;
      const long long v = std::stoll(digits);
      if (std::find(a.values.begin(), a.values.end(), v) == a.values.end())
        return "'" + part + "': " + a.name + " (" + a.abbrev + ") takes " + values_of(a) + ", not " + digits;
      seen[i] = matched = true;
    }
    if (!matched) return "'" + part + "' names no parameter of " + method + "; " + head;
    pos = dot + 1;
  }
  for (std::size_t i = 0; i < axes.size(); ++i)
    if (!seen[i] && !axes[i].label_default)
      return "no " + axes[i].name + " (" + axes[i].abbrev + "<" + axes[i].name + ">); " + head;
  return "one spelling per point: " + method + components;
}

std::string unmatched_label_hint(const std::string& label) {
  if (label.find_first_of("*?") != std::string::npos) return {};
  if (const FamilySpace* s = family_space_of(label)) return s->label_error(label);
  std::string methods;
  for (const auto& s : spaces()) methods += (methods.empty() ? "" : ", ") + s.method;
  return methods.empty() ? std::string() : "points built on demand are of " + methods;
}

void register_family_space(FamilySpace s) {
  if (s.method.empty() || s.method.rfind(s.family, 0) != 0 || s.axes.empty() || !s.why_not || !s.translation_unit)
    throw std::logic_error("family space '" + s.method + "' is incomplete");
  for (const auto& old : spaces())
    if (old.method == s.method) throw std::logic_error("family space '" + s.method + "' registered twice");
  spaces().push_back(std::move(s));
}

const std::deque<FamilySpace>& family_spaces() { return spaces(); }

const FamilySpace* family_space_of(const std::string& label) {
  for (const auto& s : spaces())
    if (label.rfind(s.method + ".", 0) == 0) return &s;
  return nullptr;
}

}  // namespace sortbench
