// sortbench tune: the host side of auto-tuning (docs/tune.md).
//
//   space    a tune space file: a sweep config (variants, sweeps, measure, seed)
//            plus parameter filters, score settings and a search strategy
//   points   registered variants whose params fall in the space, pruned per
//            group (key type x value type x order) by unsupported() and by a
//            resource hook
//   session  measures (variant, workload) pairs through an Evaluator, behind
//            a durable JSON-lines cache; baselines are measured in the same run
//   score    weighted geometric mean of speedups over the baseline
//   search   exhaustive, random, successive halving, coordinate descent
//   best     results/<gpu-model>/best.json: the best point per size range
//
// Pure host code: everything here runs on the CPU with a fake evaluator.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sortbench/config.hpp"
#include "sortbench/input_class.hpp"
#include "sortbench/device.hpp"
#include "sortbench/report.hpp"
#include "sortbench/resources.hpp"
#include "sortbench/result.hpp"
#include "sortbench/variant.hpp"

namespace sortbench::tune {

// ---- space -------------------------------------------------------------

// Keeps a variant only if its parameter `name` is one of `values` (compared as
// numbers when both are numbers) and within [min, max]. A variant without the
// parameter is dropped.
struct ParamFilter {
  std::string name;
  std::vector<std::string> values;  // empty: any
  std::optional<double> min, max;
  bool accepts(const Params& ps) const;
};

// What a tune minimises on each workload (docs/tune.md "Objective"): one
// sort's time (the median), its energy (joules from NVML), or their product,
// the energy-delay product.
enum class Objective { time, energy, edp };
std::string to_string(Objective o);
std::optional<Objective> parse_objective(const std::string& s);

struct ScoreSettings {
  Objective objective = Objective::time;
  // Workload weight w(n) = (n / n_min) ^ size_weight_exponent (n_min: the
  // group's smallest size). 0 weighs every size equally.
  double size_weight_exponent = 0.5;
  // Two scores tie when |ln a - ln b| <= noise_z * sqrt(e_a^2 + e_b^2), with e
  // the relative standard error of each score.
  double noise_z = 2.0;
  // The least relative error taken for one point's energy, added in
  // quadrature to its window's own: the counter's drift between points
  // (docs/experiments/energy.md), which the window cannot see.
  double energy_rel_error = 0.01;
};

// {"objective", "size_weight_exponent", "noise_z", "energy_rel_error"}: what
// a space's $.score reads back.
nlohmann::json score_settings_json(const ScoreSettings& s);

// What the objective minimises for r (milliseconds, joules, or joule-
// milliseconds), and its relative error; nullopt when r has none (not ok, or
// no energy measured).
std::optional<double> objective_cost(const PointResult& r, const ScoreSettings& s);
double objective_rel_error(const PointResult& r, const ScoreSettings& s);
// Why r has no cost under the objective ("no energy: ..."); empty when it has one.
std::string objective_missing(const PointResult& r, const ScoreSettings& s);

enum class StrategyKind { exhaustive, random, halving, descent };
std::string to_string(StrategyKind s);
std::optional<StrategyKind> parse_strategy(const std::string& s);

struct StrategySettings {
  StrategyKind kind = StrategyKind::halving;
  std::size_t budget = 0;        // random / descent: most candidates scored per group (0: a quarter of them, at least 8)
  double keep_fraction = 1.0 / 3.0;  // halving: fraction promoted to the next size
  std::size_t min_keep = 3;      // halving: never promote fewer
  std::size_t restarts = 3;      // descent: random starting points
  std::uint64_t seed = 1;        // random / descent
};

struct Space {
  SweepConfig sweep;  // name, variants, baselines (globs of library calls), seed, measure, sweeps
  // The library calls scores are taken against, resolved from sweep.baselines
  // (resolve_baselines): each is measured on every workload, and each point is
  // scored against the best of them (by the objective) on each workload.
  std::vector<std::string> baseline_labels;
  std::vector<ParamFilter> params;
  // "on_demand": true: the points of every declared family space
  // (sortbench/family_space.hpp) that $.variants and $.params select, built
  // where the binary lacks them (sortbench/on_demand.hpp), not only the
  // compiled-in ones.
  bool on_demand = false;
  // Filled in when those are planned: the labels of every such point.
  std::vector<std::string> on_demand_labels;
  ScoreSettings score;
  StrategySettings strategy;
  bool is_baseline(const std::string& label) const;
  // The baseline group (report.hpp's baseline_groups) shared by every
  // baseline label: their call ("cub.radix_sort") or else their library
  // ("cub"); empty when they share neither. Results' vs[score_group()] is
  // what merged shards are scored from.
  std::string score_group() const;
};

// A glob's registered matches (opt-in variants only where the glob names
// their family), and a label without wildcards as written (the fake
// evaluator's baseline is not registered).
std::vector<std::string> resolve_baselines(const std::vector<std::string>& globs, const Registry& r);

// Parses a space document; errors are ConfigErrors naming `where` and the JSON path.
Space parse_space(const std::string& text, const std::string& where);
Space load_space_file(const std::string& path);
nlohmann::json space_to_json(const Space& s);  // round-trips through parse_space

// ---- points --------------------------------------------------------------

// Why `v` cannot run `p` for lack of resources (shared memory, registers,
// resident blocks); empty when it can or when the variant says nothing.
using ResourceCheck = std::function<std::string(const VariantInfo& v, const Problem& p)>;
// Prunes nothing: a dry run, which queries no GPU.
std::string no_resource_check(const VariantInfo& v, const Problem& p);

// The kernels `v` launches for `p`, with what each asks of an SM.
using ResourceProvider = std::function<std::vector<KernelResources>(const VariantInfo& v, const Problem& p)>;
// The compiled kernels' (cudaFuncGetAttributes of v's instance for p); needs
// the GPU. Empty for host variants and variants that declare no kernels.
std::vector<KernelResources> compiled_variant_resources(const VariantInfo& v, const Problem& p);

// The resource hook: a point is pruned when a kernel it launches cannot keep
// one block resident on an SM with these limits (resource_reason). It keeps
// each checked point's kernels, with their residency, for the report.
class KernelResourceCheck {
 public:
  KernelResourceCheck(SmLimits sm, ResourceProvider provider);
  std::string operator()(const VariantInfo& v, const Problem& p);
  // {"sm": {limits}, "points": {label: {"u32/none": [kernel, ...]}},
  //  "undeclared": [labels whose variant declares no kernels]}
  nlohmann::json report() const;
  const std::vector<std::string>& undeclared() const { return undeclared_; }

