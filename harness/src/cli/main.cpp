// sortbench: list, info and run (README "Command line").
// Exit codes: 0 success; 1 a runtime failure (no GPU, CUDA error, a point that
// failed validation); 2 bad input (nothing is written).
#include <unistd.h>

#include <boost/program_options.hpp>
#include <chrono>
#include <cmath>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "sortbench/build_info.hpp"
#include "sortbench/config.hpp"
#include "sortbench/device.hpp"
#include "sortbench/report.hpp"

namespace po = boost::program_options;
using nlohmann::json;
using namespace sortbench;

namespace {

struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

json params_json(const Params& ps) {
  json j = json::object();
  for (const auto& p : ps) j[p.name] = p.value;
  return j;
}

std::string keys_text(const VariantInfo& v) {
  std::string s;
  for (auto k : v.key_types) s += (s.empty() ? "" : ",") + to_string(k);
  return s;
}

json variant_json(const VariantInfo& v) {
  json j;
  j["label"] = v.label;
  j["family"] = v.family;
  j["description"] = v.description;
  j["seed"] = v.seed;
  for (auto k : v.key_types) j["key_types"].push_back(to_string(k));
  j["keys_only"] = v.keys_only;
  j["pairs"] = v.pairs;
  j["descending"] = v.descending;
  j["stable"] = v.stable;
  j["host"] = v.host;
  j["opt_in"] = v.opt_in;
  j["params"] = params_json(v.params);
  j["tile_keys"] = v.tile_keys;
  if (v.max_n != std::numeric_limits<std::size_t>::max()) j["max_n"] = v.max_n;
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
          {"copy_gb_per_s", d.copy_gb_per_s}};
}

json build_json() {
  const BuildInfo& b = build_info();
  return {{"version", b.version},         {"git_commit", b.git_commit},  {"git_dirty", b.git_dirty},
          {"cxx_compiler", b.compiler},   {"cuda_compiler", b.cuda_compiler}, {"cxx_flags", b.cxx_flags},
          {"cuda_flags", b.cuda_flags},   {"build_type", b.build_type},   {"cuda_architectures", b.cuda_architectures},
          {"full_grid", b.full_grid}};
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

std::string size_text(std::size_t n) {
  if (n >= 1024 && (n & (n - 1)) == 0) return "2^" + std::to_string(int(std::log2(double(n))));
  return std::to_string(n);
}

std::string duration_text(double s) {
  std::ostringstream os;
  if (s >= 3600) os << int(s / 3600) << "h" << std::setw(2) << std::setfill('0') << int(std::fmod(s, 3600) / 60) << "m";
  else if (s >= 60) os << int(s / 60) << "m" << std::setw(2) << std::setfill('0') << int(std::fmod(s, 60)) << "s";
  else os << int(s) << "s";
  return os.str();
}

po::variables_map parse(const std::string& cmd, const po::options_description& desc, const std::vector<std::string>& args) {
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(args).options(desc).run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    throw UsageError("sortbench " + cmd + ": " + e.what() + " (see sortbench " + cmd + " --help)");
  }
  return vm;
}

