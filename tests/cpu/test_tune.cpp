// sortbench tune on the CPU: spaces, pruning, scoring, strategies, cache keys,
// resume after SIGKILL, shard/merge equivalence and best.json selection, all
// against the fake evaluator (harness/src/tune/fake.cpp).
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>

#include "sortbench/best_json.hpp"
#include "sortbench/tune.hpp"

using namespace sortbench;
using namespace sortbench::tune;
using nlohmann::json;

namespace {

const char* kSpace = R"({
  "name": "t",
  "variants": ["fake.*"],
  "measure": {"budget_s": 1},
  "sweeps": [{"keys": ["u32"], "values": ["none", "u32"], "sizes": ["2^20:2^28:x4"], "distributions": ["uniform"]}]
})";

Space fake_space(StrategyKind k = StrategyKind::exhaustive) {
  register_fake_variants();
  Space s = parse_space(kSpace, "test.json");
  s.strategy.kind = k;
  return s;
}

CacheIdentity test_identity() {
  CacheIdentity id;
  id.gpu_model = "fake-gpu";
  id.gpu_uuid = "GPU-0";
  id.git_commit = "abc";
  id.kernel_hash = "k1";
  return id;
}

KernelResourceCheck& fake_check() {
  static KernelResourceCheck check(sm90_limits(), fake_kernel_resources);
  return check;
}

std::vector<Group> fake_groups(const Space& s, std::size_t shard = 0, std::size_t shards = 1) {
  return plan_groups(s, space_variants(s, Registry::instance()), std::ref(fake_check()), shard, shards);
}

std::string temp_path(const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() / ("sortbench_tune_test_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  return (dir / name).string();
}

PointResult timed(const std::string& label, std::size_t n, double ms, double rse = 0.001) {
  PointResult r;
  r.variant = label;
  r.n = n;
  r.distribution = "uniform";
  r.status = Status::ok;
  r.time_ms.median = ms;
  r.time_ms.rel_stderr = rse;
  return r;
}

}  // namespace

