#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <thread>
#include <cmath>
#include <limits>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <ctime>
#include <iomanip>
#include <sstream>

#include <cuda/version>

#include "cli.hpp"
#include "evaluators.hpp"
#include "sortbench/plugin.hpp"
#include "sortbench/config.hpp"
#include "sortbench/build_info.hpp"
#include "sortbench/gpu_status.hpp"
#include "sortbench/tune.hpp"
#include "sortbench/worker.hpp"

namespace po = boost::program_options;
using nlohmann::json;

namespace sortbench::cli {

std::vector<Command>& commands() {
  static std::vector<Command> c;
  return c;
}

json params_json(const Params& ps) {
  json j = json::object();
  for (const auto& p : ps) j[p.name] = p.value;
  return j;
}

json variant_json(const VariantInfo& v) {
  json j;
  j["label"] = v.label;
  j["family"] = v.family;
  j["description"] = v.description;
  j["seed"] = v.seed;
  for (auto k : v.key_types) j["key_types"].push_back(to_string(k));
  for (auto t : v.value_types) j["value_types"].push_back(to_string(t));
  j["descending"] = v.descending;
  j["stable"] = v.stable;
  j["host"] = v.host;
  j["opt_in"] = v.opt_in;
  j["family_default"] = v.family_default;  // what best:FAMILY runs where best.json has no pick
  j["params"] = params_json(v.params);
  j["tile_keys"] = v.tile_keys;
  if (v.max_n != std::numeric_limits<std::size_t>::max()) j["max_n"] = v.max_n;
  if (!v.plugin.empty()) j["plugin"] = v.plugin;
  return j;
}

json link_json(const LinkMeasurement& l) {
  json j = {{"gpus", l.devices},
            {"bytes_per_gpu", l.bytes},
            {"peer_access", l.peer_access},
            {"alltoall_ms", l.alltoall_ms},
            {"alltoall_gb_per_s", l.alltoall_gb_per_s},
            {"alltoall_unaligned_gb_per_s", l.alltoall_unaligned_gb_per_s},
            {"peer_copy_ms", l.peer_copy_ms},
            {"peer_copy_gb_per_s", l.peer_copy_gb_per_s},
            {"bidirectional_peer_copy_gb_per_s", l.bidir_peer_copy_gb_per_s},
            {"topology", l.topology}};
  if (!l.error.empty()) j["error"] = l.error;
  return j;
}

json device_json(const DeviceInfo& d) {
  return {{"ordinal", d.ordinal},
          {"name", d.name},
          {"model", device_model_slug(d.name)},
          {"uuid", d.uuid},
          {"sm_count", d.sm_count},
          {"compute_capability", std::to_string(d.cc_major) + "." + std::to_string(d.cc_minor)},
          {"l2_bytes", d.l2_bytes},
          {"memory_total_bytes", d.total_mem},
          {"memory_free_bytes", d.free_mem},
          {"sm_clock_peak_mhz", d.sm_clock_peak_mhz},
          {"memory_clock_peak_mhz", d.mem_clock_peak_mhz},
          {"memory_bus_width_bits", d.mem_bus_width_bits},
          {"driver_version", d.driver_version},
          {"runtime_version", d.runtime_version},
          {"cccl_version", d.cccl_version},
          {"copy_gb_per_s", d.copy_gb_per_s},
          {"energy", d.energy_missing.empty()
                         ? json{{"counter", true}, {"idle_w", d.idle_w}, {"power_limit_w", d.power_limit_w}}
                         : json{{"counter", false}, {"missing", d.energy_missing}}}};
}

json build_json() {
  const BuildInfo& b = build_info();
  return {{"version", b.version},         {"git_commit", b.git_commit},  {"git_dirty", b.git_dirty},
          {"cxx_compiler", b.compiler},   {"cuda_compiler", b.cuda_compiler}, {"cxx_flags", b.cxx_flags},
          {"cuda_flags", b.cuda_flags},   {"build_type", b.build_type},   {"cuda_architectures", b.cuda_architectures},
          {"full_grid", b.full_grid}};
}

json plugins_json() {
  json out = json::array();
  for (const auto& p : loaded_plugins()) {
    out.push_back({{"path", p.path}, {"sha256", p.sha256}, {"name", p.name},
                   {"cuda_architectures", p.cuda_architectures}, {"build", p.build}, {"variants", p.labels}});
    if (!p.spaces.empty()) out.back()["spaces"] = p.spaces;
  }
  return out;
}

void add_plugin_option(po::options_description& desc) {
  desc.add_options()("plugin", po::value<std::vector<std::string>>(),
                     "a plugin (.so) whose variants to add; repeatable; also SORTBENCH_PLUGIN_PATH (':'-separated)");
}

void load_plugins_of(const po::variables_map& vm) {
  load_plugins(plugin_paths(vm.count("plugin") ? vm["plugin"].as<std::vector<std::string>>() : std::vector<std::string>{}));
}

void add_on_demand_options(po::options_description& desc) {
  desc.add_options()("jit-cache", po::value<std::string>(),
                     "folder of the builds of on-demand points (default $XDG_CACHE_HOME/sortbench/on-demand)")(
      "jobs,j", po::value<std::string>(), "compiler processes for on-demand points (default: all host cores)");
}

on_demand::Settings on_demand_settings(const po::variables_map& vm) {
  on_demand::Settings s;
  s.cache_dir = vm.count("jit-cache") ? vm["jit-cache"].as<std::string>() : on_demand::default_cache_dir();
  if (vm.count("jit-cache")) {
    if (s.cache_dir.empty()) throw ConfigError("--jit-cache: empty path; expected a folder");
    std::error_code ec;
    if (std::filesystem::exists(s.cache_dir, ec) && !std::filesystem::is_directory(s.cache_dir, ec))
      throw ConfigError("--jit-cache: " + s.cache_dir + ": not a folder");
  }
  s.jobs = vm.count("jobs") ? unsigned(count_flag(vm, "jobs", 1, 1024)) : std::max(1u, std::thread::hardware_concurrency());
  s.arch = binary_arch();
  return s;
}

std::string binary_arch() {
  const auto archs = cuda_architecture_numbers(build_info().cuda_architectures);
  return archs.empty() ? std::string("90") : std::to_string(archs.front());
}

std::string utc_now() {
  const std::time_t t = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return buf;
}

std::string hostname() {
  char buf[256] = {0};
  if (gethostname(buf, sizeof buf - 1) != 0) return "unknown";
  return buf;
}

std::pair<std::size_t, std::size_t> parse_shard(const std::string& s) {
  const auto slash = s.find('/');
  try {
    if (slash == std::string::npos || s.find_first_not_of("0123456789/") != std::string::npos) throw 0;
    std::size_t a = 0, b = 0;
    const std::size_t i = std::stoul(s.substr(0, slash), &a), n = std::stoul(s.substr(slash + 1), &b);
    if (a != slash || b != s.size() - slash - 1 || n == 0 || i >= n) throw 0;
    return {i, n};
  } catch (...) {
    throw ConfigError("--shard: '" + s + "' is not I/N with 0 <= I < N (e.g. 0/4)");
  }
}

std::string size_text(std::size_t n) {
  if (n >= 1024 && (n & (n - 1)) == 0) return "2^" + std::to_string(int(std::log2(double(n))));
  return std::to_string(n);
}

std::vector<int> run_self_children(std::vector<SelfChild> children) {
  std::vector<pid_t> pids;
  for (auto& c : children) {
    std::vector<char*> argv;
    for (auto& x : c.argv) argv.push_back(x.data());
    argv.push_back(nullptr);
    const pid_t pid = ::fork();
    if (pid < 0) {
      for (pid_t p : pids) ::waitpid(p, nullptr, 0);  // none is left running unwatched
      throw std::runtime_error("cannot start a process (" + c.argv.at(1) + "): " + std::strerror(errno));
    }
    if (pid == 0) {
      for (const auto& [k, v] : c.env) ::setenv(k.c_str(), v.c_str(), 1);
      ::execv("/proc/self/exe", argv.data());
      ::_exit(127);
    }
    pids.push_back(pid);
  }
  std::vector<int> statuses;
  for (pid_t p : pids) {
    int status = 0;
    while (::waitpid(p, &status, 0) < 0 && errno == EINTR) {
    }
    statuses.push_back(status);
  }
  return statuses;
}

std::string join(const std::vector<std::string>& items, const std::string& sep) {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i) out += (i ? sep : "") + items[i];
  return out;
}

