// sortbench tune: search a space of registered variants for the best point per
// GPU, key type and size range (docs/tune.md). Every point is measured in a
// worker process (sortbench tune --worker) so a faulting kernel costs that
// point only, and appended to a durable cache so a killed tune resumes.
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "cli.hpp"
#include "sortbench/config.hpp"
#include "sortbench/report.hpp"
#include "sortbench/tune.hpp"

namespace po = boost::program_options;
using nlohmann::json;

namespace sortbench::cli {
namespace {

using namespace sortbench::tune;

// ---- worker protocol: one JSON line per request and per reply ---------------

json workload_json(const Workload& w) {
  return {{"key", to_string(w.key)}, {"value", to_string(w.value)}, {"order", to_string(w.order)},
          {"n", w.n},                {"distribution", w.dist.name()}, {"seed", w.seed}};
}

Workload workload_from_json(const json& j) {
  Workload w;
  w.key = *parse_key_type(j.at("key").get<std::string>());
  w.value = *parse_value_type(j.at("value").get<std::string>());
  w.order = *parse_order(j.at("order").get<std::string>());
  w.n = j.at("n").get<std::size_t>();
  std::string why;
  auto d = parse_distribution(j.at("distribution").get<std::string>(), &why);
  if (!d) throw std::runtime_error("worker: bad distribution: " + why);
  w.dist = *d;
  w.seed = j.at("seed").get<std::uint64_t>();
  return w;
}

json measure_json(const MeasureSettings& m) {
  return {{"warmup_runs", m.warmup_runs}, {"min_samples", m.min_samples}, {"max_samples", m.max_samples},
          {"max_rel_stderr", m.max_rel_stderr}, {"budget_s", m.budget_s}, {"cold_l2", m.cold_l2},
          {"throttle_ratio", m.throttle_ratio}};
}

MeasureSettings measure_from_json(const json& j) {
  MeasureSettings m;
  m.warmup_runs = j.at("warmup_runs");
  m.min_samples = j.at("min_samples");
  m.max_samples = j.at("max_samples");
  m.max_rel_stderr = j.at("max_rel_stderr");
  m.budget_s = j.at("budget_s");
  m.cold_l2 = j.at("cold_l2");
  m.throttle_ratio = j.at("throttle_ratio");
  return m;
}

struct FakeOptions {
  bool on = false;
  double delay_s = 0;
  std::string crash_glob;  // the worker aborts when asked to measure a matching label
  std::string model = "fake-gpu";
};

json fake_device(const FakeOptions& f) {
  return {{"ordinal", 0}, {"name", "Fake GPU (" + f.model + ")"}, {"model", f.model}, {"uuid", "GPU-fake-" + f.model}};
}

// The worker: measures requests from stdin until EOF or a lost CUDA context.
int run_worker(const json& measure, const FakeOptions& fake) {
  // The protocol owns the original stdout; anything else printed goes to stderr.
  const int proto = ::dup(STDOUT_FILENO);
  ::dup2(STDERR_FILENO, STDOUT_FILENO);
  FILE* out = ::fdopen(proto, "w");
  auto reply = [&](const json& j) {
    const std::string line = j.dump() + "\n";
    std::fwrite(line.data(), 1, line.size(), out);
    std::fflush(out);
  };
  const MeasureSettings m = measure_from_json(measure);
  std::unique_ptr<Runner> runner;
  std::unique_ptr<FakeEvaluator> fake_eval;
  if (fake.on) {
    register_fake_variants();
    fake_eval = std::make_unique<FakeEvaluator>(fake.delay_s);
    reply({{"device", fake_device(fake)}});
  } else {
    require_gpu();
    const DeviceInfo dev = query_device(true);
    runner = std::make_unique<Runner>(m, dev);
    reply({{"device", device_json(dev)}});
  }
  std::string prepared;
  std::string line;
  while (std::getline(std::cin, line)) {
    const json req = json::parse(line);
    const std::string label = req.at("variant");
    const Workload w = workload_from_json(req.at("workload"));
    if (fake.on) {
      if (!fake.crash_glob.empty() && glob_match(fake.crash_glob, label)) std::abort();  // a stand-in for a kernel fault
      reply({{"result", result_to_json(fake_eval->evaluate(label, w))}, {"context_lost", false}});
      continue;
    }
    const VariantInfo* v = Registry::instance().find(label);
    PointResult r;
    if (!v) {
      r = blank_result(label, {}, "", w);
      r.status = Status::failed;
      r.reason = "not registered in this build";
    } else {
      const std::string wkey = workload_json(w).dump();
      if (wkey != prepared) {
        runner->prepare(w);  // a workload-wide skip reason comes back from measure()
        prepared = wkey;
      }
      r = runner->measure(*v);
    }
    const bool lost = !runner->context_lost().empty();
    reply({{"result", result_to_json(r)}, {"context_lost", lost}});
    if (lost) return 3;  // the CUDA context is unusable: the parent starts a fresh worker
  }
  return 0;
}

std::string signal_text(int status) {
  std::ostringstream os;
  if (WIFSIGNALED(status)) os << "killed by signal " << WTERMSIG(status) << " (" << strsignal(WTERMSIG(status)) << ")";
  else if (WIFEXITED(status)) os << "exited with status " << WEXITSTATUS(status);
  else os << "stopped";
  return os.str();
}

// Parent side: measures through a worker process, restarting it after a crash.
class WorkerEvaluator : public Evaluator {
 public:
  WorkerEvaluator(std::vector<std::string> args, double point_timeout_s)
      : args_(std::move(args)), timeout_s_(point_timeout_s) {}
  ~WorkerEvaluator() override { stop(); }