TEST(TuneSpace, ParsesFiltersAndRejectsBadInput) {
  register_fake_variants();
  Space s = parse_space(R"({"variants": ["fake.radix.*"], "sizes": ["2^20"], "distributions": ["uniform"],
                            "params": {"radix_bits": [6, 8], "block_threads": {"min": 200}},
                            "strategy": {"name": "descent", "restarts": 2}})",
                        "s.json");
  // The default baselines: both offset forms of CUB's radix sort.
  EXPECT_EQ(s.baseline_labels, (std::vector<std::string>{"cub.radix_sort.off32", "cub.radix_sort.off64"}));
  EXPECT_EQ(s.score_group(), "cub.radix_sort");
  EXPECT_EQ(s.strategy.kind, StrategyKind::descent);
  const auto vs = space_variants(s, Registry::instance());
  EXPECT_EQ(vs.size(), 2u * 4u * 2u);  // rb6/rb8 x ipt x tpb256/tpb512
  for (auto* v : vs) EXPECT_EQ(v->label.find(".tpb128"), std::string::npos) << v->label;
  // Round trip.
  const Space again = parse_space(space_to_json(s).dump(), "again");
  EXPECT_EQ(space_to_json(again), space_to_json(s));
  auto error = [](const std::string& text) {
    try {
      parse_space(text, "bad.json");
    } catch (const ConfigError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(error(R"({"sizes": ["2^20"], "distributions": ["uniform"], "strategy": {"name": "annealing"}})"),
            "bad.json: $.strategy.name: expected one of exhaustive, random, halving, descent");
  EXPECT_EQ(error(R"({"sizes": ["2^20"], "distributions": ["uniform"], "params": {"rb": {"least": 1}}})"),
            "bad.json: $.params.rb.least: unknown field; expected min or max");
  EXPECT_EQ(error(R"({"sizes": ["2^20"], "distributions": ["uniform"], "score": {"noise_z": -1}})"),
            "bad.json: $.score.noise_z: expected a number from 0 to 10, got -1");
  EXPECT_NE(error(R"({"sizes": ["2^20"], "distributions": ["uniform"], "sweeps": [{"keys": ["u24"]}]})").find("$.sweeps[0].keys[0]"),
            std::string::npos);
}

TEST(TuneSpace, GroupsPruneUnsupportedAndOverResourced) {
  const Space s = fake_space();
  const auto groups = fake_groups(s);
  ASSERT_EQ(groups.size(), 2u);
  EXPECT_EQ(groups[0].name(), "u32/none");
  EXPECT_EQ(groups[1].name(), "u32/u32");
  EXPECT_EQ(groups[0].workloads.size(), 5u);
  // 40 fake variants: 12 rb4 ones capped at 2^26, and two more (tpb512 x ipt16)
  // whose kernel, at 129 registers per thread, fits only 480 threads in a block.
  EXPECT_EQ(groups[0].candidates.size(), 26u);
  EXPECT_EQ(groups[0].pruned.size(), 14u);
  bool saw_resource = false, saw_cap = false;
  for (const auto& p : groups[0].pruned) {
    EXPECT_EQ(p.status, Status::skipped);
    saw_resource |= p.reason.find("kernel 'pass' (512 threads, 129 registers per thread") != std::string::npos &&
                    p.reason.find("allows 480 threads per block") != std::string::npos;
    saw_cap |= p.reason.find("capped at 2^26") != std::string::npos;
  }
  EXPECT_TRUE(saw_resource);
  EXPECT_TRUE(saw_cap);
  const Candidate c = make_candidate(*Registry::instance().find("fake.radix.rb8.ipt8.tpb256"));
  EXPECT_EQ(c.method, "fake.radix");
  EXPECT_EQ(c.resource_cost, 2048);
}

TEST(TuneScore, WeightedGeometricMeanAndNoise) {
  ScoreSettings ss;
  ss.size_weight_exponent = 0.5;
  // Speedup 2 at n=1 (weight 1), speedup 0.5 at n=4 (weight 2): exp((ln2 - 2 ln2)/3) = 2^(-1/3).
  PointResult a1 = timed("a", 1, 1.0), a4 = timed("a", 4, 4.0), b1 = timed("cub", 1, 2.0), b4 = timed("cub", 4, 2.0);
  const Score s = score_results({&a1, &a4}, {&b1, &b4}, 1, ss);
  ASSERT_TRUE(s.valid);
  EXPECT_NEAR(s.value, std::pow(2.0, -1.0 / 3.0), 1e-12);
  EXPECT_NEAR(s.rel_error, std::sqrt(1 * 2e-6 + 4 * 2e-6) / 3, 1e-12);
  // A failed workload invalidates the point.
  PointResult f = a4;
  f.status = Status::failed;
  f.reason = "cudaErrorIllegalAddress";
  EXPECT_FALSE(score_results({&a1, &f}, {&b1, &b4}, 1, ss).valid);
  // Ties within noise go to the smaller resource cost.
  Candidate big{"big", "f", "f", {}, 4096}, small{"small", "f", "f", {}, 1024}, far{"far", "f", "f", {}, 10};
  Score sb{true, 1.010, 0.004, 1, ""}, ssm{true, 1.000, 0.004, 1, ""}, sf{true, 0.8, 0.004, 1, ""};
  EXPECT_TRUE(ties(sb, ssm, ss));
  EXPECT_FALSE(ties(sb, sf, ss));
  auto rk = rank({{&big, sb}, {&far, sf}, {&small, ssm}}, ss);
  ASSERT_EQ(rk.size(), 3u);
  EXPECT_EQ(rk[0].candidate->label, "small");
  EXPECT_EQ(rk[1].candidate->label, "big");
  // Clearly better wins whatever it costs.
  Score clear{true, 1.2, 0.004, 1, ""};
  EXPECT_EQ(rank({{&big, clear}, {&small, ssm}}, ss)[0].candidate->label, "big");
}

namespace {
struct StrategyRun {
  std::vector<Group> groups;  // the rankings point into these
  std::vector<SearchOutcome> outcomes;
  std::size_t evaluations;
};
StrategyRun run_strategy(StrategyKind k, std::size_t budget = 0) {
  Space s = fake_space(k);
  s.strategy.budget = budget;
  StrategyRun r;
  r.groups = fake_groups(s);
  FakeEvaluator eval;
  Session session(s, eval, nullptr, test_identity());
  for (const auto& g : r.groups) {
    r.outcomes.push_back(search(s.strategy, g, session));
    EXPECT_LE(r.outcomes.back().evaluations, planned_evaluations(s.strategy, g, s.baseline_labels.size()));
  }
  r.evaluations = session.evaluations();
  EXPECT_EQ(eval.calls, r.evaluations);
  return r;
}
}  // namespace

TEST(TuneStrategy, ExhaustiveFindsTheModelOptimum) {
  const auto r = run_strategy(StrategyKind::exhaustive);
  ASSERT_EQ(r.outcomes.size(), 2u);
  EXPECT_EQ(r.outcomes[0].ranking[0].candidate->label, "fake.radix.rb6.ipt12.tpb256");
  EXPECT_EQ(r.outcomes[1].ranking[0].candidate->label, "fake.radix.rb8.ipt8.tpb256");
  EXPECT_EQ(r.evaluations, 2u * (2 * 5 + 26 * 5));  // two baselines and every point on 5 workloads
  EXPECT_EQ(r.outcomes[0].scored, 26u);
  EXPECT_GE(r.outcomes[0].wall_s, 0.0);
}

TEST(TuneStrategy, HalvingAndDescentMatchExhaustiveWithFewerEvaluations) {
  const auto ex = run_strategy(StrategyKind::exhaustive);
  for (auto k : {StrategyKind::halving, StrategyKind::descent}) {
    const auto r = run_strategy(k);
    EXPECT_LT(r.evaluations, ex.evaluations) << to_string(k);
    for (std::size_t g = 0; g < 2; ++g) {
      ASSERT_FALSE(r.outcomes[g].ranking.empty());
      const double best = ex.outcomes[g].ranking[0].score.value, got = r.outcomes[g].ranking[0].score.value;
      EXPECT_GE(got, best * 0.98) << to_string(k) << " " << r.outcomes[g].group;
    }
  }
}

TEST(TuneStrategy, RandomRespectsItsBudget) {
  const auto r = run_strategy(StrategyKind::random, 5);
  for (const auto& o : r.outcomes) EXPECT_EQ(o.scored, 5u);
  EXPECT_EQ(r.evaluations, 2u * (2 * 5 + 5 * 5));
  // Deterministic for a seed.
  const auto again = run_strategy(StrategyKind::random, 5);
  EXPECT_EQ(again.outcomes[0].ranking[0].candidate->label, r.outcomes[0].ranking[0].candidate->label);
}

TEST(TuneCache, KeysNameEverythingThatMatters) {
  const CacheIdentity id = test_identity();
  const Params p{{"radix_bits", "rb", "8"}};
  Workload w{KeyType::u32, ValueType::none, Order::ascending, 1 << 20, {}, 1};
  MeasureSettings m;
  const std::string k = cache_key(id, "fake.x", p, w, m);
  EXPECT_EQ(k, cache_key(id, "fake.x", p, w, m));
  auto differs = [&](auto mutate) {
    CacheIdentity id2 = id;
    Params p2 = p;
    Workload w2 = w;
    MeasureSettings m2 = m;
    std::string label = "fake.x";
    mutate(id2, p2, w2, m2, label);
    return cache_key(id2, label, p2, w2, m2) != k;
  };
  EXPECT_TRUE(differs([](auto& i, auto&, auto&, auto&, auto&) { i.gpu_uuid = "GPU-1"; }));
  EXPECT_TRUE(differs([](auto& i, auto&, auto&, auto&, auto&) { i.gpu_model = "h200"; }));
  EXPECT_TRUE(differs([](auto& i, auto&, auto&, auto&, auto&) { i.kernel_hash = "k2"; }));
  EXPECT_TRUE(differs([](auto& i, auto&, auto&, auto&, auto&) { i.git_commit = "def"; }));
  EXPECT_TRUE(differs([](auto& i, auto&, auto&, auto&, auto&) { i.cuda_flags = "-G"; }));
  EXPECT_TRUE(differs([](auto&, auto& pp, auto&, auto&, auto&) { pp[0].value = "6"; }));
  EXPECT_TRUE(differs([](auto&, auto&, auto& ww, auto&, auto&) { ww.n = 1 << 22; }));
  EXPECT_TRUE(differs([](auto&, auto&, auto& ww, auto&, auto&) { ww.value = ValueType::u32; }));
  EXPECT_TRUE(differs([](auto&, auto&, auto& ww, auto&, auto&) { ww.seed = 2; }));
  EXPECT_TRUE(differs([](auto&, auto&, auto&, auto& mm, auto&) { mm.cold_l2 = false; }));
  EXPECT_TRUE(differs([](auto&, auto&, auto&, auto&, auto& l) { l = "fake.y"; }));
}

TEST(TuneCache, RerunSkipsCachedPointsAndFreshIgnoresThem) {
  const std::string path = temp_path("rerun.jsonl");
  std::filesystem::remove(path);
  const Space s = fake_space(StrategyKind::halving);
  const auto groups = fake_groups(s);
  double first_score = 0;
  std::size_t first_evals = 0;
  {
    ResultCache cache(path, cache_header(test_identity(), s));
    FakeEvaluator eval;
    Session session(s, eval, &cache, test_identity());
    const TuneRun run = run_tune(s, groups, session);
    first_evals = run.evaluations;
    first_score = run.outcomes[0].ranking[0].score.value;
    EXPECT_EQ(run.cache_hits, 0u);
  }
  {
    ResultCache cache(path, cache_header(test_identity(), s));
    EXPECT_EQ(cache.loaded(), first_evals);
    FakeEvaluator eval;
    Session session(s, eval, &cache, test_identity());
    const TuneRun run = run_tune(s, groups, session);
    EXPECT_EQ(run.evaluations, 0u);
    EXPECT_EQ(eval.calls, 0u);
    EXPECT_EQ(run.cache_hits, first_evals);
    EXPECT_DOUBLE_EQ(run.outcomes[0].ranking[0].score.value, first_score);
  }
  {
    ResultCache cache(path, cache_header(test_identity(), s), /*load_existing=*/false);  // --fresh
    FakeEvaluator eval;
    Session session(s, eval, &cache, test_identity());
    EXPECT_EQ(run_tune(s, groups, session).evaluations, first_evals);
  }
  // A torn last line (a kill mid-write) is skipped, and the next append starts a fresh line.
  { std::ofstream(path, std::ios::app) << "{\"key\": {\"id\": "; }
  {
    ResultCache cache(path, cache_header(test_identity(), s));
    EXPECT_EQ(cache.torn_lines(), 1u);
    cache.append(R"({"x":1})", timed("fake.z", 1, 1.0));
  }
  ResultCache cache(path, cache_header(test_identity(), s));
  EXPECT_EQ(cache.torn_lines(), 1u);
  EXPECT_NE(cache.find(R"({"x":1})"), nullptr);
}

namespace {
// Writes the count of finished evaluations to a pipe after each one.
struct PipeProgress : Progress {
  int fd;
  explicit PipeProgress(int f) : fd(f) {}
  void update(const std::string& line) override {
    const auto close = line.find('/');
    const std::string done = line.substr(1, close - 1) + "\n";
    if (::write(fd, done.data(), done.size()) < 0) std::_Exit(9);
  }
};
}  // namespace

TEST(TuneCache, ResumeAfterSigkillLosesAtMostThePointInFlight) {
  const std::string path = temp_path("kill.jsonl");
  std::filesystem::remove(path);
  const Space s = fake_space(StrategyKind::exhaustive);
  const auto groups = fake_groups(s);
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    ::close(fds[0]);
    ResultCache cache(path, cache_header(test_identity(), s));
    FakeEvaluator eval(0.005);  // 5 ms a point: the parent kills it part way
    PipeProgress progress(fds[1]);
    Session session(s, eval, &cache, test_identity(), &progress);
    run_tune(s, groups, session);
    std::_Exit(0);
  }
  ::close(fds[1]);
  FILE* in = ::fdopen(fds[0], "r");
  std::size_t seen = 0;
  char line[64];
  while (seen < 40 && std::fgets(line, sizeof line, in)) seen = std::stoul(line);
  ::kill(child, SIGKILL);
  int status = 0;
  ::waitpid(child, &status, 0);
  std::fclose(in);
  ASSERT_TRUE(WIFSIGNALED(status));
  ASSERT_GE(seen, 40u);
  // Every evaluation reported before the kill is in the cache; at most one more was in flight.
  ResultCache cache(path, cache_header(test_identity(), s));
  EXPECT_GE(cache.loaded(), seen);
  const std::size_t total = 2u * (2 * 5 + 26 * 5);
  EXPECT_LT(cache.loaded(), total);
  FakeEvaluator eval;
  Session session(s, eval, &cache, test_identity());
  const TuneRun resumed = run_tune(s, groups, session);
  EXPECT_EQ(resumed.evaluations + resumed.cache_hits, total);
  EXPECT_EQ(resumed.evaluations, total - cache.loaded());
  // Same answer as a run that was never interrupted.
  FakeEvaluator eval2;
  Session clean(s, eval2, nullptr, test_identity());
  const TuneRun whole = run_tune(s, groups, clean);
  for (std::size_t g = 0; g < 2; ++g) {
    EXPECT_EQ(resumed.outcomes[g].ranking[0].candidate->label, whole.outcomes[g].ranking[0].candidate->label);
    EXPECT_DOUBLE_EQ(resumed.outcomes[g].ranking[0].score.value, whole.outcomes[g].ranking[0].score.value);
  }
}

