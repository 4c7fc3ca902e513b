// sortbench run: a validated, timed sweep written as a JSON report. With
// --isolate every point is measured in a worker process (sortbench run
// --worker, sortbench/worker.hpp), so a faulting kernel costs that point only.
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <memory>
#include <iomanip>
#include <set>
#include <iostream>
#include <sstream>

#include "cli.hpp"
#include "sortbench/plugin.hpp"
#include "sortbench/best_json.hpp"
#include "sortbench/config.hpp"
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

int cmd_run(const std::vector<std::string>& args, const std::string& command_line) {
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
  // --worker: the worker process of --isolate; --fake-evaluator, --fake-crash: tests without a GPU.
  po::options_description hidden;
  hidden.add_options()("worker", "")("measure", po::value<std::string>(), "")("fake-evaluator", "")(
      "fake-crash", po::value<std::string>(), "");
  add_plugin_option(desc);
  add_on_demand_options(desc);
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
  int world = 0, rank = 0, rank_device = 0;
  std::string id_file;
  if (vm.count("world") || vm.count("rank") || vm.count("nccl-id-file") || vm.count("device")) {
    if (!vm.count("world") || !vm.count("rank") || !vm.count("nccl-id-file"))
      throw ConfigError("--world, --rank and --nccl-id-file: one process per GPU needs all three");
    if (vm.count("isolate")) throw ConfigError("--world: not with --isolate");
    world = int(count_flag(vm, "world", 2, 1024));
    rank = int(count_flag(vm, "rank", 0, std::uint64_t(world - 1)));
    if (vm.count("device")) rank_device = int(count_flag(vm, "device", 0, 1023));
    id_file = vm["nccl-id-file"].as<std::string>();
    // The other ranks read whatever file is at this path: one left by an
    // earlier launch would hand them a dead id, so rank 0 wants a new path.
    if (rank == 0) {
      std::error_code ec;
      if (std::filesystem::exists(std::filesystem::symlink_status(id_file, ec)))
        throw ConfigError("--nccl-id-file: '" + id_file + "' exists (an earlier launch's id?); expected a path that " +
                          "does not exist yet: rank 0 writes it and removes it once every rank has joined");
      files::check_output(id_file, "--nccl-id-file", {});
    }
  }
  const bool fake = vm.count("fake-evaluator") > 0;
  const std::string crash_glob = vm.count("fake-crash") ? vm["fake-crash"].as<std::string>() : "";
  if (const json measure = hidden_worker_flags("run", vm); !measure.is_null())
    return fake ? serve_fake_worker(fake_device_json(), 0, crash_glob) : serve_device_worker(measure);
  const bool isolate = vm.count("isolate") > 0;
  if (fake && !isolate) throw ConfigError("--fake-evaluator: only with --isolate");
  double point_timeout = 300;
  if (vm.count("point-timeout")) {
    if (!isolate) throw ConfigError("--point-timeout: only with --isolate");
    point_timeout = number_flag(vm, "point-timeout", 0.001, 86400, false);
  }
  if (fake) tune::register_fake_variants();
  // All input is checked before any GPU work or any file is written.
  std::vector<files::Input> inputs;
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
  // A label that names a point of a declared family space that the binary
  // lacks is built on demand once the GPU is known; a placeholder holds it.
  const on_demand::Settings jit = on_demand_settings(vm);
  const PointTypes types = on_demand::point_types(cfg);
  std::vector<on_demand::Planned> planned = on_demand::plan_labels(cfg.variants, types, on_demand::limits_of(sm90_limits()));
  on_demand::register_placeholders(planned);
  const auto& reg = Registry::instance();
  const std::string variants_path = vm.count("variants") ? std::string("--variants") : cfg.source + ": $.variants";
  std::vector<std::string> globs, best_families;
  for (const auto& pat : cfg.variants) {
    if (is_best_selector(pat)) {
      const std::string family = best_selector_family(pat);
      bool any = false;
      for (const auto& f : reg.default_families()) any = any || glob_match(family, f);
      if (!any)
        throw ConfigError(variants_path + ": '" + pat + "' names no family with a default point; expected one of " +
                          join(reg.default_families(), ", ") + " (or a glob over them)");
      best_families.push_back(family);
    } else if (reg.match({pat}).empty()) {
      const std::string hint = unmatched_label_hint(pat);
      throw ConfigError(variants_path + ": '" + pat + "' matches no registered variant (see sortbench list)" +
                        (hint.empty() ? "" : "; " + hint));
    } else {
      globs.push_back(pat);
    }
  }
  for (std::size_t i = 0; i < cfg.baselines.size(); ++i)
    if (reg.match({cfg.baselines[i]}).empty())
      throw ConfigError(cfg.source + ": $.baselines[" + std::to_string(i) + "]: '" + cfg.baselines[i] +
                        "' matches no registered variant (see sortbench list)");
  auto matched = reg.match(globs);
  std::size_t shard = 0, shards = 1;
  if (vm.count("shard")) {
    std::tie(shard, shards) = parse_shard(vm["shard"].as<std::string>());
    if (world) throw ConfigError("--shard: not with --world (every rank measures every point)");
  }
  const std::vector<Workload> workloads = plan::shard_of(expand_workloads(cfg), shard, shards);
  if (shards > 1 && workloads.empty())
    throw ConfigError("--shard: shard " + vm["shard"].as<std::string>() + " has no workload (the sweep has " +
                      std::to_string(expand_workloads(cfg).size()) + "); expected at most that many shards");
  // Flags that ask for values that cannot hold the indices are a mistake to
  // refuse; a config's such points are skipped with the reason.
  if (vm.count("values") || vm.count("n"))
    for (const auto& w : workloads)
      if (const std::string why = plan::value_index_skip_reason(w.value, w.n); !why.empty())
        throw ConfigError(std::string(vm.count("values") ? "--values" : "--n") + ": " + why);
  // Counted before anything runs: a typo in a range must not plan a week of points.
  if (workloads.size() * std::max<std::size_t>(1, matched.size() + best_families.size()) > kMaxPoints)
    throw ConfigError((vm.count("n") ? std::string("--n") : cfg.source) + ": " + std::to_string(workloads.size()) +
                      " workloads x " + std::to_string(matched.size() + best_families.size()) +
                      " variants is more than " + std::to_string(kMaxPoints) + " points; narrow the sweep");
  for (const auto& path : check_key_files(cfg, vm.count("dist") ? std::string("--dist") : cfg.source))
    inputs.push_back({path, "the key file"});
  if (vm.count("out")) files::check_output(vm["out"].as<std::string>(), "--out", inputs);
  // best:FAMILY picks from this GPU's best.json: known once the GPU is.
  json best_doc;
  std::string best_path;
  auto load_best = [&](const std::string& model) {
    best_path = sortbench::detail::best_json_path("", model);
    best_doc = tune::read_best_json(best_path, model);
  };
  // A single-GPU variant runs once per workload and GPU, however many
  // device sets start with that GPU (it sorts all n keys on the first).
  auto variants_for = [&](const Workload& w) {
    std::vector<const VariantInfo*> vs = matched;
    if (!best_families.empty())
      for (const VariantInfo* v : tune::resolve_best_selectors(best_families, w, best_doc, reg))
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
  };
  if (vm.count("dry-run")) {
    std::size_t to_compile = 0;
    if (!planned.empty()) {
      const on_demand::Summary od = on_demand::dry_plan(planned, types, jit);
      std::cerr << "sortbench: " << od.line() << "\n";
      to_compile = od.count("to_compile");
    }
    if (!best_families.empty()) {
      std::string no_gpu;
      if (gpu_available(&no_gpu)) load_best(device_model_slug(query_device(false).name));
      std::cerr << "sortbench: best:FAMILY: "
                << (!no_gpu.empty()          ? std::string("each family's default point (no GPU: its model, and so its best.json, is unknown)")
                    : best_doc.is_null() ? "each family's default point (" + best_path + ": none for this GPU)"
                                         : "the picks of " + best_path)
                << "\n";
    }
    // Each point as the runner will take it: to measure, or skipped with the
    // reason the report would record.
    plan::Tally tally;
    for (const auto& w : workloads)
      for (auto* v : variants_for(w)) {
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
        to_compile, to_compile ? on_demand::recorded_compile_times(jit.cache_dir) : std::vector<double>{}, jit.jobs);
    std::cout << plan::summary_line(tally, cfg.measure.budget_s, compile,
                                    plan::energy_window_bound_s(cfg.measure.energy_window_s))
              << "\n";
    return 0;
  }

  // On-demand points, built before a worker starts (it loads them too).
  json on_demand_ctx;
  if (!planned.empty()) {
    if (!fake) require_gpu();
    const SmLimits sm = fake ? sm90_limits() : device_sm_limits();
    on_demand::Settings settings = jit;
    if (!fake) settings.arch = on_demand::arch_of(sm);
    const auto summary = on_demand::replace_placeholders_and_build(planned, types, on_demand::limits_of(sm), settings, std::cerr);
    std::cerr << summary.line() << "\n";
    on_demand_ctx = summary.to_json();
    matched = reg.match(globs);
  }

  // The measuring: in this process, or point by point in a worker process (--isolate).
  json device;
  std::unique_ptr<Measurer> runner;
  std::unique_ptr<worker::Process> proc;
  if (isolate) {
    std::vector<std::string> wargs = {"sortbench", "run", "--worker", "--measure", worker::measure_json(cfg.measure).dump()};
    if (fake) {
      wargs.push_back("--fake-evaluator");
      if (!crash_glob.empty()) wargs.insert(wargs.end(), {"--fake-crash", crash_glob});
    } else {
      require_gpu();
    }
    proc = std::make_unique<worker::Process>(wargs, point_timeout);
    device = proc->device();
  } else {
    require_gpu();
    runner = std::make_unique<Measurer>(cfg.measure);
    int first = 0;
    cuda_check(cudaGetDevice(&first), "cudaGetDevice");
    if (!workloads.empty() && !workloads.front().devices.empty()) first = workloads.front().devices.front();
    if (world) first = rank_device;
    device = device_json(runner->device(first));
  }
  // One process per GPU: this rank's share of every distributed point; rank 0
  // also measures the single-GPU variants on its GPU and writes the report.
  std::unique_ptr<DistributedRunner> ranked;
  std::string ranked_prepared;
  std::vector<LinkMeasurement> rank_links;
  if (world) ranked = std::make_unique<DistributedRunner>(cfg.measure, rank_device, world, rank, id_file);
  auto measure_point = [&](const VariantInfo& v, const Workload& w) {
    if (!ranked) return runner ? runner->measure(v, w) : proc->evaluate(v.label, w);
    if (!v.distributed()) {
      // Every rank forgets its shard here, so all prepare the next distributed point together.
      ranked->release();
      ranked_prepared.clear();
      if (rank != 0) return PointResult{};
      Workload one = w;
      one.devices = {rank_device};
      return runner->measure(v, one);
    }
    const std::string id = worker::workload_json(w).dump();
    if (id != ranked_prepared) {
      runner->release();
      ranked->prepare(w);
      ranked_prepared = id;
      if (!ranked->prepared_link().devices.empty()) rank_links.push_back(ranked->prepared_link());
    }
    return ranked->measure(v);
  };
  const std::string device_name = device.value("name", "unknown GPU");
  if (!best_families.empty()) load_best(device.value("model", device_model_slug(device_name)));
  std::size_t total = 0;
  for (const auto& w : workloads) total += variants_for(w).size();
  const std::string out = vm.count("out") ? vm["out"].as<std::string>()
                                          : files::default_run_report(device.value("model", device_model_slug(device_name)), cfg.name);
  if (!vm.count("out")) files::check_output(out, "the default report path", inputs);
  Report report;
  report.complete = false;
  report.context = {{"tool", "sortbench"},
                    {"device", device},
                    {"build", build_json()},
                    {"host", {{"hostname", hostname()}}},
                    {"timestamp", utc_now()},
                    {"command_line", command_line},
                    {"config", config_to_json(cfg)}};
  if (!loaded_plugins().empty()) report.context["plugins"] = plugins_json();
  if (!on_demand_ctx.is_null()) report.context["on_demand"] = on_demand_ctx;
  if (shards > 1) report.context["shard"] = std::to_string(shard) + "/" + std::to_string(shards);
  if (!best_families.empty())
    report.context["best_json"] = best_doc.is_null() ? json(nullptr) : json({{"path", best_path},
                                                                               {"provenance", best_doc.value("provenance", json())}});

  const bool writer = rank == 0;  // one process per GPU: rank 0 alone prints and writes the report
  const bool tty = writer && isatty(STDERR_FILENO);
  if (world) report.context["processes"] = {{"world", world}, {"nccl_id_file", id_file}};
  if (writer)
    std::cerr << "sortbench: " << device_name << ", copy " << std::fixed << std::setprecision(0)
              << device.value("copy_gb_per_s", 0.0) << " GB/s; " << workloads.size() << " workloads, " << total
              << " points" << (isolate ? ", each in a worker process" : "")
              << (world ? ", " + std::to_string(world) + " processes (one per GPU)" : std::string()) << " -> " << out
              << "\n";
  std::size_t done = 0, failed = 0;
  const auto t0 = std::chrono::steady_clock::now();
  // The GPUs and links of a sweep across devices, as far as measured.
  auto note_devices = [&] {
    if (!runner) return;
    json devices = json::array(), links = json::array();
    std::set<int> seen;
    for (const auto& w : workloads)
      for (int d : w.devices)
        if (seen.insert(d).second) {
          try {
            devices.push_back(device_json(runner->device(d)));
          } catch (const CudaError& e) {
            devices.push_back({{"ordinal", d}, {"error", e.what()}});
          }
        }
    for (const auto& l : runner->links()) links.push_back(link_json(l));
    for (const auto& l : rank_links) links.push_back(link_json(l));
    if (seen.size() > 1 || !links.empty()) {
      report.context["devices"] = devices;
      report.context["links"] = links;
    }
  };
  for (const auto& w : workloads) {
    for (const VariantInfo* v : variants_for(w)) {
      PointResult r = measure_point(*v, w);
      if (!writer) continue;
      ++done;
      if (r.status == Status::failed) ++failed;
      const double el = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      std::ostringstream line;
      line << "[" << done << "/" << total << "] " << v->label << " " << to_string(w.key) << "/" << to_string(w.value)
           << (w.order == Order::descending ? " desc" : "") << " n=" << size_text(w.n) << " " << w.dist.name() << ": "
           << to_string(r.status);
      if (r.status == Status::ok)
        line << std::setprecision(4) << std::defaultfloat << " " << r.time_ms.median << " ms, " << std::fixed
             << std::setprecision(2) << r.gkeys_per_s << " GKeys/s";
      else
        line << " (" << r.reason << ")";
      if (tty) {
        const double eta = el / double(done) * double(total - done);
        std::string l = line.str();
        if (l.size() > 100) l = l.substr(0, 100);
        std::cerr << "\r\033[K" << l << "  ETA " << duration_text(eta) << std::flush;
        if (r.status == Status::failed) std::cerr << "\n";
      } else {
        std::cerr << line.str() << "\n";
      }
      report.results.push_back(std::move(r));
    }
    // A partial report survives an interrupted sweep.
    if (!writer) continue;
    compute_speedups(report.results, cfg.baselines);
    note_devices();
    write_report_atomic(report, out);
  }
  if (!writer) return 0;
  if (tty) std::cerr << "\n";
  note_devices();
  report.complete = true;
  compute_speedups(report.results, cfg.baselines);
  write_report_atomic(report, out);
  std::cout << summary_table(report.results, cfg.baselines);
  std::cout << "report: " << out << " (" << done << " points, " << failed << " failed)\n";
  if (runner && !runner->context_lost().empty())
    std::cerr << "sortbench: CUDA context lost at " << runner->context_lost() << "\n";
  if (proc && proc->contexts_lost())
    std::cerr << "sortbench: " << proc->contexts_lost() << " worker process" << (proc->contexts_lost() == 1 ? "" : "es")
              << " replaced after a kernel fault lost the CUDA context\n";
  if (proc && proc->restarts())
    std::cerr << "sortbench: " << proc->restarts() << " worker process" << (proc->restarts() == 1 ? "" : "es")
              << " replaced after a point killed or hung it\n";
  return failed ? 1 : 0;
}

}  // namespace
SORTBENCH_REGISTER_COMMAND("run", "a validated, timed sweep -> JSON report (default: configs/quick.json)", cmd_run);
}  // namespace sortbench::cli
