// Fault isolation: the worker process protocol shared by sortbench tune and
// sortbench run --isolate (sortbench/worker.hpp).
#include "sortbench/worker.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <iostream>
#include <sstream>
#include <stdexcept>

#include "sortbench/config.hpp"
#include "sortbench/report.hpp"
#include "sortbench/tune.hpp"

namespace sortbench::worker {

using nlohmann::json;

json workload_json(const Workload& w) {
  json j = {{"key", to_string(w.key)}, {"value", to_string(w.value)}, {"order", to_string(w.order)},
            {"n", w.n},                {"distribution", w.dist.name()}, {"seed", w.seed}};
  if (!w.devices.empty()) j["gpus"] = w.devices;
  return j;
}

Workload workload_from_json(const json& j) {
  Workload w;
  const auto key = parse_key_type(j.at("key").get<std::string>());
  const auto value = parse_value_type(j.at("value").get<std::string>());
  const auto order = parse_order(j.at("order").get<std::string>());
  if (!key || !value || !order) throw std::runtime_error("worker: bad workload " + j.dump());
  w.key = *key;
  w.value = *value;
  w.order = *order;
  w.n = j.at("n").get<std::size_t>();
  std::string why;
  auto d = parse_distribution(j.at("distribution").get<std::string>(), &why);
  if (!d) throw std::runtime_error("worker: bad distribution: " + why);
  w.dist = *d;
  w.seed = j.at("seed").get<std::uint64_t>();
  if (j.contains("gpus")) w.devices = j.at("gpus").get<std::vector<int>>();
  return w;
}

json measure_json(const MeasureSettings& m) {
  return {{"warmup_runs", m.warmup_runs}, {"min_samples", m.min_samples}, {"max_samples", m.max_samples},
          {"max_rel_stderr", m.max_rel_stderr}, {"budget_s", m.budget_s}, {"cold_l2", m.cold_l2},
          {"throttle_ratio", m.throttle_ratio}, {"energy_window_s", m.energy_window_s}};
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
  m.energy_window_s = j.value("energy_window_s", m.energy_window_s);
  return m;
}

std::string command_output(const std::string& command, int* status) {
  std::string out;
  FILE* f = ::popen(command.c_str(), "r");
  if (!f) {
    if (status) *status = -1;
    return out;
  }
  char buf[4096];
  std::size_t got;
  while ((got = std::fread(buf, 1, sizeof buf, f)) > 0) out.append(buf, got);
  const int st = ::pclose(f);
  if (status) *status = st;
  return out;
}

std::string exit_text(int status) {
  std::ostringstream os;
  if (WIFSIGNALED(status)) os << "killed by signal " << WTERMSIG(status) << " (" << strsignal(WTERMSIG(status)) << ")";
  else if (WIFEXITED(status)) os << "exited with status " << WEXITSTATUS(status);
  else os << "stopped";
  return os.str();
}

// ---- worker side -------------------------------------------------------------

std::FILE* take_stdout_for_protocol() {
  std::fflush(stdout);
  const int proto = ::dup(STDOUT_FILENO);
  if (proto < 0) throw std::runtime_error(std::string("worker: cannot duplicate stdout: ") + std::strerror(errno));
  ::dup2(STDERR_FILENO, STDOUT_FILENO);
  std::FILE* out = ::fdopen(proto, "w");
  if (!out) throw std::runtime_error(std::string("worker: cannot open the protocol stream: ") + std::strerror(errno));
  return out;
}

int serve(std::istream& in, std::FILE* out, const json& device, const MeasureFn& measure) {
  auto send = [&](const json& j) {
    const std::string line = j.dump() + "\n";
    std::fwrite(line.data(), 1, line.size(), out);
    std::fflush(out);
  };
  send({{"device", device}});
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    const json req = json::parse(line);
    const Reply r = measure(req.at("variant").get<std::string>(), workload_from_json(req.at("workload")));
    send({{"result", result_to_json(r.result)}, {"context_lost", r.context_lost}});
    if (r.context_lost) return 3;  // the CUDA context is unusable: the parent starts a fresh worker
  }
  return 0;
}

// ---- parent side -------------------------------------------------------------

