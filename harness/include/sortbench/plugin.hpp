// Plugins: shared libraries whose variants register themselves with the same
// SORTBENCH_REGISTER_VARIANT as the binary's own (README "Benchmark your own
// kernel"). `--plugin PATH` (list, run, tune) and SORTBENCH_PLUGIN_PATH load
// them before the registry is read; on-demand points (sortbench/on_demand.hpp)
// are plugins too.
//
// A plugin resolves the registry and the harness's helpers from the sortbench
// binary that loads it (the binary exports them), and defines one identity
// (SORTBENCH_PLUGIN_IDENTITY, written for it by CMake's sortbench_add_plugin).
// Host code.
#pragma once

#include <string>
#include <vector>

#include "sortbench/variant.hpp"

extern "C" {
// What a plugin says about itself. The first member stays first in every
// interface version, so any loader can read it.
struct sortbench_plugin_identity_t {
  int interface_version;           // SORTBENCH_PLUGIN_INTERFACE of the headers it was built with
  const char* name;                // its CMake target, or "on-demand" for generated points
  const char* cuda_architectures;  // as CMake's CUDA_ARCHITECTURES: "90", "80;90-real"
  const char* build;               // free text: project, version, compiler, flags
};
}

#define SORTBENCH_PLUGIN_IDENTITY(name, cuda_architectures, build)                                     \
  extern "C" __attribute__((visibility("default"))) const sortbench_plugin_identity_t sortbench_plugin_identity = { \
      SORTBENCH_PLUGIN_INTERFACE, name, cuda_architectures, build}

namespace sortbench {

struct LoadedPlugin {
  std::string path;    // absolute, links resolved
  std::string sha256;  // of the file
  std::string name, cuda_architectures, build;
  std::vector<std::string> labels;  // the variants it registered
  std::vector<std::string> spaces;  // the family spaces it declared (their methods)
};

// A plugin path and the flag or variable that named it, for messages.
struct PluginPath {
  std::string path, where;
};

// SORTBENCH_PLUGIN_PATH (':'-separated) first, then the --plugin flags.
std::vector<PluginPath> plugin_paths(const std::vector<std::string>& flags);

// Loads each plugin once (a file named twice, by any spelling, loads once) and
// registers its variants. A file that is not a shared library or not a
// plugin, one built against another plugin interface or for GPU architectures
// this binary does not target, one that registers nothing, or a label that is
// already registered: a ConfigError (exit 2) naming the file and the problem.
// Afterwards SORTBENCH_PLUGIN_PATH holds every loaded plugin, so the worker and
// shard processes a command starts load the same ones.
void load_plugins(const std::vector<PluginPath>& paths);

const std::vector<LoadedPlugin>& loaded_plugins();
// The loaded plugin that registered `label`, or null for the binary's own.
const LoadedPlugin* plugin_of(const std::string& label);
// Lower-case hex SHA-256 of a file's bytes (OpenSSL). Throws std::runtime_error.
std::string sha256_file(const std::string& path);
std::string sha256_text(const std::string& bytes);

// The architecture numbers of a CMake CUDA_ARCHITECTURES list ("80;90-real" -> 80, 90).
std::vector<int> cuda_architecture_numbers(const std::string& list);

}  // namespace sortbench
