// sortbench tune: search a space of registered variants for the best point per
// GPU, key type and size range (docs/tune.md). Every point is measured in a
// worker process (sortbench tune --worker) so a faulting kernel costs that
// point only, and appended to a durable cache so a killed tune resumes.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "cli.hpp"
#include "evaluators.hpp"
#include "sortbench/plugin.hpp"
#include "sortbench/config.hpp"
#include "sortbench/family_space.hpp"
#include "sortbench/files.hpp"
#include "sortbench/plan.hpp"
#include "sortbench/report.hpp"
#include "sortbench/tune.hpp"
#include "sortbench/worker.hpp"

namespace po = boost::program_options;
using nlohmann::json;

namespace sortbench::cli {
namespace {

using namespace sortbench::tune;

using worker::measure_json;
using worker::workload_json;

struct FakeOptions {
  bool on = false;
  double delay_s = 0;
  std::string crash_glob;  // the worker aborts when asked to measure a matching label
  std::string model = "fake-gpu";
};

// The worker (sortbench tune --worker): measures requests from stdin until EOF
// or a lost CUDA context (sortbench/worker.hpp).
int run_worker(const json& measure, const FakeOptions& fake) {
  if (!fake.on) return serve_device_worker(measure);
  return serve_fake_worker(fake_device_json(fake.model), fake.delay_s, fake.crash_glob);
}

// Parent side: measures through a worker process, restarting it after a crash.
class LineProgress : public Progress {
 public:
  explicit LineProgress(std::string prefix) : prefix_(std::move(prefix)), tty_(isatty(STDERR_FILENO) && prefix_.empty()) {}
  ~LineProgress() override {
    if (tty_ && dirty_) std::cerr << "\n";
  }
  void update(const std::string& line) override {
    if (tty_) {
      std::string l = line.size() > 160 ? line.substr(0, 157) + "..." : line;
      std::cerr << "\r\033[K" << l << std::flush;
      dirty_ = true;
    } else {
      std::cerr << prefix_ << line << "\n";
    }
  }
  void end_line() {
    if (tty_ && dirty_) std::cerr << "\n";
    dirty_ = false;
  }

