// The files a command reads and writes, checked before any work, and written
// all or nothing (README "Exit codes and bad input"). Host code.
//
//   inputs   exist, are regular files and readable;
//   outputs  are not folders, sit in a folder that exists or can be made and
//            is writable, have names the file system takes, are not the same
//            file as any input or other output (device and inode, after
//            links, not the spelling), and
//   Outputs  writes every output of a command to a temporary file in its
//            target folder and renames them all only when every one is
//            complete; on a failure it removes its temporaries and leaves the
//            old files as they were.
//
// Every problem is a ConfigError (exit 2) naming `where` (the flag or file and
// JSON path that named the path) and what was expected.
#pragma once

#include <string>
#include <vector>

namespace sortbench::files {

// A path named by `where` that the command will read.
struct Input {
  std::string path, where;
};

// Checks an input: it exists, is a regular file (after links), is readable.
void check_input(const std::string& path, const std::string& where, const std::string& what = "file");

// Checks an output against the filesystem and the command's inputs and other
// outputs: see above. "-" is standard output where allow_stdout, else refused.
void check_output(const std::string& path, const std::string& where, const std::vector<Input>& inputs,
                  const std::vector<Input>& other_outputs = {}, bool allow_stdout = false);

// Same file: both exist and have the same device and inode after links.
bool same_file(const std::string& a, const std::string& b);

// All-or-nothing writes of a command's outputs.
class Outputs {
 public:
  ~Outputs();
  // Queues `text` for `path` (named by `where` in messages).
  void add(const std::string& path, const std::string& where, std::string text);
  // Writes every queued output to a temporary file in its folder (made where
  // missing), flushes them, then renames them over their targets. Throws
  // std::runtime_error naming the output that failed, after removing every
  // temporary; no target is touched unless all were written.
  void commit();

 private:
  struct Item {
    std::string path, where, text, tmp;
  };
  std::vector<Item> items_;
  void remove_temporaries();
};

// Writes one output all or nothing (Outputs with a single file).
void write_atomically(const std::string& path, const std::string& where, const std::string& text);

// Where run, tune and merge write when no path is given: below sortbench-out/
// in the current folder, one folder per GPU model. Never results/, whose
// reports and best.json are committed: a first run in a checkout on an H100
// would overwrite them. (best:FAMILY still reads results/<gpu-model>/best.json:
// sortbench/sort.hpp.)
inline constexpr const char* kDefaultOutDir = "sortbench-out";
std::string default_run_report(const std::string& gpu_model, const std::string& config_name);
std::string default_tune_report(const std::string& gpu_model, const std::string& space_name, const std::string& strategy);
std::string default_best(const std::string& gpu_model);

// The data an installed binary or library reads outside the checkout:
// <prefix>/share/sortbench beside <prefix>/bin/sortbench or
// <prefix>/lib[/<multiarch>]/libsortbench_sort.so, whichever holds this code;
// empty where there is none (a binary in its build folder).
std::string installed_data_dir();
// A config or tune space given by name (`--config quick`, `--space
// tune-radix`): configs/NAME.json under the working folder, else under the
// installed data. A path (a '/' or ".json" in it, or a file that exists) is
// returned as it is, as is a name found nowhere (its check then fails).
std::string config_path(const std::string& arg);
std::string default_cache(const std::string& gpu_model, const std::string& space_name);
// A --devices tune's merged report: named before any shard has seen the GPU model.
std::string default_devices_report(const std::string& space_name, const std::string& strategy);

}  // namespace sortbench::files
