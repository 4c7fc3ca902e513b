// Tune spaces, candidates, groups and shards (docs/tune.md).
#include <algorithm>
#include <cmath>
#include <fstream>
#include <set>
#include <sstream>

#include "sortbench/family_space.hpp"
#include "sortbench/plan.hpp"
#include "sortbench/tune.hpp"

namespace sortbench::tune {

using nlohmann::json;

namespace {

[[noreturn]] void fail(const std::string& where, const std::string& what) { throw ConfigError(where + ": " + what); }

std::optional<double> as_number(const std::string& s) {
  if (s.empty()) return std::nullopt;
  char* end = nullptr;
  const double d = std::strtod(s.c_str(), &end);
  if (end != s.c_str() + s.size()) return std::nullopt;
  return d;
}

std::string value_text(const json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_number_integer()) return std::to_string(v.get<std::int64_t>());
  if (v.is_number()) {
    std::ostringstream os;
    os << v.get<double>();
    return os.str();
  }
  return v.dump();
}

const Param* find_param(const Params& ps, const std::string& name) {
  for (const auto& p : ps)
    if (p.name == name) return &p;
  return nullptr;
}

}  // namespace

bool ParamFilter::accepts(const Params& ps) const {
  const Param* p = find_param(ps, name);
  if (!p) return false;
  const auto num = as_number(p->value);
  if (!values.empty()) {
    bool any = false;
    for (const auto& v : values) {
      const auto vn = as_number(v);
      any |= (num && vn) ? *num == *vn : v == p->value;
    }
    if (!any) return false;
  }
  if (min || max) {
    if (!num) return false;
    if (min && *num < *min) return false;
    if (max && *num > *max) return false;
  }
  return true;
}

std::string to_string(StrategyKind s) {
  switch (s) {
    case StrategyKind::exhaustive: return "exhaustive";
    case StrategyKind::random: return "random";
    case StrategyKind::halving: return "halving";
    case StrategyKind::descent: return "descent";
  }
  return "?";
}

std::optional<StrategyKind> parse_strategy(const std::string& s) {
  for (auto k : {StrategyKind::exhaustive, StrategyKind::random, StrategyKind::halving, StrategyKind::descent})
    if (s == to_string(k)) return k;
  return std::nullopt;
}

namespace {

ParamFilter read_filter(const std::string& name, const json& v, const std::string& path) {
  ParamFilter f;
  f.name = name;
  if (v.is_array()) {
    if (v.empty()) fail(path, "expected a non-empty list of values");
    for (std::size_t i = 0; i < v.size(); ++i) {
      if (!v[i].is_string() && !v[i].is_number()) fail(path + "[" + std::to_string(i) + "]", "expected a number or string");
      f.values.push_back(value_text(v[i]));
    }
  } else if (v.is_object()) {
    for (const auto& [k, x] : v.items()) {
      if (k == "min") f.min = number_in(x, path + ".min", -1e300, 1e300);
      else if (k == "max") f.max = number_in(x, path + ".max", -1e300, 1e300);
      else fail(path + "." + k, "unknown field; expected min or max");
    }
    if (f.min && f.max && *f.min > *f.max) fail(path, "min is greater than max");
  } else if (v.is_string() || v.is_number()) {
    f.values.push_back(value_text(v));
  } else {
    fail(path, "expected a value, a list of values or {\"min\": A, \"max\": B}");
  }
  return f;
}

}  // namespace