Process::Process(std::vector<std::string> argv, double point_timeout_s, std::string exe)
    : argv_(std::move(argv)), timeout_s_(point_timeout_s), exe_(std::move(exe)) {}

Process::~Process() {
  if (pid_ > 0) reap("stopped");
}

const json& Process::device() {
  if (pid_ < 0) start();
  return device_;
}

PointResult Process::evaluate(const std::string& label, const Workload& w) {
  if (pid_ < 0) start();
  const std::string req = json{{"variant", label}, {"workload", workload_json(w)}}.dump() + "\n";
  std::string why;
  if (!write_line(req)) why = "could not send the request";
  std::string line;
  if (why.empty()) why = read_line(line, timeout_s_);
  if (why.empty()) {
    try {
      const json j = json::parse(line);
      PointResult r = result_from_json(j.at("result"), "worker reply");
      if (j.value("context_lost", false)) {
        reap("after a lost CUDA context");
        ++contexts_lost_;
      }
      return r;
    } catch (const std::exception& e) {
      why = std::string("sent a malformed reply (") + e.what() + ")";
    }
  }
  // The worker died, hung or babbled on this point: record it, start afresh next time.
  const std::string how = reap(why);
  PointResult r = tune::blank_result(label, {}, "", w);
  if (const VariantInfo* v = Registry::instance().find(label)) {
    r.params = v->params;
    r.family = v->family;
  }
  r.status = Status::failed;
  r.reason = "worker process " + how + " while measuring this point";
  ++restarts_;
  return r;
}

void Process::start() {
  int to_child[2], from_child[2];
  if (::pipe2(to_child, O_CLOEXEC)) throw std::runtime_error(std::string("cannot create worker pipes: ") + std::strerror(errno));
  if (::pipe2(from_child, O_CLOEXEC)) {
    ::close(to_child[0]);
    ::close(to_child[1]);
    throw std::runtime_error(std::string("cannot create worker pipes: ") + std::strerror(errno));
  }
  const pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error(std::string("cannot start a worker: ") + std::strerror(errno));
  if (pid == 0) {
    ::dup2(to_child[0], STDIN_FILENO);
    ::dup2(from_child[1], STDOUT_FILENO);
    std::vector<char*> argv;
    for (auto& a : argv_) argv.push_back(a.data());
    argv.push_back(nullptr);
    ::execv(exe_.c_str(), argv.data());
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
  std::string why = read_line(line, 300);
  if (why.empty()) {
    try {
      device_ = json::parse(line).at("device");
      return;
    } catch (const std::exception& e) {
      why = std::string("sent a malformed greeting (") + e.what() + ")";
    }
  }
  throw std::runtime_error("the worker process did not start: " + reap(why));
}

bool Process::write_line(const std::string& s) {
  // A worker that died leaves a pipe without a reader: EPIPE, not SIGPIPE.
  struct sigaction ignore {}, old {};
  ignore.sa_handler = SIG_IGN;
  ::sigaction(SIGPIPE, &ignore, &old);
  std::size_t off = 0;
  bool ok = true;
  while (off < s.size()) {
    const ssize_t k = ::write(in_, s.data() + off, s.size() - off);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) {
      ok = false;
      break;
    }
    off += std::size_t(k);
  }
  ::sigaction(SIGPIPE, &old, nullptr);
  return ok;
}

// Empty on success; otherwise what went wrong.
std::string Process::read_line(std::string& line, double timeout_s) {
  const auto t0 = std::chrono::steady_clock::now();
  for (;;) {
    if (auto nl = buf_.find('\n'); nl != std::string::npos) {
      line = buf_.substr(0, nl);
      buf_.erase(0, nl + 1);
      return {};
    }
    const double left = timeout_s - std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (left <= 0) {
      std::ostringstream os;
      os << "timed out after " << timeout_s << " s";
      return os.str();
    }
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
std::string Process::reap(const std::string& why) {
  if (pid_ < 0) return why;
  ::close(in_);
  ::close(out_);
  in_ = out_ = -1;
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
  return why == "died" ? exit_text(status) : why + ", " + exit_text(status);
}

}  // namespace sortbench::worker