nlohmann::json hidden_worker_flags(const std::string& cmd, const po::variables_map& vm) {
  const std::string who = "sortbench " + cmd + ": ";
  if (vm.count("measure") && !vm.count("worker"))
    throw UsageError(who + "--measure: only with --worker (what a " + cmd + " passes the process it starts)");
  for (const char* f : {"fake-crash", "fake-delay", "fake-model"})
    if (vm.count(f) && !vm.count("fake-evaluator"))
      throw UsageError(who + "--" + f + ": only with --fake-evaluator");
  if (!vm.count("worker")) return nullptr;
  if (!vm.count("measure")) throw UsageError(who + "--worker: missing --measure");
  try {
    return nlohmann::json::parse(vm["measure"].as<std::string>());
  } catch (const nlohmann::json::parse_error& e) {
    throw UsageError(who + "--measure: malformed JSON (" + std::string(e.what()) + ")");
  }
}

po::variables_map parse(const std::string& cmd, const po::options_description& desc,
                         const std::vector<std::string>& args, const char* positional_name,
                         std::size_t max_positional) {
  // Positional words are collected under one hidden name and counted here, so
  // a stray word is named instead of ignored.
  const std::string stray = positional_name ? positional_name : "unexpected-argument";
  po::options_description all;
  all.add(desc);
  all.add_options()(stray.c_str(), po::value<std::vector<std::string>>(), "");
  po::positional_options_description pos;
  pos.add(stray.c_str(), -1);
  // "--out=" is an empty value, not a missing one: say so (Boost's words are about the '=').
  for (const auto& a : args) {
    if (a == "--") break;
    if (a.size() > 3 && a.rfind("--", 0) == 0 && a.back() == '=' && a.find('=') == a.size() - 1)
      throw UsageError("sortbench " + cmd + ": " + a.substr(0, a.size() - 1) + ": empty value after '='; expected " +
                       a.substr(0, a.size() - 1) + "=VALUE or " + a.substr(0, a.size() - 1) + " VALUE");
  }
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(args).options(all).positional(pos).run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    throw UsageError("sortbench " + cmd + ": " + e.what() + " (see sortbench " + cmd + " --help)");
  }
  if (vm.count(stray)) {
    const auto words = vm[stray].as<std::vector<std::string>>();
    if (words.size() > max_positional)
      throw UsageError("sortbench " + cmd + ": unexpected argument '" + words[max_positional] + "'" +
                       (max_positional ? "" : "; " + cmd + " takes options only") + " (see sortbench " + cmd + " --help)");
  }
  return vm;
}