TEST(TuneCache, ProcessesOpeningOneNewCacheAtOnceWriteOneHeader) {
  // Shards started side by side (tune --devices) open one cache path at the
  // same moment: the file must appear with exactly one header, whoever wins.
  const Space s = fake_space(StrategyKind::exhaustive);
  for (int round = 0; round < 40; ++round) {
    const std::string path = temp_path("race.jsonl");
    std::filesystem::remove(path);
    std::vector<pid_t> children;
    int start[2];  // closed by the parent once all are forked: they start together
    ASSERT_EQ(::pipe(start), 0);
    for (int i = 0; i < 6; ++i) {
      const pid_t child = ::fork();
      ASSERT_GE(child, 0);
      if (child == 0) {
        ::close(start[1]);
        char c;
        if (::read(start[0], &c, 1) != 0) std::_Exit(4);
        try {
          ResultCache cache(path, cache_header(test_identity(), s));
          cache.append("{\"shard\":" + std::to_string(i) + "}", timed("fake.z", 1, 1.0));
        } catch (...) {
          std::_Exit(3);
        }
        std::_Exit(0);
      }
      children.push_back(child);
    }
    ::close(start[0]);
    ::close(start[1]);
    for (const pid_t c : children) {
      int status = 0;
      ::waitpid(c, &status, 0);
      ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "round " << round;
    }
    std::ifstream in(path);
    std::string line;
    int headers = 0, entries = 0;
    while (std::getline(in, line)) (line.find("\"sortbench-cache\"") != std::string::npos ? headers : entries)++;
    EXPECT_EQ(headers, 1) << "round " << round;
    EXPECT_EQ(entries, 6) << "round " << round;
    ResultCache cache(path, cache_header(test_identity(), s));
    EXPECT_EQ(cache.loaded(), 6u);
    for (const auto& e : std::filesystem::directory_iterator(std::filesystem::path(path).parent_path()))
      EXPECT_EQ(e.path().filename().string().rfind("race.jsonl.new.", 0), std::string::npos) << e.path();
  }
}

// A cache of another GPU (or space, or build) is refused with exit 2 by the
// CLI; the library's caller may go on, so the refusal leaves no descriptor.
TEST(TuneCache, ACacheRefusedClosesItsFile) {
  const std::string path = temp_path("refused.jsonl");
  std::filesystem::remove(path);
  const Space s = fake_space(StrategyKind::exhaustive);
  { ResultCache made(path, cache_header(test_identity(), s)); }
  CacheIdentity other = test_identity();
  other.gpu_model = "other-gpu";
  auto open_descriptors = [] {
    return std::distance(std::filesystem::directory_iterator("/proc/self/fd"), std::filesystem::directory_iterator{});
  };
  const auto before = open_descriptors();
  for (int i = 0; i < 3; ++i) EXPECT_THROW(ResultCache(path, cache_header(other, s)), ConfigError);
  EXPECT_EQ(open_descriptors(), before);
}

TEST(TuneCache, AShardOpeningTheCacheWhileAnotherAppendsAddsNoEmptyLine) {
  // A shard that opens the cache starts a fresh line after a torn last line
  // (a kill mid-write). Another shard's line being appended at that moment is
  // not torn: a reader can see it part written where it crosses a page, so
  // taking it for torn put an empty line into the cache (schemas.validate
  // found one after a tune --devices 0,1).
  const std::string path = temp_path("appending.jsonl");
  std::filesystem::remove(path);
  const Space s = fake_space(StrategyKind::exhaustive);
  { ResultCache made(path, cache_header(test_identity(), s)); }
  const std::string padding(6000, 'p');  // each line crosses a page
  const int appenders = 3, lines = 100;    // lines each
  std::vector<pid_t> children;
  for (int a = 0; a < appenders; ++a) {
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
      try {
        ResultCache cache(path, cache_header(test_identity(), s), false);
        for (int i = 0; i < lines; ++i)
          cache.append("{\"a\":" + std::to_string(a) + ",\"i\":" + std::to_string(i) + ",\"pad\":\"" + padding +
                           "\"}",
                       timed("fake.z", 1, 1.0));
      } catch (...) {
        std::_Exit(3);
      }
      std::_Exit(0);
    }
    children.push_back(child);
  }
  int opened = 0;
  for (const pid_t child : children) {
    int status = 0;
    while (::waitpid(child, &status, WNOHANG) == 0) {
      ResultCache opening(path, cache_header(test_identity(), s), false);
      ++opened;
    }
    ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  }
  std::ifstream in(path);
  std::string line;
  int empty = 0, all = 0;
  while (std::getline(in, line)) {
    ++all;
    empty += line.empty();
  }
  EXPECT_EQ(empty, 0) << "after " << opened << " openings";
  EXPECT_EQ(all, appenders * lines + 1);
  ResultCache cache(path, cache_header(test_identity(), s));
  EXPECT_EQ(cache.loaded(), std::size_t(appenders * lines));
  EXPECT_EQ(cache.torn_lines(), 0u);
}