 private:
  std::string prefix_;
  bool tty_;
  bool dirty_ = false;
};

// --groups KEY/VALUE,...: the space's sweeps narrowed to those key and value
// types, each with its own sizes, distributions and orders (--key and
// --values replace every sweep's types instead).
void select_groups(Space& s, const std::string& spec, const std::string& space_file) {
  std::vector<SweepAxes> kept;
  std::vector<std::string> all;  // the space's groups, for the message
  for (const auto& a : s.sweep.sweeps)
    for (auto k : a.keys)
      for (auto v : a.values)
        if (const std::string g = to_string(k) + "/" + to_string(v); std::find(all.begin(), all.end(), g) == all.end())
          all.push_back(g);
  for (const auto& g : split_list(spec, "--groups")) {
    const auto slash = g.find('/');
    const auto k = parse_key_type(g.substr(0, slash));
    const auto v = slash == std::string::npos ? std::nullopt : parse_value_type(g.substr(slash + 1));
    if (!k || !v) throw ConfigError("--groups: '" + g + "'; expected KEY/VALUE such as u32/none or u64/u32");
    bool found = false;
    for (const auto& a : s.sweep.sweeps)
      if (std::count(a.keys.begin(), a.keys.end(), *k) && std::count(a.values.begin(), a.values.end(), *v)) {
        SweepAxes one = a;
        one.keys = {*k};
        one.values = {*v};
        kept.push_back(one);
        found = true;
      }
    if (!found) {
      std::string its;
      for (const auto& x : all) its += (its.empty() ? "" : ", ") + x;
      throw ConfigError("--groups: " + g + " is not a group of " + space_file + " (its groups: " + its + ")");
    }
  }
  s.sweep.sweeps = std::move(kept);
}

void apply_axes(Space& s, const po::variables_map& vm) {
  apply_sweep_axes(s.sweep, vm);
  if (vm.count("strategy")) {
    auto k = parse_strategy(vm["strategy"].as<std::string>());
    if (!k) throw ConfigError("--strategy: unknown strategy '" + vm["strategy"].as<std::string>() + "'; expected exhaustive, random, halving or descent");
    s.strategy.kind = *k;
  }
  if (vm.count("max-points")) s.strategy.budget = count_flag(vm, "max-points", 1, 1000000000);
  if (vm.count("keep-fraction")) s.strategy.keep_fraction = number_flag(vm, "keep-fraction", 0.01, 1, false);
}

// Under an objective other than time: each best.json entry whose pick is not
// what a tune by time would pick from the same results.
void print_time_pick_differences(const json& best, const std::string& prefix) {
  const std::string objective = best.value("objective", "time");
  if (objective == "time") return;
  std::size_t differ = 0, entries = 0;
  for (const auto& e : best.value("entries", json::array())) {
    if (!e.contains("time_pick") || !e["time_pick"].is_string()) continue;
    ++entries;
    if (e["time_pick"] == e["variant"]) continue;
    ++differ;
    std::cout << prefix << "  " << e.value("key", "") << "/" << e.value("value", "") << " "
              << size_text(e.value("n_min", std::size_t(0))) << ".." << size_text(e.value("n_max", std::size_t(0)))
              << (e.contains("class") ? " " + e.value("class", "") : std::string()) << ": by " << objective << " "
              << e.value("variant", "") << ", by time " << e["time_pick"].get<std::string>() << "\n";
  }
  std::cout << prefix << "by " << objective << ": " << differ << " of " << entries
            << " best.json entries pick other than a tune by time would\n";
}

// --devices: one child per GPU, each a shard, then the merge.
int run_devices(const std::vector<std::string>& args, const std::vector<std::string>& devices,
                const std::vector<std::string>& outs, const std::string& out, const std::string& best_arg) {
  std::vector<std::string> base;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--devices" || args[i] == "--out" || args[i] == "--best") {
      ++i;
      continue;
    }
    if (args[i].rfind("--devices=", 0) == 0 || args[i].rfind("--out=", 0) == 0 || args[i].rfind("--best=", 0) == 0) continue;
    base.push_back(args[i]);
  }
  const std::size_t n = devices.size();
  std::vector<SelfChild> shards(n);
  for (std::size_t i = 0; i < n; ++i) {
    const std::string shard = std::to_string(i) + "/" + std::to_string(n);
    auto& a = shards[i].argv = {"sortbench", "tune"};
    a.insert(a.end(), base.begin(), base.end());
    for (const std::string& x : {std::string("--shard"), shard, std::string("--out"), outs[i],
                                 std::string("--log-prefix"), "[gpu " + devices[i] + " shard " + shard + "] "})
      a.push_back(x);
    shards[i].env = {{"CUDA_VISIBLE_DEVICES", devices[i]}};
  }
  // File times come from the kernel's coarse clock: a margin of a few of its ticks.
  const auto started = std::filesystem::file_time_type::clock::now() - std::chrono::milliseconds(100);
  const std::vector<int> statuses = run_self_children(std::move(shards));
  int worst = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const int rc = WIFEXITED(statuses[i]) ? WEXITSTATUS(statuses[i]) : 1;
    if (rc) std::cerr << "sortbench: shard " << i << "/" << n << " on GPU " << devices[i] << " " << worker::exit_text(statuses[i]) << "\n";
    worst = std::max(worst, rc);
  }
  if (worst == 2) return 2;
  // A shard that wrote no report (no GPU, a crash; a file from before is not
  // this run's): nothing to merge.
  for (std::size_t i = 0; i < n; ++i) {
    std::error_code ec;
    const auto written = std::filesystem::last_write_time(outs[i], ec);
    if (ec || written < started) {
      std::cerr << "sortbench: shard " << i << "/" << n << " wrote no report (" << outs[i] << "); nothing merged\n";
      return std::max(worst, 1);
    }
  }
  std::cerr << "sortbench: merging " << n << " shards\n";
  std::vector<Report> reports;
  for (const auto& o : outs) reports.push_back(read_report(o));
  Report merged = merge_reports(reports, outs);
  const std::string model = merged.context.value("device", json::object()).value("model", "unknown-gpu");
  const Space space = parse_space(merged.context.at("config").dump(), out + ": $.context.config");
  const json best = best_json(merged.results, space, merged.context.value("device", json::object()),
                              {{"report", out}, {"tune", merged.context.value("tune", json::object())}});
  const std::string best_path = best_arg.empty() ? files::default_best(model) : best_arg;
  files::Outputs writes;
  writes.add(out, "the merged report", report_to_json(merged).dump(1) + "\n");
  writes.add(best_path, "--best", best.dump(2) + "\n");
  writes.commit();
  print_time_pick_differences(best, "");
  std::cout << "report: " << out << "\nbest: " << best_path << "\n";
  return worst;
}

