// A whole tune run over the groups of a space, and merging shard reports.
#include <algorithm>
#include <map>
#include <set>

#include "sortbench/report.hpp"
#include "sortbench/tune.hpp"

namespace sortbench::tune {

using nlohmann::json;

json TuneRun::summary() const {
  json groups = json::array();
  for (const auto& o : outcomes) {
    json g = {{"group", o.group},           {"strategy", o.strategy},   {"candidates", o.candidates},
              {"scored", o.scored},         {"unscored", o.unscored},
              {"evaluations", o.evaluations}, {"cache_hits", o.cache_hits},
              {"wall_s", o.wall_s}};
    if (!o.ranking.empty()) {
      g["pick"] = o.ranking[0].candidate->label;
      g["score"] = o.ranking[0].score.value;
      g["score_rel_error"] = o.ranking[0].score.rel_error;
    } else {
      g["pick"] = nullptr;
    }
    groups.push_back(g);
  }
  return {{"groups", groups}, {"evaluations", evaluations}, {"cache_hits", cache_hits}, {"wall_s", wall_s}};
}

TuneRun run_tune(const Space& space, const std::vector<Group>& groups, Session& session,
                 const std::function<void(const TuneRun&)>& on_group) {
  const auto t0 = std::chrono::steady_clock::now();
  TuneRun run;
  std::size_t planned = 0;
  for (const auto& g : groups) planned += planned_evaluations(space.strategy, g, space.baseline_labels.size());
  session.set_planned(planned);
  auto finish = [&] {
    run.results = session.results();
    for (const auto& g : groups)
      for (const auto& p : g.pruned) run.results.push_back(p);
    compute_speedups(run.results, space.baseline_labels);
    run.evaluations = session.evaluations();
    run.cache_hits = session.cache_hits();
    run.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  };
  for (const auto& g : groups) {
    run.outcomes.push_back(search(space.strategy, g, session));
    finish();
    if (on_group) on_group(run);
  }
  finish();
  return run;
}

namespace {

// "i/N" of a report's context (a tune's $.context.tune.shard, a run's
// $.context.shard), or {0, 0} for a run that is not a shard.
std::pair<std::size_t, std::size_t> shard_of(const Report& r, const std::string& name) {
  const json tune = r.context.value("tune", json());
  const bool run_shard = !tune.is_object() && r.context.contains("shard");
  if (!tune.is_object() && !run_shard) return {0, 0};
  const std::string s = run_shard ? (r.context["shard"].is_string() ? r.context["shard"].get<std::string>() : "?")
                                  : tune.value("shard", std::string("0/1"));
  const auto slash = s.find('/');
  try {
    if (slash == std::string::npos) throw 0;
    const std::size_t i = std::stoul(s.substr(0, slash)), n = std::stoul(s.substr(slash + 1));
    if (n == 0 || i >= n) throw 0;
    return {i, n};
  } catch (...) {
    throw ConfigError(name + (run_shard ? ": $.context.shard: '" : ": $.context.tune.shard: '") + s + "' is not a shard I/N" +
                      (s == "merged" ? " (it is already a merged report)" : ""));
  }
}

}  // namespace

Report merge_reports(const std::vector<Report>& reports, const std::vector<std::string>& names) {
  Report out;
  if (reports.empty()) return out;
  auto name_of = [&](std::size_t i) { return i < names.size() ? names[i] : "report " + std::to_string(i); };
  // Everything that must be common, checked before anything is joined.
  const json device0 = reports[0].context.value("device", json::object());
  const json build0 = reports[0].context.value("build", json::object());
  const bool tune0 = reports[0].context.contains("tune");
  std::map<std::size_t, std::string> shard_names;
  std::size_t shards = 0;
  for (std::size_t i = 0; i < reports.size(); ++i) {
    const Report& r = reports[i];
    const json device = r.context.value("device", json::object());
    if (device.value("model", "") != device0.value("model", ""))
      throw ConfigError(name_of(i) + ": $.context.device.model: '" + device.value("model", "") + "', where " + name_of(0) +
                        " has '" + device0.value("model", "") + "'; only reports of one GPU model merge");
    if (r.context.value("build", json::object()) != build0)
      throw ConfigError(name_of(i) + ": $.context.build: another build than " + name_of(0) + " (commit " +
                        r.context.value("build", json::object()).value("git_commit", "?") + " against " +
                        build0.value("git_commit", "?") + "); only reports of one build merge");
    if (r.context.contains("tune") != tune0)
      throw ConfigError(name_of(i) + ": a " + (tune0 ? "run" : "tune") + " report among " + (tune0 ? "tune" : "run") +
                        " reports; only reports of one kind merge");
    if (r.context.value("config", json()) != reports[0].context.value("config", json()))
      throw ConfigError(name_of(i) + ": $.context.config: differs from " + name_of(0) + "; only shards of one space merge");
    // Run reports merge freely unless they are shards (run --shard): then,
    // as for a tune, every shard of one split once.
    if (!tune0 && r.context.contains("shard") != reports[0].context.contains("shard"))
      throw ConfigError(name_of(i) + ": $.context.shard: " +
                        (r.context.contains("shard") ? "a shard among run reports that are not shards"
                                                     : "not a shard among shards of a run (run --shard)"));
    if (!tune0 && !r.context.contains("shard")) continue;
    if (tune0 && (!r.context.contains("config") || !r.context["config"].is_object()))
      throw ConfigError(name_of(i) + ": $.context.config: missing; expected the space the tune ran (an object)");
    const auto [k, n] = shard_of(r, name_of(i));
    if (shards && n != shards)
      throw ConfigError(name_of(i) + ": shard " + std::to_string(k) + "/" + std::to_string(n) + " overlaps shards of " +
                        std::to_string(shards) + " (" + name_of(0) + "); only the shards of one split merge");
    shards = n;
    if (const auto it = shard_names.find(k); it != shard_names.end())
      throw ConfigError(name_of(i) + ": shard " + std::to_string(k) + "/" + std::to_string(n) + " given twice (also " +
                        it->second + ")");
    shard_names[k] = name_of(i);
  }
  for (std::size_t k = 0; k < shards; ++k)
    if (!shard_names.count(k))
      throw ConfigError("merge: shard " + std::to_string(k) + "/" + std::to_string(shards) + " is missing; " +
                        (tune0 ? "best.json from part of a space would miss its points"
                               : "the merged run would miss its workloads"));
  if (tune0) {
    // What a shard holds must be what its space plans: a result on another
    // workload, or a run of another strategy, would reach best.json unseen.
    const Space space = parse_space(reports[0].context.at("config").dump(), name_of(0) + ": $.context.config");
    std::set<std::string> planned;
    for (const Workload& w : expand_workloads(space.sweep)) planned.insert(blank_result("", {}, "", w).workload_key());
    for (std::size_t i = 0; i < reports.size(); ++i) {
      const json& t = reports[i].context["tune"];
      if (t.contains("strategy") &&
          (!t["strategy"].is_string() || t["strategy"].get<std::string>() != to_string(space.strategy.kind)))
        throw ConfigError(name_of(i) + ": $.context.tune.strategy: " + t["strategy"].dump() + ", where the space in " +
                          name_of(0) + "'s $.context.config names \"" + to_string(space.strategy.kind) +
                          "\"; only shards of one tune merge");
      for (std::size_t k = 0; k < reports[i].results.size(); ++k) {
        const PointResult& p = reports[i].results[k];
        if (!planned.count(p.workload_key()))
          throw ConfigError(name_of(i) + ": $.results[" + std::to_string(k) + "]: " + p.variant + " on " +
                            to_string(p.key) + "/" + to_string(p.value) + " " + to_string(p.order) + " n=" +
                            std::to_string(p.n) + " " + p.distribution + " seed " + std::to_string(p.seed) +
                            " is not a workload of the space in $.context.config");
      }
    }
  }
  out.context = reports[0].context;
  std::map<std::string, std::string> seen;  // variant|workload -> the report it came from
  json merged_from = json::array();
  json groups = json::array();
  std::size_t evaluations = 0, hits = 0;
  double wall = 0;
  for (std::size_t i = 0; i < reports.size(); ++i) {
    const Report& r = reports[i];
    const std::string name = name_of(i);
    for (std::size_t k = 0; k < r.results.size(); ++k) {
      const PointResult& p = r.results[k];
      const auto [it, fresh] = seen.emplace(p.variant + "|" + p.workload_key(), name);
      if (fresh) {
        out.results.push_back(p);
      } else if (!tune0) {
        // Tune shards each measure the baselines; run reports that overlap
        // would keep one measurement of a point and silently drop another.
        throw ConfigError(name + ": $.results[" + std::to_string(k) + "]: " + p.variant + " on " + p.workload_key() +
                          " is also in " + it->second + "; only run reports of different points merge");
      }
    }
    json entry = {{"report", name}};
    if (r.context.contains("tune")) {
      const json& t = r.context["tune"];
      entry["shard"] = t.value("shard", "1/1");
      entry["evaluations"] = t.value("evaluations", 0);
      entry["wall_s"] = t.value("wall_s", 0.0);
      evaluations += t.value("evaluations", std::size_t(0));
      hits += t.value("cache_hits", std::size_t(0));
      wall = std::max(wall, t.value("wall_s", 0.0));  // shards run side by side
      if (t.contains("groups"))
        for (const auto& g : t["groups"]) groups.push_back(g);
      // Each shard checked the resources of its own points.
      if (t.contains("resources") && i > 0 && out.context.contains("tune") && out.context["tune"].contains("resources")) {
        json& into = out.context["tune"]["resources"];
        const json points = t["resources"].value("points", json::object());
        const json undeclared = t["resources"].value("undeclared", json::array());
        for (const auto& [label, kernels] : points.items()) into["points"][label] = kernels;
        for (const auto& label : undeclared)
          if (std::find(into["undeclared"].begin(), into["undeclared"].end(), label) == into["undeclared"].end())
            into["undeclared"].push_back(label);
      }
    }
    if (r.context.contains("shard")) entry["shard"] = r.context["shard"];
    if (r.context.contains("device")) entry["device"] = r.context["device"].value("uuid", "");
    merged_from.push_back(entry);
    out.complete = out.complete && r.complete;
  }
  if (out.context.contains("tune")) {
    out.context["tune"]["shard"] = "merged";
    out.context["tune"]["groups"] = groups;
    out.context["tune"]["evaluations"] = evaluations;
    out.context["tune"]["cache_hits"] = hits;
    out.context["tune"]["wall_s"] = wall;
  }
  if (!tune0 && out.context.contains("shard")) out.context["shard"] = "merged";
  out.context["merged_from"] = merged_from;
  return out;
}

}  // namespace sortbench::tune
