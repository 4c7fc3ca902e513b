// sortbench run: a validated, timed sweep written as a JSON report. With
// --isolate every point is measured in a worker process (sortbench run
// --worker, sortbench/worker.hpp), so a faulting kernel costs that point only.
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <iomanip>
#include <set>
#include <iostream>
#include <sstream>

#include "cli.hpp"
#include "evaluators.hpp"
#include "sortbench/plugin.hpp"
#include "sortbench/best_json.hpp"
#include "sortbench/config.hpp"
#include "sortbench/device.hpp"
#include "sortbench/family_space.hpp"
#include "sortbench/files.hpp"
#include "sortbench/nccl.hpp"
#include "sortbench/plan.hpp"
#include "sortbench/report.hpp"
#include "sortbench/tune.hpp"
#include "sortbench/worker.hpp"

namespace po = boost::program_options;
using nlohmann::json;

namespace sortbench::cli {
namespace {

// --processes: this command again, once per GPU, as ranks of one NCCL
// communicator (--world/--rank/--device), the unique id passed through a file
// in a private temporary folder; rank 0 writes the report. All GPUs stay
// visible to every rank (NCCL's peer-to-peer path between processes needs them).
int spawn_ranks(const std::vector<std::string>& args, const std::vector<int>& gpus) {
  nccl::disable_multicast();  // the ranks inherit NCCL_NVLS_ENABLE=0
  char dir[] = "/tmp/sortbench-ranks-XXXXXX";
  if (!::mkdtemp(dir)) throw std::runtime_error("--processes: cannot make a temporary folder for the NCCL id");
  const std::string id_file = std::string(dir) + "/nccl-id";
  const int world = int(gpus.size());
  std::vector<SelfChild> ranks(static_cast<std::size_t>(world));
  for (int r = 0; r < world; ++r) {
    auto& a = ranks[std::size_t(r)].argv = {"sortbench", "run"};
    for (const auto& x : args)
      if (x != "--processes") a.push_back(x);
    for (const std::string& x : {std::string("--world"), std::to_string(world), std::string("--rank"), std::to_string(r),
                                 std::string("--device"), std::to_string(gpus[std::size_t(r)]), std::string("--nccl-id-file"),
                                 id_file})
      a.push_back(x);
  }
  const std::vector<int> statuses = run_self_children(std::move(ranks));
  int worst = 0;
  for (int r = 0; r < world; ++r) {
    const int status = statuses[std::size_t(r)];
    const int rc = WIFEXITED(status) ? WEXITSTATUS(status) : 1;
    if (rc && r) std::cerr << "sortbench: rank " << r << " on GPU " << gpus[std::size_t(r)] << " " << worker::exit_text(status) << "\n";
    if (r == 0 || rc > 1) worst = std::max(worst, rc);
  }
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);  // the id file, and those of communicators made again after an NCCL error
  return worst;
}

po::options_description run_flags() {
  po::options_description desc(
      "sortbench run: a validated, timed sweep written as a JSON report\n"
      "With no --config, the embedded configs/quick.json is the base; axis flags replace that axis in every sweep.\nOptions");
  desc.add_options()("help,h", "this help")("config", po::value<std::string>(), "sweep config file (JSON), or the name of one in configs/ (here or installed): quick, realistic")(
      "variants", po::value<std::string>(), "comma-separated label globs, e.g. 'cub.*,radix.onesweep.*'")(
      "n", po::value<std::string>(), "sizes: list and ranges, e.g. 2^16:2^28:x4,1000,5e6")(
      "dist", po::value<std::string>(), "distributions, e.g. uniform,entropy:0.544,sorted")(
      "key", po::value<std::string>(), ("key types: " + key_type_names()).c_str())(
      "values", po::value<std::string>(), "value types: none,u32,u64 (the value is the key's original index)")(
      "order", po::value<std::string>(), "ascending,descending")(
      "gpus", po::value<std::string>(), "CUDA ordinals each point spans, e.g. 0,1: distributed variants sort across them, "
                                        "single-GPU variants run on the first with all n keys")("seed", po::value<std::string>(), "workload seed (0 to 2^64-1)")(
      "shard", po::value<std::string>(), "I/N: measure only shard I of N of the workloads (each with all its variants; "
                                         "dealt by size, so every shard gets a like mix); join the N reports with "
                                         "sortbench merge")(
      "out", po::value<std::string>(), "report path (default sortbench-out/<gpu-model>/<config name>.json; "
                                      "--out results/<gpu-model>/NAME.json for a report to commit)")(
      "hot", "do not flush L2 before samples")("budget", po::value<std::string>(), "per-point time budget in seconds (up to 3600)")(
      "energy-window", po::value<std::string>(), "seconds of back-to-back sorts per point for its energy from NVML "
                                                 "(default 1; 0: no energy)")(
      "isolate", "measure each point in a worker process: a point that faults (illegal address, trap, launch "
                 "failure) or kills its worker is recorded as failed with the error, and the sweep goes on in a "
                 "fresh worker")(
      "point-timeout", po::value<std::string>(), "with --isolate: seconds before a point that does not finish is failed (default 300)")(
      "dry-run", "print every point, to measure or skipped with its reason, and an estimate of the time; run "
                 "nothing (needs no GPU)")(
      "processes", "with --gpus: one process per GPU (this command started once per GPU as --world/--rank) instead of "
                   "one process driving them all")(
      "world", po::value<std::string>(), "one process per GPU under a launcher (srun, mpirun): the number of ranks")(
      "rank", po::value<std::string>(), "with --world: this process's rank, 0..world-1 (rank 0 writes the report)")(
      "device", po::value<std::string>(), "with --world: this rank's CUDA ordinal (default 0)")(
      "nccl-id-file", po::value<std::string>(), "with --world: where rank 0 writes NCCL's unique id for the others "
                                                "(a path every rank sees)");
  add_plugin_option(desc);
  add_on_demand_options(desc);
  return desc;
}

// One process per GPU under a launcher: --world, --rank, --nccl-id-file, --device.
struct RankLaunch {
  int world = 0, rank = 0, device = 0;
  std::string id_file;
};

RankLaunch rank_launch(const po::variables_map& vm) {
  RankLaunch l;
  if (!vm.count("world") && !vm.count("rank") && !vm.count("nccl-id-file") && !vm.count("device")) return l;
  if (!vm.count("world") || !vm.count("rank") || !vm.count("nccl-id-file"))
    throw ConfigError("--world, --rank and --nccl-id-file: one process per GPU needs all three");
  if (vm.count("isolate")) throw ConfigError("--world: not with --isolate");
  l.world = int(count_flag(vm, "world", 2, 1024));
  l.rank = int(count_flag(vm, "rank", 0, std::uint64_t(l.world - 1)));
  if (vm.count("device")) l.device = int(count_flag(vm, "device", 0, 1023));
  l.id_file = vm["nccl-id-file"].as<std::string>();
  // The other ranks read whatever file is at this path: one left by an
  // earlier launch would hand them a dead id, so rank 0 wants a new path.
  if (l.rank == 0) {
    std::error_code ec;
    if (std::filesystem::exists(std::filesystem::symlink_status(l.id_file, ec)))
      throw ConfigError("--nccl-id-file: '" + l.id_file + "' exists (an earlier launch's id?); expected a path that " +
                        "does not exist yet: rank 0 writes it and removes it once every rank has joined");
    files::check_output(l.id_file, "--nccl-id-file", {});
  }
  return l;
}

// --isolate (and the fakes that test it without a GPU).
struct Isolation {
  bool isolate = false, fake = false;
  std::string crash_glob;
  double point_timeout = 300;
};

// What a run measures: the config with the flags applied, the variants and
// workloads, every input checked before any GPU work or file is written.
struct Sweep {
  SweepConfig cfg;
  std::vector<files::Input> inputs;
  on_demand::Settings jit;
  PointTypes types;
  std::vector<on_demand::Planned> planned;  // points of family spaces and library calls the binary lacks
  std::vector<std::string> globs, best_families;
  std::vector<const VariantInfo*> matched;
  std::size_t shard = 0, shards = 1;
  std::vector<Workload> workloads;
  // best:FAMILY picks from this GPU's best.json: known once the GPU is.
  json best_doc;
  std::string best_path, best_model;
  // best:FAMILY on a distribution the tune did not measure: the class of the
  // workload's own keys (classify_workload), by keys_id.
  std::map<std::string, InputClass> keys_class;
  static std::string keys_id(const Workload& w) {
    return to_string(w.key) + " " + std::to_string(w.n) + " " + w.dist.name() + " " + std::to_string(w.seed);
  }
  // On the GPU, once best.json is loaded. A workload whose keys cannot be
  // generated here (an unreadable key file) keeps spread; the runner reports
  // why it cannot run.
  void classify_unmeasured() {
    if (best_families.empty()) return;
    for (const auto& w : workloads)
      if (!tune::measured_class(best_doc, w.key, w.dist.name()) && !keys_class.count(keys_id(w))) try {
          keys_class[keys_id(w)] = classify_workload(w).cls;
        } catch (const std::runtime_error&) {
        }
  }
  std::optional<InputClass> keys_class_of(const Workload& w) const {
    const auto it = keys_class.find(keys_id(w));
    return it == keys_class.end() ? std::nullopt : std::optional<InputClass>(it->second);
  }

