// sortbench build: compiles on-demand points (sortbench/on_demand.hpp) into
// the cache without a GPU, for a GPU machine to load: a build node fills
// --jit-cache, and a run or tune there with the same cache and binary finds
// every point built. The points: those a tune space selects (--space), or
// the labels and patterns of --variants or a run config (--config), and the
// key types of the library calls these select that the binary lacks.
#include <iostream>
#include <thread>

#include "cli.hpp"
#include "sortbench/config.hpp"
#include "sortbench/files.hpp"
#include "sortbench/resources.hpp"
#include "sortbench/tune.hpp"

namespace po = boost::program_options;

namespace sortbench::cli {
namespace {

// --variants or --config: exact labels as a run plans them, and patterns
// ("radix.onesweep.rb8.*") over the declared spaces.
std::vector<on_demand::Planned> plan_of_patterns(const std::vector<std::string>& patterns, const PointTypes& types,
                                                 const on_demand::Limits& limits, const std::string& where) {
  std::vector<std::string> labels, globs;
  for (const auto& p : patterns) (p.find_first_of("*?") == std::string::npos ? labels : globs).push_back(p);
  std::vector<on_demand::Planned> planned = on_demand::plan_labels(labels, types, limits);
  if (!globs.empty())
    for (auto& p : on_demand::plan_space(globs, {}, types, limits, where, kMaxPoints)) planned.push_back(std::move(p));
  return planned;
}

int cmd_build(const std::vector<std::string>& args, const std::string&) {
  po::options_description desc(
      "sortbench build: compiles on-demand points into the cache without a GPU, for a GPU machine to use\n"
      "(with the same binary and --jit-cache). One of --space, --config or --variants.\nOptions");
  desc.add_options()("help,h", "this help")(
      "space", po::value<std::string>(), "a tune space file, or the name of one in configs/: every on-demand point it selects")(
      "config", po::value<std::string>(), "a run config file or name: the on-demand points its variants name")(
      "variants", po::value<std::string>(), "comma-separated labels or patterns of a declared space, e.g. "
                                            "'radix.onesweep.rb8.ipt20.tpb256,radix.onesweep.rb7.*'")(
      "key", po::value<std::string>(), "key types to build for, with --variants (default u32)")(
      "values", po::value<std::string>(), "value types to build for, with --variants (default none)")(
      "arch", po::value<std::string>(), "the GPU architecture to build for, e.g. 90 (default: this binary's)")(
      "dry-run", "say what is compiled in, cached, to compile and pruned; compile nothing");
  add_on_demand_options(desc);
  add_plugin_option(desc);
  const auto vm = parse("build", desc, args);
  if (vm.count("help")) {
    std::cout << desc << "\n";
    return 0;
  }
  const int sources = int(vm.count("space")) + int(vm.count("config")) + int(vm.count("variants"));
  if (sources != 1)
    throw UsageError("sortbench build: expected exactly one of --space, --config or --variants");
  if ((vm.count("key") || vm.count("values")) && !vm.count("variants"))
    throw UsageError("sortbench build: --key and --values go with --variants (a space or config names its own types)");
  load_plugins_of(vm);
  on_demand::Settings settings = on_demand_settings(vm);
  if (vm.count("arch")) {
    const std::string arch = vm["arch"].as<std::string>();
    if (arch.empty() || arch.size() > 3 || arch.find_first_not_of("0123456789") != std::string::npos ||
        std::stoi(arch) < 50)
      throw ConfigError("--arch: '" + arch + "': expected a compute capability as digits, e.g. 90");
    settings.arch = arch;
  }
  const on_demand::Limits limits = on_demand::limits_of(sm90_limits());
  std::vector<on_demand::Planned> planned;
  PointTypes types;
  if (vm.count("space")) {
    const std::string file = files::config_path(vm["space"].as<std::string>());
    files::check_input(file, "--space", "tune space file");
    const tune::Space space = tune::load_space_file(file);
    if (!space.on_demand)
      throw ConfigError(file + ": $.on_demand: false; expected a space whose points are built on demand");
    types = on_demand::point_types(space.sweep);
    planned = on_demand::plan_space(space.sweep.variants, space.params, types, limits, file + ": $.params", kMaxPoints);
  } else {
    SweepConfig cfg;
    if (vm.count("config")) {
      const std::string file = files::config_path(vm["config"].as<std::string>());
      files::check_input(file, "--config", "config file");
      cfg = load_config_file(file);
    } else {
      // One sweep of u32 keys unless --key and --values say otherwise.
      cfg = parse_config(embedded_quick_config(), "embedded configs/quick.json");
      cfg.sweeps.resize(1);
      cfg.sweeps[0].keys = {KeyType::u32};
      cfg.sweeps[0].values = {ValueType::none};
      apply_sweep_axes(cfg, vm);
    }
    types = on_demand::point_types(cfg);
    planned = plan_of_patterns(cfg.variants, types, limits,
                               vm.count("variants") ? std::string("--variants") : cfg.source + ": $.variants");
    on_demand::add_library_calls(Registry::instance().match(cfg.variants), types, planned);
  }
  if (planned.empty()) {
    std::cout << "sortbench build: no on-demand point selected (every label and library call is compiled in or names "
                 "no declared space; sortbench list --spaces)\n";
    return 0;
  }
  if (vm.count("dry-run")) {
    std::cout << "dry run: " << on_demand::dry_plan(planned, types, settings).line() << "\n";
    return 0;
  }
  const on_demand::Summary s = on_demand::build(planned, types, settings, std::cerr);
  std::cout << s.line() << " (cache " << s.cache_dir << ", sm_" << s.arch << ")\n";
  for (const auto& o : s.points)
    if (o.status == "failed" || o.status == "pruned") std::cout << "  " << o.label << ": " << o.status << ": " << o.reason << "\n";
  return s.count("failed") ? 1 : 0;
}

}  // namespace

SORTBENCH_REGISTER_COMMAND("build", "compile on-demand points into the cache without a GPU (--space, --config, --variants)",
                           cmd_build);

}  // namespace sortbench::cli