Space parse_space(const std::string& text, const std::string& where) {
  const json doc = parse_json_text(text, where);
  if (!doc.is_object()) fail(where, "expected a JSON object at the top level");
  Space s;
  // The tune-only fields; everything else is a sweep config (README "Config files").
  json sweep = doc;
  for (const char* k : {"params", "score", "strategy", "on_demand"}) sweep.erase(k);
  if (doc.contains("on_demand")) {
    if (!doc["on_demand"].is_boolean()) fail(where + ": $.on_demand", "expected true or false");
    s.on_demand = doc["on_demand"].get<bool>();
  }
  if (!sweep.contains("baselines")) sweep["baselines"] = json::array({"cub.radix_sort.*"});
  if (!sweep.contains("name")) sweep["name"] = "tune";
  s.sweep = parse_config_json(sweep, where);
  s.baseline_labels = resolve_baselines(s.sweep.baselines, Registry::instance());
  for (std::size_t i = 0; i < s.sweep.baselines.size(); ++i)
    if (resolve_baselines({s.sweep.baselines[i]}, Registry::instance()).empty())
      fail(where + ": $.baselines[" + std::to_string(i) + "]",
           "'" + s.sweep.baselines[i] + "' matches no registered variant (see sortbench list)");
  if (doc.contains("params")) {
    const json& p = doc["params"];
    if (!p.is_object()) fail(where + ": $.params", "expected an object: parameter name -> values or {min, max}");
    for (const auto& [k, v] : p.items()) s.params.push_back(read_filter(k, v, where + ": $.params." + k));
  }
  if (doc.contains("score")) {
    const json& p = doc["score"];
    const std::string path = where + ": $.score";
    if (!p.is_object()) fail(path, "expected an object");
    for (const auto& [k, v] : p.items()) {
      if (k == "size_weight_exponent") s.score.size_weight_exponent = number_in(v, path + "." + k, 0, 4);
      else if (k == "noise_z") s.score.noise_z = number_in(v, path + "." + k, 0, 10);
      else if (k == "energy_rel_error") s.score.energy_rel_error = number_in(v, path + "." + k, 0, 1);
      else if (k == "objective") {
        const auto o = v.is_string() ? parse_objective(v.get<std::string>()) : std::nullopt;
        if (!o) fail(path + "." + k, "expected \"time\", \"energy\" or \"edp\"");
        s.score.objective = *o;
      } else
        fail(path + "." + k, "unknown field; expected objective, size_weight_exponent, noise_z or energy_rel_error");
    }
  }
  if (doc.contains("strategy")) {
    const json& p = doc["strategy"];
    const std::string path = where + ": $.strategy";
    if (!p.is_object()) fail(path, "expected an object");
    for (const auto& [k, v] : p.items()) {
      const std::string kp = path + "." + k;
      if (k == "name") {
        if (!v.is_string() || !parse_strategy(v.get<std::string>()))
          fail(kp, "expected one of exhaustive, random, halving, descent");
        s.strategy.kind = *parse_strategy(v.get<std::string>());
      } else if (k == "budget") s.strategy.budget = std::size_t(whole_number_in(v, kp, 0, 1e9));
      else if (k == "keep_fraction") s.strategy.keep_fraction = number_in(v, kp, 0.01, 1);
      else if (k == "min_keep") s.strategy.min_keep = std::size_t(whole_number_in(v, kp, 1, 1e6));
      else if (k == "restarts") s.strategy.restarts = std::size_t(whole_number_in(v, kp, 1, 1e6));
      else if (k == "seed") s.strategy.seed = std::uint64_t(whole_number_in(v, kp, 0, 1e18));
      else fail(kp, "unknown field; expected name, budget, keep_fraction, min_keep, restarts or seed");
    }
  }
  return s;
}

Space load_space_file(const std::string& path) {
  return parse_space(read_text_file(path, "tune space file"), path);
}

json space_to_json(const Space& s) {
  json j = config_to_json(s.sweep);
  j.erase("source");
  json params = json::object();
  for (const auto& f : s.params) {
    if (!f.values.empty()) {
      params[f.name] = f.values;
    } else {
      json r = json::object();
      if (f.min) r["min"] = *f.min;
      if (f.max) r["max"] = *f.max;
      params[f.name] = r;
    }
  }
  j["params"] = params;
  if (s.on_demand) j["on_demand"] = true;
  j["score"] = score_settings_json(s.score);
  j["strategy"] = {{"name", to_string(s.strategy.kind)}, {"budget", s.strategy.budget},
                   {"keep_fraction", s.strategy.keep_fraction}, {"min_keep", s.strategy.min_keep},
                   {"restarts", s.strategy.restarts}, {"seed", s.strategy.seed}};
  return j;
}

// ---- points ----------------------------------------------------------------

std::string no_resource_check(const VariantInfo&, const Problem&) { return {}; }

double resource_cost(const VariantInfo& v) {
  const Param* tpb = find_param(v.params, "block_threads");
  const Param* ipt = find_param(v.params, "items_per_thread");
  if (tpb && ipt) {
    const auto a = as_number(tpb->value), b = as_number(ipt->value);
    if (a && b) return *a * *b;
  }
  return double(v.tile_keys);
}

Candidate make_candidate(const VariantInfo& v) {
  Candidate c;
  c.label = v.label;
  c.family = v.family;
  c.params = v.params;
  c.resource_cost = resource_cost(v);
  const std::string suffix = v.params.empty() ? "" : "." + param_label(v.params);
  c.method = (!suffix.empty() && v.label.size() > suffix.size() &&
              v.label.compare(v.label.size() - suffix.size(), suffix.size(), suffix) == 0)
                 ? v.label.substr(0, v.label.size() - suffix.size())
                 : v.label;
  return c;
}

std::string Group::name() const {
  return to_string(key) + "/" + to_string(value) + (order == Order::descending ? " desc" : "");
}