  // Once a model: build_on_demand_points reads it before the sweep does.
  void load_best(const std::string& model) {
    const std::string path = sortbench::detail::best_json_path("", model);
    if (path == best_path && model == best_model) return;
    best_path = path;
    best_model = model;
    best_doc = tune::read_best_json(best_path, model);
  }
  // A single-GPU variant runs once per workload and GPU, however many
  // device sets start with that GPU (it sorts all n keys on the first).
  std::vector<const VariantInfo*> variants_for(const Workload& w) const {
    std::vector<const VariantInfo*> vs = matched;
    if (!best_families.empty())
      for (const VariantInfo* v :
           tune::resolve_best_selectors(best_families, w, best_doc, Registry::instance(), keys_class_of(w)))
        if (std::find(vs.begin(), vs.end(), v) == vs.end()) vs.push_back(v);
    if (w.devices.size() > 1) {
      for (const auto& other : workloads) {
        if (&other == &w) break;
        if (other.key == w.key && other.value == w.value && other.order == w.order && other.n == w.n &&
            other.dist.name() == w.dist.name() && !other.devices.empty() && other.devices.front() == w.devices.front())
          vs.erase(std::remove_if(vs.begin(), vs.end(), [](const VariantInfo* v) { return !v->distributed(); }), vs.end());
      }
    }
    return vs;
  }
  // The best:FAMILY selectors that resolve to v on w, one per family.
  std::vector<std::string> selectors_of(const Workload& w, const VariantInfo& v) const {
    std::vector<std::string> out;
    for (const auto& family : Registry::instance().default_families()) {
      bool wanted = false;
      for (const auto& g : best_families) wanted = wanted || glob_match(g, family);
      if (!wanted) continue;
      const auto picked = tune::resolve_best_selectors({family}, w, best_doc, Registry::instance(), keys_class_of(w));
      if (!picked.empty() && picked.front() == &v) out.push_back("best:" + family);
    }
    return out;
  }
  std::size_t points() const {
    std::size_t total = 0;
    for (const auto& w : workloads) total += variants_for(w).size();
    return total;
  }
};

// The config (or the embedded quick one) with the axis flags, under --world
// every distributed point spanning the launch's ranks.
SweepConfig sweep_config(const po::variables_map& vm, int world, std::vector<files::Input>& inputs) {
  // A name (--config quick) is a config of configs/, here or installed.
  const std::string config = vm.count("config") ? files::config_path(vm["config"].as<std::string>()) : "";
  if (vm.count("config")) {
    files::check_input(config, "--config", "config file");
    inputs.push_back({config, "--config"});
  }
  SweepConfig cfg = vm.count("config") ? load_config_file(config)
                                       : parse_config(embedded_quick_config(), "embedded configs/quick.json");
  // A config that lists a workload twice is told so; axis flags that make its
  // sweeps alike are not: either way each workload is measured once.
  std::size_t repeats = 0;
  expand_workloads(cfg, &repeats);
  if (repeats)
    std::cerr << "sortbench: warning: " << cfg.source << ": " << repeats << " workload" << (repeats == 1 ? "" : "s")
              << " listed by more than one sweep; each is measured once\n";
  apply_sweep_axes(cfg, vm);
  // Under --world every distributed point spans the launch's ranks: a sweep
  // naming another number of GPUs would be reported as spanning GPUs it never used.
  if (world)
    for (std::size_t i = 0; i < cfg.sweeps.size(); ++i) {
      const auto& g = cfg.sweeps[i].gpus;
      if (g.size() > 1 && g.size() != std::size_t(world))
        throw ConfigError((vm.count("gpus") ? std::string("--gpus") : cfg.source + ": sweep " + std::to_string(i + 1)) +
                          ": names " + std::to_string(g.size()) + " GPUs, but --world is " + std::to_string(world) +
                          "; with --world a point spans every rank: name " + std::to_string(world) + " GPUs or none");
    }
  if (vm.count("variants") || vm.count("n") || vm.count("dist") || vm.count("key") || vm.count("values") ||
      vm.count("order") || vm.count("gpus"))
    cfg.source += " with command-line axes";
  return cfg;
}

// The labels and globs of $.variants and $.baselines against the registry:
// best:FAMILY selectors apart, every other pattern must match something.
void select_variants(Sweep& sw, const po::variables_map& vm) {
  const auto& reg = Registry::instance();
  const std::string variants_path = vm.count("variants") ? std::string("--variants") : sw.cfg.source + ": $.variants";
  for (const auto& pat : sw.cfg.variants) {
    if (is_best_selector(pat)) {
      const std::string family = best_selector_family(pat);
      bool any = false;
      for (const auto& f : reg.default_families()) any = any || glob_match(family, f);
      if (!any)
        throw ConfigError(variants_path + ": '" + pat + "' names no family with a default point; expected one of " +
                          join(reg.default_families(), ", ") + " (or a glob over them)");
      sw.best_families.push_back(family);
    } else if (reg.match({pat}).empty()) {
      const std::string hint = unmatched_label_hint(pat);
      throw ConfigError(variants_path + ": '" + pat + "' matches no registered variant (see sortbench list)" +
                        (hint.empty() ? "" : "; " + hint));
    } else {
      sw.globs.push_back(pat);
    }
  }
  for (std::size_t i = 0; i < sw.cfg.baselines.size(); ++i)
    if (reg.match({sw.cfg.baselines[i]}).empty())
      throw ConfigError(sw.cfg.source + ": $.baselines[" + std::to_string(i) + "]: '" + sw.cfg.baselines[i] +
                        "' matches no registered variant (see sortbench list)");
  sw.matched = reg.match(sw.globs);
}

// The key types of library calls best:FAMILY resolves to, per workload: each
// family's default point until this GPU's best.json is loaded, its picks after.
void plan_best_library_calls(Sweep& sw) {
  if (sw.best_families.empty()) return;
  for (const auto& w : sw.workloads)
    for (const VariantInfo* v :
         tune::resolve_best_selectors(sw.best_families, w, sw.best_doc, Registry::instance(), sw.keys_class_of(w))) {
      PointTypes t;
      t.keys = {w.key};
      t.values = {w.value};
      on_demand::add_library_calls({v}, t, sw.planned);
    }
}

// This shard's workloads, refused where the flags ask for what cannot be measured.
void plan_workloads(Sweep& sw, const po::variables_map& vm, int world) {
  if (vm.count("shard")) {
    std::tie(sw.shard, sw.shards) = parse_shard(vm["shard"].as<std::string>());
    if (world) throw ConfigError("--shard: not with --world (every rank measures every point)");
  }
  sw.workloads = plan::shard_of(expand_workloads(sw.cfg), sw.shard, sw.shards);
  if (sw.shards > 1 && sw.workloads.empty())
    throw ConfigError("--shard: shard " + vm["shard"].as<std::string>() + " has no workload (the sweep has " +
                      std::to_string(expand_workloads(sw.cfg).size()) + "); expected at most that many shards");
  // Flags that ask for values that cannot hold the indices are a mistake to
  // refuse; a config's such points are skipped with the reason.
  if (vm.count("values") || vm.count("n"))
    for (const auto& w : sw.workloads)
      if (const std::string why = plan::value_index_skip_reason(w.value, w.n); !why.empty())
        throw ConfigError(std::string(vm.count("values") ? "--values" : "--n") + ": " + why);
  // Counted before anything runs: a typo in a range must not plan a week of points.
  const std::size_t variants = sw.matched.size() + sw.best_families.size();
  if (sw.workloads.size() * std::max<std::size_t>(1, variants) > kMaxPoints)
    throw ConfigError((vm.count("n") ? std::string("--n") : sw.cfg.source) + ": " + std::to_string(sw.workloads.size()) +
                      " workloads x " + std::to_string(variants) + " variants is more than " +
                      std::to_string(kMaxPoints) + " points; narrow the sweep");
}

Sweep plan_sweep(const po::variables_map& vm, int world) {
  Sweep sw;
  sw.cfg = sweep_config(vm, world, sw.inputs);
  // A label that names a point of a declared family space that the binary
  // lacks is built on demand once the GPU is known; a placeholder holds it.
  sw.jit = on_demand_settings(vm);
  sw.types = on_demand::point_types(sw.cfg);
  sw.planned = on_demand::plan_labels(sw.cfg.variants, sw.types, on_demand::limits_of(sm90_limits()));
  on_demand::register_placeholders(sw.planned);
  select_variants(sw, vm);
  // The key types of library calls the binary lacks are built on demand too.
  on_demand::add_library_calls(sw.matched, sw.types, sw.planned);
  plan_workloads(sw, vm, world);
  plan_best_library_calls(sw);
  for (const auto& path : check_key_files(sw.cfg, vm.count("dist") ? std::string("--dist") : sw.cfg.source))
    sw.inputs.push_back({path, "the key file"});
  if (vm.count("out")) files::check_output(vm["out"].as<std::string>(), "--out", sw.inputs);
  return sw;
}

// --dry-run: each point as the runner will take it, to measure or skipped
// with the reason the report would record, and an estimate of the time.
int dry_run(Sweep& sw) {
  std::size_t to_compile = 0;
  // best:FAMILY's picks first: the library calls they name are planned too.
  std::string no_gpu;
  if (!sw.best_families.empty() && gpu_available(&no_gpu)) {
    sw.load_best(device_model_slug(query_device(false).name));
    sw.classify_unmeasured();
    plan_best_library_calls(sw);
  }
  if (!sw.planned.empty()) {
    const on_demand::Summary od = on_demand::dry_plan(sw.planned, sw.types, sw.jit);
    std::cerr << "sortbench: " << od.line() << "\n";
    to_compile = od.count("to_compile");
  }
  if (!sw.best_families.empty()) {
    std::cerr << "sortbench: best:FAMILY: "
              << (!no_gpu.empty()          ? std::string("each family's default point (no GPU: its model, and so its best.json, is unknown)")
                  : sw.best_doc.is_null() ? "each family's default point (" + sw.best_path + ": none for this GPU)"
                                          : "the picks of " + sw.best_path)
              << "\n";
  }
  plan::Tally tally;
  for (const auto& w : sw.workloads)
    for (auto* v : sw.variants_for(w)) {
      const plan::Point p = plan::classify(*v, w);
      tally.add(p);
      std::cout << v->label << " " << to_string(w.key) << "/" << to_string(w.value) << " " << to_string(w.order)
                << " n=" << w.n << " " << w.dist.name();
      if (w.gpus() > 1) std::cout << " gpus=" << gpu_list_text(w.devices);
      if (p.skip) std::cout << "  skipped: " << p.reason;
      else if (!p.unchecked.empty()) std::cout << "  (own check needs the GPU; not run)";
      std::cout << "\n";
    }
  const plan::CompileEstimate compile = plan::estimate_compile(
      to_compile, to_compile ? on_demand::recorded_compile_times(sw.jit.cache_dir) : std::vector<double>{}, sw.jit.jobs);
  std::cout << plan::summary_line(tally, sw.cfg.measure.budget_s, compile,
                                  plan::energy_window_bound_s(sw.cfg.measure.energy_window_s))
            << "\n";
  return 0;
}

// On-demand points, built before a worker starts (it loads them too); the
// report's context.on_demand, or null where there are none.
json build_on_demand_points(Sweep& sw, bool fake) {
  if (!sw.best_families.empty() && !fake) {
    require_gpu();
    sw.load_best(device_model_slug(query_device(false).name));
    sw.classify_unmeasured();
    plan_best_library_calls(sw);
  }
  if (sw.planned.empty()) return nullptr;
  if (!fake) require_gpu();
  const SmLimits sm = fake ? sm90_limits() : device_sm_limits();
  on_demand::Settings settings = sw.jit;
  if (!fake) settings.arch = on_demand::arch_of(sm);
  const auto summary =
      on_demand::replace_placeholders_and_build(sw.planned, sw.types, on_demand::limits_of(sm), settings, std::cerr);
  std::cerr << summary.line() << "\n";
  sw.matched = Registry::instance().match(sw.globs);
  return summary.to_json();
}

// Where points are measured: the Evaluator tune uses too, in this process or
// point by point in a worker process (--isolate); or as one rank of a process
// per GPU, which measures its share of every distributed point (rank 0 also
// the single-GPU variants, on its GPU).
class PointMeasuring {
 public:
  PointMeasuring(const Sweep& sw, const RankLaunch& launch, const Isolation& iso) : launch_(launch) {
    if (iso.isolate) {
      std::vector<std::string> wargs = {"sortbench", "run", "--worker", "--measure",
                                        worker::measure_json(sw.cfg.measure).dump()};
      if (iso.fake) {
        wargs.push_back("--fake-evaluator");
        if (!iso.crash_glob.empty()) wargs.insert(wargs.end(), {"--fake-crash", iso.crash_glob});
      } else {
        require_gpu();
      }
      auto w = std::make_unique<WorkerEvaluator>(wargs, iso.point_timeout);
      worker_ = w.get();
      device_ = w->device();
      eval_ = std::move(w);
    } else {
      require_gpu();
      auto e = std::make_unique<InProcessEvaluator>(sw.cfg.measure);
      local_ = &e->measurer();
      eval_ = std::move(e);
      int first = 0;
      cuda_check(cudaGetDevice(&first), "cudaGetDevice");
      if (!sw.workloads.empty() && !sw.workloads.front().devices.empty()) first = sw.workloads.front().devices.front();
      if (launch.world) first = launch.device;
      device_ = device_json(local_->device(first));
    }
    if (launch.world)
      ranked_ = std::make_unique<DistributedRunner>(sw.cfg.measure, launch.device, launch.world, launch.rank,
                                                    launch.id_file);
  }
  const json& device() const { return device_; }

