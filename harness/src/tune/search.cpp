// The tuning session (measure once, cache, score) and the search strategies
// (docs/tune.md "Strategies").
#include <algorithm>
#include <cmath>
#include <iomanip>
#include <map>
#include <numeric>
#include <random>
#include <set>
#include <sstream>

#include "sortbench/stats.hpp"
#include "sortbench/tune.hpp"

namespace sortbench::tune {

namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

std::string size_text(std::size_t n) {
  if (n >= 1024 && (n & (n - 1)) == 0) return "2^" + std::to_string(int(std::log2(double(n))));
  return std::to_string(n);
}

}  // namespace

Session::Session(const Space& space, Evaluator& eval, ResultCache* cache, const CacheIdentity& id, Progress* progress)
    : space_(space), eval_(eval), cache_(cache), id_(id), progress_(progress) {}

const PointResult& Session::result(const std::string& label, const Params& params, const Workload& w) {
  const std::string wkey = blank_result(label, params, "", w).workload_key();
  const std::string local = label + "|" + wkey;
  if (auto it = index_.find(local); it != index_.end()) return results_[it->second];
  const std::string key = cache_key(id_, label, params, w, space_.sweep.measure);
  if (cache_) {
    if (const PointResult* hit = cache_->find(key)) {
      ++cache_hits_;
      index_[local] = results_.size();
      results_.push_back(*hit);
      return results_.back();
    }
  }
  PointResult r = eval_.evaluate(label, w);
  ++measured_;
  if (cache_) cache_->append(key, r);
  index_[local] = results_.size();
  results_.push_back(std::move(r));
  if (progress_) {
    const PointResult& x = results_.back();
    const std::size_t done = measured_ + cache_hits_;
    const double el = seconds_since(start_);
    const double eta = planned_ > done ? el / double(std::max<std::size_t>(measured_, 1)) * double(planned_ - done) : 0;
    std::ostringstream os;
    os << "[" << done << "/" << planned_ << "] " << label << " " << to_string(w.key) << "/" << to_string(w.value)
       << " n=" << size_text(w.n) << " " << w.dist.name() << ": ";
    if (x.status == Status::ok) {
      os << std::setprecision(4) << x.time_ms.median << " ms";
      if (x.energy.measured) os << ", " << std::setprecision(4) << x.energy.joules << " J";
    }
    else os << to_string(x.status) << " (" << x.reason << ")";
    os << " | ETA " << duration_text(eta);
    if (!best_text_.empty()) os << " | best " << best_text_;
    progress_->update(os.str());
  }
  return results_.back();
}

Score Session::score(const Candidate& c, const std::vector<Workload>& workloads, std::size_t n_min) {
  std::vector<const PointResult*> mine, base;
  // Indices, not pointers, while measuring: results_ grows.
  for (const Workload& w : workloads) {
    for (const auto& b : space_.baseline_labels) result(b, {}, w);
    const PointResult& r = result(c.label, c.params, w);
    if (r.status != Status::ok) break;  // the point is out; do not spend time on its other workloads
  }
  for (const Workload& w : workloads) {
    const std::string wkey = blank_result(c.label, c.params, "", w).workload_key();
    auto it = index_.find(c.label + "|" + wkey);
    mine.push_back(it == index_.end() ? nullptr : &results_[it->second]);
    base.push_back(best_baseline(w));
  }
  return score_results(mine, base, n_min, space_.score);
}

const PointResult* Session::best_baseline(const Workload& w) const {
  const PointResult* best = nullptr;
  std::optional<double> best_cost;
  for (const auto& b : space_.baseline_labels) {
    const auto it = index_.find(b + "|" + blank_result(b, {}, "", w).workload_key());
    if (it == index_.end()) continue;
    const PointResult& r = results_[it->second];
    const auto c = objective_cost(r, space_.score);
    if (c && (!best_cost || *c < *best_cost)) {
      best = &r;
      best_cost = c;
    }
  }
  return best;
}