std::uint64_t stable_hash(const std::string& s) {
  std::uint64_t h = 1469598103934665603ull;
  for (unsigned char c : s) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

bool in_shard(const std::string& label, std::size_t shard, std::size_t shards) {
  return shards <= 1 || stable_hash(label) % shards == shard;
}

bool Space::is_baseline(const std::string& label) const {
  return std::find(baseline_labels.begin(), baseline_labels.end(), label) != baseline_labels.end();
}

std::string Space::score_group() const {
  for (std::size_t level : {1, 0}) {
    std::string shared;
    bool same = true;
    for (const auto& b : baseline_labels) {
      const auto groups = baseline_groups(b);
      const std::string g = level < groups.size() ? groups[level] : groups.back();
      if (shared.empty()) shared = g;
      same = same && g == shared;
    }
    if (same && !shared.empty()) return shared;
  }
  return {};
}

std::vector<std::string> resolve_baselines(const std::vector<std::string>& globs, const Registry& r) {
  std::vector<std::string> out;
  auto add = [&](const std::string& label) {
    if (std::find(out.begin(), out.end(), label) == out.end()) out.push_back(label);
  };
  for (const auto& g : globs) {
    if (g.find_first_of("*?") == std::string::npos) {
      add(g);
      continue;
    }
    for (const VariantInfo* v : r.match({g})) add(v->label);
  }
  return out;
}

std::vector<const VariantInfo*> space_variants(const Space& s, const Registry& r) {
  std::vector<const VariantInfo*> out;
  // On demand, a declared family's points are those planned (filtered on
  // every parameter, defaults included), built or not.
  for (const auto& label : s.on_demand_labels)
    if (const VariantInfo* v = r.find(label)) out.push_back(v);
  for (const VariantInfo* v : r.match(s.sweep.variants)) {
    if (s.is_baseline(v->label)) continue;
    if (s.on_demand && family_space_of(v->label)) continue;
    bool ok = true;
    for (const auto& f : s.params) ok = ok && f.accepts(v->params);
    if (ok) out.push_back(v);
  }
  return out;
}

PointResult blank_result(const std::string& label, const Params& params, const std::string& family, const Workload& w) {
  PointResult r;
  r.variant = label;
  r.family = family;
  r.params = params;
  r.key = w.key;
  r.value = w.value;
  r.order = w.order;
  r.n = w.n;
  r.distribution = w.dist.name();
  r.seed = w.seed;
  return r;
}

std::vector<Group> plan_groups(const Space& s, const std::vector<const VariantInfo*>& variants,
                               const ResourceCheck& resources, std::size_t shard, std::size_t shards,
                               bool lenient_checks) {
  // Groups in first-appearance order of the sweeps; workloads deduplicated.
  std::vector<Group> groups;
  auto group_for = [&](KeyType k, ValueType v, Order o) -> Group& {
    for (auto& g : groups)
      if (g.key == k && g.value == v && g.order == o) return g;
    groups.push_back(Group{k, v, o, {}, {}, {}, {}});
    return groups.back();
  };
  for (const auto& a : s.sweep.sweeps)
    for (auto k : a.keys)
      for (auto val : a.values)
        for (auto o : a.orders) {
          Group& g = group_for(k, val, o);
          for (auto n : a.sizes)
            for (const auto& d : a.distributions) {
              Workload w{k, val, o, n, d, s.sweep.seed};
              bool dup = false;
              for (const auto& x : g.workloads) dup |= x.n == n && x.dist.name() == d.name();
              for (const auto& [x, why] : g.unsortable) dup |= x.n == n && x.dist.name() == d.name();
              if (dup) continue;
              if (std::string why = plan::workload_skip_reason(w); !why.empty())
                g.unsortable.emplace_back(w, std::move(why));
              else
                g.workloads.push_back(w);
            }
        }
  for (auto& g : groups) {
    std::stable_sort(g.workloads.begin(), g.workloads.end(),
                     [](const Workload& a, const Workload& b) { return a.n < b.n; });
    for (const VariantInfo* v : variants) {
      if (!in_shard(v->label, shard, shards)) continue;
      std::string why, unknown;
      const Workload* at = nullptr;
      for (const auto& w : g.workloads) {
        // A declared size cap above the group's smallest size keeps the
        // variant a candidate: it is measured up to its cap (the larger
        // sizes are recorded skipped), so best.json's per-size picks can name
        // it there, while over the whole group it stays unscored.
        if (w.n > v->max_n && w.n > g.workloads.front().n) break;
        if (lenient_checks) {
          why = v->declared_skip_reason(w.problem());
          if (why.empty() && v->unsupported && unknown.empty()) {
            try {
              why = v->unsupported(w.problem());
            } catch (const std::exception& e) {
              unknown = e.what();  // it needs the GPU: not asked again for this group
            }
          }
        } else {
          why = v->skip_reason(w.problem());
        }
        if (why.empty() && resources) why = resources(*v, w.problem());
        if (!why.empty()) {
          at = &w;
          break;
        }
      }
      if (at) {
        PointResult r = blank_result(v->label, v->params, v->family, *at);
        r.status = Status::skipped;
        r.reason = "pruned: " + why;
        g.pruned.push_back(std::move(r));
      } else {
        g.candidates.push_back(make_candidate(*v));
        if (!unknown.empty()) g.unchecked.emplace_back(v->label, unknown);
      }
    }
  }
  return groups;
}

}  // namespace sortbench::tune