TEST(TuneShard, TwoShardsMergedEqualOneUnshardedRun) {
  const Space s = fake_space(StrategyKind::exhaustive);
  const json device = {{"model", "fake-gpu"}, {"uuid", "GPU-0"}};
  auto report_of = [&](std::size_t shard, std::size_t shards) {
    const auto groups = fake_groups(s, shard, shards);
    FakeEvaluator eval;
    Session session(s, eval, nullptr, test_identity());
    const TuneRun run = run_tune(s, groups, session);
    Report r;
    json tune = run.summary();
    tune["shard"] = std::to_string(shard) + "/" + std::to_string(shards);
    r.context = {{"device", device}, {"build", {{"git_commit", "abc"}}}, {"config", space_to_json(s)}, {"tune", tune}};
    r.results = run.results;
    return r;
  };
  const Report whole = report_of(0, 1);
  const Report a = report_of(0, 2), b = report_of(1, 2);
  // The split is a partition of the points.
  std::size_t na = 0, nb = 0;
  for (const auto& g : fake_groups(s, 0, 2)) na += g.candidates.size() + g.pruned.size();
  for (const auto& g : fake_groups(s, 1, 2)) nb += g.candidates.size() + g.pruned.size();
  EXPECT_EQ(na + nb, 2u * 40u);
  EXPECT_GT(na, 0u);
  EXPECT_GT(nb, 0u);
  const Report merged = merge_reports({a, b}, {"a.json", "b.json"});
  EXPECT_EQ(merged.results.size(), whole.results.size());
  const json best_whole = best_json(whole.results, s, device, {});
  const json best_merged = best_json(merged.results, s, device, {});
  EXPECT_EQ(best_whole["entries"], best_merged["entries"]);
  EXPECT_EQ(best_whole["group_picks"], best_merged["group_picks"]);
  EXPECT_EQ(best_whole["group_picks"][0]["variant"], "fake.radix.rb6.ipt12.tpb256");
  // Merging refuses what does not belong together, naming it.
  auto refusal = [](const std::vector<Report>& rs, const std::vector<std::string>& names) {
    try {
      merge_reports(rs, names);
    } catch (const ConfigError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  Report other = b;
  other.context["config"]["name"] = "other";
  EXPECT_NE(refusal({a, other}, {"a.json", "other.json"}).find("other.json: $.context.config: differs from a.json"),
            std::string::npos);
  Report gpu = b;
  gpu.context["device"]["model"] = "another-gpu";
  EXPECT_EQ(refusal({a, gpu}, {"a.json", "g.json"}),
            "g.json: $.context.device.model: 'another-gpu', where a.json has 'fake-gpu'; only reports of one GPU model merge");
  Report build = b;
  build.context["build"]["git_commit"] = "def";
  EXPECT_NE(refusal({a, build}, {"a.json", "x.json"}).find("x.json: $.context.build: another build than a.json"),
            std::string::npos);
  EXPECT_EQ(refusal({a, a}, {"a.json", "a2.json"}), "a2.json: shard 0/2 given twice (also a.json)");
  EXPECT_EQ(refusal({a}, {"a.json"}), "merge: shard 1/2 is missing; best.json from part of a space would miss its points");
  EXPECT_EQ(refusal({a, whole}, {"a.json", "w.json"}),
            "w.json: shard 0/1 overlaps shards of 2 (a.json); only the shards of one split merge");
  Report merged_once = merged;
  EXPECT_NE(refusal({merged_once, b}, {"m.json", "b.json"}).find("m.json: $.context.tune.shard: 'merged' is not a shard I/N"),
            std::string::npos);
  // A result on a workload the space does not plan (here a size outside it).
  Report foreign = b;
  ASSERT_FALSE(foreign.results.empty());
  foreign.results[3].n = 12345;
  const std::string why_foreign = refusal({a, foreign}, {"a.json", "f.json"});
  EXPECT_EQ(why_foreign.rfind("f.json: $.results[3]: " + foreign.results[3].variant + " on ", 0), 0u) << why_foreign;
  EXPECT_NE(why_foreign.find(" n=12345 "), std::string::npos) << why_foreign;
  EXPECT_NE(why_foreign.find("is not a workload of the space in $.context.config"), std::string::npos) << why_foreign;
  // A shard of another strategy, or one no tune has.
  Report halving = b;
  halving.context["tune"]["strategy"] = "halving";
  EXPECT_EQ(refusal({a, halving}, {"a.json", "h.json"}),
            "h.json: $.context.tune.strategy: \"halving\", where the space in a.json's $.context.config names "
            "\"exhaustive\"; only shards of one tune merge");
  Report bogus = b;
  bogus.context["tune"]["strategy"] = 7;
  EXPECT_NE(refusal({a, bogus}, {"a.json", "x.json"}).find("x.json: $.context.tune.strategy: 7, where"), std::string::npos);
  // The same shards with the strategy their space names still merge.
  Report a2 = a, b2 = b;
  a2.context["tune"]["strategy"] = b2.context["tune"]["strategy"] = "exhaustive";
  EXPECT_EQ(merge_reports({a2, b2}, {"a.json", "b.json"}).results.size(), whole.results.size());
}

TEST(TuneBest, RangesAndSelection) {
  const Space s = fake_space(StrategyKind::exhaustive);
  FakeEvaluator eval;
  Session session(s, eval, nullptr, test_identity());
  const TuneRun run = run_tune(s, fake_groups(s), session);
  const json best = best_json(run.results, s, {{"model", "fake-gpu"}}, {});
  EXPECT_EQ(best["schema"], "sortbench-best");
  EXPECT_EQ(best["gpu_model"], "fake-gpu");
  // The model favours 128-thread blocks below 2^22 keys: keys-only splits into two ranges.
  std::vector<json> keys_only;
  for (const auto& e : best["entries"])
    if (e["value"] == "none") keys_only.push_back(e);
  ASSERT_EQ(keys_only.size(), 2u);
  EXPECT_EQ(keys_only[0]["n_min"], 1u << 20);
  EXPECT_EQ(keys_only[0]["n_max"], 1u << 20);
  EXPECT_EQ(keys_only[0]["variant"], "fake.radix.rb6.ipt12.tpb128");
  EXPECT_EQ(keys_only[1]["n_min"], 1u << 22);
  EXPECT_EQ(keys_only[1]["n_max"], 1u << 28);
  EXPECT_EQ(keys_only[1]["variant"], "fake.radix.rb6.ipt12.tpb256");
  EXPECT_GT(keys_only[1]["margin"].get<double>(), 0.0);
  EXPECT_FALSE(keys_only[1]["runner_up"].is_null());
  // Selection: inside a range, between ranges (nearest in log2 n), outside all, other types.
  EXPECT_EQ(select_best(best, KeyType::u32, ValueType::none, Order::ascending, 1 << 20).variant,
            "fake.radix.rb6.ipt12.tpb128");
  EXPECT_EQ(select_best(best, KeyType::u32, ValueType::none, Order::ascending, 1 << 24).variant,
            "fake.radix.rb6.ipt12.tpb256");
  EXPECT_EQ(select_best(best, KeyType::u32, ValueType::none, Order::ascending, 1000).variant,
            "fake.radix.rb6.ipt12.tpb128");
  EXPECT_EQ(select_best(best, KeyType::u32, ValueType::none, Order::ascending, std::size_t(1) << 30).variant,
            "fake.radix.rb6.ipt12.tpb256");
  // With a filter of usable entries (a dispatch's: the pick can sort the
  // problem, e.g. n is within its cap), the nearest entry it accepts.
  const auto not_tpb256 = [](const BestChoice& c) { return c.variant != "fake.radix.rb6.ipt12.tpb256"; };
  EXPECT_EQ(
      select_best(best, KeyType::u32, ValueType::none, Order::ascending, 1 << 24, InputClass::spread, not_tpb256).variant,
      "fake.radix.rb6.ipt12.tpb128");
  EXPECT_FALSE(select_best(best, KeyType::u32, ValueType::none, Order::ascending, 1 << 24, InputClass::spread,
                           [](const BestChoice&) { return false; })
                   .found);
  const BestChoice pairs = select_best(best, KeyType::u32, ValueType::u32, Order::ascending, 1 << 26);
  EXPECT_TRUE(pairs.found);
  EXPECT_EQ(pairs.variant, "fake.radix.rb8.ipt8.tpb256");
  EXPECT_FALSE(select_best(best, KeyType::u64, ValueType::none, Order::ascending, 1 << 20).found);
  EXPECT_FALSE(select_best(best, KeyType::u32, ValueType::none, Order::descending, 1 << 20).found);
  EXPECT_FALSE(select_best(json::object(), KeyType::u32, ValueType::none, Order::ascending, 1).found);
}

TEST(TuneBest, DispatchReadsBestJsonForThisGpuOnly) {
  const std::string path = temp_path("best.json");
  json best = {{"gpu_model", "h100-80gb-hbm3"},
               {"entries", json::array({{{"key", "u32"}, {"value", "none"}, {"order", "ascending"}, {"n_min", 1 << 20},
                                         {"n_max", 1 << 28}, {"variant", "radix.x.rb8"}, {"params", json::object()},
                                         {"score", 1.1}}})}};
  std::ofstream(path) << best.dump();
  EXPECT_EQ(detail::tuned_label(path, "h100-80gb-hbm3", KeyType::u32, ValueType::none, 1 << 24), "radix.x.rb8");
  EXPECT_EQ(detail::tuned_label(path, "h200", KeyType::u32, ValueType::none, 1 << 24), "");  // another GPU
  EXPECT_EQ(detail::tuned_label(path, "h100-80gb-hbm3", KeyType::u64, ValueType::none, 1 << 24), "");
  EXPECT_EQ(detail::tuned_label(path + ".missing", "h100-80gb-hbm3", KeyType::u32, ValueType::none, 1 << 24), "");
}

// A library pick still names the best point of ours ("ours"), which a sort
// built from ours (the distributed family's local sort) takes; a version 1
// entry has no "ours" and is ours itself.
TEST(TuneBest, OursLabelBesideALibraryPick) {
  const std::string path = temp_path("best-ours.json");
  const json library = {{"key", "u32"},       {"value", "u32"},           {"order", "ascending"},
                        {"n_min", 1 << 20},   {"n_max", 1 << 28},         {"variant", "cub.radix_sort.off32"},
                        {"library", true},    {"ours", "radix.x.rb8.ipt19"}, {"score", 1.0}};
  const json v1 = {{"key", "u32"},     {"value", "none"},       {"order", "ascending"}, {"n_min", 1 << 20},
                   {"n_max", 1 << 28}, {"variant", "radix.x.rb8"}, {"score", 1.2}};
  std::ofstream(path, std::ios::trunc) << json{{"gpu_model", "h200"}, {"entries", json::array({library, v1})}}.dump();
  EXPECT_EQ(detail::tuned_label(path, "h200", KeyType::u32, ValueType::u32, 1 << 24), "cub.radix_sort.off32");
  EXPECT_EQ(detail::tuned_ours_label(path, "h200", KeyType::u32, ValueType::u32, 1 << 24), "radix.x.rb8.ipt19");
  // Past the tuned sizes: the nearest range's pick (a shard of 2^31 keys).
  EXPECT_EQ(detail::tuned_ours_label(path, "h200", KeyType::u32, ValueType::u32, std::size_t(1) << 31),
            "radix.x.rb8.ipt19");
  EXPECT_EQ(detail::tuned_ours_label(path, "h200", KeyType::u32, ValueType::none, 1 << 24), "radix.x.rb8");
  EXPECT_EQ(detail::tuned_ours_label(path, "h100-80gb-hbm3", KeyType::u32, ValueType::u32, 1 << 24), "");
  EXPECT_EQ(detail::tuned_ours_label(path, "h200", KeyType::u64, ValueType::u32, 1 << 24), "");
}

// `sortbench run best:FAMILY` reads best.json strictly: no file or another GPU
// is the default point; a file of another kind or with a mistyped entry is
// refused naming the file and JSON path. Every committed best.json reads.
TEST(TuneBest, RunReadsBestJsonStrictly) {
  for (const char* model : {"h100-80gb-hbm3", "h200"}) {
    const std::string path = std::string(SORTBENCH_SOURCE_DIR) + "/results/" + model + "/best.json";
    const json doc = read_best_json(path, model);
    ASSERT_TRUE(doc.is_object()) << path;
    EXPECT_FALSE(doc["entries"].empty()) << path;
  }
  const std::string path = temp_path("best-strict.json");
  const json entry = {{"key", "u32"}, {"value", "none"}, {"order", "ascending"}, {"n_min", 1 << 20},
                      {"n_max", 1 << 28}, {"variant", "radix.x.rb8"}, {"ours", "radix.x.rb8"}, {"score", 1.1}};
  const json good = {{"schema", "sortbench-best"}, {"schema_version", 2}, {"gpu_model", "h200"},
                     {"entries", json::array({entry})}};
  std::filesystem::remove(path);
  EXPECT_TRUE(read_best_json(path, "h200").is_null());  // no file
  std::ofstream(path, std::ios::trunc) << good.dump();
  EXPECT_EQ(read_best_json(path, "h200")["entries"][0]["variant"], "radix.x.rb8");
  EXPECT_TRUE(read_best_json(path, "h100-80gb-hbm3").is_null());  // another GPU
  auto with = [&](const std::string& key, const json& v) {
    json d = good;
    d[key] = v;
    return d;
  };
  auto refused = [&](const json& doc, const std::string& want) {
    std::ofstream(path, std::ios::trunc) << doc.dump();
    try {
      read_best_json(path, "h200");
      ADD_FAILURE() << "accepted " << doc.dump();
    } catch (const ConfigError& e) {
      EXPECT_NE(std::string(e.what()).find(path + ": " + want), std::string::npos) << e.what();
    }
  };
  refused({{"schema", "sortbench-report"}}, "not a sortbench best.json");
  refused(with("schema_version", 9), "$.schema_version: expected 1, 2 or 3");
  refused(with("entries", "x"), "$.entries: expected");
  json e = entry;
  e["n_min"] = "x";
  refused(with("entries", json::array({e})), "$.entries[0].n_min: expected");
  e = entry;
  e["key"] = "u24";
  refused(with("entries", json::array({e})), "$.entries[0].key: expected a key type");
  e = entry;
  e["n_max"] = 5;
  refused(with("entries", json::array({e})), "$.entries[0].n_max: expected n_max at least n_min");
  e = entry;
  e["class"] = "sorted";
  refused(with("entries", json::array({e})), "$.entries[0].class: expected spread, skewed, presorted, narrow, clustered or few_distinct");
  std::ofstream(path, std::ios::trunc) << "{\"schema\": \"sortbench-best\", ";
  EXPECT_THROW(read_best_json(path, "h200"), ConfigError);
}

// A best.json rewritten in place is read again (a stale parse once made the
// dispatch GPU test depend on test order).
TEST(TuneBest, DispatchRereadsARewrittenBestJson) {
  const std::string path = temp_path("best-rewritten.json");
  auto write = [&](const std::string& model, const std::string& variant) {
    json best = {{"gpu_model", model},
                 {"entries", json::array({{{"key", "u32"}, {"value", "none"}, {"order", "ascending"}, {"n_min", 1},
                                           {"n_max", 1 << 28}, {"variant", variant}, {"params", json::object()},
                                           {"score", 1.0}}})}};
    std::ofstream(path, std::ios::trunc) << best.dump();
  };
  write("another-gpu", "radix.a");
  EXPECT_EQ(detail::tuned_label(path, "h200", KeyType::u32, ValueType::none, 1 << 20), "");
  write("h200", "radix.bb");
  EXPECT_EQ(detail::tuned_label(path, "h200", KeyType::u32, ValueType::none, 1 << 20), "radix.bb");
}

// A dry run plans without a GPU: a variant's own check that throws (it asks the
// GPU) leaves the point a candidate, listed as unchecked; declared limits and
// own checks that need no GPU still prune. A declared cap between the group's
// sizes keeps the variant a candidate for the sizes below it.
TEST(TunePlan, LenientChecksForADryRunWithoutAGpu) {
  const Space s = fake_space();
  VariantInfo needs_gpu;
  needs_gpu.label = "fake.needs_gpu";
  needs_gpu.family = "fake";
  needs_gpu.unsupported = [](const Problem&) -> std::string {
    throw std::runtime_error("cudaGetDevice: cudaErrorNoDevice (no CUDA-capable device is detected)");
  };
  VariantInfo capped = needs_gpu;
  capped.label = "fake.capped";
  capped.max_n = std::size_t(1) << 18;  // below every size: prunes without asking the hook
  VariantInfo small_only;
  small_only.label = "fake.small_only";
  small_only.family = "fake";
  small_only.max_n = std::size_t(1) << 22;  // the space's sizes are 2^20..2^28
  VariantInfo host_check;
  host_check.label = "fake.host_check";
  host_check.family = "fake";
  host_check.unsupported = [](const Problem& p) -> std::string {
    return p.n > (std::size_t(1) << 24) ? "capped at 2^24 keys" : "";
  };
  const std::vector<const VariantInfo*> vs = {&needs_gpu, &capped, &host_check, &small_only};

  EXPECT_THROW(plan_groups(s, vs, nullptr), std::runtime_error);  // a real tune needs the check
  const auto groups = plan_groups(s, vs, nullptr, 0, 1, /*lenient_checks=*/true);
  ASSERT_EQ(groups.size(), 2u);
  for (const auto& g : groups) {
    ASSERT_EQ(g.candidates.size(), 2u) << g.name();
    EXPECT_EQ(g.candidates[0].label, "fake.needs_gpu");
    EXPECT_EQ(g.candidates[1].label, "fake.small_only");
    ASSERT_EQ(g.unchecked.size(), 1u);
    EXPECT_EQ(g.unchecked[0].first, "fake.needs_gpu");
    EXPECT_NE(g.unchecked[0].second.find("cudaErrorNoDevice"), std::string::npos);
    ASSERT_EQ(g.pruned.size(), 2u);
    EXPECT_EQ(g.pruned[0].variant, "fake.capped");
    EXPECT_NE(g.pruned[0].reason.find("above the variant's cap"), std::string::npos) << g.pruned[0].reason;
    EXPECT_EQ(g.pruned[1].variant, "fake.host_check");
    EXPECT_EQ(g.pruned[1].reason, "pruned: capped at 2^24 keys");
  }
}

// Where no point of ours beats the fastest library call beyond noise,
// best.json names the library call, and sortbench::sort and best:FAMILY
// sweeps read it so.
// A variant capped below the space's largest size (the cluster sort) is a
// candidate up to its cap: measured there, skipped above, unscored over the
// whole group, and best.json names it for the sizes where it wins.
// fake.radix.rb6.ipt12.tpb128 again as `label`, capped at 2^20 keys, in the
// registry while it is in scope (the other tests count the fake variants).
struct CappedFake {
  std::string label;
  CappedFake(std::string l, const Params& params = {}) : label(std::move(l)) {
    register_fake_variants();
    VariantInfo v = *Registry::instance().find("fake.radix.rb6.ipt12.tpb128");
    v.label = label;
    if (!params.empty()) v.params = params;
    v.family_default = false;
    v.max_n = std::size_t(1) << 20;
    Registry::instance().add(v);
  }
  CappedFake(const CappedFake&) = delete;
  CappedFake& operator=(const CappedFake&) = delete;
  ~CappedFake() { Registry::instance().remove(label); }
};

TEST(TuneBest, ASizeCappedVariantWinsTheSizesBelowItsCap) {
  const CappedFake capped("fake.small_n.tpb128", {{"block_threads", "tpb", "128"}});
  Space s = parse_space(R"({"name": "capped", "variants": ["fake.radix.rb6.*", "fake.small_n.*"],
    "sweeps": [{"keys": ["u32"], "values": ["none"], "sizes": ["2^18", "2^20", "2^24"], "distributions": ["uniform"]}]})",
                        "capped.json");
  s.strategy.kind = StrategyKind::exhaustive;
  const auto groups = fake_groups(s);
  ASSERT_EQ(groups.size(), 1u);
  bool candidate = false;
  for (const auto& c : groups[0].candidates) candidate |= c.label == "fake.small_n.tpb128";
  EXPECT_TRUE(candidate);
  FakeEvaluator eval;
  Session session(s, eval, nullptr, test_identity());
  const TuneRun run = run_tune(s, groups, session);
  int skipped = 0;
  for (const auto& r : run.results)
    if (r.variant == "fake.small_n.tpb128" && r.status == Status::skipped) {
      ++skipped;
      EXPECT_EQ(r.n, std::size_t(1) << 24);
      EXPECT_NE(r.reason.find("cap"), std::string::npos) << r.reason;
    }
  EXPECT_EQ(skipped, 1);
  ASSERT_EQ(run.outcomes.size(), 1u);
  ASSERT_FALSE(run.outcomes[0].ranking.empty());
  EXPECT_NE(run.outcomes[0].ranking[0].candidate->label, "fake.small_n.tpb128");  // not scored at 2^24
  const json best = best_json(run.results, s, {{"model", "fake-gpu"}}, {});
  ASSERT_EQ(best["entries"].size(), 2u) << best["entries"].dump();
  EXPECT_EQ(best["entries"][0]["variant"], "fake.small_n.tpb128");
  EXPECT_EQ(best["entries"][0]["n_min"], 1u << 18);
  EXPECT_EQ(best["entries"][0]["n_max"], 1u << 20);
  EXPECT_NE(best["entries"][1]["variant"], "fake.small_n.tpb128");
  EXPECT_EQ(best["entries"][1]["n_min"], 1u << 24);
  EXPECT_NE(best["group_picks"][0]["variant"], "fake.small_n.tpb128");
}

