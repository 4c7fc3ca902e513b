#include "sortbench/plan.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <sstream>

#include "sortbench/stats.hpp"

namespace sortbench {

// Host code, though declared with the device side (device.hpp): the runners and
// the plan both ask it.
std::string distribution_skip_reason(const Distribution& d, KeyType k) {
  if (d.kind == DistKind::normal && !is_float(k))
    return "distribution normal applies to float keys only (f16, bf16, f32, f64)";
  return {};
}

namespace plan {

namespace {
std::string plan_number(double x) {
  std::ostringstream os;
  os << x;
  return os.str();
}
}  // namespace

std::string workload_skip_reason(const Workload& w) { return distribution_skip_reason(w.dist, w.key); }

Problem problem_for(const VariantInfo& v, const Workload& w) {
  Problem p = w.problem();
  if (!v.distributed()) p.gpus = 1;
  return p;
}

Point classify(const VariantInfo& v, const Workload& w) {
  Point out;
  out.reason = workload_skip_reason(w);
  if (out.reason.empty()) {
    const Problem p = problem_for(v, w);
    try {
      out.reason = v.skip_reason(p);
    } catch (const std::exception& e) {
      out.reason = v.declared_skip_reason(p);
      if (out.reason.empty()) out.unchecked = e.what();
    }
  }
  out.skip = !out.reason.empty();
  return out;
}

void Tally::add(const Point& p) {
  ++points;
  if (!p.skip) {
    ++to_measure;
    if (!p.unchecked.empty()) ++unchecked;
    return;
  }
  ++skipped;
  for (auto& [reason, count] : skip_reasons)
    if (reason == p.reason) {
      ++count;
      return;
    }
  skip_reasons.emplace_back(p.reason, 1);
}

double measure_bound_s(std::size_t points, double budget_s) { return double(points) * budget_s; }

CompileEstimate estimate_compile(std::size_t points, const std::vector<double>& recorded_s, unsigned jobs) {
  CompileEstimate c;
  c.points = points;
  c.jobs = std::max(1u, jobs);
  std::vector<double> seen;
  for (double s : recorded_s)
    if (std::isfinite(s) && s > 0) seen.push_back(s);
  c.recorded = seen.size();
  c.per_point_s = seen.empty() ? kDefaultCompileS : std::accumulate(seen.begin(), seen.end(), 0.0) / double(seen.size());
  // Compiles run `jobs` at a time, each about as long as the ones recorded
  // (which ran beside others too).
  c.wall_s = double((points + c.jobs - 1) / c.jobs) * c.per_point_s;
  return c;
}

std::string CompileEstimate::text() const {
  std::ostringstream os;
  os << points << " to compile";
  if (points == 0) return os.str();
  os << ", est. " << duration_text(wall_s) << " (" << plan_number(std::round(per_point_s * 10) / 10) << " s a point, ";
  if (recorded)
    os << "the mean of " << recorded << " compile" << (recorded == 1 ? "" : "s") << " the cache recorded";
  else
    os << "assumed: the cache records no compile yet";
  os << "; " << jobs << " job" << (jobs == 1 ? "" : "s") << ")";
  return os.str();
}

std::string summary_line(const Tally& t, double budget_s, const CompileEstimate& c) {
  std::ostringstream os;
  os << "dry run: " << t.points << " point" << (t.points == 1 ? "" : "s") << ": " << t.to_measure << " to measure, "
     << t.skipped << " skipped";
  if (!t.skip_reasons.empty()) {
    // The commonest reasons; every skipped point is listed with its own above.
    std::vector<std::pair<std::string, std::size_t>> by_count = t.skip_reasons;
    std::stable_sort(by_count.begin(), by_count.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
    constexpr std::size_t kShown = 3;
    os << " (";
    for (std::size_t i = 0; i < std::min(kShown, by_count.size()); ++i)
      os << (i ? "; " : "") << by_count[i].second << ": " << by_count[i].first;
    if (by_count.size() > kShown) os << "; " << by_count.size() - kShown << " other reasons";
    os << ")";
  }
  os << ", est. measuring <= " << duration_text(measure_bound_s(t.to_measure, budget_s)) << " (" << t.to_measure
     << " x " << plan_number(budget_s) << " s budget), " << c.text();
  if (t.unchecked)
    os << "; " << t.unchecked << " point" << (t.unchecked == 1 ? "" : "s")
       << " whose own check needs the GPU may still be skipped";
  return os.str();
}

}  // namespace plan
}  // namespace sortbench