std::vector<PointResult> Session::results() const { return results_; }

// ---- strategies ---------------------------------------------------------------

namespace {

std::size_t random_budget(const StrategySettings& s, std::size_t n) {
  const std::size_t b = s.budget ? s.budget : std::max<std::size_t>(8, n / 4);
  return std::min(b, n);
}

std::vector<std::size_t> sizes_of(const Group& g) {
  std::vector<std::size_t> sizes;
  for (const auto& w : g.workloads)
    if (sizes.empty() || sizes.back() != w.n) sizes.push_back(w.n);
  return sizes;
}

std::size_t workloads_at(const Group& g, std::size_t n) {
  return std::size_t(std::count_if(g.workloads.begin(), g.workloads.end(), [&](const Workload& w) { return w.n == n; }));
}

std::size_t keep_count(const StrategySettings& s, std::size_t alive) {
  const auto k = std::size_t(std::ceil(double(alive) * s.keep_fraction));
  return std::min(alive, std::max(s.min_keep, k));
}

std::string best_text(const std::vector<Ranked>& rk) {
  if (rk.empty()) return {};
  std::ostringstream os;
  os << rk[0].candidate->label << " " << std::fixed << std::setprecision(3) << rk[0].score.value << "x";
  return os.str();
}

// Ordered values of every axis: the method, then each parameter (numbers numerically).
struct Axes {
  std::vector<std::string> names;
  std::vector<std::vector<std::string>> coords;  // per candidate, per axis ("" when absent)
};

Axes axes_of(const std::vector<Candidate>& cs) {
  Axes a;
  a.names.push_back("method");
  for (const auto& c : cs)
    for (const auto& p : c.params)
      if (std::find(a.names.begin(), a.names.end(), p.name) == a.names.end()) a.names.push_back(p.name);
  for (const auto& c : cs) {
    std::vector<std::string> x(a.names.size());
    x[0] = c.method;
    for (const auto& p : c.params)
      x[std::size_t(std::find(a.names.begin(), a.names.end(), p.name) - a.names.begin())] = p.value;
    a.coords.push_back(x);
  }
  return a;
}

}  // namespace

std::size_t planned_evaluations(const StrategySettings& s, const Group& g, std::size_t baselines) {
  const std::size_t n = g.candidates.size(), w = g.workloads.size(), b = baselines * w;
  switch (s.kind) {
    case StrategyKind::exhaustive: return b + n * w;
    case StrategyKind::random: return b + random_budget(s, n) * w;
    case StrategyKind::descent: return b + (s.budget ? std::min(s.budget, n) : n) * w;
    case StrategyKind::halving: {
      std::size_t total = b, alive = n;
      for (auto size : sizes_of(g)) {
        total += alive * workloads_at(g, size);
        alive = keep_count(s, alive);
      }
      return total;
    }
  }
  return 0;
}