// best:FAMILY between tuned sizes, where the nearest size's pick is capped
// below n (radix.two_digit_msd_local_lsd at 10^8 keys between its 2^26 and
// 2^28 picks): the nearest pick that can sort n, as the dispatch takes, not
// the family's default.
TEST(TuneBest, BestFamilyPastAPicksCapTakesTheNearestPickThatFits) {
  const CappedFake capped("fake.radix.capped");
  auto entry = [](std::size_t n, const char* label) {
    return json{{"key", "u32"}, {"value", "none"}, {"order", "ascending"}, {"n_min", n},
                {"n_max", n},   {"variant", label}, {"ours", label}};
  };
  const json best = {{"entries", {entry(1 << 20, "fake.radix.capped"), entry(1 << 24, "fake.radix.rb6.ipt4.tpb128")}}};
  auto pick = [&](std::size_t n) {
    const Workload w{KeyType::u32, ValueType::none, Order::ascending, n, *parse_distribution("uniform", nullptr), 1};
    return resolve_best_selectors({"fake"}, w, best, Registry::instance()).at(0)->label;
  };
  EXPECT_EQ(pick(1 << 20), "fake.radix.capped");
  EXPECT_EQ(pick((1 << 20) + 1), "fake.radix.rb6.ipt4.tpb128");  // 2^20 is nearer, and past the cap
  EXPECT_EQ(pick(1 << 22), "fake.radix.rb6.ipt4.tpb128");
}