  const json& device() {
    if (pid_ < 0) start();
    return device_;
  }

  PointResult evaluate(const std::string& label, const Workload& w) override {
    if (pid_ < 0) start();
    const std::string req = json{{"variant", label}, {"workload", workload_json(w)}}.dump() + "\n";
    std::string why;
    if (!write_line(req)) why = "could not send the request";
    std::string line;
    if (why.empty()) why = read_line(line);
    if (why.empty()) {
      const json j = json::parse(line);
      PointResult r = result_from_json(j.at("result"), "worker reply");
      if (j.value("context_lost", false)) reap("after a lost CUDA context");
      return r;
    }
    // The worker died or hung on this point: record it, start afresh next time.
    const std::string how = reap(why);
    PointResult r = blank_result(label, {}, "", w);
    if (const VariantInfo* v = Registry::instance().find(label)) {
      r.params = v->params;
      r.family = v->family;
    }
    r.status = Status::failed;
    r.reason = "worker process " + how + " while measuring this point";
    ++restarts;
    return r;
  }

  std::size_t restarts = 0;

 private:
  void start() {
    int to_child[2], from_child[2];
    if (::pipe2(to_child, O_CLOEXEC) || ::pipe2(from_child, O_CLOEXEC))
      throw std::runtime_error(std::string("cannot create worker pipes: ") + std::strerror(errno));
    const pid_t pid = ::fork();
    if (pid < 0) throw std::runtime_error(std::string("cannot start a worker: ") + std::strerror(errno));
    if (pid == 0) {
      ::dup2(to_child[0], STDIN_FILENO);
      ::dup2(from_child[1], STDOUT_FILENO);
      std::vector<char*> argv;
      for (auto& a : args_) argv.push_back(a.data());
      argv.push_back(nullptr);
      ::execv("/proc/self/exe", argv.data());
      std::perror("sortbench: exec worker");
      ::_exit(127);
    }
    ::close(to_child[0]);
    ::close(from_child[1]);
    pid_ = pid;
    in_ = to_child[1];
    out_ = from_child[0];
    buf_.clear();
    std::string line;
    const std::string why = read_line(line, 300);
    if (!why.empty()) throw std::runtime_error("the worker process did not start: " + reap(why));
    device_ = json::parse(line).at("device");
  }

  bool write_line(const std::string& s) {
    std::size_t off = 0;
    while (off < s.size()) {
      const ssize_t k = ::write(in_, s.data() + off, s.size() - off);
      if (k < 0 && errno == EINTR) continue;
      if (k <= 0) return false;
      off += std::size_t(k);
    }
    return true;
  }

