// sortbench list: every registered variant.
#include <algorithm>
#include <iostream>
#include <limits>
#include <optional>
#include <vector>

#include "cli.hpp"
#include "sortbench/config.hpp"
#include "sortbench/family_space.hpp"
#include "sortbench/resources.hpp"
#include "sortbench/tune.hpp"

namespace po = boost::program_options;
using nlohmann::json;

namespace sortbench::cli {
namespace {

std::string keys_text(const VariantInfo& v) {
  std::string s;
  for (auto k : v.key_types) s += (s.empty() ? "" : ",") + to_string(k);
  return s;
}

// "; pairs (u32, u64)" for the value types a variant moves with its keys.
std::string values_text(const VariantInfo& v) {
  std::string s;
  for (auto t : v.value_types)
    if (t != ValueType::none) s += (s.empty() ? "" : ", ") + to_string(t);
  return s.empty() ? "" : "; pairs (" + s + ")";
}

// list --spaces: every declared family space (the binary's and its
// plugins'), the points of which are built on demand.
int list_spaces(bool as_json) {
  std::vector<const FamilySpace*> spaces;
  for (const auto& s : family_spaces()) spaces.push_back(&s);
  std::sort(spaces.begin(), spaces.end(), [](auto* a, auto* b) { return a->method < b->method; });
  json out = json::array();
  for (const FamilySpace* sp : spaces) {
    const FamilySpace& s = *sp;
    json axes = json::array();
    for (const auto& a : s.axes)
      axes.push_back({{"name", a.name}, {"abbrev", a.abbrev}, {"values", a.values},
                      {"label_default", a.label_default ? json(*a.label_default) : json(nullptr)}});
    out.push_back({{"method", s.method}, {"family", s.family}, {"axes", axes},
                   {"label_form", s.label_error(s.method + ".")}});
  }
  if (as_json) {
    std::cout << out.dump(1) << "\n";
    return 0;
  }
  for (const FamilySpace* sp : spaces) {
    const FamilySpace& s = *sp;
    std::cout << s.method << " (family " << s.family << ")\n    " << s.label_error(s.method + ".") << "\n";
    for (const auto& a : s.axes) {
      std::string values;
      for (long long v : a.values) values += (values.empty() ? "" : " ") + std::to_string(v);
      std::cout << "    " << a.abbrev << " " << a.name << ": " << values
                << (a.label_default ? " (left out of labels at " + std::to_string(*a.label_default) + ")" : "") << "\n";
    }
    std::cout << "    constraints between them: checked per point (run --dry-run names the one a point breaks)\n";
  }
  std::cout << spaces.size() << " spaces\n";
  return 0;
}

int cmd_list(const std::vector<std::string>& args, const std::string&) {
  po::options_description desc("sortbench list: every registered variant\nOptions");
  desc.add_options()("help,h", "this help")("json", "print JSON")(
      "variants", po::value<std::string>()->default_value("*"), "comma-separated globs to filter labels")(
      "resources", po::value<std::string>()->implicit_value("u32/none"),
      "KEY/VALUE (default u32/none): each variant's kernels on this GPU, with registers, shared memory and "
      "resident blocks per SM (needs the GPU)")(
      "spaces", "the declared family spaces whose points are built on demand: their axes and values");
  add_plugin_option(desc);
  const auto vm = parse("list", desc, args);
  if (vm.count("help")) {
    std::cout << desc << "\n";
    return 0;
  }
  load_plugins_of(vm);
  if (vm.count("spaces")) {
    if (vm.count("resources") || !vm["variants"].defaulted())
      throw UsageError("sortbench list: --spaces: not with --variants or --resources");
    return list_spaces(vm.count("json") > 0);
  }
  const auto pats = split_list(vm["variants"].as<std::string>(), "--variants");
  std::optional<Problem> problem;
  if (vm.count("resources")) {
    const std::string kv = vm["resources"].as<std::string>();
    const auto slash = kv.find('/');
    const auto key = parse_key_type(kv.substr(0, slash));
    const auto value = parse_value_type(slash == std::string::npos ? "none" : kv.substr(slash + 1));
    if (!key || !value)
      throw ConfigError("--resources: '" + kv + "' is not KEY/VALUE; expected e.g. u32/none or u64/u32");
    problem = Problem{*key, *value, Order::ascending, std::size_t(1) << 20};
  }
  const auto& reg = Registry::instance();
  std::vector<const VariantInfo*> vs;
  for (const auto& v : reg.all())
    for (const auto& p : pats)
      if (glob_match(p, v.label)) {
        vs.push_back(&v);
        break;
      }
  // As run and tune: a pattern that lists nothing is a typo, not an empty answer.
  for (const auto& p : pats) {
    bool any = false;
    for (const auto& v : reg.all()) any = any || glob_match(p, v.label);
    if (!any) throw ConfigError("--variants: '" + p + "' matches no registered variant (see sortbench list)");
  }
  // Each variant's kernels for the problem, as compiled for this GPU.
  std::optional<SmLimits> sm;
  auto resources_of = [&](const VariantInfo& v) {
    json out = json::array();
    if (!problem || !v.skip_reason(*problem).empty()) return out;
    for (const auto& k : tune::compiled_variant_resources(v, *problem)) out.push_back(to_json(k, residency(*sm, k)));
    return out;
  };
  if (problem) {
    require_gpu();
    sm = device_sm_limits();
  }
  if (vm.count("json")) {
    json j = json::array();
    for (auto* v : vs) {
      j.push_back(variant_json(*v));
      if (problem) j.back()["resources"] = resources_of(*v);
    }
    std::cout << j.dump(1) << "\n";
    return 0;
  }
  for (auto* v : vs) {
    std::cout << v->label << "\n    " << v->description << "\n    family " << v->family << "; seed " << v->seed
              << "; keys " << keys_text(*v) << (v->supports_value(ValueType::none) ? "; keys-only" : "") << values_text(*v)
              << (v->descending ? "; descending" : "") << "; " << (v->stable ? "stable" : "not stable")
              << (v->host ? "; runs on the host" : "") << (v->opt_in ? "; opt-in (name its family)" : "")
              << (v->family_default ? "; the family's default point" : "");
    if (!v->plugin.empty()) std::cout << "\n    from plugin " << v->plugin;
    if (!v->params.empty()) {
      std::cout << "\n    params";
      for (const auto& p : v->params) std::cout << " " << p.name << "=" << p.value;
    }
    if (v->tile_keys) std::cout << "; tile " << v->tile_keys << " keys";
    if (v->max_n != std::numeric_limits<std::size_t>::max()) std::cout << "; max n " << v->max_n;
    std::cout << "\n";
    if (problem) {
      const json ks = resources_of(*v);
      if (ks.empty()) std::cout << "    kernels: none declared, or it cannot run " << vm["resources"].as<std::string>() << "\n";
      for (const auto& k : ks)
        std::cout << "    kernel " << k["kernel"].get<std::string>() << ": " << k["block_threads"] << " threads, "
                  << k["registers_per_thread"] << " registers, " << k["static_smem_bytes"].get<std::size_t>() + k["dynamic_smem_bytes"].get<std::size_t>()
                  << " B shared, " << k["local_bytes_per_thread"] << " B local; " << k["blocks_per_sm"]
                  << " blocks per SM (limited by " << k["limited_by"].get<std::string>() << ")\n";
    }
  }
  std::cout << vs.size() << " variants\n";
  return 0;
}

}  // namespace
SORTBENCH_REGISTER_COMMAND("list", "every registered variant (--json)", cmd_list);
}  // namespace sortbench::cli
