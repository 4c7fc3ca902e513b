// The worker process of sortbench tune and sortbench run --isolate
// (sortbench/worker.hpp) on the CPU: the protocol round trip, the worker's
// serve loop with a fake measuring function, and the parent's recording of a
// worker that crashes, hangs, babbles or loses its CUDA context, against a
// shell-script worker.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "sortbench/report.hpp"
#include "sortbench/tune.hpp"
#include "sortbench/worker.hpp"

using namespace sortbench;
using nlohmann::json;

namespace {

Workload test_workload(std::size_t n = 1 << 20) {
  Workload w;
  w.key = KeyType::u64;
  w.value = ValueType::u32;
  w.order = Order::descending;
  w.n = n;
  w.dist = *parse_distribution("entropy:0.544", nullptr);
  w.seed = 7;
  return w;
}

PointResult ok_result(const std::string& label, const Workload& w, double ms) {
  PointResult r = tune::blank_result(label, {}, "fake", w);
  r.status = Status::ok;
  r.time_ms.median = ms;
  r.time_ms.samples = 10;
  return r;
}

// A worker written in sh that speaks the protocol: it answers every request
// with `reply`, except that it dies by SIGSEGV on a label holding "crash",
// hangs on "hang", writes garbage on "babble" and reports a lost context on
// "lost" (then exits 3). Each start is counted in the file `starts`.
std::vector<std::string> script_worker(const std::string& reply_ok, const std::string& reply_lost,
                                       const std::string& starts) {
  const std::string script =
      "echo x >> '" + starts + "'\n"
      "echo '{\"device\": {\"name\": \"Script GPU\", \"model\": \"script-gpu\"}}'\n"
      "while IFS= read -r line; do\n"
      "  case \"$line\" in\n"
      "    *crash*) kill -SEGV $$ ;;\n"
      "    *hang*) exec sleep 30 ;;\n"
      "    *babble*) echo 'not json' ;;\n"
      "    *lost*) echo '" + reply_lost + "'; exit 3 ;;\n"
      "    *) echo '" + reply_ok + "' ;;\n"
      "  esac\n"
      "done\n";
  return {"sh", "-c", script};
}

int count_lines(const std::string& path) {
  std::ifstream f(path);
  int n = 0;
  for (std::string l; std::getline(f, l);) ++n;
  return n;
}

}  // namespace

TEST(Worker, WorkloadAndMeasureRoundTrip) {
  const Workload w = test_workload(12345);
  const Workload back = worker::workload_from_json(json::parse(worker::workload_json(w).dump()));
  EXPECT_EQ(back.key, w.key);
  EXPECT_EQ(back.value, w.value);
  EXPECT_EQ(back.order, w.order);
  EXPECT_EQ(back.n, w.n);
  EXPECT_EQ(back.dist.name(), w.dist.name());
  EXPECT_EQ(back.seed, w.seed);
  EXPECT_THROW(worker::workload_from_json(json{{"key", "u24"}, {"value", "none"}, {"order", "ascending"},
                                               {"n", 1}, {"distribution", "uniform"}, {"seed", 1}}),
               std::exception);

  MeasureSettings m;
  m.budget_s = 0.25;
  m.min_samples = 3;
  m.cold_l2 = false;
  const MeasureSettings mb = worker::measure_from_json(json::parse(worker::measure_json(m).dump()));
  EXPECT_EQ(mb.budget_s, 0.25);
  EXPECT_EQ(mb.min_samples, 3u);
  EXPECT_FALSE(mb.cold_l2);
  EXPECT_EQ(mb.max_samples, m.max_samples);
}

TEST(Worker, ServeAnswersEveryRequestAndStopsAtALostContext) {
  const Workload w = test_workload();
  std::string requests;
  for (const char* label : {"a", "b", "lost", "never"})
    requests += json{{"variant", label}, {"workload", worker::workload_json(w)}}.dump() + "\n";
  std::istringstream in(requests);
  std::FILE* out = std::tmpfile();
  ASSERT_NE(out, nullptr);
  std::vector<std::string> seen;
  const int rc = worker::serve(in, out, json{{"name", "Fake"}}, [&](const std::string& label, const Workload& got) {
    seen.push_back(label);
    EXPECT_EQ(got.n, w.n);
    EXPECT_EQ(got.dist.name(), w.dist.name());
    worker::Reply r{ok_result(label, got, 1.5), label == "lost"};
    if (r.context_lost) {
      r.result.status = Status::failed;
      r.result.reason = "cudaErrorIllegalAddress (an illegal memory access was encountered)";
    }
    return r;
  });
  EXPECT_EQ(rc, 3);
  EXPECT_EQ(seen, (std::vector<std::string>{"a", "b", "lost"}));
  std::rewind(out);
  std::string text;
  for (int c; (c = std::fgetc(out)) != EOF;) text += char(c);
  std::fclose(out);
  std::istringstream lines(text);
  std::string line;
  ASSERT_TRUE(std::getline(lines, line));
  EXPECT_EQ(json::parse(line).at("device").at("name"), "Fake");
  for (const char* label : {"a", "b", "lost"}) {
    ASSERT_TRUE(std::getline(lines, line));
    const json j = json::parse(line);
    const PointResult r = result_from_json(j.at("result"), "reply");
    EXPECT_EQ(r.variant, label);
    EXPECT_EQ(j.at("context_lost").get<bool>(), std::string(label) == "lost");
  }
  EXPECT_FALSE(std::getline(lines, line));
}