// "cub.radix_sort.off64" or "the fastest of cub.radix_sort.off32, cub.radix_sort.off64"
// ("the best by energy of ..." under another objective).
std::string baselines_text(const Space& space) {
  if (space.baseline_labels.size() == 1) return space.baseline_labels[0];
  std::string out = space.score.objective == Objective::time
                        ? "the fastest of "
                        : "the best by " + to_string(space.score.objective) + " of ";
  for (std::size_t i = 0; i < space.baseline_labels.size(); ++i) out += (i ? ", " : "") + space.baseline_labels[i];
  return out;
}

po::options_description tune_flags() {
  po::options_description desc(
      "sortbench tune: search a space of variants for the best point per key type and size range (docs/tune.md)\nOptions");
  desc.add_options()("help,h", "this help")("space", po::value<std::string>(), "tune space file (JSON), e.g. configs/tune-radix.json, or its name: tune-radix")(
      "strategy", po::value<std::string>(), "exhaustive, random, halving (successive halving) or descent (coordinate descent)")(
      "objective", po::value<std::string>(), "what a pick minimises per workload: time (default), energy (joules per sort "
                                             "from NVML) or edp (energy x time); recorded in best.json")(
      "max-points", po::value<std::string>(), "random / descent: most points scored per group (at least 1)")(
      "keep-fraction", po::value<std::string>(), "halving: fraction promoted to the next size (default 1/3)")(
      "variants", po::value<std::string>(), "label globs (replace the space's)")(
      "n", po::value<std::string>(), "sizes (replace the space's)")("key", po::value<std::string>(), "key types")(
      "values", po::value<std::string>(), "none,u32,u64")(
      "groups", po::value<std::string>(), "KEY/VALUE,...: tune only these groups of the space (u32/none,u32/u32), "
                                          "each on its own sweeps' sizes and distributions")(
      "dist", po::value<std::string>(), "distributions")(
      "seed", po::value<std::string>(), "workload seed (0 to 2^64-1)")("hot", "do not flush L2 before samples")(
      "budget", po::value<std::string>(), "per-point time budget in seconds (up to 3600)")(
      "energy-window", po::value<std::string>(), "seconds of back-to-back sorts per point for its energy from NVML "
                                                 "(default 1; 0: no energy)")(
      "out", po::value<std::string>(), "report path (default sortbench-out/<gpu-model>/<space name>-<strategy>.json)")(
      "best", po::value<std::string>(), "best.json path (default sortbench-out/<gpu-model>/best.json; --best results/<gpu-model>/best.json "
                                      "for the picks best:FAMILY reads; not written by a shard)")(
      "best-base", po::value<std::string>(), "a best.json of this GPU whose entries this tune did not measure (other "
                                           "key and value types, other sizes) the new best.json keeps")(
      "cache", po::value<std::string>(), "cache path (default sortbench-out/<gpu-model>/cache/<space name>.jsonl)")(
      "fresh", "measure everything again (new measurements are still appended to the cache)")(
      "shard", po::value<std::string>(), "I/N: tune only the points whose label hashes to shard I of N")(
      "devices", po::value<std::string>(), "comma-separated GPU ordinals: one shard per GPU, run side by side, then merged")(
      "point-timeout", po::value<std::string>(), "seconds before a point that does not finish is failed (default 300)")(
      "in-process", "measure in this process (no worker; a fault ends the tune)")(
      "dry-run", "print the groups, points and pruned points and an estimate of the time, and exit (needs no GPU)");
  add_plugin_option(desc);
  add_on_demand_options(desc);
  return desc;
}

// The space file with the flags applied; an objective other than time needs each point's energy.
Space tune_space(const po::variables_map& vm, std::string& space_file) {
  if (!vm.count("space")) throw ConfigError("--space: missing; expected a tune space file such as configs/tune-radix.json");
  space_file = files::config_path(vm["space"].as<std::string>());  // a name: configs/NAME.json
  files::check_input(space_file, "--space", "tune space file");
  Space space = load_space_file(space_file);
  apply_axes(space, vm);
  if (vm.count("groups")) select_groups(space, vm["groups"].as<std::string>(), space_file);
  if (vm.count("objective")) {
    const auto o = parse_objective(vm["objective"].as<std::string>());
    if (!o) throw ConfigError("--objective: '" + vm["objective"].as<std::string>() + "'; expected time, energy or edp");
    space.score.objective = *o;
  }
  if (space.score.objective != Objective::time && space.sweep.measure.energy_window_s <= 0)
    throw ConfigError(std::string(vm.count("objective") ? "--objective" : space.sweep.source + ": $.score.objective") +
                      ": " + to_string(space.score.objective) + " needs each point's energy; expected an energy window above 0 (" +
                      (vm.count("energy-window") ? "--energy-window" : space.sweep.source + ": $.measure.energy_window_s") + ")");
  return space;
}