// A class whose pick at the nearest tuned size is capped below n takes its
// own pick at the tuned size on n's other side (u32 pairs of few distinct keys
// at 10^8: radix.two_digit_msd_local_lsd's 2^28 pick, not the skewed class's
// 2^26 pick); with no entry of its class there, the nearest entry accepted.
TEST(TuneBest, APickPastItsCapGivesWayToItsClassPickOnTheOtherSide) {
  auto entry = [](std::size_t n, const char* cls, const char* label) {
    json e{{"key", "u32"}, {"value", "u32"}, {"order", "ascending"}, {"n_min", n},
           {"n_max", n},   {"variant", label}, {"ours", label}};
    if (*cls) e["class"] = cls;
    return e;
  };
  const json best = {{"entries",
                      {entry(1 << 26, "few_distinct", "capped.at_2^26"), entry(1 << 26, "skewed", "skewed.2^26"),
                       entry(1 << 28, "few_distinct", "few.2^28"), entry(1 << 28, "skewed", "skewed.2^28"),
                       entry(1 << 26, "spread", "capped.at_2^26"), entry(std::size_t(1) << 30, "", "every.2^30")}}};
  const std::size_t cap = std::size_t(1) << 26;
  auto pick = [&](std::size_t n, InputClass c) {
    return select_best(best, KeyType::u32, ValueType::u32, Order::ascending, n, c, [&](const BestChoice& b) {
             return b.variant != "capped.at_2^26" || n <= cap;
           }).variant;
  };
  EXPECT_EQ(pick(cap, InputClass::few_distinct), "capped.at_2^26");
  EXPECT_EQ(pick(100000000, InputClass::few_distinct), "few.2^28");
  EXPECT_EQ(pick(100000000, InputClass::skewed), "skewed.2^26");  // the nearest, and it fits
  // narrow falls back to skewed: its nearest entry fits.
  EXPECT_EQ(pick(100000000, InputClass::narrow), "skewed.2^26");
  // Past the cap with no spread entry above 2^26: the nearest entry accepted
  // (2^30's, for every input), not one of the class further away.
  EXPECT_EQ(pick(cap + 1, InputClass::spread), "every.2^30");
  // Below the capped entry: n is within the cap, so the nearest.
  EXPECT_EQ(pick(1 << 24, InputClass::few_distinct), "capped.at_2^26");
}

