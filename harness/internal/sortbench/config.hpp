// Sweep configuration: JSON files (configs/*.json), command-line axes and the
// embedded default. Host code. Every error is a ConfigError whose message
// names the file and JSON path (or the flag) and what was expected.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "sortbench/device.hpp"
#include "sortbench/result.hpp"
#include "sortbench/types.hpp"

namespace sortbench {

class ConfigError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// One block of axes; the sweep runs their cross product.
struct SweepAxes {
  std::vector<KeyType> keys{KeyType::u32};
  std::vector<ValueType> values{ValueType::none};
  std::vector<Order> orders{Order::ascending};
  std::vector<std::size_t> sizes;
  std::vector<Distribution> distributions;
  // CUDA ordinals of the GPUs each point spans ("gpus": [0, 1], --gpus 0,1):
  // distributed variants sort across them, single-GPU variants run on the
  // first with all n keys. Empty: the current GPU alone.
  std::vector<int> gpus;
};

// "0,1" -> {0, 1}: distinct CUDA ordinals, each 0..1023; `where` prefixes errors.
std::vector<int> parse_gpu_list(const std::string& spec, const std::string& where);
// A number in a JSON file from lo to hi, else a ConfigError naming `path`.
double number_in(const nlohmann::json& v, const std::string& path, double lo, double hi);
// A count in a JSON file (10.7 samples would silently become 10): a whole
// number from lo to hi, else a ConfigError naming `path`.
double whole_number_in(const nlohmann::json& v, const std::string& path, double lo, double hi);
// {0, 1} -> "0,1": the inverse, for messages and plans.
std::string gpu_list_text(const std::vector<int>& gpus);

struct SweepConfig {
  std::string name = "sweep";
  std::string source;  // where it came from: a path, "command line" or "embedded configs/quick.json"
  // Label globs, and "best:FAMILY" (FAMILY a glob over family names): per
  // workload, that family's tuned pick for this GPU (best.json) or its
  // default point (README "Config files").
  std::vector<std::string> variants{"*"};
  // Globs of the labels that are library calls: speedups are taken against
  // them, per library against its fastest call on each workload.
  std::vector<std::string> baselines{"cub.*", "thrust.*"};
  std::uint64_t seed = 1;
  MeasureSettings measure;
  std::vector<SweepAxes> sweeps;
};

// Sizes: "65536", "2^16", "5e6", "1Ki"/"1Mi"/"1Gi" (powers of 1024), and
// ranges "A:B:xF" (geometric, factor F) or "A:B:+D" (arithmetic), inclusive of
// B when it is reached; each at most 2^63-1, at most kMaxSizesPerList sizes
// in one list (counted before a range is built). `where` prefixes error messages.
inline constexpr std::size_t kMaxSizesPerList = 10000;
// The most points (variants x workloads) one run or tune plans.
inline constexpr std::size_t kMaxPoints = 1000000;
std::size_t parse_size(const std::string& token, const std::string& where);
std::vector<std::size_t> parse_sizes(const std::string& spec, const std::string& where);

// Parses JSON text; malformed input is a ConfigError naming `where` with the
// line and column.
nlohmann::json parse_json_text(const std::string& text, const std::string& where);
// The whole file; a ConfigError naming the file and `what` if it cannot be read.
std::string read_text_file(const std::string& path, const std::string& what);

// Parses a config document. `where` is the file name for messages.
SweepConfig parse_config(const std::string& text, const std::string& where);
SweepConfig parse_config_json(const nlohmann::json& doc, const std::string& where);
SweepConfig load_config_file(const std::string& path);

// The resolved config, as written into reports (parse_config reads it back).
nlohmann::json config_to_json(const SweepConfig& c);

// configs/quick.json, embedded in the binary at build time.
const std::string& embedded_quick_config();

// "best:FAMILY" entries of a variants list select per workload.
inline constexpr const char* kBestPrefix = "best:";
bool is_best_selector(const std::string& variant_entry);
std::string best_selector_family(const std::string& variant_entry);  // "best:radix" -> "radix"

// The key files of a config's file:PATH distributions, checked before any
// work: each exists, is a regular file, readable, a whole number of keys of
// every key type it is swept with, and holds enough keys for the sweep's
// largest size. `where` names the config or flag in errors. Returns the paths.
std::vector<std::string> check_key_files(const SweepConfig& c, const std::string& where);

// The workloads of a config: each sweep's cross product (keys x values x
// orders x distributions x sizes), in order, each workload once. Sweeps that
// overlap (or axis flags that make two sweeps alike) would measure a workload
// twice; *repeats (when given) counts the workloads dropped for that.
std::vector<Workload> expand_workloads(const SweepConfig& c, std::size_t* repeats = nullptr);

// Splits "a,b,c" (empty items are errors reported against `where`).
std::vector<std::string> split_list(const std::string& s, const std::string& where);

}  // namespace sortbench