 private:
  SmLimits sm_;
  ResourceProvider provider_;
  nlohmann::json points_ = nlohmann::json::object();
  std::vector<std::string> undeclared_;
};

struct Candidate {
  std::string label, family;
  std::string method;  // the label without its parameter suffix: one categorical axis
  Params params;
  double resource_cost = 0;  // ties within noise go to the smaller cost
};
Candidate make_candidate(const VariantInfo& v);
// block_threads x items_per_thread when the variant has them, else its tile_keys.
double resource_cost(const VariantInfo& v);

// One search: a (key, value, order) group and its workloads (sizes x distributions).
struct Group {
  KeyType key = KeyType::u32;
  ValueType value = ValueType::none;
  Order order = Order::ascending;
  std::vector<Workload> workloads;  // ascending n
  // Workloads no variant can sort (plan::workload_skip_reason: a
  // distribution the key type does not take, ...), with why: left out of
  // the group, since no point could be scored on every workload with them.
  std::vector<std::pair<Workload, std::string>> unsortable;
  std::vector<Candidate> candidates;
  std::vector<PointResult> pruned;  // status skipped, with the reason
  // Candidates whose own check could not run (plan_groups with lenient_checks):
  // {label, why}, e.g. the CUDA error of a shared-memory query without a GPU.
  std::vector<std::pair<std::string, std::string>> unchecked;
  std::string name() const;         // "u32/none asc"
};

// Stable 64-bit FNV-1a, used for shard assignment and cache key digests.
std::uint64_t stable_hash(const std::string& s);
// Shard i of n (0-based) owns the points whose label hashes to i.
bool in_shard(const std::string& label, std::size_t shard, std::size_t shards);

// The groups of a space over the registry's variants, the shard applied.
// With lenient_checks (a dry run, which queries no GPU), a variant's own
// `unsupported` check that throws (it asks a GPU that is not there) does not
// fail the plan: the point stays a candidate and is listed in Group::unchecked
// with the error.
std::vector<Group> plan_groups(const Space& s, const std::vector<const VariantInfo*>& variants,
                               const ResourceCheck& resources, std::size_t shard = 0, std::size_t shards = 1,
                               bool lenient_checks = false);
// Variants matched by the space's globs and parameter filters (baselines excluded).
std::vector<const VariantInfo*> space_variants(const Space& s, const Registry& r);

// ---- evaluation and cache ---------------------------------------------------

// Measures one variant on one workload. Real: a worker process around Runner;
// tests: a deterministic model.
class Evaluator {
 public:
  virtual ~Evaluator() = default;
  virtual PointResult evaluate(const std::string& label, const Workload& w) = 0;
};

// What a cached measurement is only valid for.
struct CacheIdentity {
  std::string gpu_model, gpu_uuid;
  std::string git_commit, cxx_compiler, cuda_compiler, cxx_flags, cuda_flags, cuda_architectures;
  std::string kernel_hash;  // of variants/ and harness/src/device/ at build time
};
CacheIdentity identity_of_this_build(const std::string& gpu_model, const std::string& gpu_uuid);
// SHA-256 prefix of the kernel sources this binary was built from (cmake/kernel_hash.cmake).
const std::string& kernel_source_hash();
nlohmann::json to_json(const CacheIdentity& c);

// The canonical key of a measurement (compact JSON text, sorted fields).
std::string cache_key(const CacheIdentity& id, const std::string& label, const Params& params, const Workload& w,
                      const MeasureSettings& m);

// Append-only JSON lines (schemas/cache.schema.json): a header line naming
// what the cache belongs to (cache_header: GPU model, build, tune space), then
// {"key": ..., "result": ...} per measured point, written with one write() on
// an O_APPEND descriptor and fsync'd before append() returns, so a SIGKILL
// loses at most the point being measured. A torn last line (killed mid-write)
// is ignored on load; any other line that is not a cache line, a file that is
// not a cache, and a cache of another GPU model, build or space are
// ConfigErrors naming the file (and line), and nothing is appended to them.
inline constexpr const char* kCacheSchema = "sortbench-cache";
inline constexpr int kCacheSchemaVersion = 1;
nlohmann::json cache_header(const CacheIdentity& id, const Space& space);
// Checks a cache file's format (header and lines) and that it belongs to the
// space and build of `expected` (a cache_header; its GPU model is compared
// only when not empty), without a GPU; a missing or empty file is a new cache.
void check_cache_file(const std::string& path, const nlohmann::json& expected);

class ResultCache {
 public:
  // Creates the cache with `header`, or opens it after checking its header
  // matches; load_existing false (--fresh) skips its entries.
  ResultCache(std::string path, const nlohmann::json& header, bool load_existing = true);
  ~ResultCache();
  ResultCache(const ResultCache&) = delete;
  ResultCache& operator=(const ResultCache&) = delete;
  const PointResult* find(const std::string& key) const;
  void append(const std::string& key, const PointResult& r);
  const std::string& path() const { return path_; }
  std::size_t loaded() const { return loaded_; }
  std::size_t torn_lines() const { return torn_; }