// Past a pick's cap with no entry of its class on n's other side (past the
// largest size the classes were tuned at), the refused entry's runner-up,
// measured on the same workloads, comes before an entry of another size,
// where it beat the library calls there (a score above 1).
TEST(TuneBest, APickPastItsCapWithNothingAboveGivesWayToItsRunnerUp) {
  auto entry = [](std::size_t n, const char* cls, const char* label, const char* runner_up, double score,
                  double margin) {
    json e{{"key", "u32"}, {"value", "u32"},     {"order", "ascending"}, {"n_min", n},         {"n_max", n},
           {"variant", label}, {"ours", label}, {"score", score},       {"runner_up", runner_up}, {"margin", margin}};
    if (*cls) e["class"] = cls;
    return e;
  };
  const json best = {{"entries",
                      {entry(1 << 28, "spread", "capped.at_2^28", "runner.2^28", 1.3, 0.1),
                       entry(1 << 28, "presorted", "capped.at_2^28", "slower.than.cub", 1.3, 0.4),
                       entry(std::size_t(1) << 30, "", "every.2^30", "", 1.0, 0.0)}}};
  const std::size_t cap = std::size_t(1) << 28;
  auto pick = [&](std::size_t n, InputClass c) {
    return select_best(best, KeyType::u32, ValueType::u32, Order::ascending, n, c, [&](const BestChoice& b) {
      return b.variant != "capped.at_2^28" || n <= cap;
    });
  };
  EXPECT_EQ(pick(cap, InputClass::spread).variant, "capped.at_2^28");
  const BestChoice runner = pick(cap + cap / 4, InputClass::spread);
  EXPECT_EQ(runner.variant, "runner.2^28");
  EXPECT_EQ(runner.ours, "runner.2^28");
  EXPECT_NEAR(runner.score, 1.3 / 1.1, 1e-12);
  // A runner-up scored below 1 (0.93: slower than the library) is no pick.
  EXPECT_EQ(pick(cap + cap / 4, InputClass::presorted).variant, "every.2^30");
  // Nearer 2^30 than 2^28: the nearest, which fits.
  EXPECT_EQ(pick(std::size_t(1) << 30, InputClass::spread).variant, "every.2^30");
}

// best:FAMILY on a distribution the tune measured takes the class the tune
// put it in; on one it did not, the class of the workload's own keys where
// the run has it (classify_workload), else spread.
TEST(TuneBest, AnUnmeasuredDistributionTakesTheClassOfItsKeys) {
  register_fake_variants();
  auto entry = [](const char* cls, const char* dist, const char* label) {
    return json{{"key", "u64"},   {"value", "none"}, {"order", "ascending"},   {"n_min", 1 << 20}, {"n_max", 1 << 20},
                {"class", cls},   {"variant", label}, {"distributions", {dist}}, {"ours", label}};
  };
  const json best = {{"entries",
                      {entry("spread", "uniform", "fake.radix.rb4.ipt4.tpb128"),
                       entry("skewed", "zipf", "fake.radix.rb6.ipt4.tpb128"),
                       entry("few_distinct", "few_unique:1000", "fake.radix.rb6.ipt8.tpb128")}}};
  const Workload zipf{KeyType::u64, ValueType::none, Order::ascending, 1 << 20,
                      *parse_distribution("zipf", nullptr), 1};
  const Workload unseen{KeyType::u64, ValueType::none, Order::ascending, 1 << 20,
                        *parse_distribution("few_unique:100000", nullptr), 1};
  EXPECT_EQ(measured_class(best, KeyType::u64, "zipf"), InputClass::skewed);
  EXPECT_EQ(measured_class(best, KeyType::u64, "few_unique:100000"), std::nullopt);
  EXPECT_EQ(class_of_distribution(best, KeyType::u64, "few_unique:100000"), InputClass::spread);
  auto pick = [&](const Workload& w, std::optional<InputClass> keys) {
    return resolve_best_selectors({"fake"}, w, best, Registry::instance(), keys).at(0)->label;
  };
  EXPECT_EQ(pick(unseen, std::nullopt), "fake.radix.rb4.ipt4.tpb128");
  EXPECT_EQ(pick(unseen, InputClass::skewed), "fake.radix.rb6.ipt4.tpb128");
  EXPECT_EQ(pick(unseen, InputClass::few_distinct), "fake.radix.rb6.ipt8.tpb128");
  // The tune's class wins over the keys' for a distribution it measured.
  EXPECT_EQ(pick(zipf, InputClass::spread), "fake.radix.rb6.ipt4.tpb128");
}

// best:FAMILY takes the pick of another key type of the same width only
// where the pick is declared for the workload's types (u32 pairs' pick of
// radix.onesweep_packed_pairs sorts no f32 keys): else the family's default.
TEST(TuneBest, APickNotDeclaredForTheKeyTypeGivesWayToTheDefault) {
  register_fake_variants();
  if (!Registry::instance().find("fake.radix.integer_pairs")) {
    VariantInfo v = *Registry::instance().find("fake.radix.rb6.ipt4.tpb128");
    v.label = "fake.radix.integer_pairs";
    v.family_default = false;
    v.key_types = {KeyType::u32, KeyType::i32};
    v.value_types = {ValueType::u32};
    Registry::instance().add(v);
  }
  const json best = {{"entries",
                      {{{"key", "u32"}, {"value", "u32"}, {"order", "ascending"}, {"n_min", 1 << 20},
                        {"n_max", 1 << 20}, {"variant", "fake.radix.integer_pairs"},
                        {"ours", "fake.radix.integer_pairs"}}}}};
  auto pick = [&](KeyType k) {
    const Workload w{k, ValueType::u32, Order::ascending, 1 << 20, *parse_distribution("uniform", nullptr), 1};
    return resolve_best_selectors({"fake"}, w, best, Registry::instance()).at(0)->label;
  };
  EXPECT_EQ(pick(KeyType::u32), "fake.radix.integer_pairs");
  EXPECT_EQ(pick(KeyType::i32), "fake.radix.integer_pairs");
  EXPECT_EQ(pick(KeyType::f32), "fake.radix.rb8.ipt8.tpb256");
}