// What a tune measures, every input and output checked before any GPU work
// or file is written.
struct TunePlan {
  std::string space_file;
  Space space;
  on_demand::Settings jit;
  PointTypes types;
  std::vector<on_demand::Planned> planned;  // points of family spaces and library calls the binary lacks
  std::vector<const VariantInfo*> variants;
  std::size_t shard = 0, shards = 1;
  std::vector<std::string> devices;  // --devices: one shard per GPU
  double point_timeout = 300;
  std::vector<files::Input> inputs, outputs;
  std::string merged_out;                // --devices: the merged report
  std::vector<std::string> shard_outs;   // --devices: each shard's

  void output(const std::string& path, const std::string& flag) {
    files::check_output(path, flag, inputs, outputs);
    outputs.push_back({path, flag});
  }
};

// The variants and baselines against the registry, with the on-demand points
// planned now, so a filter that selects nothing or too much is bad input, and
// held by placeholders until the GPU's architecture is known and they are built.
void select_points(TunePlan& t, const po::variables_map& vm) {
  Space& space = t.space;
  t.jit = on_demand_settings(vm);
  t.types = on_demand::point_types(space.sweep);
  if (space.on_demand) {
    t.planned = on_demand::plan_space(space.sweep.variants, space.params, t.types, on_demand::limits_of(sm90_limits()),
                                      space.sweep.source + ": $.params", kMaxPoints);
    for (const auto& p : t.planned) space.on_demand_labels.push_back(p.label);
    on_demand::register_placeholders(t.planned);
  }
  const auto& reg = Registry::instance();
  for (const auto& pat : space.sweep.variants)
    if (reg.match({pat}).empty()) {
      const std::string hint = unmatched_label_hint(pat);
      throw ConfigError((vm.count("variants") ? std::string("--variants") : space.sweep.source + ": $.variants") +
                        ": '" + pat + "' matches no registered variant (see sortbench list)" +
                        (hint.empty() ? "" : "; " + hint));
    }
  for (std::size_t i = 0; i < space.sweep.baselines.size(); ++i)
    for (const auto& label : resolve_baselines({space.sweep.baselines[i]}, reg))
      if (!reg.find(label))
        throw ConfigError(space.sweep.source + ": $.baselines[" + std::to_string(i) + "]: '" + label +
                          "' is not a registered variant (see sortbench list)");
  t.variants = space_variants(space, reg);
  if (t.variants.empty())
    throw ConfigError(space.sweep.source + ": $.params: no variant matched by $.variants has parameters in range");
  // The key types of library calls (variants or baselines) the binary lacks are built on demand too.
  std::vector<const VariantInfo*> calls = t.variants;
  for (const auto& label : resolve_baselines(space.sweep.baselines, reg)) calls.push_back(reg.find(label));
  on_demand::add_library_calls(calls, t.types, t.planned);
}

// --shard and --devices: points are dealt by a hash of their label, so more
// shards than points leaves shards with nothing to do.
void split_points(TunePlan& t, const po::variables_map& vm) {
  if (vm.count("shard")) std::tie(t.shard, t.shards) = parse_shard(vm["shard"].as<std::string>());
  if (vm.count("devices")) {
    for (int d : parse_gpu_list(vm["devices"].as<std::string>(), "--devices")) t.devices.push_back(std::to_string(d));
    if (vm.count("shard")) throw ConfigError("--devices: cannot be combined with --shard (it assigns the shards)");
  }
  const std::size_t split = t.devices.empty() ? t.shards : t.devices.size();
  if (split > t.variants.size())
    throw ConfigError(std::string(t.devices.empty() ? "--shard" : "--devices") + ": " + std::to_string(split) +
                      " shards for a space of " + std::to_string(t.variants.size()) + " points; expected at most " +
                      std::to_string(t.variants.size()));
}