 private:
  std::string path_;
  int fd_ = -1;
  std::map<std::string, PointResult> entries_;
  std::size_t loaded_ = 0, torn_ = 0;
};

// Joins cache files (deduplicated by key, first wins) after checking they
// share one header; the text of the joined cache, for the caller to write.
struct MergedCache {
  nlohmann::json header;
  std::string text;
  std::size_t entries = 0;
};
MergedCache merge_caches(const std::vector<std::string>& inputs);

// Reports progress: evaluations done / planned, ETA, best so far.
class Progress {
 public:
  virtual ~Progress() = default;
  virtual void update(const std::string& /*line*/) {}
};

// ---- scoring ----------------------------------------------------------------

struct Score {
  bool valid = false;
  double value = 0;      // weighted geometric mean of the best baseline's cost over this point's (a speedup, for time)
  double rel_error = 0;  // its relative standard error
  std::size_t workloads = 0;
  std::string reason;    // why not valid
};

// results: the candidate's results on the workloads that count; baseline: the
// best baseline's on each (by the objective), same order. n_min: the group's smallest size.
// A result's own vs[baseline_group], when present, is used instead of the
// ratio of medians: merged shards keep the speedups of their own run.
Score score_results(const std::vector<const PointResult*>& results, const std::vector<const PointResult*>& baseline,
                    std::size_t n_min, const ScoreSettings& s, const std::string& baseline_group = "");
bool ties(const Score& a, const Score& b, const ScoreSettings& s);
// The score is above 1 by more than noise: ln(score) > noise_z x its relative error.
bool beats_baseline(const Score& a, const ScoreSettings& s);

struct Ranked {
  const Candidate* candidate;
  Score score;
};
// Best first: by score, except that the point with the smallest resource cost
// among those tied (within noise) with the top scorer comes first. Invalid
// scores are dropped.
std::vector<Ranked> rank(std::vector<Ranked> points, const ScoreSettings& s);

// ---- session and strategies ----------------------------------------------------

class Session {
 public:
  // cache may be null (--fresh without writing); baseline: the label speedups are taken against.
  Session(const Space& space, Evaluator& eval, ResultCache* cache, const CacheIdentity& id, Progress* progress = nullptr);
  // The result of `label` on `w`: from this session, the cache, or measured.
  const PointResult& result(const std::string& label, const Params& params, const Workload& w);
  // Measures what is missing (every baseline too) and scores the candidate
  // over `workloads` against the best baseline on each.
  Score score(const Candidate& c, const std::vector<Workload>& workloads, std::size_t n_min);
  // The baseline measured ok on w in this session with the least cost under
  // the space's objective (for time, the fastest), or null.
  const PointResult* best_baseline(const Workload& w) const;
  std::size_t evaluations() const { return measured_; }
  std::size_t cache_hits() const { return cache_hits_; }
  // Every result of this session (cached ones included), in first-use order.
  std::vector<PointResult> results() const;
  void set_planned(std::size_t planned) { planned_ = planned; }
  void note_best(const std::string& text) { best_text_ = text; }
  const Space& space() const { return space_; }

