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

}  // namespace sortbench::files
