#include <unistd.h>

#include <cmath>
#include <ctime>
#include <iomanip>
#include <sstream>

#include "cli.hpp"
#include "sortbench/build_info.hpp"

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

po::variables_map parse(const std::string& cmd, const po::options_description& desc,
                         const std::vector<std::string>& args) {
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(args).options(desc).run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    throw UsageError("sortbench " + cmd + ": " + e.what() + " (see sortbench " + cmd + " --help)");
  }
  return vm;
}

void require_gpu() {
  std::string why;
  if (!gpu_available(&why)) throw std::runtime_error("no usable CUDA GPU on this machine (" + why + ")");
}

}  // namespace sortbench::cli