po::variables_map parse(const std::string& cmd, const po::options_description& desc,
                        const std::vector<std::string>& args) {
  return parse(cmd, desc, args, nullptr, 0);
}

namespace {
std::string number_text(double x) {
  std::ostringstream os;
  os << x;
  return os.str();
}
}  // namespace

std::uint64_t count_flag(const po::variables_map& vm, const char* flag, std::uint64_t lo, std::uint64_t hi) {
  const std::string text = vm[flag].as<std::string>();
  const std::string expected = "expected a whole number from " + std::to_string(lo) + " to " + std::to_string(hi);
  if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos)
    throw ConfigError(std::string("--") + flag + ": '" + text + "' is not a whole number; " + expected);
  errno = 0;
  const unsigned long long v = std::strtoull(text.c_str(), nullptr, 10);
  if (errno != 0 || v < lo || v > hi) throw ConfigError(std::string("--") + flag + ": " + text + " is out of range; " + expected);
  return v;
}

double number_flag(const po::variables_map& vm, const char* flag, double lo, double hi, bool lo_open) {
  const std::string text = vm[flag].as<std::string>();
  const std::string expected = std::string("expected a number ") + (lo_open ? "above " : "from ") + number_text(lo) +
                               (lo_open ? " and at most " : " to ") + number_text(hi);
  char* end = nullptr;
  errno = 0;
  const double v = text.empty() ? 0 : std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || !std::isfinite(v) || errno == ERANGE ||
      text.find_first_of("xXnNiIpP") != std::string::npos)  // hex floats, nan, inf
    throw ConfigError(std::string("--") + flag + ": '" + text + "' is not a number; " + expected);
  if (v < lo || v > hi || (lo_open && v == lo))
    throw ConfigError(std::string("--") + flag + ": " + text + " is out of range; " + expected);
  return v;
}

std::string no_gpu_line(const GpuStatus& s) { return "no usable CUDA GPU on this machine: " + s.text(); }

void require_gpu() {
  const GpuStatus s = gpu_status();
  if (!s.usable) throw std::runtime_error(no_gpu_line(s));
}

std::string cccl_version() {
  return std::to_string(CCCL_MAJOR_VERSION) + "." + std::to_string(CCCL_MINOR_VERSION) + "." +
         std::to_string(CCCL_PATCH_VERSION);
}

json version_json() {
  json j = build_json();
  j["cccl_version"] = cccl_version();
  j["cuda_runtime_version"] = CUDART_VERSION;
  return j;
}

std::string build_facts_text() {
  const BuildInfo& b = build_info();
  std::ostringstream os;
  os << "sortbench      " << b.version << "\n"
     << "commit         " << b.git_commit << (b.git_dirty ? " (dirty: uncommitted changes)" : "") << "\n"
     << "build          " << b.build_type << ", "
     << (b.full_grid ? "full grid (every curated parameter point and library call compiled in)"
                     : "lean (family defaults, the committed best.json picks, CUB's radix sort at every key type; "
                       "other points, and the key types of library calls it lacks, built on demand; "
                       "-DSORTBENCH_FULL_GRID=ON compiles all in)")
     << "\n"
     << "CUDA           architectures " << b.cuda_architectures << ", runtime " << CUDART_VERSION / 1000 << "."
     << CUDART_VERSION % 1000 / 10 << ", compiler " << b.cuda_compiler << "\n"
     << "CCCL           " << cccl_version() << "\n"
     << "C++ compiler   " << b.compiler << "\n"
     << "variants       " << Registry::instance().all().size() << " registered (sortbench list)\n";
  return os.str();
}