  PointResult measure(const VariantInfo& v, const Workload& w) {
    if (!ranked_) return eval_->evaluate(v.label, w);
    if (!v.distributed()) {
      // Every rank forgets its shard here, so all prepare the next distributed point together.
      ranked_->release();
      ranked_prepared_.clear();
      if (launch_.rank != 0) return PointResult{};
      Workload one = w;
      one.devices = {launch_.device};
      return local_->measure(v, one);
    }
    const std::string id = worker::workload_json(w).dump();
    if (id != ranked_prepared_) {
      local_->release();
      ranked_->prepare(w);
      ranked_prepared_ = id;
      if (!ranked_->prepared_link().devices.empty()) rank_links_.push_back(ranked_->prepared_link());
    }
    return ranked_->measure(v);
  }

  // The GPUs and links of a sweep across devices, as far as measured, into
  // the report's context.
  void note_devices(const std::vector<Workload>& workloads, json& context) const {
    if (!local_) return;
    json devices = json::array(), links = json::array();
    std::set<int> seen;
    for (const auto& w : workloads)
      for (int d : w.devices)
        if (seen.insert(d).second) {
          try {
            devices.push_back(device_json(local_->device(d)));
          } catch (const CudaError& e) {
            devices.push_back({{"ordinal", d}, {"error", e.what()}});
          }
        }
    for (const auto& l : local_->links()) links.push_back(link_json(l));
    for (const auto& l : rank_links_) links.push_back(link_json(l));
    if (seen.size() > 1 || !links.empty()) {
      context["devices"] = devices;
      context["links"] = links;
    }
  }