  // Empty on success; otherwise what went wrong.
  std::string read_line(std::string& line, double timeout_s = -1) {
    if (timeout_s < 0) timeout_s = timeout_s_;
    const auto t0 = std::chrono::steady_clock::now();
    for (;;) {
      if (auto nl = buf_.find('\n'); nl != std::string::npos) {
        line = buf_.substr(0, nl);
        buf_.erase(0, nl + 1);
        return {};
      }
      const double left = timeout_s - std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      if (left <= 0) return "timed out after " + std::to_string(int(timeout_s)) + " s";
      pollfd p{out_, POLLIN, 0};
      const int rc = ::poll(&p, 1, int(std::min(left, 3600.0) * 1000) + 1);
      if (rc < 0 && errno == EINTR) continue;
      if (rc == 0) continue;
      char tmp[65536];
      const ssize_t k = ::read(out_, tmp, sizeof tmp);
      if (k < 0 && errno == EINTR) continue;
      if (k <= 0) return "died";
      buf_.append(tmp, std::size_t(k));
    }
  }

  // Ends the worker (killing it if it still runs) and says how it ended.
  std::string reap(const std::string& why) {
    if (pid_ < 0) return why;
    ::close(in_);
    ::close(out_);
    int status = 0;
    // After EOF on its stdin a healthy worker exits; one that hangs is killed.
    for (int i = 0; i < 50; ++i) {
      if (::waitpid(pid_, &status, WNOHANG) == pid_) {
        pid_ = -1;
        break;
      }
      ::usleep(20000);
    }
    if (pid_ > 0) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, &status, 0);
      pid_ = -1;
    }
    return why == "died" ? signal_text(status) : why + ", " + signal_text(status);
  }

  void stop() {
    if (pid_ > 0) reap("stopped");
  }

  std::vector<std::string> args_;
  double timeout_s_;
  pid_t pid_ = -1;
  int in_ = -1, out_ = -1;
  std::string buf_;
  json device_;
};

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

std::pair<std::size_t, std::size_t> parse_shard(const std::string& s) {
  const auto slash = s.find('/');
  try {
    if (slash == std::string::npos) throw 0;
    std::size_t a = 0, b = 0;
    const std::size_t i = std::stoul(s.substr(0, slash), &a), n = std::stoul(s.substr(slash + 1), &b);
    if (a != slash || b != s.size() - slash - 1 || n == 0 || i >= n) throw 0;
    return {i, n};
  } catch (...) {
    throw ConfigError("--shard: '" + s + "' is not I/N with 0 <= I < N (e.g. 0/4)");
  }
}

void write_json_atomic(const json& j, const std::string& path) {
  const auto parent = std::filesystem::path(path).parent_path();
  if (!parent.empty()) std::filesystem::create_directories(parent);
  const std::string tmp = path + ".tmp." + std::to_string(::getpid());
  {
    std::ofstream o(tmp, std::ios::binary | std::ios::trunc);
    o << j.dump(2) << "\n";
    o.flush();
    if (!o) throw std::runtime_error(tmp + ": cannot write");
  }
  std::filesystem::rename(tmp, path);
}

void apply_axes(Space& s, const po::variables_map& vm) {
  apply_sweep_axes(s.sweep, vm);
  if (vm.count("strategy")) {
    auto k = parse_strategy(vm["strategy"].as<std::string>());
    if (!k) throw ConfigError("--strategy: unknown strategy '" + vm["strategy"].as<std::string>() + "'; expected exhaustive, random, halving or descent");
    s.strategy.kind = *k;
  }
  if (vm.count("max-points")) s.strategy.budget = vm["max-points"].as<std::size_t>();
  if (vm.count("keep-fraction")) {
    const double f = vm["keep-fraction"].as<double>();
    if (!(f > 0 && f <= 1)) throw ConfigError("--keep-fraction: expected a number in (0, 1]");
    s.strategy.keep_fraction = f;
  }
}