TEST(Worker, ProcessRecordsCrashesHangsAndLostContextsAndGoesOn) {
  const Workload w = test_workload();
  const std::string starts = ::testing::TempDir() + "worker_starts_" + std::to_string(::getpid());
  std::remove(starts.c_str());
  // The script answers every request with the same result (label "ok.point").
  const std::string ok = json{{"result", result_to_json(ok_result("ok.point", w, 2.0))}, {"context_lost", false}}.dump();
  PointResult lost_r = ok_result("lost.point", w, 0);
  lost_r.status = Status::failed;
  lost_r.reason = "cudaErrorLaunchFailure (unspecified launch failure)";
  const std::string lost = json{{"result", result_to_json(lost_r)}, {"context_lost", true}}.dump();
  worker::Process proc(script_worker(ok, lost, starts), 1.0, "/bin/sh");

  EXPECT_EQ(proc.device().at("model"), "script-gpu");
  PointResult r = proc.evaluate("ok.point", w);
  EXPECT_EQ(r.status, Status::ok);
  EXPECT_EQ(r.time_ms.median, 2.0);

  // A worker killed by a signal: that point fails with how it ended, the next runs in a fresh worker.
  r = proc.evaluate("crash.point", w);
  EXPECT_EQ(r.status, Status::failed);
  EXPECT_EQ(r.variant, "crash.point");
  EXPECT_EQ(r.n, w.n);
  EXPECT_EQ(r.key, w.key);
  EXPECT_NE(r.reason.find("worker process killed by signal 11"), std::string::npos) << r.reason;
  EXPECT_NE(r.reason.find("while measuring this point"), std::string::npos) << r.reason;
  EXPECT_EQ(proc.restarts(), 1u);
  EXPECT_EQ(proc.evaluate("ok.point", w).status, Status::ok);
  EXPECT_EQ(count_lines(starts), 2);

  // A worker that reports a lost CUDA context: its result (with the CUDA error) is kept,
  // and the next point starts a fresh worker; not counted as a restart.
  r = proc.evaluate("lost.point", w);
  EXPECT_EQ(r.status, Status::failed);
  EXPECT_EQ(r.reason, lost_r.reason);
  EXPECT_EQ(proc.restarts(), 1u);
  EXPECT_EQ(proc.evaluate("ok.point", w).status, Status::ok);
  EXPECT_EQ(count_lines(starts), 3);

  // A worker that hangs past the point timeout is killed.
  r = proc.evaluate("hang.point", w);
  EXPECT_EQ(r.status, Status::failed);
  EXPECT_NE(r.reason.find("timed out after 1 s"), std::string::npos) << r.reason;
  EXPECT_NE(r.reason.find("killed by signal 9"), std::string::npos) << r.reason;
  EXPECT_EQ(proc.restarts(), 2u);

  // A malformed reply.
  r = proc.evaluate("babble.point", w);
  EXPECT_EQ(r.status, Status::failed);
  EXPECT_NE(r.reason.find("malformed reply"), std::string::npos) << r.reason;
  EXPECT_EQ(proc.restarts(), 3u);
  EXPECT_EQ(proc.evaluate("ok.point", w).status, Status::ok);
  EXPECT_EQ(count_lines(starts), 5);  // fresh workers after the crash, the lost context, the hang and the babble
  std::remove(starts.c_str());
}

TEST(Worker, AWorkerThatDoesNotStartThrows) {
  worker::Process proc({"sh", "-c", "echo 'no GPU here' >&2; exit 1"}, 1.0, "/bin/sh");
  try {
    proc.device();
    FAIL() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("the worker process did not start: exited with status 1"), std::string::npos)
        << e.what();
  }
}

TEST(Worker, ExitText) {
  EXPECT_EQ(worker::exit_text(3 << 8), "exited with status 3");
  EXPECT_EQ(worker::exit_text(9).rfind("killed by signal 9 (", 0), 0u);
}