SearchOutcome search(const StrategySettings& s, const Group& g, Session& session) {
  const auto t0 = std::chrono::steady_clock::now();
  const std::size_t eval0 = session.evaluations(), hits0 = session.cache_hits();
  SearchOutcome out;
  out.group = g.name();
  out.strategy = to_string(s.kind);
  out.candidates = g.candidates.size();
  const std::size_t n_min = g.workloads.empty() ? 1 : g.workloads.front().n;
  const ScoreSettings& ss = session.space().score;
  std::map<std::string, bool> tried;  // label -> its latest score is valid
  // Scores a candidate on the group's workloads up to max_n, keeping the best so far current.
  std::vector<Ranked> best_so_far;
  auto score_on = [&](const Candidate& c, std::size_t max_n) {
    std::vector<Workload> ws;
    for (const auto& w : g.workloads)
      if (w.n <= max_n) ws.push_back(w);
    Score sc = session.score(c, ws, n_min);
    tried[c.label] = sc.valid;
    if (max_n == SIZE_MAX) {
      best_so_far.push_back({&c, sc});
      best_so_far = rank(best_so_far, ss);
      if (best_so_far.size() > 1) best_so_far.resize(1);
      session.note_best(best_text(best_so_far));
    }
    return sc;
  };
  auto score_all = [&](const std::vector<const Candidate*>& cs) {
    std::vector<Ranked> pts;
    for (const Candidate* c : cs) pts.push_back({c, score_on(*c, SIZE_MAX)});
    return rank(pts, ss);
  };
  std::vector<const Candidate*> all;
  for (const auto& c : g.candidates) all.push_back(&c);

  switch (s.kind) {
    case StrategyKind::exhaustive: out.ranking = score_all(all); break;
    case StrategyKind::random: {
      std::mt19937_64 rng(s.seed ^ stable_hash(g.name()));
      std::vector<const Candidate*> pick = all;
      // Fisher-Yates with our own index draw: the same sample on every standard library.
      for (std::size_t i = pick.size(); i > 1; --i) std::swap(pick[i - 1], pick[rng() % i]);
      pick.resize(random_budget(s, pick.size()));
      out.ranking = score_all(pick);
      break;
    }
    case StrategyKind::halving: {
      std::vector<const Candidate*> alive = all;
      const auto sizes = sizes_of(g);
      for (std::size_t r = 0; r < sizes.size() && !alive.empty(); ++r) {
        const bool last = r + 1 == sizes.size();
        std::vector<Ranked> pts;
        for (const Candidate* c : alive) pts.push_back({c, score_on(*c, last ? SIZE_MAX : sizes[r])});
        auto rk = rank(pts, ss);
        if (last) {
          out.ranking = rk;
          break;
        }
        session.note_best(best_text(rk) + " at <=" + size_text(sizes[r]));
        alive.clear();
        for (std::size_t i = 0; i < keep_count(s, rk.size()); ++i) alive.push_back(rk[i].candidate);
      }
      break;
    }
    case StrategyKind::descent: {
      const Axes ax = axes_of(g.candidates);
      const std::size_t budget = s.budget ? s.budget : g.candidates.size();
      std::map<std::string, Score> memo;
      auto eval = [&](std::size_t i) {
        const Candidate& c = g.candidates[i];
        if (auto it = memo.find(c.label); it != memo.end()) return it->second;
        return memo[c.label] = score_on(c, SIZE_MAX);
      };
      std::mt19937_64 rng(s.seed ^ stable_hash(g.name()));
      for (std::size_t start = 0; start < s.restarts && memo.size() < budget && !g.candidates.empty(); ++start) {
        std::size_t cur = rng() % g.candidates.size();
        Score cur_score = eval(cur);
        bool improved = true;
        while (improved && memo.size() < budget) {
          improved = false;
          // Line search along each axis in turn: every point that differs from
          // the current one in that coordinate only.
          for (std::size_t a = 0; a < ax.names.size() && memo.size() < budget; ++a) {
            for (std::size_t j = 0; j < g.candidates.size() && memo.size() < budget; ++j) {
              if (j == cur) continue;
              bool line = ax.coords[j][a] != ax.coords[cur][a];
              for (std::size_t b = 0; line && b < ax.names.size(); ++b)
                if (b != a && ax.coords[j][b] != ax.coords[cur][b]) line = false;
              if (!line) continue;
              const Score sc = eval(j);
              if (sc.valid && (!cur_score.valid || sc.value > cur_score.value)) {
                cur = j;
                cur_score = sc;
                improved = true;
              }
            }
          }
        }
      }
      std::vector<Ranked> pts;
      for (const auto& c : g.candidates)
        if (auto it = memo.find(c.label); it != memo.end()) pts.push_back({&c, it->second});
      out.ranking = rank(pts, ss);
      break;
    }
  }
  for (const auto& [label, valid] : tried) ++(valid ? out.scored : out.unscored);
  out.evaluations = session.evaluations() - eval0;
  out.cache_hits = session.cache_hits() - hits0;
  out.wall_s = seconds_since(t0);
  return out;
}

}  // namespace sortbench::tune
