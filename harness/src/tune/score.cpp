// Scores, ranking with noise ties, and best.json (docs/tune.md "Score").
#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "sortbench/tune.hpp"

namespace sortbench::tune {

using nlohmann::json;

// score = exp( sum_i w_i ln s_i / sum_i w_i ),  s_i = t_baseline,i / t_point,i,
// w_i = (n_i / n_min)^alpha. The error of ln s_i is about e_point,i + e_base,i
// in quadrature (relative standard errors of the medians' means), so
// var(ln score) = sum_i w_i^2 (e_p,i^2 + e_b,i^2) / (sum_i w_i)^2.
Score score_results(const std::vector<const PointResult*>& results, const std::vector<const PointResult*>& baseline,
                    std::size_t n_min, const ScoreSettings& s, const std::string& baseline_label) {
  Score sc;
  if (results.empty() || results.size() != baseline.size()) {
    sc.reason = "no workloads";
    return sc;
  }
  double wsum = 0, lsum = 0, var = 0;
  for (std::size_t i = 0; i < results.size(); ++i) {
    const PointResult* r = results[i];
    const PointResult* b = baseline[i];
    if (!r || r->status != Status::ok) {
      sc.reason = r ? to_string(r->status) + " at n=" + std::to_string(r->n) + " " + r->distribution + ": " + r->reason
                    : "not measured";
      return sc;
    }
    if (!b || b->status != Status::ok || b->time_ms.median <= 0) {
      sc.reason = "baseline not measured ok at n=" + std::to_string(r->n) + " " + r->distribution;
      return sc;
    }
    if (r->time_ms.median <= 0) {
      sc.reason = "zero time at n=" + std::to_string(r->n);
      return sc;
    }
    const double w = std::pow(double(r->n) / double(std::max<std::size_t>(n_min, 1)), s.size_weight_exponent);
    const auto own = baseline_label.empty() ? r->speedup.end() : r->speedup.find(baseline_label);
    const double speedup = own != r->speedup.end() ? own->second : b->time_ms.median / r->time_ms.median;
    wsum += w;
    lsum += w * std::log(speedup);
    var += w * w * (r->time_ms.rel_stderr * r->time_ms.rel_stderr + b->time_ms.rel_stderr * b->time_ms.rel_stderr);
  }
  sc.valid = true;
  sc.value = std::exp(lsum / wsum);
  sc.rel_error = std::sqrt(var) / wsum;
  sc.workloads = results.size();
  return sc;
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

struct GroupData {
  KeyType key;
  ValueType value;
  Order order;
  std::vector<std::string> workload_keys;  // ascending n
  std::map<std::string, std::size_t> size_of;
  std::vector<std::size_t> sizes;
};

json params_object(const Params& ps) {
  json j = json::object();
  for (const auto& p : ps) j[p.name] = p.value;
  return j;
}

}  // namespace

json best_json(const std::vector<PointResult>& results, const Space& space, const json& device,
               const json& provenance) {
  const std::string& base_label = space.baseline();
  // Baseline per workload (the first one: merged shards each measured it).
  std::map<std::string, const PointResult*> base;
  for (const auto& r : results)
    if (r.variant == base_label && !base.count(r.workload_key())) base[r.workload_key()] = &r;
  // Candidate results per label and workload.
  std::map<std::string, std::map<std::string, const PointResult*>> by_label;
  std::map<std::string, Candidate> cands;
  for (const auto& r : results) {
    if (r.variant == base_label) continue;
    by_label[r.variant].emplace(r.workload_key(), &r);
    if (!cands.count(r.variant)) {
      Candidate c;
      c.label = r.variant;
      c.family = r.family;
      c.params = r.params;
      VariantInfo tmp;
      tmp.params = r.params;
      c.resource_cost = resource_cost(tmp);
      cands.emplace(r.variant, c);
    }
  }
  // Groups from the space's workloads.
  std::vector<Group> groups = plan_groups(space, {}, nullptr);
  json entries = json::array(), picks = json::array();
  for (const Group& g : groups) {
    const std::size_t n_min = g.workloads.empty() ? 1 : g.workloads.front().n;
    // Scores every candidate measured on all of `ws`, ranked.
    auto ranking = [&](const std::vector<const Workload*>& ws) {
      std::vector<Ranked> pts;
      for (const auto& [label, rs] : by_label) {
        std::vector<const PointResult*> mine, theirs;
        bool complete = true;
        for (const Workload* w : ws) {
          PointResult probe = blank_result(label, {}, "", *w);
          const auto it = rs.find(probe.workload_key());
          if (it == rs.end()) {
            complete = false;
            break;
          }
          mine.push_back(it->second);
          const auto bt = base.find(probe.workload_key());
          theirs.push_back(bt == base.end() ? nullptr : bt->second);
        }
        if (!complete) continue;
        pts.push_back({&cands.at(label), score_results(mine, theirs, n_min, space.score, base_label)});
      }
      return rank(pts, space.score);
    };
    auto entry = [&](const std::vector<Ranked>& rk, std::size_t lo, std::size_t hi) {
      json e = {{"key", to_string(g.key)}, {"value", to_string(g.value)}, {"order", to_string(g.order)},
                {"n_min", lo}, {"n_max", hi}, {"variant", rk[0].candidate->label},
                {"params", params_object(rk[0].candidate->params)}, {"score", rk[0].score.value},
                {"score_rel_error", rk[0].score.rel_error}, {"candidates", rk.size()}};
      if (rk.size() > 1) {
        e["runner_up"] = rk[1].candidate->label;
        e["margin"] = rk[0].score.value / rk[1].score.value - 1.0;
      } else {
        e["runner_up"] = nullptr;
        e["margin"] = nullptr;
      }
      return e;
    };
    std::vector<std::size_t> sizes;
    for (const auto& w : g.workloads)
      if (sizes.empty() || sizes.back() != w.n) sizes.push_back(w.n);
    // Per size, then adjacent sizes with the same winner merged into a range.
    std::size_t i = 0;
    while (i < sizes.size()) {
      auto at_size = [&](std::size_t n) {
        std::vector<const Workload*> ws;
        for (const auto& w : g.workloads)
          if (w.n == n) ws.push_back(&w);
        return ws;
      };
      auto rk = ranking(at_size(sizes[i]));
      if (rk.empty()) {
        ++i;
        continue;
      }
      const std::string winner = rk[0].candidate->label;
      std::size_t j = i + 1;
      while (j < sizes.size()) {
        auto next = ranking(at_size(sizes[j]));
        if (next.empty() || next[0].candidate->label != winner) break;
        ++j;
      }
      std::vector<const Workload*> range;
      for (const auto& w : g.workloads)
        if (w.n >= sizes[i] && w.n <= sizes[j - 1]) range.push_back(&w);
      auto rr = ranking(range);
      // Over the whole range the winner can differ only by noise ties; keep the per-size winner first.
      auto it = std::find_if(rr.begin(), rr.end(), [&](const Ranked& r) { return r.candidate->label == winner; });
      if (it != rr.end() && it != rr.begin()) std::rotate(rr.begin(), it, it + 1);
      entries.push_back(entry(rr.empty() ? rk : rr, sizes[i], sizes[j - 1]));
      i = j;
    }
    std::vector<const Workload*> all;
    for (const auto& w : g.workloads) all.push_back(&w);
    auto rk = ranking(all);
    if (!rk.empty()) picks.push_back(entry(rk, sizes.front(), sizes.back()));
  }
  return {{"schema", "sortbench-best"}, {"schema_version", 1},
          {"gpu_model", device.value("model", "")}, {"device", device},
          {"baseline", base_label}, {"score", {{"size_weight_exponent", space.score.size_weight_exponent},
                                               {"noise_z", space.score.noise_z}}},
          {"provenance", provenance}, {"entries", entries}, {"group_picks", picks}};
}

BestChoice select_best(const json& best, KeyType key, ValueType value, Order order, std::size_t n) {
  BestChoice out;
  if (!best.is_object() || !best.contains("entries") || !best["entries"].is_array()) return out;
  double best_dist = 1e300;
  const double ln = std::log2(double(std::max<std::size_t>(n, 1)));
  for (const auto& e : best["entries"]) {
    if (e.value("key", "") != to_string(key) || e.value("value", "") != to_string(value) ||
        e.value("order", "ascending") != to_string(order))
      continue;
    const double lo = std::log2(double(std::max<std::size_t>(e.value("n_min", std::size_t(1)), 1)));
    const double hi = std::log2(double(std::max<std::size_t>(e.value("n_max", std::size_t(1)), 1)));
    const double d = ln < lo ? lo - ln : ln > hi ? ln - hi : 0.0;
    if (d < best_dist) {
      best_dist = d;
      out.found = true;
      out.variant = e.value("variant", "");
      out.score = e.value("score", 0.0);
      out.params.clear();
      if (e.contains("params") && e["params"].is_object())
        for (const auto& [k, v] : e["params"].items())
          out.params.push_back({k, "", v.is_string() ? v.get<std::string>() : v.dump()});
    }
  }
  return out;
}

}  // namespace sortbench::tune
