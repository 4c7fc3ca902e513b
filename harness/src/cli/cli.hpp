// Shared pieces of the sortbench command line. Each subcommand lives in its
// own cmd_*.cpp and registers itself with SORTBENCH_REGISTER_COMMAND, so adding
// one touches one file.
#pragma once

#include <boost/program_options.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sortbench/config.hpp"
#include "sortbench/device.hpp"
#include "sortbench/gpu_status.hpp"
#include "sortbench/on_demand.hpp"
#include "sortbench/stats.hpp"
#include "sortbench/variant.hpp"

namespace sortbench::cli {

// Bad flags or arguments: one line, exit code 2.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

using CommandFn = int (*)(const std::vector<std::string>& args, const std::string& command_line);
struct Command {
  const char* name;
  const char* summary;
  CommandFn run;
};
std::vector<Command>& commands();
struct CommandRegistrar {
  explicit CommandRegistrar(Command c) { commands().push_back(c); }
};

// Parses a subcommand's flags; errors become UsageError naming the flag. An
// argument that is not an option (a stray word) is an error naming it.
// The hidden flags a run or tune passes to the processes it starts (--worker
// with --measure; --fake-crash, --fake-delay, --fake-model with
// --fake-evaluator): each given without its companion is a usage error
// naming both. Returns --measure's JSON where --worker is given (null where not).
nlohmann::json hidden_worker_flags(const std::string& cmd, const boost::program_options::variables_map& vm);

boost::program_options::variables_map parse(const std::string& cmd,
                                            const boost::program_options::options_description& desc,
                                            const std::vector<std::string>& args);
// The same for a command with positional arguments (at most max_positional
// of them, stored under `positional_name`, which `desc` does not declare).
boost::program_options::variables_map parse(const std::string& cmd,
                                            const boost::program_options::options_description& desc,
                                            const std::vector<std::string>& args, const char* positional_name,
                                            std::size_t max_positional);

// Numeric flags are taken as text and read strictly: the whole argument must
// be the number, in [lo, hi]; "-1" is not a count and "nan" or "inf" not a
// number. Errors are ConfigErrors naming the flag and the range.
std::uint64_t count_flag(const boost::program_options::variables_map& vm, const char* flag, std::uint64_t lo,
                         std::uint64_t hi);
double number_flag(const boost::program_options::variables_map& vm, const char* flag, double lo, double hi,
                   bool lo_open = false);

nlohmann::json params_json(const Params& ps);
nlohmann::json variant_json(const VariantInfo& v);
nlohmann::json device_json(const DeviceInfo& d);
nlohmann::json link_json(const LinkMeasurement& l);
nlohmann::json build_json();
// Every plugin loaded (sortbench/plugin.hpp), for a report's context.
nlohmann::json plugins_json();
// Loads the plugins of --plugin (repeatable) and SORTBENCH_PLUGIN_PATH before
// the registry is read (list, run, tune and their workers).
void load_plugins_of(const boost::program_options::variables_map& vm);
// The --plugin option, for a command's options.
void add_plugin_option(boost::program_options::options_description& desc);
// --jit-cache and --jobs of on-demand points (sortbench/on_demand.hpp), and
// their checked values; arch is left to the caller (the GPU's).
void add_on_demand_options(boost::program_options::options_description& desc);
on_demand::Settings on_demand_settings(const boost::program_options::variables_map& vm);
// The architecture this binary targets first ("90"): on-demand points built without a GPU.
std::string binary_arch();
std::string utc_now();
std::string hostname();
std::string size_text(std::size_t n);     // 2^k for powers of two
// --shard I/N: {I, N} with 0 <= I < N; anything else is bad input naming the flag.
std::pair<std::size_t, std::size_t> parse_shard(const std::string& s);
std::string join(const std::vector<std::string>& items, const std::string& sep);
// This binary started once per child (argv[0] included, the environment
// variables of `env` set in that child alone), all at once; waits for every
// one and returns their wait statuses in order (worker::exit_text words one).
struct SelfChild {
  std::vector<std::string> argv;
  std::vector<std::pair<std::string, std::string>> env;
};
std::vector<int> run_self_children(std::vector<SelfChild> children);
// Throws std::runtime_error (exit 1) when no CUDA GPU is usable, naming what
// is missing (no_gpu_line).
void require_gpu();
// "no usable CUDA GPU on this machine: no NVIDIA driver (...)": the one line of
// every command that needs a GPU and finds none.
std::string no_gpu_line(const GpuStatus& s);
// The build, for sortbench --version and info: version, commit and dirty flag,
// build type, lean or full grid, CUDA architectures and runtime, CCCL, compilers.
std::string build_facts_text();
// build_json() with the CCCL and CUDA runtime versions this binary was compiled against.
nlohmann::json version_json();
std::string cccl_version();
// sortbench --version [--json]; anything else after it is bad input.
int print_version(const std::vector<std::string>& args);
// The worker process of tune and run --isolate (sortbench/worker.hpp) on the
// GPU: measures each requested point with a Runner; exits after a point that
// lost the CUDA context. Returns the exit code.
int serve_device_worker(const nlohmann::json& measure);
// The same with the fake evaluator (tests, no GPU): reports `device`, and
// aborts (a stand-in for a kernel fault) on labels matching crash_glob.
int serve_fake_worker(const nlohmann::json& device, double delay_s, const std::string& crash_glob);
// The device description the fake evaluator reports (tests without a GPU).
nlohmann::json fake_device_json(const std::string& model = "fake-gpu");
// Applies the sweep-axis flags of run and tune (--variants, --n, --key,
// --values, --order, --dist, --seed, --hot, --budget) on top of every sweep.
void apply_sweep_axes(SweepConfig& c, const boost::program_options::variables_map& vm);

}  // namespace sortbench::cli

#define SORTBENCH_REGISTER_COMMAND(name, summary, fn) \
  static const ::sortbench::cli::CommandRegistrar SORTBENCH_CONCAT(sortbench_command_, __COUNTER__)({name, summary, fn})