// --devices: one child per GPU, each a shard, then the merge.
int run_devices(const std::vector<std::string>& args, const std::vector<std::string>& devices, const std::string& out_base) {
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
  std::vector<pid_t> pids;
  std::vector<std::string> outs;
  for (std::size_t i = 0; i < n; ++i) {
    const std::string shard = std::to_string(i) + "/" + std::to_string(n);
    outs.push_back(out_base + ".shard-" + std::to_string(i) + "-of-" + std::to_string(n) + ".json");
    std::vector<std::string> a = {"sortbench", "tune"};
    a.insert(a.end(), base.begin(), base.end());
    for (const std::string& x : {std::string("--shard"), shard, std::string("--out"), outs.back(),
                                 std::string("--log-prefix"), "[gpu " + devices[i] + " shard " + shard + "] "})
      a.push_back(x);
    const pid_t pid = ::fork();
    if (pid < 0) throw std::runtime_error("cannot start a shard process");
    if (pid == 0) {
      ::setenv("CUDA_VISIBLE_DEVICES", devices[i].c_str(), 1);
      std::vector<char*> argv;
      for (auto& s : a) argv.push_back(s.data());
      argv.push_back(nullptr);
      ::execv("/proc/self/exe", argv.data());
      ::_exit(127);
    }
    pids.push_back(pid);
  }
  int worst = 0;
  for (std::size_t i = 0; i < n; ++i) {
    int status = 0;
    ::waitpid(pids[i], &status, 0);
    const int rc = WIFEXITED(status) ? WEXITSTATUS(status) : 1;
    if (rc) std::cerr << "sortbench: shard " << i << "/" << n << " on GPU " << devices[i] << " " << signal_text(status) << "\n";
    worst = std::max(worst, rc);
  }
  if (worst == 2) return 2;
  std::cerr << "sortbench: merging " << n << " shards\n";
  std::vector<Report> reports;
  for (const auto& o : outs) reports.push_back(read_report(o));
  Report merged = merge_reports(reports, outs);
  const std::string model = merged.context.value("device", json::object()).value("model", "unknown-gpu");
  const std::string out = out_base + ".json";
  write_report_atomic(merged, out);
  const Space space = parse_space(merged.context.at("config").dump(), out + ": $.context.config");
  const json best = best_json(merged.results, space, merged.context.value("device", json::object()),
                              {{"report", out}, {"tune", merged.context.value("tune", json::object())}});
  const std::string best_path = "results/" + model + "/best.json";
  write_json_atomic(best, best_path);
  std::cout << "report: " << out << "\nbest: " << best_path << "\n";
  return worst;
}

