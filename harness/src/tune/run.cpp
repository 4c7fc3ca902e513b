// A whole tune run over the groups of a space, and merging shard reports.
#include <algorithm>
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

Report merge_reports(const std::vector<Report>& reports, const std::vector<std::string>& names) {
  Report out;
  if (reports.empty()) return out;
  out.context = reports[0].context;
  const json space0 = reports[0].context.value("config", json());
  std::set<std::string> seen;
  json merged_from = json::array();
  json groups = json::array();
  std::size_t evaluations = 0, hits = 0;
  double wall = 0;
  for (std::size_t i = 0; i < reports.size(); ++i) {
    const Report& r = reports[i];
    const std::string name = i < names.size() ? names[i] : "report " + std::to_string(i);
    json a = r.context.value("config", json()), b = space0;
    // The shard a report came from does not make its space different.
    if (a != b) throw ConfigError(name + ": $.context.config: differs from " + (names.empty() ? "the first report" : names[0]) + "; only shards of one space merge");
    for (const auto& p : r.results) {
      if (seen.insert(p.variant + "|" + p.workload_key()).second) out.results.push_back(p);
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
  out.context["merged_from"] = merged_from;
  return out;
}

}  // namespace sortbench::tune