// Every path the tune reads or writes, before the GPU is asked: the defaults
// under sortbench-out/<gpu-model>/ are checked once the model is known.
void check_paths(TunePlan& t, const po::variables_map& vm) {
  if (vm.count("best") && vm.count("shard")) throw ConfigError("--best: a --shard run writes no best.json (sortbench merge does)");
  if (vm.count("best-base") && (vm.count("shard") || !t.devices.empty()))
    throw ConfigError("--best-base: a --shard run writes no best.json, and --devices merges without a base");
  t.inputs = {{t.space_file, "--space"}};
  for (const auto& path : check_key_files(t.space.sweep, vm.count("dist") ? std::string("--dist") : t.space.sweep.source))
    t.inputs.push_back({path, "the key file"});
  if (vm.count("best-base")) t.inputs.push_back({vm["best-base"].as<std::string>(), "--best-base"});
  if (vm.count("out")) t.output(vm["out"].as<std::string>(), "--out");
  if (vm.count("best")) t.output(vm["best"].as<std::string>(), "--best");
  if (vm.count("cache")) {
    // Read and appended: a cache of this space and build (the GPU model is
    // compared once it is known), never another file.
    t.output(vm["cache"].as<std::string>(), "--cache");
    check_cache_file(vm["cache"].as<std::string>(), cache_header(identity_of_this_build("", ""), t.space));
  }
  // --devices: the shards' reports and the merged one are outputs too, checked
  // here, so no shard starts that would write over an input or another output.
  t.merged_out = vm.count("out") ? vm["out"].as<std::string>()
                                 : files::default_devices_report(t.space.sweep.name, to_string(t.space.strategy.kind));
  if (!t.devices.empty()) {
    const std::string base = std::filesystem::path(t.merged_out).replace_extension().string();
    const std::string n = std::to_string(t.devices.size());
    for (std::size_t i = 0; i < t.devices.size(); ++i) {
      t.shard_outs.push_back(base + ".shard-" + std::to_string(i) + "-of-" + n + ".json");
      t.output(t.shard_outs.back(), "--devices: the report of shard " + std::to_string(i) + "/" + n);
    }
    if (!vm.count("out")) t.output(t.merged_out, "--devices: the merged report");
  }
}

TunePlan plan_tune(const po::variables_map& vm, bool fake) {
  TunePlan t;
  t.space = tune_space(vm, t.space_file);
  if (fake) register_fake_variants();
  select_points(t, vm);
  split_points(t, vm);
  if (vm.count("point-timeout")) t.point_timeout = number_flag(vm, "point-timeout", 0.001, 86400, false);
  check_paths(t, vm);
  return t;
}

// "n=2^24 normal: distribution normal applies to float keys only ..."
std::string unsortable_text(const std::pair<Workload, std::string>& u) {
  return "n=" + size_text(u.first.n) + " " + u.first.dist.name() + ": " + u.second;
}

// --dry-run: the groups, their points and pruned points, and an estimate of the time.
int dry_run_tune(const TunePlan& t, const std::vector<Group>& groups, bool resources_checked) {
  const Space& space = t.space;
  std::cout << "dry run: no GPU queried; GPU model and cache key unknown\n";
  std::size_t to_compile = 0;
  if (!t.planned.empty()) {
    const on_demand::Summary od = on_demand::dry_plan(t.planned, t.types, t.jit);
    std::cout << od.line() << "\n";
    to_compile = od.count("to_compile");
  }
  std::size_t planned = 0, unchecked = 0;
  std::string check_error;  // the first error of a variant's own check
  for (const auto& g : groups) {
    std::cout << g.name() << ": " << g.workloads.size() << " workloads, " << g.candidates.size() << " points, "
              << g.pruned.size() << " pruned, up to " << planned_evaluations(space.strategy, g, space.baseline_labels.size()) << " evaluations ("
              << to_string(space.strategy.kind) << ")\n";
    for (const auto& c : g.candidates) {
      std::cout << "  " << c.label;
      for (const auto& [label, why] : g.unchecked)
        if (label == c.label) {
          std::cout << "  (own check needs the GPU; not run)";
          if (check_error.empty()) check_error = why;
        }
      std::cout << "\n";
    }
    for (const auto& p : g.pruned) std::cout << "  pruned " << p.variant << ": " << p.reason << "\n";
    for (const auto& u : g.unsortable) std::cout << "  left out workload " << unsortable_text(u) << "\n";
    planned += planned_evaluations(space.strategy, g, space.baseline_labels.size());
    unchecked += g.unchecked.size();
  }
  std::cout << planned << " evaluations at most";
  if (unchecked)
    std::cout << "; " << unchecked << " points whose own check needs the GPU (" << check_error
              << ") may still be pruned when the tune runs";
  std::cout << "\n";
  if (!resources_checked) std::cout << "kernel resources (registers, shared memory, resident blocks) not checked: that needs the GPU\n";
  const double budget = space.sweep.measure.budget_s;
  const plan::CompileEstimate compile = plan::estimate_compile(
      to_compile, to_compile ? on_demand::recorded_compile_times(t.jit.cache_dir) : std::vector<double>{}, t.jit.jobs);
  std::ostringstream budget_text;
  budget_text << budget;
  // An upper bound: evaluations the cache already holds take no time, but
  // which those are depends on the GPU model.
  const double energy_s = plan::energy_window_bound_s(space.sweep.measure.energy_window_s);
  if (energy_s > 0) budget_text << " s budget + " << energy_s << " s energy window";
  else budget_text << " s budget";
  std::cout << "dry run: " << planned << " evaluations at most, est. measuring <= "
            << duration_text(plan::measure_bound_s(planned, budget + energy_s)) << " (" << planned << " x ("
            << budget_text.str() << "); those in the cache take none), " << compile.text() << "\n";
  return 0;
}