TEST(TuneBest, TheLibraryStaysThePickWhereNothingOfOursBeatsIt) {
  register_fake_variants();
  Space s = parse_space(R"({"name": "lib", "variants": ["fake.radix.rb6.*"],
    "sweeps": [{"keys": ["u64", "u32"], "values": ["none", "u32"], "sizes": ["2^20", "2^24"], "distributions": ["uniform"]}]})",
                        "lib.json");
  s.strategy.kind = StrategyKind::exhaustive;
  FakeEvaluator eval;
  Session session(s, eval, nullptr, test_identity());
  const TuneRun run = run_tune(s, fake_groups(s), session);
  const json best = best_json(run.results, s, {{"model", "fake-gpu"}}, {});
  EXPECT_EQ(best["baselines"], json({"cub.radix_sort.off32", "cub.radix_sort.off64"}));
  EXPECT_EQ(best["score_group"], "cub.radix_sort");
  // Each group's pick over both sizes (entries may split a group's sizes by winner).
  std::map<std::string, json> by_group;
  for (const auto& e : best["group_picks"]) by_group[e["key"].get<std::string>() + "/" + e["value"].get<std::string>()] = e;
  ASSERT_EQ(by_group.size(), 4u);
  // u64 keys: every fake point is slower than the library; the faster call differs for keys and pairs.
  EXPECT_TRUE(by_group["u64/none"]["library"].get<bool>());
  EXPECT_EQ(by_group["u64/none"]["variant"], "cub.radix_sort.off64");
  EXPECT_EQ(by_group["u64/u32"]["variant"], "cub.radix_sort.off32");
  EXPECT_LT(by_group["u64/none"]["ours_score"].get<double>(), 1.0);
  EXPECT_NEAR(by_group["u64/none"]["score"].get<double>(), 1.0, 1e-9);  // the library call against itself
  EXPECT_EQ(by_group["u64/none"]["runner_up"], by_group["u64/none"]["ours"]);
  // The library is the pick at both sizes; the best of ours differs between
  // them, so each size keeps its own (best:FAMILY runs it).
  std::map<std::size_t, std::string> ours_at;
  for (const auto& e : best["entries"])
    if (e["key"] == "u64" && e["value"] == "none") {
      EXPECT_TRUE(e["library"].get<bool>());
      EXPECT_EQ(e["n_min"], e["n_max"]);
      ours_at[e["n_min"].get<std::size_t>()] = e["ours"].get<std::string>();
    }
  ASSERT_EQ(ours_at.size(), 2u);
  EXPECT_NE(ours_at[1u << 20], ours_at[1u << 24]);
  // u32 keys: ours wins, scored against the faster call.
  EXPECT_FALSE(by_group["u32/none"]["library"].get<bool>());
  EXPECT_EQ(by_group["u32/none"]["baseline"], "cub.radix_sort.off64");
  EXPECT_EQ(by_group["u32/u32"]["baseline"], "cub.radix_sort.off32");
  EXPECT_GT(by_group["u32/u32"]["score"].get<double>(), 1.0);
  EXPECT_EQ(by_group["u32/u32"]["variant"], by_group["u32/u32"]["ours"]);
  // A point's score is against the faster call on each workload: for pairs
  // off32 is the faster (0.92 against 1.0), so against off64 alone the same
  // point would score 1/0.92 times higher.
  Space off64_only = s;
  off64_only.baseline_labels = {"cub.radix_sort.off64"};
  std::vector<PointResult> results64 = run.results;
  compute_speedups(results64, off64_only.baseline_labels);
  const json best64 = best_json(results64, off64_only, {{"model", "fake-gpu"}}, {});
  for (const auto& e : best64["group_picks"])
    if (e["key"] == "u32" && e["value"] == "u32") {
      EXPECT_EQ(e["variant"], by_group["u32/u32"]["variant"]);
      EXPECT_NEAR(e["score"].get<double>(), by_group["u32/u32"]["score"].get<double>() / 0.92, 1e-3);  // + 1 us per call in the model
    }
  // Selection reads the library pick and the best of ours beside it.
  const BestChoice lib = select_best(best, KeyType::u64, ValueType::none, Order::ascending, 1 << 24);
  EXPECT_TRUE(lib.found);
  EXPECT_TRUE(lib.library);
  EXPECT_EQ(lib.variant, "cub.radix_sort.off64");
  EXPECT_EQ(lib.ours, ours_at[1u << 24]);
  const BestChoice ours = select_best(best, KeyType::u32, ValueType::none, Order::ascending, 1 << 22);
  EXPECT_FALSE(ours.library);
  EXPECT_EQ(ours.ours, ours.variant);
  // best:fake on a tuned workload measures the best of ours, also where the library won;
  // on an untuned one, the family's default point.
  const Workload w64{KeyType::u64, ValueType::none, Order::ascending, 1 << 20, {}, 1};
  const auto picked = resolve_best_selectors({"fake"}, w64, best, Registry::instance());
  ASSERT_EQ(picked.size(), 1u);
  EXPECT_EQ(picked[0]->label, ours_at[1u << 20]);
  // A key type without an entry takes the entry of its width: i64 and f64 that of u64.
  const Workload wi{KeyType::i64, ValueType::none, Order::ascending, 1 << 20, {}, 1};
  EXPECT_EQ(resolve_best_selectors({"fake"}, wi, best, Registry::instance())[0]->label, ours_at[1u << 20]);
  const Workload wf{KeyType::f16, ValueType::none, Order::ascending, 1 << 20, {}, 1};
  EXPECT_EQ(resolve_best_selectors({"fake"}, wf, best, Registry::instance())[0]->label, "fake.radix.rb8.ipt8.tpb256");
  EXPECT_EQ(resolve_best_selectors({"fa*"}, w64, nullptr, Registry::instance())[0]->label, "fake.radix.rb8.ipt8.tpb256");
  EXPECT_TRUE(resolve_best_selectors({"nomatch"}, w64, best, Registry::instance()).empty());
  // sortbench::sort's lookup gives the library call for that range.
  const std::string path = temp_path("best-lib.json");
  std::ofstream(path) << best.dump();
  EXPECT_EQ(sortbench::detail::tuned_label(path, "fake-gpu", KeyType::u64, ValueType::u32, 1 << 20),
            "cub.radix_sort.off32");
}

// --objective energy: the fake model's power makes the 128-thread point the
// most frugal at every size while 256 threads are the fastest from 2^22 keys,
// so the energy picks name the time pick where they differ; a point without
// energy cannot be scored by it.
TEST(TuneObjective, EnergyPicksByJoulesAndNamesTheTimePick) {
  Space s = fake_space(StrategyKind::exhaustive);
  s.score.objective = Objective::energy;
  FakeEvaluator eval;
  Session session(s, eval, nullptr, test_identity());
  const TuneRun run = run_tune(s, fake_groups(s), session);
  const json best = best_json(run.results, s, {{"model", "fake-gpu"}}, {});
  EXPECT_EQ(best["objective"], "energy");
  EXPECT_EQ(best["score"]["objective"], "energy");
  std::vector<json> keys_only;
  for (const auto& e : best["entries"])
    if (e["value"] == "none") keys_only.push_back(e);
  ASSERT_EQ(keys_only.size(), 1u);  // one frugal point over every size
  // 128-thread blocks; among those tied within the energy's noise, the cheapest.
  const std::string frugal = keys_only[0]["variant"];
  EXPECT_EQ(frugal.substr(frugal.size() - 7), ".tpb128") << frugal;
  EXPECT_EQ(keys_only[0]["n_min"], 1u << 20);
  EXPECT_EQ(keys_only[0]["n_max"], 1u << 28);
  // Over 2^20..2^28 by time: 256 threads win more sizes than they lose.
  EXPECT_EQ(keys_only[0]["time_pick"], "fake.radix.rb6.ipt12.tpb256");
  // The same results by time pick as a time tune does, and name no time pick.
  Space by_time = s;
  by_time.score.objective = Objective::time;
  const json tbest = best_json(run.results, by_time, {{"model", "fake-gpu"}}, {});
  EXPECT_EQ(tbest["objective"], "time");
  for (const auto& e : tbest["entries"]) EXPECT_FALSE(e.contains("time_pick"));
  // The energy score is the baseline's joules over the point's: 500 W against 350 W.
  PointResult a = timed("a", 1 << 20, 1.0), b = timed("cub", 1 << 20, 1.0);
  a.energy.measured = b.energy.measured = true;
  a.energy.joules = 0.35e-3;
  b.energy.joules = 0.5e-3;
  ScoreSettings es;
  es.objective = Objective::energy;
  es.energy_rel_error = 0.01;
  const Score sc = score_results({&a}, {&b}, 1 << 20, es);
  ASSERT_TRUE(sc.valid);
  EXPECT_NEAR(sc.value, 0.5 / 0.35, 1e-12);
  EXPECT_NEAR(sc.rel_error, std::sqrt(2 * 1e-4), 1e-12);
  es.objective = Objective::edp;
  b.time_ms.median = 2.0;
  EXPECT_NEAR(score_results({&a}, {&b}, 1 << 20, es).value, 0.5 * 2 / 0.35, 1e-12);
  // No energy: no score, and the reason says why.
  a.energy = EnergyResult{};
  a.energy.missing = "no NVML";
  const Score none = score_results({&a}, {&b}, 1 << 20, es);
  EXPECT_FALSE(none.valid);
  EXPECT_NE(none.reason.find("no energy: no NVML"), std::string::npos) << none.reason;
}

TEST(TuneObjective, SpaceReadsAndRejectsTheObjective) {
  register_fake_variants();
  const Space s = parse_space(R"({"name": "t", "variants": ["fake.*"],
    "sweeps": [{"keys": ["u32"], "sizes": [1024], "distributions": ["uniform"]}], "score": {"objective": "edp", "energy_rel_error": 0.02}})", "e.json");
  EXPECT_EQ(s.score.objective, Objective::edp);
  EXPECT_EQ(s.score.energy_rel_error, 0.02);
  EXPECT_EQ(parse_space(space_to_json(s).dump(), "again.json").score.objective, Objective::edp);
  try {
    parse_space(R"({"name": "t", "variants": ["fake.*"], "sweeps": [{"keys": ["u32"], "sizes": [1024], "distributions": ["uniform"]}],
                   "score": {"objective": "watts"}})", "bad.json");
    FAIL() << "accepted objective watts";
  } catch (const ConfigError& e) {
    EXPECT_STREQ(e.what(), "bad.json: $.score.objective: expected \"time\", \"energy\" or \"edp\"");
  }
}
