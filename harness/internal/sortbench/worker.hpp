// Fault isolation: points measured in a worker process, so a kernel that
// faults (illegal address, trap, launch failure) or kills its process costs
// that point only. Used by `sortbench tune` (always, unless --in-process) and
// `sortbench run --isolate`.
//
// Protocol, one JSON object per line: the worker's first line is
// {"device": {...}}; then for each request {"variant": label, "workload": {...}}
// on its stdin it answers {"result": {...}, "context_lost": bool} on its
// stdout, and exits after a reply with context_lost true (the CUDA context is
// unusable). The parent records a point whose worker died or timed out as
// failed, with how the worker ended, and starts a fresh worker for the next.
//
// Pure host code (no CUDA): the worker's measuring is a callback.
#pragma once

#include <cstdio>
#include <functional>
#include <iosfwd>
#include <string>
#include <sys/types.h>
#include <vector>

#include <nlohmann/json.hpp>

#include "sortbench/device.hpp"
#include "sortbench/result.hpp"

namespace sortbench::worker {

nlohmann::json workload_json(const Workload& w);
Workload workload_from_json(const nlohmann::json& j);  // throws on a malformed workload
nlohmann::json measure_json(const MeasureSettings& m);
MeasureSettings measure_from_json(const nlohmann::json& j);

// How a child process ended, from a waitpid() status:
// "killed by signal 6 (Aborted)", "exited with status 3".
std::string exit_text(int status);

// The standard output of `command` run by /bin/sh (empty when it cannot
// start); `status`, when given, gets pclose()'s wait status (-1: no shell).
std::string command_output(const std::string& command, int* status = nullptr);

// ---- worker side -----------------------------------------------------------

struct Reply {
  PointResult result;
  bool context_lost = false;  // the worker exits after sending it
};
using MeasureFn = std::function<Reply(const std::string& label, const Workload& w)>;

// Takes this process's stdout for the protocol: returns a stream on the
// original stdout and points STDOUT_FILENO at stderr, so that anything else
// printed (by a variant, a library) cannot corrupt the replies.
std::FILE* take_stdout_for_protocol();

// Sends {"device": device}, then answers every request line of `in` on `out`.
// Returns 0 at the end of `in`, 3 after a reply with context_lost set.
int serve(std::istream& in, std::FILE* out, const nlohmann::json& device, const MeasureFn& measure);

// ---- parent side -----------------------------------------------------------

class Process {
 public:
  // argv: the worker's command line (argv[0] included); exe: the program to
  // execute (default: this program again).
  Process(std::vector<std::string> argv, double point_timeout_s, std::string exe = "/proc/self/exe");
  ~Process();
  Process(const Process&) = delete;
  Process& operator=(const Process&) = delete;

  // The worker's device object (starts a worker if none runs). Throws
  // std::runtime_error when the worker does not start.
  const nlohmann::json& device();
  // Measures one point in the worker. A worker that dies, hangs past the
  // point timeout or sends a malformed reply has the point recorded as failed
  // ("worker process killed by signal 11 (Segmentation fault) while measuring
  // this point"); the next call starts a fresh worker. Throws only when a
  // fresh worker does not start.
  PointResult evaluate(const std::string& label, const Workload& w);
  // Workers replaced after a death, hang or malformed reply (a lost CUDA
  // context the worker reported itself is not counted).
  std::size_t restarts() const { return restarts_; }
  // Workers that reported a lost CUDA context (a kernel fault) and exited;
  // the next point starts a fresh one.
  std::size_t contexts_lost() const { return contexts_lost_; }

 private:
  void start();
  bool write_line(const std::string& s);
  std::string read_line(std::string& line, double timeout_s);
  std::string reap(const std::string& why);

  std::vector<std::string> argv_;
  double timeout_s_;
  std::string exe_;
  pid_t pid_ = -1;
  int in_ = -1, out_ = -1;
  std::string buf_;
  nlohmann::json device_;
  std::size_t restarts_ = 0, contexts_lost_ = 0;
};

}  // namespace sortbench::worker