// What measures the tune's points: a worker process (default) or this process
// (--in-process), with the device it measures on.
struct Measuring {
  std::unique_ptr<Evaluator> eval;
  json device;
  WorkerEvaluator* worker = nullptr;
};

Measuring tune_evaluator(const TunePlan& t, const FakeOptions& fake, bool in_process) {
  Measuring m;
  if (in_process) {
    if (fake.on) {
      m.eval = std::make_unique<FakeEvaluator>(fake.delay_s);
      m.device = fake_device_json(fake.model);
      return m;
    }
    require_gpu();
    auto e = std::make_unique<InProcessEvaluator>(t.space.sweep.measure);
    int current = 0;
    cuda_check(cudaGetDevice(&current), "cudaGetDevice");
    m.device = device_json(e->measurer().device(current));
    m.eval = std::move(e);
    return m;
  }
  std::vector<std::string> wargs = {"sortbench", "tune", "--worker", "--measure", measure_json(t.space.sweep.measure).dump()};
  if (fake.on) {
    wargs.insert(wargs.end(), {"--fake-evaluator", "--fake-model", fake.model, "--fake-delay", std::to_string(fake.delay_s)});
    if (!fake.crash_glob.empty()) wargs.insert(wargs.end(), {"--fake-crash", fake.crash_glob});
  } else {
    require_gpu();
  }
  auto w = std::make_unique<WorkerEvaluator>(wargs, t.point_timeout);
  m.worker = w.get();
  m.device = w->device();
  m.eval = std::move(w);
  return m;
}

// Each group's pick (or why none), and where the report and best.json went.
bool print_outcomes(const TuneRun& run, const TunePlan& t, const std::vector<Group>& groups, const std::string& prefix) {
  bool all_picked = true;
  std::cout << prefix << "strategy " << to_string(t.space.strategy.kind) << ": " << run.evaluations << " evaluations, "
            << run.cache_hits << " from the cache, " << duration_text(run.wall_s) << "\n";
  for (const auto& o : run.outcomes) {
    std::cout << prefix << "  " << o.group << ": ";
    if (o.ranking.empty() && o.candidates == 0 && t.shards > 1) {
      std::cout << "none of its points hash to shard " << t.shard << "/" << t.shards << "\n";
      continue;
    }
    if (o.ranking.empty()) {
      const auto g = std::find_if(groups.begin(), groups.end(), [&](const Group& x) { return x.name() == o.group; });
      if (g != groups.end() && g->workloads.empty() && !g->unsortable.empty())
        std::cout << "no workload to score: no variant can sort any of its " << g->unsortable.size() << " (first: "
                  << unsortable_text(g->unsortable.front()) << ")\n";
      else
        std::cout << "no point ran on every workload\n";
      all_picked = false;
      continue;
    }
    std::cout << o.ranking[0].candidate->label << " " << std::fixed << std::setprecision(3) << o.ranking[0].score.value
              << "x " << baselines_text(t.space) << " (" << o.scored << " of " << o.candidates << " points scored, "
              << (o.unscored ? std::to_string(o.unscored) + " failed or skipped, " : std::string())
              << o.evaluations << " evaluations, " << duration_text(o.wall_s) << ")";
    if (!beats_baseline(o.ranking[0].score, t.space.score)) std::cout << "; not beyond noise: the library call stays the pick";
    std::cout << "\n";
  }
  return all_picked;
}