int cmd_list(const std::vector<std::string>& args) {
  po::options_description desc("sortbench list: every registered variant\nOptions");
  desc.add_options()("help,h", "this help")("json", "print JSON")(
      "variants", po::value<std::string>()->default_value("*"), "comma-separated globs to filter labels");
  const auto vm = parse("list", desc, args);
  if (vm.count("help")) {
    std::cout << desc << "\n";
    return 0;
  }
  const auto pats = split_list(vm["variants"].as<std::string>(), "--variants");
  std::vector<std::string> with_opt_in = pats;
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

void require_gpu() {
  std::string why;
  if (!gpu_available(&why)) throw std::runtime_error("no usable CUDA GPU on this machine (" + why + ")");
}

int cmd_info(const std::vector<std::string>& args) {
  po::options_description desc("sortbench info: the GPU and the build\nOptions");
  desc.add_options()("help,h", "this help")("json", "print JSON");
  const auto vm = parse("info", desc, args);
  if (vm.count("help")) {
    std::cout << desc << "\n";
    return 0;
  }
  require_gpu();
  const DeviceInfo d = query_device(true);
  json j = {{"device", device_json(d)}, {"build", build_json()}};
  if (vm.count("json")) {
    std::cout << j.dump(1) << "\n";
    return 0;
  }
  std::cout << "GPU            " << d.name << " (" << d.uuid << ")\n"
            << "SMs            " << d.sm_count << ", compute capability " << d.cc_major << "." << d.cc_minor << "\n"
            << "L2             " << d.l2_bytes / 1024 / 1024 << " MiB\n"
            << "memory         " << std::fixed << std::setprecision(1) << double(d.total_mem) / (1 << 30) << " GiB, "
            << double(d.free_mem) / (1 << 30) << " GiB free, bus " << d.mem_bus_width_bits << " bits\n"
            << "clocks (peak)  SM " << d.sm_clock_peak_mhz << " MHz, memory " << d.mem_clock_peak_mhz << " MHz\n"
            << "driver         " << d.driver_version << ", runtime " << d.runtime_version << ", CCCL " << d.cccl_version << "\n"
            << "copy bandwidth " << std::setprecision(0) << d.copy_gb_per_s << " GB/s (device to device, read + write)\n"
            << "build          " << build_info().git_commit.substr(0, 12) << (build_info().git_dirty ? " (dirty)" : "")
            << ", " << build_info().build_type << ", sm_" << build_info().cuda_architectures << "\n";
  return 0;
}

// Applies command-line axes on top of every sweep of the config.
void apply_axes(SweepConfig& c, const po::variables_map& vm) {
  auto list = [&](const char* flag) { return split_list(vm[flag].as<std::string>(), std::string("--") + flag); };
  if (vm.count("variants")) c.variants = list("variants");
  if (vm.count("seed")) c.seed = vm["seed"].as<std::uint64_t>();
  if (vm.count("hot")) c.measure.cold_l2 = false;
  if (vm.count("budget")) {
    const double b = vm["budget"].as<double>();
    if (!(b > 0)) throw ConfigError("--budget: expected a positive number of seconds");
    c.measure.budget_s = b;
  }
  for (auto& s : c.sweeps) {
    if (vm.count("n")) s.sizes = parse_sizes(vm["n"].as<std::string>(), "--n");
    if (vm.count("key")) {
      s.keys.clear();
      for (const auto& k : list("key")) {
        auto t = parse_key_type(k);
        if (!t) throw ConfigError("--key: unknown key type '" + k + "'; expected u32, i32, f32, u64, i64 or f64");
        s.keys.push_back(*t);
      }
    }
    if (vm.count("values")) {
      s.values.clear();
      for (const auto& k : list("values")) {
        auto t = parse_value_type(k);
        if (!t) throw ConfigError("--values: unknown value type '" + k + "'; expected none or u32");
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

int cmd_run(const std::vector<std::string>& args, const std::string& command_line) {
  po::options_description desc(
      "sortbench run: a validated, timed sweep written as a JSON report\n"
      "With no --config, the embedded configs/quick.json is the base; axis flags replace that axis in every sweep.\nOptions");
  desc.add_options()("help,h", "this help")("config", po::value<std::string>(), "sweep config file (JSON)")(
      "variants", po::value<std::string>(), "comma-separated label globs, e.g. 'cub.*,radix.onesweep.*'")(
      "n", po::value<std::string>(), "sizes: list and ranges, e.g. 2^16:2^28:x4,1000,5e6")(
      "dist", po::value<std::string>(), "distributions, e.g. uniform,entropy:0.544,sorted")(
      "key", po::value<std::string>(), "key types: u32,i32,f32,u64,i64,f64")(
      "values", po::value<std::string>(), "value types: none,u32")(
      "order", po::value<std::string>(), "ascending,descending")("seed", po::value<std::uint64_t>(), "workload seed")(
      "out", po::value<std::string>(), "report path (default results/<gpu-model>/<config name>.json)")(
      "hot", "do not flush L2 before samples")("budget", po::value<double>(), "per-point time budget in seconds")(
      "dry-run", "print the points and exit");
  const auto vm = parse("run", desc, args);
  if (vm.count("help")) {
    std::cout << desc << "\n";
    return 0;
  }
  // All input is checked before any GPU work or any file is written.
  SweepConfig cfg = vm.count("config") ? load_config_file(vm["config"].as<std::string>())
                                       : parse_config(embedded_quick_config(), "embedded configs/quick.json");
  apply_axes(cfg, vm);
  if (vm.count("variants") || vm.count("n") || vm.count("dist") || vm.count("key") || vm.count("values") ||
      vm.count("order"))
    cfg.source += " with command-line axes";
  const auto& reg = Registry::instance();
  for (const auto& pat : cfg.variants)
    if (reg.match({pat}).empty())
      throw ConfigError((vm.count("variants") ? std::string("--variants") : cfg.source + ": $.variants") +
                        ": '" + pat + "' matches no registered variant (see sortbench list)");
  const auto variants = reg.match(cfg.variants);
  struct Point {
    Workload w;
  };
  std::vector<Workload> workloads;
  for (const auto& s : cfg.sweeps)
    for (auto k : s.keys)
      for (auto val : s.values)
        for (auto o : s.orders)
          for (const auto& d : s.distributions)
            for (auto n : s.sizes) workloads.push_back({k, val, o, n, d, cfg.seed});
  const std::size_t total = workloads.size() * variants.size();
  if (vm.count("dry-run")) {
    for (const auto& w : workloads)
      for (auto* v : variants)
        std::cout << v->label << " " << to_string(w.key) << "/" << to_string(w.value) << " " << to_string(w.order)
                  << " n=" << w.n << " " << w.dist.name() << "\n";
    std::cout << total << " points\n";
    return 0;
  }

  require_gpu();
  const DeviceInfo dev = query_device(true);
  const std::string out = vm.count("out") ? vm["out"].as<std::string>()
                                          : "results/" + device_model_slug(dev.name) + "/" + cfg.name + ".json";
  Report report;
  report.complete = false;
  report.context = {{"tool", "sortbench"},
                    {"device", device_json(dev)},
                    {"build", build_json()},
                    {"host", {{"hostname", hostname()}}},
                    {"timestamp", utc_now()},
                    {"command_line", command_line},
                    {"config", config_to_json(cfg)}};

  const bool tty = isatty(STDERR_FILENO);
  std::cerr << "sortbench: " << dev.name << ", copy " << std::fixed << std::setprecision(0) << dev.copy_gb_per_s
            << " GB/s; " << variants.size() << " variants x " << workloads.size() << " workloads = " << total
            << " points -> " << out << "\n";
  Runner runner(cfg.measure, dev);
  std::size_t done = 0, failed = 0;
  const auto t0 = std::chrono::steady_clock::now();
  for (const auto& w : workloads) {
    const std::string skip = runner.prepare(w);
    for (const VariantInfo* v : variants) {
      PointResult r = runner.measure(*v);
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
    compute_speedups(report.results, cfg.baselines);
    write_report_atomic(report, out);
  }
  if (tty) std::cerr << "\n";
  report.complete = true;
  compute_speedups(report.results, cfg.baselines);
  write_report_atomic(report, out);
  std::cout << summary_table(report.results);
  std::cout << "report: " << out << " (" << done << " points, " << failed << " failed)\n";
  if (!runner.context_lost().empty()) std::cerr << "sortbench: CUDA context lost at " << runner.context_lost() << "\n";
  return failed ? 1 : 0;
}

void usage(std::ostream& os) {
  os << "usage: sortbench <command> [options]\n"
        "  list   every registered variant (--json)\n"
        "  info   the GPU, its measured copy bandwidth and the build (--json)\n"
        "  run    a validated, timed sweep -> JSON report (default: configs/quick.json)\n"
        "sortbench <command> --help for its options\n";
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  std::string command_line;
  for (int i = 0; i < argc; ++i) command_line += (i ? " " : "") + std::string(argv[i]);
  try {
    if (args.empty()) {
      usage(std::cerr);
      return 2;
    }
    const std::string cmd = args.front();
    args.erase(args.begin());
    if (cmd == "list") return cmd_list(args);
    if (cmd == "info") return cmd_info(args);
    if (cmd == "run") return cmd_run(args, command_line);
    if (cmd == "help" || cmd == "--help" || cmd == "-h") {
      usage(std::cout);
      return 0;
    }
    std::cerr << "sortbench: unknown command '" << cmd << "'; expected list, info or run\n";
    return 2;
  } catch (const ConfigError& e) {
    std::cerr << "sortbench: " << e.what() << "\n";
    return 2;
  } catch (const UsageError& e) {
    std::cerr << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "sortbench: " << e.what() << "\n";
    return 1;
  }
}
