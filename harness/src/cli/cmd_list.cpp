// sortbench list: every registered variant.
#include <iostream>
#include <limits>

#include "cli.hpp"
#include "sortbench/config.hpp"

namespace po = boost::program_options;
using nlohmann::json;

namespace sortbench::cli {
namespace {

std::string keys_text(const VariantInfo& v) {
  std::string s;
  for (auto k : v.key_types) s += (s.empty() ? "" : ",") + to_string(k);
  return s;
}

int cmd_list(const std::vector<std::string>& args, const std::string&) {
  po::options_description desc("sortbench list: every registered variant\nOptions");
  desc.add_options()("help,h", "this help")("json", "print JSON")(
      "variants", po::value<std::string>()->default_value("*"), "comma-separated globs to filter labels");
  const auto vm = parse("list", desc, args);
  if (vm.count("help")) {
    std::cout << desc << "\n";
    return 0;
  }
  const auto pats = split_list(vm["variants"].as<std::string>(), "--variants");
  const auto& reg = Registry::instance();
  std::vector<const VariantInfo*> vs;
  for (const auto& v : reg.all())
    for (const auto& p : pats)
      if (glob_match(p, v.label)) {
        vs.push_back(&v);
        break;
      }
  if (vm.count("json")) {
    json j = json::array();
    for (auto* v : vs) j.push_back(variant_json(*v));
    std::cout << j.dump(1) << "\n";
    return 0;
  }
  for (auto* v : vs) {
    std::cout << v->label << "\n    " << v->description << "\n    family " << v->family << "; seed " << v->seed
              << "; keys " << keys_text(*v) << (v->keys_only ? "; keys-only" : "") << (v->pairs ? "; pairs (u32)" : "")
              << (v->descending ? "; descending" : "") << "; " << (v->stable ? "stable" : "not stable")
              << (v->host ? "; runs on the host" : "") << (v->opt_in ? "; opt-in (name its family)" : "");
    if (!v->params.empty()) {
      std::cout << "\n    params";
      for (const auto& p : v->params) std::cout << " " << p.name << "=" << p.value;
    }
    if (v->tile_keys) std::cout << "; tile " << v->tile_keys << " keys";
    if (v->max_n != std::numeric_limits<std::size_t>::max()) std::cout << "; max n " << v->max_n;
    std::cout << "\n";
  }
  std::cout << vs.size() << " variants\n";
  return 0;
}

}  // namespace
SORTBENCH_REGISTER_COMMAND("list", "every registered variant (--json)", cmd_list);
}  // namespace sortbench::cli