int cmd_tune(const std::vector<std::string>& args, const std::string& command_line) {
  po::options_description desc(
      "sortbench tune: search a space of variants for the best point per key type and size range (docs/tune.md)\nOptions");
  desc.add_options()("help,h", "this help")("space", po::value<std::string>(), "tune space file (JSON), e.g. configs/tune-radix.json")(
      "strategy", po::value<std::string>(), "exhaustive, random, halving (successive halving) or descent (coordinate descent)")(
      "max-points", po::value<std::size_t>(), "random / descent: most points scored per group")(
      "keep-fraction", po::value<double>(), "halving: fraction promoted to the next size (default 1/3)")(
      "variants", po::value<std::string>(), "label globs (replace the space's)")(
      "n", po::value<std::string>(), "sizes (replace the space's)")("key", po::value<std::string>(), "key types")(
      "values", po::value<std::string>(), "none,u32")("dist", po::value<std::string>(), "distributions")(
      "seed", po::value<std::uint64_t>(), "workload seed")("hot", "do not flush L2 before samples")(
      "budget", po::value<double>(), "per-point time budget in seconds")(
      "out", po::value<std::string>(), "report path (default results/<gpu-model>/<space name>-<strategy>.json)")(
      "best", po::value<std::string>(), "best.json path (default results/<gpu-model>/best.json; not written by a shard)")(
      "cache", po::value<std::string>(), "cache path (default results/cache/<gpu-model>.jsonl)")(
      "fresh", "measure everything again (new measurements are still appended to the cache)")(
      "shard", po::value<std::string>(), "I/N: tune only the points whose label hashes to shard I of N")(
      "devices", po::value<std::string>(), "comma-separated GPU ordinals: one shard per GPU, run side by side, then merged")(
      "point-timeout", po::value<double>(), "seconds before a point that does not finish is failed (default 300)")(
      "in-process", "measure in this process (no worker; a fault ends the tune)")(
      "dry-run", "print the groups, points and pruned points, and exit");
  po::options_description hidden;
  hidden.add_options()("worker", "")("measure", po::value<std::string>(), "")("fake-evaluator", "")(
      "fake-delay", po::value<double>(), "")("fake-crash", po::value<std::string>(), "")(
      "fake-model", po::value<std::string>(), "")("log-prefix", po::value<std::string>(), "");
  po::options_description all;
  all.add(desc).add(hidden);
  const auto vm = parse("tune", all, args);
  if (vm.count("help")) {
    std::cout << desc << "\n";
    return 0;
  }
  FakeOptions fake;
  fake.on = vm.count("fake-evaluator") > 0;
  if (vm.count("fake-delay")) fake.delay_s = vm["fake-delay"].as<double>();
  if (vm.count("fake-crash")) fake.crash_glob = vm["fake-crash"].as<std::string>();
  if (vm.count("fake-model")) fake.model = vm["fake-model"].as<std::string>();
  if (vm.count("worker")) return run_worker(json::parse(vm["measure"].as<std::string>()), fake);

  // All input is checked before any GPU work or any file is written.
  if (!vm.count("space")) throw ConfigError("--space: missing; expected a tune space file such as configs/tune-radix.json");
  Space space = load_space_file(vm["space"].as<std::string>());
  apply_axes(space, vm);
  if (fake.on) register_fake_variants();
  const auto& reg = Registry::instance();
  for (const auto& pat : space.sweep.variants)
    if (reg.match({pat}).empty())
      throw ConfigError((vm.count("variants") ? std::string("--variants") : space.sweep.source + ": $.variants") +
                        ": '" + pat + "' matches no registered variant (see sortbench list)");
  if (!fake.on && !reg.find(space.baseline()))
    throw ConfigError(space.sweep.source + ": $.baselines[0]: '" + space.baseline() + "' is not a registered variant");
  std::size_t shard = 0, shards = 1;
  if (vm.count("shard")) std::tie(shard, shards) = parse_shard(vm["shard"].as<std::string>());
  std::vector<std::string> devices;
  if (vm.count("devices")) {
    devices = split_list(vm["devices"].as<std::string>(), "--devices");
    for (const auto& d : devices)
      if (d.find_first_not_of("0123456789") != std::string::npos)
        throw ConfigError("--devices: '" + d + "' is not a GPU ordinal; expected e.g. 0,1,2,3");
    if (vm.count("shard")) throw ConfigError("--devices: cannot be combined with --shard (it assigns the shards)");
  }
  const auto variants = space_variants(space, reg);
  if (variants.empty())
    throw ConfigError(space.sweep.source + ": $.params: no variant matched by $.variants has parameters in range");
  const auto groups = plan_groups(space, variants, fake.on ? ResourceCheck(fake_resource_check) : ResourceCheck(no_resource_check),
                                  shard, shards);
  const std::string tag = space.sweep.name + "-" + to_string(space.strategy.kind);
  if (vm.count("dry-run")) {
    std::size_t planned = 0;
    for (const auto& g : groups) {
      std::cout << g.name() << ": " << g.workloads.size() << " workloads, " << g.candidates.size() << " points, "
                << g.pruned.size() << " pruned, up to " << planned_evaluations(space.strategy, g) << " evaluations ("
                << to_string(space.strategy.kind) << ")\n";
      for (const auto& c : g.candidates) std::cout << "  " << c.label << "\n";
      for (const auto& p : g.pruned) std::cout << "  pruned " << p.variant << ": " << p.reason << "\n";
      planned += planned_evaluations(space.strategy, g);
    }
    std::cout << planned << " evaluations at most\n";
    return 0;
  }
  if (!devices.empty())
    return run_devices(args, devices, vm.count("out") ? std::filesystem::path(vm["out"].as<std::string>()).replace_extension().string()
                                                      : "results/shards/" + tag);

  // The evaluator: a worker process (default) or this process.
  std::unique_ptr<Evaluator> eval;
  json device;
  WorkerEvaluator* worker = nullptr;
  std::unique_ptr<Runner> runner;  // --in-process on a GPU
  if (vm.count("in-process")) {
    if (fake.on) {
      eval = std::make_unique<FakeEvaluator>(fake.delay_s);
      device = fake_device(fake);
    } else {
      require_gpu();
      const DeviceInfo dev = query_device(true);
      device = device_json(dev);
      struct RunnerEval : Evaluator {
        Runner& r;
        std::string prepared;
        explicit RunnerEval(Runner& x) : r(x) {}
        PointResult evaluate(const std::string& label, const Workload& w) override {
          const std::string k = workload_json(w).dump();
          if (k != prepared) r.prepare(w), prepared = k;
          return r.measure(*Registry::instance().find(label));
        }
      };
      runner = std::make_unique<Runner>(space.sweep.measure, dev);
      eval = std::make_unique<RunnerEval>(*runner);
    }
  } else {
    std::vector<std::string> wargs = {"sortbench", "tune", "--worker", "--measure", measure_json(space.sweep.measure).dump()};
    if (fake.on) {
      wargs.insert(wargs.end(), {"--fake-evaluator", "--fake-model", fake.model, "--fake-delay", std::to_string(fake.delay_s)});
      if (!fake.crash_glob.empty()) wargs.insert(wargs.end(), {"--fake-crash", fake.crash_glob});
    } else {
      require_gpu();
    }
    auto w = std::make_unique<WorkerEvaluator>(wargs, vm.count("point-timeout") ? vm["point-timeout"].as<double>() : 300.0);
    worker = w.get();
    device = w->device();
    eval = std::move(w);
  }
  const std::string model = device.value("model", "unknown-gpu");
  const std::string out = vm.count("out") ? vm["out"].as<std::string>() : "results/" + model + "/" + tag + ".json";
  const std::string best_path = vm.count("best") ? vm["best"].as<std::string>() : "results/" + model + "/best.json";
  const std::string cache_path = vm.count("cache") ? vm["cache"].as<std::string>() : "results/cache/" + model + ".jsonl";
  const CacheIdentity id = identity_of_this_build(model, device.value("uuid", ""));
  ResultCache cache(cache_path, !vm.count("fresh"));
  const std::string prefix = vm.count("log-prefix") ? vm["log-prefix"].as<std::string>() : "";
  std::cerr << prefix << "sortbench tune: " << device.value("name", model) << "; " << to_string(space.strategy.kind)
            << " over " << groups.size() << " groups";
  if (shards > 1) std::cerr << ", shard " << shard << "/" << shards;
  std::cerr << "; cache " << cache_path << " (" << cache.loaded() << " entries" << (vm.count("fresh") ? ", ignored" : "")
            << ") -> " << out << "\n";

  const std::string shard_text = std::to_string(shard) + "/" + std::to_string(shards);
  LineProgress progress(prefix);
  Session session(space, *eval, &cache, id, &progress);
  auto make_report = [&](const TuneRun& run, bool complete) {
    Report report;
    report.complete = complete;
    json tune_ctx = run.summary();
    tune_ctx["strategy"] = to_string(space.strategy.kind);
    tune_ctx["shard"] = shard_text;
    tune_ctx["cache"] = cache_path;
    tune_ctx["cache_identity"] = to_json(id);
    tune_ctx["worker_restarts"] = worker ? worker->restarts : 0;
    report.context = {{"tool", "sortbench"}, {"device", device}, {"build", build_json()},
                      {"host", {{"hostname", hostname()}}}, {"timestamp", utc_now()},
                      {"command_line", command_line}, {"config", space_to_json(space)}, {"tune", tune_ctx}};
    report.results = run.results;
    return report;
  };
  const TuneRun run = run_tune(space, groups, session, [&](const TuneRun& partial) {
    write_report_atomic(make_report(partial, false), out);  // a partial report survives an interrupted tune
  });
  progress.end_line();
  const Report report = make_report(run, true);
  write_report_atomic(report, out);
  bool all_picked = true;
  std::cout << prefix << "strategy " << to_string(space.strategy.kind) << ": " << run.evaluations << " evaluations, "
            << run.cache_hits << " from the cache, " << duration_text(run.wall_s) << "\n";
  for (const auto& o : run.outcomes) {
    std::cout << prefix << "  " << o.group << ": ";
    if (o.ranking.empty()) {
      std::cout << "no point ran on every workload\n";
      all_picked = false;
      continue;
    }
    std::cout << o.ranking[0].candidate->label << " " << std::fixed << std::setprecision(3) << o.ranking[0].score.value
              << "x " << space.baseline() << " (" << o.scored << " of " << o.candidates << " points scored, "
              << o.evaluations << " evaluations, " << duration_text(o.wall_s) << ")\n";
  }
  std::cout << prefix << "report: " << out << "\n";
  if (shards == 1) {
    write_json_atomic(best_json(report.results, space, device,
                                {{"report", out}, {"tune", report.context["tune"]}, {"command_line", command_line}}),
                      best_path);
    std::cout << prefix << "best: " << best_path << "\n";
  }
  return all_picked ? 0 : 1;
}

}  // namespace
SORTBENCH_REGISTER_COMMAND("tune", "search variants' parameters for the best point per GPU -> best.json", cmd_tune);
}  // namespace sortbench::cli