  // Lost CUDA contexts and replaced workers, told once the sweep is done.
  void tell_losses() const {
    if (local_ && !local_->context_lost().empty())
      std::cerr << "sortbench: CUDA context lost at " << local_->context_lost() << "\n";
    if (worker_ && worker_->contexts_lost())
      std::cerr << "sortbench: " << worker_->contexts_lost() << " worker process" << (worker_->contexts_lost() == 1 ? "" : "es")
                << " replaced after a kernel fault lost the CUDA context\n";
    if (worker_ && worker_->restarts())
      std::cerr << "sortbench: " << worker_->restarts() << " worker process" << (worker_->restarts() == 1 ? "" : "es")
                << " replaced after a point killed or hung it\n";
  }

 private:
  RankLaunch launch_;
  json device_;
  std::unique_ptr<tune::Evaluator> eval_;
  Measurer* local_ = nullptr;           // in this process (eval_'s)
  WorkerEvaluator* worker_ = nullptr;   // --isolate (eval_)
  std::unique_ptr<DistributedRunner> ranked_;
  std::string ranked_prepared_;
  std::vector<LinkMeasurement> rank_links_;
};

// The report's context: the device, the build, the command and the config.
Report new_report(const Sweep& sw, const json& device, const std::string& command_line, const json& on_demand_ctx,
                  const RankLaunch& launch) {
  Report report;
  report.complete = false;
  report.context = {{"tool", "sortbench"},
                    {"device", device},
                    {"build", build_json()},
                    {"host", {{"hostname", hostname()}}},
                    {"timestamp", utc_now()},
                    {"command_line", command_line},
                    {"config", config_to_json(sw.cfg)}};
  if (!loaded_plugins().empty()) report.context["plugins"] = plugins_json();
  if (!on_demand_ctx.is_null()) report.context["on_demand"] = on_demand_ctx;
  if (sw.shards > 1) report.context["shard"] = std::to_string(sw.shard) + "/" + std::to_string(sw.shards);
  if (!sw.best_families.empty())
    report.context["best_json"] = sw.best_doc.is_null() ? json(nullptr)
                                                        : json({{"path", sw.best_path},
                                                                {"provenance", sw.best_doc.value("provenance", json())}});
  if (launch.world) report.context["processes"] = {{"world", launch.world}, {"nccl_id_file", launch.id_file}};
  return report;
}

// One point's progress line.
std::string progress_line(std::size_t done, std::size_t total, const VariantInfo& v, const Workload& w,
                          const PointResult& r) {
  std::ostringstream line;
  line << "[" << done << "/" << total << "] " << v.label << " " << to_string(w.key) << "/" << to_string(w.value)
       << (w.order == Order::descending ? " desc" : "") << " n=" << size_text(w.n) << " " << w.dist.name() << ": "
       << to_string(r.status);
  if (r.status == Status::ok)
    line << std::setprecision(4) << std::defaultfloat << " " << r.time_ms.median << " ms, " << std::fixed
         << std::setprecision(2) << r.gkeys_per_s << " GKeys/s";
  else
    line << " (" << r.reason << ")";
  return line.str();
}

// Every point measured and the report written after each workload, so a
// partial report survives an interrupted sweep; one process per GPU: rank 0
// alone prints and writes. 1 where a point failed.
int measure_sweep(const Sweep& sw, std::size_t total, PointMeasuring& m, Report& report, const std::string& out,
                  bool writer) {
  const bool tty = writer && isatty(STDERR_FILENO);
  std::size_t done = 0, failed = 0;
  const auto t0 = std::chrono::steady_clock::now();
  for (const auto& w : sw.workloads) {
    for (const VariantInfo* v : sw.variants_for(w)) {
      PointResult r = m.measure(*v, w);
      if (!writer) continue;
      r.selected_by = sw.selectors_of(w, *v);
      ++done;
      if (r.status == Status::failed) ++failed;
      const std::string line = progress_line(done, total, *v, w, r);
      if (tty) {
        const double el = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        const double eta = el / double(done) * double(total - done);
        std::cerr << "\r\033[K" << line.substr(0, 100) << "  ETA " << duration_text(eta) << std::flush;
        if (r.status == Status::failed) std::cerr << "\n";
      } else {
        std::cerr << line << "\n";
      }
      report.results.push_back(std::move(r));
    }
    if (!writer) continue;
    compute_speedups(report.results, sw.cfg.baselines);
    m.note_devices(sw.workloads, report.context);
    write_report_atomic(report, out);
  }
  if (!writer) return 0;
  if (tty) std::cerr << "\n";
  m.note_devices(sw.workloads, report.context);
  report.complete = true;
  compute_speedups(report.results, sw.cfg.baselines);
  write_report_atomic(report, out);
  std::cout << summary_table(report.results, sw.cfg.baselines);
  std::cout << "report: " << out << " (" << done << " points, " << failed << " failed)\n";
  m.tell_losses();
  return failed ? 1 : 0;
}

int cmd_run(const std::vector<std::string>& args, const std::string& command_line) {
  const po::options_description desc = run_flags();
  // --worker: the worker process of --isolate; --fake-evaluator, --fake-crash: tests without a GPU.
  po::options_description hidden;
  hidden.add_options()("worker", "")("measure", po::value<std::string>(), "")("fake-evaluator", "")(
      "fake-crash", po::value<std::string>(), "");
  po::options_description all;
  all.add(desc).add(hidden);
  const auto vm = parse("run", all, args);
  if (vm.count("help")) {
    std::cout << desc << "\n";
    return 0;
  }
  load_plugins_of(vm);
  // One process per GPU: --processes starts this command once per GPU of --gpus with --world/--rank.
  if (vm.count("processes")) {
    if (!vm.count("gpus")) throw ConfigError("--processes: needs --gpus (the GPUs to start one process each for)");
    if (vm.count("world") || vm.count("isolate")) throw ConfigError("--processes: not with --world or --isolate");
    // A dry run plans the same points however many processes would measure them: it starts none.
    if (!vm.count("dry-run")) return spawn_ranks(args, parse_gpu_list(vm["gpus"].as<std::string>(), "--gpus"));
  }
  const RankLaunch launch = rank_launch(vm);
  Isolation iso;
  iso.fake = vm.count("fake-evaluator") > 0;
  iso.crash_glob = vm.count("fake-crash") ? vm["fake-crash"].as<std::string>() : "";
  if (const json measure = hidden_worker_flags("run", vm); !measure.is_null())
    return iso.fake ? serve_fake_worker(fake_device_json(), 0, iso.crash_glob) : serve_device_worker(measure);
  iso.isolate = vm.count("isolate") > 0;
  if (iso.fake && !iso.isolate) throw ConfigError("--fake-evaluator: only with --isolate");
  if (vm.count("point-timeout")) {
    if (!iso.isolate) throw ConfigError("--point-timeout: only with --isolate");
    iso.point_timeout = number_flag(vm, "point-timeout", 0.001, 86400, false);
  }
  if (iso.fake) tune::register_fake_variants();

  Sweep sw = plan_sweep(vm, launch.world);
  if (vm.count("dry-run")) return dry_run(sw);
  const json on_demand_ctx = build_on_demand_points(sw, iso.fake);
  PointMeasuring m(sw, launch, iso);
  const json& device = m.device();
  const std::string device_name = device.value("name", "unknown GPU");
  const std::string model = device.value("model", device_model_slug(device_name));
  if (!sw.best_families.empty()) sw.load_best(model);
  if (!iso.fake) sw.classify_unmeasured();
  const std::string out = vm.count("out") ? vm["out"].as<std::string>() : files::default_run_report(model, sw.cfg.name);
  if (!vm.count("out")) files::check_output(out, "the default report path", sw.inputs);
  Report report = new_report(sw, device, command_line, on_demand_ctx, launch);
  const bool writer = launch.rank == 0;
  const std::size_t total = sw.points();
  if (writer)
    std::cerr << "sortbench: " << device_name << ", copy " << std::fixed << std::setprecision(0)
              << device.value("copy_gb_per_s", 0.0) << " GB/s; " << sw.workloads.size() << " workloads, "
              << total << " points" << (iso.isolate ? ", each in a worker process" : "")
              << (launch.world ? ", " + std::to_string(launch.world) + " processes (one per GPU)" : std::string())
              << " -> " << out << "\n";
  return measure_sweep(sw, total, m, report, out, writer);
}

}  // namespace
SORTBENCH_REGISTER_COMMAND("run", "a validated, timed sweep -> JSON report (default: configs/quick.json)", cmd_run);
}  // namespace sortbench::cli