int print_version(const std::vector<std::string>& args) {
  bool as_json = false;
  for (const auto& a : args) {
    if (a == "--json" && !as_json) {
      as_json = true;
      continue;
    }
    throw UsageError("sortbench --version: unexpected argument '" + a + "'" + (a == "--json" ? " (given twice)" : "") +
                     "; expected nothing or --json");
  }
  if (as_json)
    std::cout << version_json().dump(1) << "\n";
  else
    std::cout << build_facts_text();
  return 0;
}

PointResult InProcessEvaluator::evaluate(const std::string& label, const Workload& w) {
  const VariantInfo* v = Registry::instance().find(label);
  if (!v) {
    PointResult r = tune::blank_result(label, {}, "", w);
    r.status = Status::failed;
    r.reason = "not registered in this build";
    return r;
  }
  return measurer_.measure(*v, w);  // a workload-wide skip reason comes back as the result
}

int serve_device_worker(const nlohmann::json& measure) {
  std::FILE* out = worker::take_stdout_for_protocol();
  require_gpu();
  InProcessEvaluator eval(worker::measure_from_json(measure));
  int current = 0;
  cuda_check(cudaGetDevice(&current), "cudaGetDevice");
  return worker::serve(std::cin, out, device_json(eval.measurer().device(current)), [&](const std::string& label, const Workload& w) {
    worker::Reply reply;
    reply.result = eval.evaluate(label, w);
    reply.context_lost = !eval.measurer().context_lost().empty();
    return reply;
  });
}

nlohmann::json fake_device_json(const std::string& model) {
  return {{"ordinal", 0}, {"name", "Fake GPU (" + model + ")"}, {"model", model}, {"uuid", "GPU-fake-" + model}};
}

int serve_fake_worker(const nlohmann::json& device, double delay_s, const std::string& crash_glob) {
  std::FILE* out = worker::take_stdout_for_protocol();
  tune::register_fake_variants();
  tune::FakeEvaluator fake(delay_s);
  return worker::serve(std::cin, out, device, [&](const std::string& label, const Workload& w) {
    if (!crash_glob.empty() && glob_match(crash_glob, label)) std::abort();  // a stand-in for a kernel fault
    return worker::Reply{fake.evaluate(label, w), false};
  });
}

void apply_sweep_axes(SweepConfig& c, const po::variables_map& vm) {
  auto list = [&](const char* flag) { return split_list(vm[flag].as<std::string>(), std::string("--") + flag); };
  if (vm.count("variants")) c.variants = list("variants");
  if (vm.count("seed")) c.seed = count_flag(vm, "seed", 0, std::numeric_limits<std::uint64_t>::max());
  if (vm.count("hot")) c.measure.cold_l2 = false;
  if (vm.count("budget")) c.measure.budget_s = number_flag(vm, "budget", 0.001, 3600, false);
  if (vm.count("energy-window")) c.measure.energy_window_s = number_flag(vm, "energy-window", 0, 600, false);
  for (auto& s : c.sweeps) {
    if (vm.count("n")) s.sizes = parse_sizes(vm["n"].as<std::string>(), "--n");
    if (vm.count("gpus")) s.gpus = parse_gpu_list(vm["gpus"].as<std::string>(), "--gpus");
    if (vm.count("key")) {
      s.keys.clear();
      for (const auto& k : list("key")) {
        auto t = parse_key_type(k);
        if (!t) throw ConfigError("--key: unknown key type '" + k + "'; expected one of " + key_type_names());
        s.keys.push_back(*t);
      }
    }
    if (vm.count("values")) {
      s.values.clear();
      for (const auto& k : list("values")) {
        auto t = parse_value_type(k);
        if (!t) throw ConfigError("--values: unknown value type '" + k + "'; expected one of " + value_type_names());
        s.values.push_back(*t);
      }
    }
    if (vm.count("order")) {
      s.orders.clear();
      for (const auto& k : list("order")) {
        auto t = parse_order(k);
        if (!t) throw ConfigError("--order: unknown order '" + k + "'; expected ascending or descending");
        s.orders.push_back(*t);
      }
    }
    if (vm.count("dist")) {
      s.distributions.clear();
      for (const auto& k : list("dist")) {
        std::string why;
        auto d = parse_distribution(k, &why);
        if (!d) throw ConfigError("--dist: unknown distribution '" + k + "'; " + why);
        s.distributions.push_back(*d);
      }
    }
  }
}

}  // namespace sortbench::cli