int cmd_tune(const std::vector<std::string>& args, const std::string& command_line) {
  const po::options_description desc = tune_flags();
  po::options_description hidden;
  hidden.add_options()("worker", "")("measure", po::value<std::string>(), "")("fake-evaluator", "")(
      "fake-delay", po::value<std::string>(), "")("fake-crash", po::value<std::string>(), "")(
      "fake-model", po::value<std::string>(), "")("log-prefix", po::value<std::string>(), "");
  po::options_description all;
  all.add(desc).add(hidden);
  const auto vm = parse("tune", all, args);
  if (vm.count("help")) {
    std::cout << desc << "\n";
    return 0;
  }
  load_plugins_of(vm);
  FakeOptions fake;
  fake.on = vm.count("fake-evaluator") > 0;
  if (vm.count("fake-delay")) fake.delay_s = number_flag(vm, "fake-delay", 0, 60);
  if (vm.count("fake-crash")) fake.crash_glob = vm["fake-crash"].as<std::string>();
  if (vm.count("fake-model")) fake.model = vm["fake-model"].as<std::string>();
  if (const json measure = hidden_worker_flags("tune", vm); !measure.is_null()) return run_worker(measure, fake);
  // --devices starts each shard with the prefix for its lines.
  if (vm.count("log-prefix") && !vm.count("shard")) throw ConfigError("--log-prefix: only with --shard");

  TunePlan t = plan_tune(vm, fake.on);
  const Space& space = t.space;
  // A dry run queries no GPU: the GPU model (and so the cache key) is unknown,
  // and a variant's own check that needs the GPU (shared memory limits) is
  // shown as not run instead of failing the plan.
  const bool dry_run = vm.count("dry-run") > 0;
  // One shard per GPU, each a tune process of its own that plans on its GPU.
  if (!t.devices.empty() && !dry_run)
    return run_devices(args, t.devices, t.shard_outs, t.merged_out, vm.count("best") ? vm["best"].as<std::string>() : "");
  // Resources come from the compiled kernels on this GPU (the fake family's
  // from a formula over an H100's limits); a dry run checks none.
  std::unique_ptr<KernelResourceCheck> resources;
  if (fake.on) {
    resources = std::make_unique<KernelResourceCheck>(sm90_limits(), fake_kernel_resources);
  } else if (!dry_run) {
    require_gpu();
    resources = std::make_unique<KernelResourceCheck>(device_sm_limits(), compiled_variant_resources);
  }
  json on_demand_ctx;
  if (!t.planned.empty() && !dry_run) {
    const SmLimits sm = fake.on ? sm90_limits() : device_sm_limits();
    on_demand::Settings settings = t.jit;
    if (!fake.on) settings.arch = on_demand::arch_of(sm);
    const auto summary = on_demand::replace_placeholders_and_build(t.planned, t.types, on_demand::limits_of(sm), settings, std::cerr);
    std::cerr << summary.line() << "\n";
    on_demand_ctx = summary.to_json();
    t.variants = space_variants(space, Registry::instance());
  }
  const auto groups = plan_groups(space, t.variants, resources ? ResourceCheck(std::ref(*resources)) : ResourceCheck(no_resource_check),
                                  t.shard, t.shards, dry_run);
  if (dry_run) return dry_run_tune(t, groups, resources != nullptr);

  Measuring m = tune_evaluator(t, fake, vm.count("in-process") > 0);
  const json& device = m.device;
  const std::string model = device.value("model", "unknown-gpu");
  const std::string out = vm.count("out") ? vm["out"].as<std::string>()
                                          : files::default_tune_report(model, space.sweep.name, to_string(space.strategy.kind));
  const std::string best_path = vm.count("best") ? vm["best"].as<std::string>() : files::default_best(model);
  const std::string cache_path =
      vm.count("cache") ? vm["cache"].as<std::string>() : files::default_cache(model, space.sweep.name);
  if (!vm.count("out")) t.output(out, "the default report path");
  if (!vm.count("best") && t.shards == 1) t.output(best_path, "the default best.json path");
  json best_base;
  if (vm.count("best-base")) {
    const std::string base = vm["best-base"].as<std::string>();
    best_base = read_best_json(base, model);
    if (best_base.is_null()) throw ConfigError("--best-base: " + base + " is missing or for another GPU than " + model);
  }
  if (!vm.count("cache")) {
    t.output(cache_path, "the default cache path");
    check_cache_file(cache_path, cache_header(identity_of_this_build("", ""), space));
  }
  const CacheIdentity id = identity_of_this_build(model, device.value("uuid", ""));
  ResultCache cache(cache_path, cache_header(id, space), !vm.count("fresh"));
  const std::string prefix = vm.count("log-prefix") ? vm["log-prefix"].as<std::string>() : "";
  std::cerr << prefix << "sortbench tune: " << device.value("name", model) << "; " << to_string(space.strategy.kind)
            << " over " << groups.size() << " groups";
  if (t.shards > 1) std::cerr << ", shard " << t.shard << "/" << t.shards;
  std::cerr << "; cache " << cache_path << " (" << cache.loaded() << " entries" << (vm.count("fresh") ? ", ignored" : "")
            << ") -> " << out << "\n";
  for (const auto& g : groups)
    if (!g.unsortable.empty())
      std::cerr << prefix << "sortbench tune: " << g.name() << " leaves out " << g.unsortable.size() << " workload"
                << (g.unsortable.size() == 1 ? "" : "s") << " no variant can sort (first: "
                << unsortable_text(g.unsortable.front()) << ")\n";
  if (resources) {
    const auto& undeclared = resources->undeclared();
    if (!undeclared.empty())
      std::cerr << prefix << "sortbench tune: " << undeclared.size() << " point" << (undeclared.size() == 1 ? "" : "s")
                << " declare no kernels, so their resources were not checked (first: " << undeclared[0] << ")\n";
  }

  const std::string shard_text = std::to_string(t.shard) + "/" + std::to_string(t.shards);
  LineProgress progress(prefix);
  Session session(space, *m.eval, &cache, id, &progress);
  auto make_report = [&](const TuneRun& run, bool complete) {
    Report report;
    report.complete = complete;
    json tune_ctx = run.summary();
    tune_ctx["strategy"] = to_string(space.strategy.kind);
    tune_ctx["shard"] = shard_text;
    tune_ctx["cache"] = cache_path;
    tune_ctx["cache_identity"] = to_json(id);
    tune_ctx["worker_restarts"] = m.worker ? m.worker->restarts() : 0;
    tune_ctx["worker_contexts_lost"] = m.worker ? m.worker->contexts_lost() : 0;
    if (resources) tune_ctx["resources"] = resources->report();
    report.context = {{"tool", "sortbench"}, {"device", device}, {"build", build_json()},
                      {"host", {{"hostname", hostname()}}}, {"timestamp", utc_now()},
                      {"command_line", command_line}, {"config", space_to_json(space)}, {"tune", tune_ctx}};
    if (!loaded_plugins().empty()) report.context["plugins"] = plugins_json();
    if (!on_demand_ctx.is_null()) report.context["on_demand"] = on_demand_ctx;
    report.results = run.results;
    return report;
  };
  const TuneRun run = run_tune(space, groups, session, [&](const TuneRun& partial) {
    write_report_atomic(make_report(partial, false), out);  // a partial report survives an interrupted tune
  });
  progress.end_line();
  const Report report = make_report(run, true);
  // The report and best.json together, or neither.
  files::Outputs writes;
  writes.add(out, "--out", report_to_json(report).dump(1) + "\n");
  json best;
  if (t.shards == 1) {
    best = best_json(report.results, space, device,
                     {{"report", out}, {"tune", report.context["tune"]}, {"command_line", command_line}});
    if (!best_base.is_null()) best = keep_unmeasured_entries(best_base, std::move(best), vm["best-base"].as<std::string>());
    writes.add(best_path, "--best", best.dump(2) + "\n");
  }
  writes.commit();
  if (t.shards == 1) print_time_pick_differences(best, prefix);
  const bool all_picked = print_outcomes(run, t, groups, prefix);
  std::cout << prefix << "report: " << out << "\n";
  if (t.shards == 1) std::cout << prefix << "best: " << best_path << "\n";
  return all_picked ? 0 : 1;
}

}  // namespace
SORTBENCH_REGISTER_COMMAND("tune", "search variants' parameters for the best point per GPU -> best.json", cmd_tune);
}  // namespace sortbench::cli
