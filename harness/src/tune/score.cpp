// Scores, ranking with noise ties, and best.json (docs/tune.md "Score").
#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "sortbench/tune.hpp"

namespace sortbench::tune {

using nlohmann::json;

std::string to_string(Objective o) {
  switch (o) {
    case Objective::time: return "time";
    case Objective::energy: return "energy";
    case Objective::edp: return "edp";
  }
  return "time";
}

std::optional<Objective> parse_objective(const std::string& s) {
  for (Objective o : {Objective::time, Objective::energy, Objective::edp})
    if (to_string(o) == s) return o;
  return std::nullopt;
}

json score_settings_json(const ScoreSettings& s) {
  return {{"objective", to_string(s.objective)}, {"size_weight_exponent", s.size_weight_exponent},
          {"noise_z", s.noise_z}, {"energy_rel_error", s.energy_rel_error}};
}

std::string objective_missing(const PointResult& r, const ScoreSettings& s) {
  if (r.status != Status::ok) return to_string(r.status) + (r.reason.empty() ? "" : ": " + r.reason);
  if (r.time_ms.median <= 0) return "zero time";
  if (s.objective == Objective::time) return {};
  if (!r.energy.measured) return "no energy: " + (r.energy.missing.empty() ? std::string("not measured") : r.energy.missing);
  if (r.energy.joules <= 0) return "zero energy";
  return {};
}

std::optional<double> objective_cost(const PointResult& r, const ScoreSettings& s) {
  if (!objective_missing(r, s).empty()) return std::nullopt;
  switch (s.objective) {
    case Objective::time: return r.time_ms.median;
    case Objective::energy: return r.energy.joules;
    case Objective::edp: return r.energy.joules * r.time_ms.median;
  }
  return std::nullopt;
}

double objective_rel_error(const PointResult& r, const ScoreSettings& s) {
  const double t = r.time_ms.rel_stderr;
  const double e2 = r.energy.rel_error * r.energy.rel_error + s.energy_rel_error * s.energy_rel_error;
  switch (s.objective) {
    case Objective::time: return t;
    case Objective::energy: return std::sqrt(e2);
    case Objective::edp: return std::sqrt(e2 + t * t);
  }
  return t;
}

// score = exp( sum_i w_i ln s_i / sum_i w_i ),  s_i = c_baseline,i / c_point,i
// with c the objective's cost (time: the median), w_i = (n_i / n_min)^alpha.
// The error of ln s_i is about e_point,i + e_base,i in quadrature (relative
// errors of the costs), so
// var(ln score) = sum_i w_i^2 (e_p,i^2 + e_b,i^2) / (sum_i w_i)^2.
Score score_results(const std::vector<const PointResult*>& results, const std::vector<const PointResult*>& baseline,
                    std::size_t n_min, const ScoreSettings& s, const std::string& baseline_group) {
  Score sc;
  if (results.empty() || results.size() != baseline.size()) {
    sc.reason = "no workloads";
    return sc;
  }
  double wsum = 0, lsum = 0, var = 0;
  for (std::size_t i = 0; i < results.size(); ++i) {
    const PointResult* r = results[i];
    const PointResult* b = baseline[i];
    if (!r) {
      sc.reason = "not measured";
      return sc;
    }
    const std::string at = " at n=" + std::to_string(r->n) + " " + r->distribution;
    const auto mine = objective_cost(*r, s);
    if (!mine) {
      sc.reason = objective_missing(*r, s) + at;
      return sc;
    }
    const auto theirs = b ? objective_cost(*b, s) : std::nullopt;
    if (!theirs) {
      sc.reason = "baseline not measured ok" + at + (b ? " (" + objective_missing(*b, s) + ")" : "");
      return sc;
    }
    const double w = std::pow(double(r->n) / double(std::max<std::size_t>(n_min, 1)), s.size_weight_exponent);
    // Merged shards keep their own run's time ratio; it exists for time only.
    const auto own = baseline_group.empty() || s.objective != Objective::time ? r->vs.end() : r->vs.find(baseline_group);
    const double speedup = own != r->vs.end() ? own->second.speedup : *theirs / *mine;
    const double er = objective_rel_error(*r, s), eb = objective_rel_error(*b, s);
    wsum += w;
    lsum += w * std::log(speedup);
    var += w * w * (er * er + eb * eb);
  }
  sc.valid = true;
  sc.value = std::exp(lsum / wsum);
  sc.rel_error = std::sqrt(var) / wsum;
  sc.workloads = results.size();
  return sc;
}

bool beats_baseline(const Score& a, const ScoreSettings& s) {
  return a.valid && std::log(a.value) > s.noise_z * a.rel_error;
}

bool ties(const Score& a, const Score& b, const ScoreSettings& s) {
  if (!a.valid || !b.valid) return false;
  return std::abs(std::log(a.value) - std::log(b.value)) <=
         s.noise_z * std::sqrt(a.rel_error * a.rel_error + b.rel_error * b.rel_error);
}

std::vector<Ranked> rank(std::vector<Ranked> points, const ScoreSettings& s) {
  points.erase(std::remove_if(points.begin(), points.end(), [](const Ranked& r) { return !r.score.valid; }),
               points.end());
  std::sort(points.begin(), points.end(), [](const Ranked& a, const Ranked& b) {
    if (a.score.value != b.score.value) return a.score.value > b.score.value;
    return a.candidate->label < b.candidate->label;
  });
  if (points.size() < 2) return points;
  // Among the points tied with the top scorer, the cheapest one leads.
  std::size_t lead = 0;
  for (std::size_t i = 1; i < points.size() && ties(points[0].score, points[i].score, s); ++i) {
    const auto& c = *points[i].candidate;
    const auto& l = *points[lead].candidate;
    if (c.resource_cost < l.resource_cost) lead = i;
  }
  if (lead) std::rotate(points.begin(), points.begin() + lead, points.begin() + lead + 1);
  return points;
}

// ---- best.json ---------------------------------------------------------------

namespace {

json params_object(const Params& ps) {
  json j = json::object();
  for (const auto& p : ps) j[p.name] = p.value;
  return j;
}

}  // namespace

json best_json(const std::vector<PointResult>& results, const Space& space, const json& device,
               const json& provenance) {
  const std::string group_name = space.score_group();
  // Results per label and workload (the first one: merged shards each measured the baselines).
  std::map<std::string, std::map<std::string, const PointResult*>> by_label;
  std::map<std::string, Candidate> cands;  // ours
  for (const auto& r : results) {
    by_label[r.variant].emplace(r.workload_key(), &r);
    if (space.is_baseline(r.variant) || cands.count(r.variant)) continue;
    Candidate c;
    c.label = r.variant;
    c.family = r.family;
    c.params = r.params;
    VariantInfo tmp;
    tmp.params = r.params;
    c.resource_cost = resource_cost(tmp);
    cands.emplace(r.variant, c);
  }
  auto result_of = [&](const std::string& label, const Workload& w) -> const PointResult* {
    const auto l = by_label.find(label);
    if (l == by_label.end()) return nullptr;
    const auto it = l->second.find(blank_result(label, {}, "", w).workload_key());
    return it == l->second.end() ? nullptr : it->second;
  };
  // The baseline measured ok on w with the least cost under the objective
  // (for time, the fastest).
  auto best_baseline = [&](const Workload& w, const ScoreSettings& settings) -> const PointResult* {
    const PointResult* best = nullptr;
    std::optional<double> best_cost;
    for (const auto& b : space.baseline_labels) {
      const PointResult* r = result_of(b, w);
      const auto c = r ? objective_cost(*r, settings) : std::nullopt;
      if (c && (!best_cost || *c < *best_cost)) {
        best = r;
        best_cost = c;
      }
    }
    return best;
  };
  // Scores of `labels` measured on all of `ws` against the best baseline of each workload.
  auto scores = [&](const std::vector<std::string>& labels, const std::vector<const Workload*>& ws, std::size_t n_min,
                    const std::string& group, const ScoreSettings& settings) {
    std::vector<std::pair<std::string, Score>> out;
    for (const auto& label : labels) {
      std::vector<const PointResult*> mine, theirs;
      bool complete = true;
      for (const Workload* w : ws) {
        const PointResult* r = result_of(label, *w);
        if (!r) {
          complete = false;
          break;
        }
        mine.push_back(r);
        theirs.push_back(best_baseline(*w, settings));
      }
      if (complete) out.emplace_back(label, score_results(mine, theirs, n_min, settings, group));
    }
    return out;
  };
  std::vector<std::string> our_labels;
  for (const auto& [label, c] : cands) our_labels.push_back(label);
  // Whether `label` costs more than the best baseline beyond noise on any
  // of `ws` (docs/tune.md: such a point is no pick for them).
  auto loses_somewhere = [&](const std::string& label, const std::vector<const Workload*>& ws,
                             const ScoreSettings& settings) {
    for (const Workload* w : ws) {
      const PointResult* r = result_of(label, *w);
      const PointResult* b = best_baseline(*w, settings);
      const auto mine = r ? objective_cost(*r, settings) : std::nullopt;
      const auto theirs = b ? objective_cost(*b, settings) : std::nullopt;
      if (!mine || !theirs) return true;
      const auto own = settings.objective == Objective::time ? r->vs.find(group_name) : r->vs.end();
      const double speedup = own != r->vs.end() ? own->second.speedup : *theirs / *mine;
      const double er = objective_rel_error(*r, settings), eb = objective_rel_error(*b, settings);
      if (std::log(speedup) < -settings.noise_z * std::sqrt(er * er + eb * eb)) return true;
    }
    return false;
  };

  // What the workloads `ws` get: the best point of ours if it beats the
  // best baseline beyond noise, else the baseline call best over them (by the objective).
  struct Pick {
    std::vector<Ranked> ours;  // ranked
    std::string library;       // the best baseline over the workloads
    Score library_score;       // its score against the best baseline of each workload (at most 1)
    bool library_wins = false;
    bool ours_loses = false;   // every point of ours is slower than a baseline beyond noise somewhere
    std::string winner() const { return library_wins ? library : ours[0].candidate->label; }
  };
  auto pick = [&](const std::vector<const Workload*>& ws, std::size_t n_min, const ScoreSettings& settings) {
    Pick p;
    std::vector<Ranked> pts;
    // Our points against the best baseline: merged shards keep their own run's ratio (vs[group]).
    for (const auto& [label, sc] : scores(our_labels, ws, n_min, group_name, settings))
      pts.push_back({&cands.at(label), sc});
    p.ours = rank(pts, settings);
    // Ranked as measured (best:FAMILY names the best of ours); the library
    // call wins over a point that loses anywhere.
    p.ours_loses = !p.ours.empty() && loses_somewhere(p.ours[0].candidate->label, ws, settings);
    if (p.ours_loses)
      for (std::size_t i = 1; i < p.ours.size(); ++i)
        if (!loses_somewhere(p.ours[i].candidate->label, ws, settings) && beats_baseline(p.ours[i].score, settings)) {
          std::rotate(p.ours.begin(), p.ours.begin() + std::ptrdiff_t(i), p.ours.begin() + std::ptrdiff_t(i) + 1);
          p.ours_loses = false;
          break;
        }
    for (const auto& [label, sc] : scores(space.baseline_labels, ws, n_min, "", settings)) {
      if (!sc.valid) continue;
      if (p.library.empty() || sc.value > p.library_score.value) {
        p.library = label;
        p.library_score = sc;
      }
    }
    p.library_wins =
        !p.library.empty() && (p.ours.empty() || p.ours_loses || !beats_baseline(p.ours[0].score, settings));
    return p;
  };
  // Where the objective is not time, each entry also names what a tune by
  // time would pick over the same workloads from the same results.
  ScoreSettings by_time = space.score;
  by_time.objective = Objective::time;
  const bool other_objective = space.score.objective != Objective::time;
  auto entry = [&](const Group& g, const Pick& p, std::size_t lo, std::size_t hi,
                   const std::vector<const Workload*>& ws, std::size_t n_min) {
    json e = {{"key", to_string(g.key)}, {"value", to_string(g.value)}, {"order", to_string(g.order)},
              {"n_min", lo}, {"n_max", hi}, {"variant", p.winner()}, {"library", p.library_wins},
              {"baseline", p.library.empty() ? json(nullptr) : json(p.library)}, {"candidates", p.ours.size()}};
    if (p.library_wins) {
      e["params"] = json::object();
      e["score"] = p.library_score.value;
      e["score_rel_error"] = p.library_score.rel_error;
    } else {
      e["params"] = params_object(p.ours[0].candidate->params);
      e["score"] = p.ours[0].score.value;
      e["score_rel_error"] = p.ours[0].score.rel_error;
    }
    // The best of ours is named even where the library wins: what a best:FAMILY sweep measures.
    e["ours"] = p.ours.empty() ? json(nullptr) : json(p.ours[0].candidate->label);
    e["ours_score"] = p.ours.empty() ? json(nullptr) : json(p.ours[0].score.value);
    e["ours_score_rel_error"] = p.ours.empty() ? json(nullptr) : json(p.ours[0].score.rel_error);
    const std::size_t runner = p.library_wins ? 0 : 1;
    if (p.ours.size() > runner) {
      e["runner_up"] = p.ours[runner].candidate->label;
      e["margin"] = (p.library_wins ? p.library_score.value : p.ours[0].score.value) / p.ours[runner].score.value - 1.0;
    } else {
      e["runner_up"] = nullptr;
      e["margin"] = nullptr;
    }
    if (other_objective) {
      const Pick t = pick(ws, n_min, by_time);
      e["time_pick"] = t.library.empty() && t.ours.empty() ? json(nullptr) : json(t.winner());
    }
    return e;
  };

  // The input class of each workload, as the runner's sample saw it (any
  // result of the workload has it; results of older builds have none).
  std::map<std::string, std::string> class_of;
  std::map<std::string, double> sample_us_of;  // what dispatch.sort's sample of the workload costs
  for (const auto& r : results) {
    if (!r.input_class.empty()) class_of.emplace(r.workload_key(), r.input_class);
    if (r.sample_us >= 0) sample_us_of.emplace(r.workload_key(), r.sample_us);
  }
  auto workload_class = [&](const Workload& w) {
    const auto it = class_of.find(blank_result("", {}, "", w).workload_key());
    return it == class_of.end() ? std::string() : it->second;
  };
  auto sample_ms = [&](const Workload& w) {
    const auto it = sample_us_of.find(blank_result("", {}, "", w).workload_key());
    return it == sample_us_of.end() ? 0.0 : it->second * 1e-3;
  };
  auto decided = [](const Pick& p) { return !p.library.empty() || !p.ours.empty(); };
  auto best_of_ours = [](const Pick& p) { return p.ours.empty() ? std::string() : p.ours[0].candidate->label; };
  // Whether one pick for every input of these workloads (one size) beats
  // the class picks once each sort pays the sample that tells the classes
  // apart (docs/tune.md, "Input classes"): by the geometric mean of the
  // speedups over the fastest baseline of each workload, by time only.
  // With the evidence: the two geometric means and the mean sample cost.
  struct OnePick {
    bool pays = false;
    json evidence;
  };
  auto one_pick_pays = [&](const std::vector<const Workload*>& ws, const std::vector<std::string>& classes,
                           std::size_t n_min) {
    OnePick out;
    if (space.score.objective != Objective::time || ws.empty()) return out;
    const Pick all = pick(ws, n_min, space.score);
    if (!decided(all)) return out;
    std::map<std::string, std::string> winner;  // per class
    for (const std::string& c : classes) {
      std::vector<const Workload*> in;
      for (const Workload* w : ws)
        if (workload_class(*w) == c) in.push_back(w);
      if (in.empty()) continue;
      const Pick pc = pick(in, n_min, space.score);
      if (!decided(pc)) return out;
      winner[c] = pc.winner();
    }
    bool differ = false;
    for (const auto& [c, label] : winner) differ |= label != winner.begin()->second;
    if (!differ) return out;  // the classes agree: nothing is sampled
    double log_classed = 0, log_one = 0, sample_sum = 0;
    for (const Workload* w : ws) {
      const PointResult* b = best_baseline(*w, space.score);
      const PointResult* mine = result_of(winner[workload_class(*w)], *w);
      const PointResult* one = result_of(all.winner(), *w);
      if (!b || !mine || !one || mine->status != Status::ok || one->status != Status::ok) return out;
      const double base = b->time_ms.median;
      log_classed += std::log(base / (mine->time_ms.median + sample_ms(*w)));
      log_one += std::log(base / one->time_ms.median);
      sample_sum += sample_ms(*w) * 1e3;
    }
    const double k = double(ws.size());
    out.pays = log_one >= log_classed;
    out.evidence = {{"one_pick_geomean", std::exp(log_one / k)},
                    {"class_picks_geomean", std::exp(log_classed / k)},
                    {"sample_us_mean", sample_sum / k}};
    return out;
  };

  std::vector<Group> groups = plan_groups(space, {}, nullptr);
  json entries = json::array(), picks = json::array();
  for (const Group& g : groups) {
    const std::size_t n_min = g.workloads.empty() ? 1 : g.workloads.front().n;
    std::vector<std::size_t> sizes;
    for (const auto& w : g.workloads)
      if (sizes.empty() || sizes.back() != w.n) sizes.push_back(w.n);
    // Entries per input class where the workloads have one and more than one
    // class occurs; one class or none: entries for every input (no "class").
    std::vector<std::string> classes;
    for (const auto& w : g.workloads)
      if (const std::string c = workload_class(w);
          !c.empty() && std::find(classes.begin(), classes.end(), c) == classes.end())
        classes.push_back(c);
    // Sizes where one pick for every input pays better than the class
    // picks and their sample get entries without a class.
    std::map<std::size_t, json> one_pick_sizes;
    if (classes.size() >= 2)
      for (std::size_t n : sizes) {
        std::vector<const Workload*> ws;
        for (const auto& w : g.workloads)
          if (w.n == n) ws.push_back(&w);
        if (OnePick o = one_pick_pays(ws, classes, n_min); o.pays) one_pick_sizes.emplace(n, o.evidence);
      }
    if (classes.size() < 2) classes = {""};
    else if (!one_pick_sizes.empty()) classes.push_back("");
    for (const std::string& cls : classes) {
      // This entry set's sizes: all of them, or those of the class picks, or those of one pick.
      const bool classed = classes.size() >= 2;
      std::vector<std::size_t> cls_sizes;
      for (std::size_t n : sizes)
        if (!classed || (one_pick_sizes.count(n) != 0) == cls.empty()) cls_sizes.push_back(n);
      auto between = [&](std::size_t lo, std::size_t hi) {
        std::vector<const Workload*> ws;
        for (const auto& w : g.workloads)
          if (w.n >= lo && w.n <= hi && (cls.empty() || workload_class(w) == cls) &&
              std::binary_search(cls_sizes.begin(), cls_sizes.end(), w.n))
            ws.push_back(&w);
        return ws;
      };
      auto tagged = [&](json e, std::size_t lo, std::size_t hi) {
        if (cls.empty()) {
          if (classed) {
            json why = json::array();
            for (const auto& [n, ev] : one_pick_sizes)
              if (n >= lo && n <= hi) {
                json at = ev;
                at["n"] = n;
                why.push_back(at);
              }
            e["one_pick"] = why;
          }
          return e;
        }
        e["class"] = cls;
        std::vector<std::string> names;
        for (const Workload* w : between(lo, hi))
          if (std::find(names.begin(), names.end(), w->dist.name()) == names.end()) names.push_back(w->dist.name());
        e["distributions"] = names;
        return e;
      };
      // Per size, then adjacent sizes with the same winner merged into a range.
      std::size_t i = 0;
      while (i < cls_sizes.size()) {
        const Pick first = pick(between(cls_sizes[i], cls_sizes[i]), n_min, space.score);
        if (!decided(first)) {
          ++i;
          continue;
        }
        const std::string winner = first.winner(), ours = best_of_ours(first);
        // Merged only where the best of ours agrees too: best:FAMILY runs it
        // over the whole range.
        std::size_t j = i + 1;
        while (j < cls_sizes.size()) {
          const Pick next = pick(between(cls_sizes[j], cls_sizes[j]), n_min, space.score);
          if (!decided(next) || next.winner() != winner || best_of_ours(next) != ours) break;
          ++j;
        }
        Pick range = pick(between(cls_sizes[i], cls_sizes[j - 1]), n_min, space.score);
        // Over the whole range the winner can differ only by noise ties; keep the per-size winner.
        if (range.winner() != winner || best_of_ours(range) != ours) {
          const auto it = std::find_if(range.ours.begin(), range.ours.end(),
                                       [&](const Ranked& r) { return r.candidate->label == ours; });
          if (it != range.ours.end() && range.library == first.library) {
            std::rotate(range.ours.begin(), it, it + 1);
            range.library_wins = first.library_wins;
          } else {
            range = first;
          }
        }
        const std::size_t lo = cls_sizes[i], hi = cls_sizes[j - 1];
        entries.push_back(tagged(entry(g, range, lo, hi, between(lo, hi), n_min), lo, hi));
        i = j;
      }
      if (!cls_sizes.empty()) {
        const std::size_t lo = cls_sizes.front(), hi = cls_sizes.back();
        const Pick all = pick(between(lo, hi), n_min, space.score);
        if (decided(all)) picks.push_back(tagged(entry(g, all, lo, hi, between(lo, hi), n_min), lo, hi));
      }
    }
  }
  return {{"schema", "sortbench-best"}, {"schema_version", 3},
          {"gpu_model", device.value("model", "")}, {"device", device},
          {"baselines", space.baseline_labels}, {"score_group", group_name},
          {"objective", to_string(space.score.objective)},
          {"score", score_settings_json(space.score)},
          {"provenance", provenance}, {"entries", entries}, {"group_picks", picks}};
}

BestChoice select_best(const json& best, KeyType key, ValueType value, Order order, std::size_t n,
                       InputClass input, const std::function<bool(const BestChoice&)>& usable) {
  if (!best.is_object() || !best.contains("entries") || !best["entries"].is_array()) return {};
  const double ln = std::log2(double(std::max<std::size_t>(n, 1)));
  // rank: 0 the input's class's entries, 1 its fallback class's
  // (input_class.hpp), 2 those for every input (no "class"); entries of other
  // classes never. side: where the entry's sizes lie from n (-1 below, 0
  // around it, 1 above).
  struct Candidate {
    double distance;
    int rank, side;
    BestChoice choice;
    // The tune's second point of ours for the entry's workloads, and its
    // score (the entry's over 1 + margin).
    std::string runner_up;
    double runner_up_score = 0.0;
  };
  std::vector<Candidate> candidates;
  for (const auto& e : best["entries"]) {
    if (e.value("key", "") != to_string(key) || e.value("value", "") != to_string(value) ||
        e.value("order", "ascending") != to_string(order))
      continue;
    int rank = 2;
    if (e.contains("class")) {
      const std::string c = e.value("class", "");
      if (c == to_string(input)) rank = 0;
      else if (c == to_string(fallback_class(input))) rank = 1;
      else continue;
    }
    const double lo = std::log2(double(std::max<std::size_t>(e.value("n_min", std::size_t(1)), 1)));
    const double hi = std::log2(double(std::max<std::size_t>(e.value("n_max", std::size_t(1)), 1)));
    BestChoice c;
    c.found = true;
    c.variant = e.value("variant", "");
    c.score = e.value("score", 0.0);
    c.library = e.value("library", false);
    // Version 1 files have no "ours": their variant is always ours.
    c.ours = e.contains("ours") ? (e["ours"].is_string() ? e["ours"].get<std::string>() : "") : c.variant;
    if (e.contains("params") && e["params"].is_object())
      for (const auto& [k, v] : e["params"].items())
        c.params.push_back({k, "", v.is_string() ? v.get<std::string>() : v.dump()});
    Candidate cand{ln < lo ? lo - ln : ln > hi ? ln - hi : 0.0, rank, ln < lo ? 1 : ln > hi ? -1 : 0, std::move(c)};
    if (e.contains("runner_up") && e["runner_up"].is_string() && e.contains("margin") && e["margin"].is_number()) {
      cand.runner_up = e["runner_up"].get<std::string>();
      cand.runner_up_score = cand.choice.score / (1.0 + e["margin"].get<double>());
    }
    candidates.push_back(std::move(cand));
  }
  // The nearest in size first; among the nearest, by rank; then file order.
  std::stable_sort(candidates.begin(), candidates.end(), [](const Candidate& a, const Candidate& b) {
    return a.distance != b.distance ? a.distance < b.distance : a.rank < b.rank;
  });
  if (candidates.empty()) return {};
  auto accepted = [&](const Candidate& c) { return !usable || usable(c.choice); };
  const Candidate& nearest = candidates.front();
  if (accepted(nearest)) return nearest.choice;
  // The nearest pick cannot sort n (n is past its cap). First the pick of
  // the same rank or better at the tuned size on n's other side, where there
  // is one, for the tune chose it on this class of input
  // (radix.two_digit_msd_local_lsd's 2^26 pick stops short of 10^8 keys: the
  // class's 2^28 pick, not the fallback class's 2^26 pick, tuned on other
  // keys). Else the refused entry's runner-up, measured on the same
  // workloads, where it beat the library calls there (past 2^28 the two-digit
  // design's pick gives way to Onesweep's packed pairs, not to 2^30's pick,
  // tuned before the packed pairs existed). Then the nearest accepted.
  for (const Candidate& c : candidates)
    if (c.rank <= nearest.rank && (nearest.side == 0 || c.side == -nearest.side) && accepted(c)) return c.choice;
  if (!nearest.runner_up.empty() && nearest.runner_up_score > 1.0) {
    BestChoice r;
    r.found = true;
    r.variant = r.ours = nearest.runner_up;
    r.score = nearest.runner_up_score;
    if (!usable || usable(r)) return r;
  }
  for (const Candidate& c : candidates)
    if (accepted(c)) return c.choice;
  return {};
}

json keep_unmeasured_entries(const json& base, json fresh, const std::string& base_path) {
  auto group_of = [](const json& e) {
    return e.value("key", "") + "/" + e.value("value", "") + "/" + e.value("order", "ascending");
  };
  // The sizes the fresh entries cover, per group.
  std::map<std::string, std::pair<std::uint64_t, std::uint64_t>> covered;
  for (const auto& e : fresh["entries"]) {
    const std::uint64_t a = e.value("n_min", std::uint64_t(0)), b = e.value("n_max", std::uint64_t(0));
    auto [it, added] = covered.emplace(group_of(e), std::make_pair(a, b));
    if (!added) it->second = {std::min(it->second.first, a), std::max(it->second.second, b)};
  }
  json kept = json::array();
  for (const auto& e : base.value("entries", json::array())) {
    const auto it = covered.find(group_of(e));
    if (it == covered.end()) {
      kept.push_back(e);
      continue;
    }
    const auto [lo, hi] = it->second;
    const std::uint64_t a = e.value("n_min", std::uint64_t(0)), b = e.value("n_max", std::uint64_t(0));
    if (a < lo) {  // the part below
      json below = e;
      below["n_max"] = std::min(b, lo - 1);
      kept.push_back(below);
    }
    if (b > hi) {  // the part above
      json above = e;
      above["n_min"] = std::max(a, hi + 1);
      kept.push_back(above);
    }
  }
  for (auto& e : fresh["entries"]) kept.push_back(std::move(e));
  fresh["entries"] = std::move(kept);
  fresh["provenance"]["kept_from"] = {{"best_json", base_path}, {"provenance", base.value("provenance", json())}};
  return fresh;
}

}  // namespace sortbench::tune