 private:
  const Space& space_;
  Evaluator& eval_;
  ResultCache* cache_;
  CacheIdentity id_;
  Progress* progress_;
  std::map<std::string, std::size_t> index_;  // label|workload -> results_
  std::vector<PointResult> results_;
  std::size_t measured_ = 0, cache_hits_ = 0, planned_ = 0;
  std::string best_text_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

struct SearchOutcome {
  std::string group, strategy;
  std::size_t evaluations = 0, cache_hits = 0, candidates = 0;
  std::size_t scored = 0;    // points tried that have a score
  std::size_t unscored = 0;  // points tried that failed or were skipped on a workload: no score
  double wall_s = 0;
  // Over the workloads every ranked point was measured on; points into the
  // Group's candidates, which must outlive it.
  std::vector<Ranked> ranking;
};

// Upper bound of (variant, workload) evaluations a strategy plans for a group (for the ETA).
std::size_t planned_evaluations(const StrategySettings& s, const Group& g, std::size_t baselines = 1);
SearchOutcome search(const StrategySettings& s, const Group& g, Session& session);

// ---- best configuration -------------------------------------------------------

// From a run's (or merged runs') results with speedups computed: per group and
// size, the best point measured on every workload of that size, or the
// fastest baseline (a library call, "library": true) where no point beats the
// fastest baseline beyond noise; adjacent sizes with the same winner form one
// range. Also each group's overall pick over all its workloads.
nlohmann::json best_json(const std::vector<PointResult>& results, const Space& space, const nlohmann::json& device,
                         const nlohmann::json& provenance);

struct BestChoice {
  std::string variant;  // what to sort with: a point of ours or a library call
  Params params;
  double score = 0;
  bool found = false;
  bool library = false;  // variant is a library call: nothing of ours beat it
  std::string ours;      // the best point of ours for the range (variant itself when ours won)
};
// The entry of a best.json document for this problem: the range containing n,
// else the nearest range (in log2 n) of the same key, value and order; among
// the nearest, the input's class's entries (version 3), then its fallback
// class's, then those for every input. With `usable`, only entries it
// accepts (a dispatch's: those whose variant can sort the problem; best:FAMILY's:
// those whose "ours" can). Where it refuses the nearest entry (n is past that
// pick's cap), an entry of the same rank or better (the input's class before
// its fallback class's) on n's other side in size comes first, then that
// entry's runner-up where its score is above 1, then the nearest it accepts:
// so a size past one pick's cap takes the next size's pick for its class,
// not the fallback class's.
BestChoice select_best(const nlohmann::json& best, KeyType key, ValueType value, Order order, std::size_t n,
                       InputClass input = InputClass::spread,
                       const std::function<bool(const BestChoice&)>& usable = {});

// The best.json document at `path` when it is for gpu_model; null when there
// is no file or it is for another GPU model. A file that is there must be a
// best.json this build reads (ConfigError naming the file and JSON path).
nlohmann::json read_best_json(const std::string& path, const std::string& gpu_model);
// `fresh` (a tune's best.json) with the entries of `base` it did not measure:
// those of key, value and order groups it has none of, and the parts of the
// others' size ranges outside its own; provenance names base_path.
nlohmann::json keep_unmeasured_entries(const nlohmann::json& base, nlohmann::json fresh, const std::string& base_path);

// The class best.json's tune put a distribution in (the "distributions" of
// its class entries, the key type's first); none for one the tune did not
// measure.
std::optional<InputClass> measured_class(const nlohmann::json& best, KeyType key, const std::string& distribution);
// The same, spread where the tune did not measure the distribution.
InputClass class_of_distribution(const nlohmann::json& best, KeyType key, const std::string& distribution);

// A config's best:FAMILY entries (family globs) on workload w: per family of
// ours that a glob matches, the point best.json names as the best of ours
// for w's key, value, order and size (select_best, "ours": also where a
// library call won; where best.json has no entry for the key type, the entry
// of a key type of the same width) when it is of that family, else the
// family's default point. `best` may be null or empty (no tuning for this GPU).
// The input class: the one the tune put w's distribution in; for a
// distribution it did not measure, keys_class (the class of w's own keys,
// classify_workload) where given, else spread.
std::vector<const VariantInfo*> resolve_best_selectors(const std::vector<std::string>& family_globs,
                                                       const Workload& w, const nlohmann::json& best,
                                                       const Registry& r,
                                                       std::optional<InputClass> keys_class = std::nullopt);

// ---- whole runs and merging ------------------------------------------------------

struct TuneRun {
  std::vector<PointResult> results;  // measured or cached, then pruned; speedups computed
  std::vector<SearchOutcome> outcomes;
  std::size_t evaluations = 0, cache_hits = 0;
  double wall_s = 0;
  nlohmann::json summary() const;  // the report's context.tune.groups and totals
};
// Runs the space's strategy over every group. on_group is called after each
// group with the run so far (the CLI rewrites its partial report there).
TuneRun run_tune(const Space& space, const std::vector<Group>& groups, Session& session,
                 const std::function<void(const TuneRun&)>& on_group = nullptr);

// Joins shard reports: results deduplicated by (variant, workload), first
// wins, speedups kept from each shard's own run; context from the first, with
// context.tune totals summed and context.merged_from listing the inputs.
// Throws ConfigError, before joining anything, when the reports differ in GPU
// model, build, kind (run or tune) or space, and for tune reports when a shard
// is given twice, shards of different splits overlap, or a shard is missing.
Report merge_reports(const std::vector<Report>& reports, const std::vector<std::string>& names);

// ---- fake evaluator (tests, --fake-evaluator) --------------------------------------

// Registers fake.radix.rb{4,6,8}.ipt{4,8,12,16}.tpb{128,256,512},
// fake.merge.ipt{8,16}.tpb{128,256} (the family's default point:
// fake.radix.rb8.ipt8.tpb256), and cub.radix_sort.off32/off64 where no real
// baselines are linked in (idempotent). fake.radix.rb4.* are unsupported
// above 2^26 keys.
void register_fake_variants();
// Times follow a smooth model of the parameters (best: fake.radix.rb6.ipt12.tpb256
// for keys only, rb8.ipt8.tpb256 for pairs) plus a small label-seeded jitter;
// on 64-bit keys every fake point is slower than the library. The baselines
// run at 1 ms per 2^20 keys (*.off64), 1.12 ms for keys and 0.92 ms for pairs
// (*.off32).
class FakeEvaluator : public Evaluator {
 public:
  explicit FakeEvaluator(double delay_s = 0) : delay_s_(delay_s) {}
  PointResult evaluate(const std::string& label, const Workload& w) override;
  std::size_t calls = 0;

 private:
  double delay_s_;
};
// The fake family's kernels: one "pass" kernel of block_threads threads with
// 1 + 8 x items_per_thread registers per thread (so tpb512 x ipt16, at 129,
// cannot launch a block) and block_threads x items_per_thread x 4 bytes of
// dynamic shared memory. Checked against sm90_limits() in tests and tune --fake-evaluator.
std::vector<KernelResources> fake_kernel_resources(const VariantInfo& v, const Problem& p);

// A result record with the workload and variant filled in (no timing).
PointResult blank_result(const std::string& label, const Params& params, const std::string& family, const Workload& w);

}  // namespace sortbench::tune
