// Family parameter spaces (sortbench/family_space.hpp).
#include "sortbench/family_space.hpp"

#include <algorithm>
#include <deque>
#include <stdexcept>
#include <utility>

namespace sortbench {

namespace {
// A deque: spaces registered later (the fake family) leave pointers to earlier ones valid.
std::deque<FamilySpace>& spaces() {
  static std::deque<FamilySpace> s;
  return s;
}
struct Staging {
  bool on = false;
  std::vector<FamilySpace> held;
};
Staging& staging() {
  static Staging s;
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

namespace {

// A label's components read against the space's axes: the point, or (where
// `why` is given) what names no point of it.
std::optional<SpacePoint> read_label(const FamilySpace& s, const std::string& text, std::string* why) {
  auto fail = [&](const std::string& w) -> std::optional<SpacePoint> {
    if (why) *why = w;
    return std::nullopt;
  };
  if (text.rfind(s.method + ".", 0) != 0) return fail(s.method + " points start with " + s.method + ".");
  std::string components;
  for (const auto& a : s.axes)
    components += a.label_default ? "[." + a.abbrev + "<" + a.name + "> unless " + std::to_string(*a.label_default) + "]"
                                  : "." + a.abbrev + "<" + a.name + ">";
  const std::string form = s.method + " points are " + s.method + components;
  if (text.size() <= s.method.size() + 1) return fail(form);
  SpacePoint p;
  for (const auto& a : s.axes) p.push_back(a.label_default.value_or(-1));
  std::vector<bool> seen(s.axes.size(), false);
  std::size_t pos = s.method.size() + 1;
  while (pos <= text.size()) {
    const std::size_t dot = std::min(text.find('.', pos), text.size());
    const std::string part = text.substr(pos, dot - pos);
    bool matched = false;
    for (std::size_t i = 0; i < s.axes.size() && !matched; ++i) {
      const auto& a = s.axes[i];
      if (part.size() <= a.abbrev.size() || part.compare(0, a.abbrev.size(), a.abbrev) != 0) continue;
      const std::string digits = part.substr(a.abbrev.size());
      if (digits.find_first_not_of("0123456789") != std::string::npos || digits.size() > 9) continue;
      if (seen[i]) return fail("'" + part + "': " + a.name + " (" + a.abbrev + ") given twice; " + form);
      p[i] = std::stoll(digits);
      if (std::find(a.values.begin(), a.values.end(), p[i]) == a.values.end()) {
        std::string values;
        for (long long v : a.values) values += (values.empty() ? "" : ", ") + std::to_string(v);
        return fail("'" + part + "': " + a.name + " (" + a.abbrev + ") takes " + values + ", not " + digits);
      }
      seen[i] = matched = true;
    }
    if (!matched) return fail("'" + part + "' names no parameter of " + s.method + "; " + form);
    pos = dot + 1;
  }
  for (std::size_t i = 0; i < s.axes.size(); ++i)
    if (!seen[i] && !s.axes[i].label_default)
      return fail("no " + s.axes[i].name + " (" + s.axes[i].abbrev + "<" + s.axes[i].name + ">); " + form);
  // One spelling per point: the components in axis order, defaults left out.
  if (s.label(p) != text) return fail("one spelling per point: " + s.method + components);
  return p;
}

}  // namespace

std::optional<SpacePoint> FamilySpace::parse_label(const std::string& text) const {
  return read_label(*this, text, nullptr);
}

std::string FamilySpace::label_error(const std::string& text) const {
  std::string why;
  return read_label(*this, text, &why) ? std::string() : why;
}

std::string unmatched_label_hint(const std::string& label) {
  if (label.find_first_of("*?") != std::string::npos) return {};
  if (const FamilySpace* s = family_space_of(label)) return s->label_error(label);
  // By name: registration order follows the link order of the variants' files.
  std::vector<std::string> names;
  for (const auto& s : spaces()) names.push_back(s.method);
  std::sort(names.begin(), names.end());
  std::string methods;
  for (const auto& m : names) methods += (methods.empty() ? "" : ", ") + m;
  return methods.empty() ? std::string() : "points built on demand are of " + methods;
}

std::string family_space_problem(const FamilySpace& s) {
  if (s.method.empty() || s.family.empty() || s.method.rfind(s.family + ".", 0) != 0)
    return "its method must start with its family and a dot (family '" + s.family + "', method '" + s.method + "')";
  if (s.axes.empty() || !s.why_not || !s.translation_unit)
    return "incomplete: it needs axes, why_not and translation_unit";
  for (const auto& a : s.axes)
    if (a.name.empty() || a.abbrev.empty() || a.values.empty())
      return "incomplete: every axis needs a name, an abbreviation and values";
  for (const auto& d : s.include_dirs)
    if (d.empty() || d.front() != '/') return "include_dirs must be absolute folders, not '" + d + "'";
  for (const auto& old : spaces())
    if (old.method == s.method) return "'" + s.method + "' is already declared";
  return {};
}

void begin_space_staging() {
  staging().on = true;
  staging().held.clear();
}

std::vector<FamilySpace> end_space_staging() {
  staging().on = false;
  return std::exchange(staging().held, {});
}

void register_family_space(FamilySpace s) {
  if (staging().on) {
    staging().held.push_back(std::move(s));
    return;
  }
  if (const std::string why = family_space_problem(s); !why.empty())
    throw std::logic_error("family space '" + s.method + "': " + why);
  spaces().push_back(std::move(s));
}

const std::deque<FamilySpace>& family_spaces() { return spaces(); }

const FamilySpace* family_space_of(const std::string& label) {
  for (const auto& s : spaces())
    if (label.rfind(s.method + ".", 0) == 0) return &s;
  return nullptr;
}

}  // namespace sortbench
