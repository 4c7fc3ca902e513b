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
  const int bits = int(key_bytes(k) * 8);
  const std::string type = to_string(k);
  switch (d.kind) {
    case DistKind::normal:
      if (!is_float(k)) return "distribution normal applies to float keys only (f16, bf16, f32, f64)";
      break;
    case DistKind::range: {
      if (is_float(k)) {
        const double max = bits == 16 ? 65504.0 : bits == 32 ? 3.4028234663852886e38 : 1.7976931348623157e308;
        if (d.range_lo < -max || d.range_hi > max) return d.name() + " is outside the finite range of " + type;
        break;
      }
      if (!d.range_integers) return d.name() + ": integer keys (" + type + ") need integer bounds";
      // [lo, hi) within the type: lo >= min, hi <= max + 1.
      const bool is_signed = is_signed_integer(k);
      const __int128 lo = d.range_lo_int, hi = lo + __int128(d.range_span);
      const __int128 min = is_signed ? -(__int128(1) << (bits - 1)) : 0;
      const __int128 end = is_signed ? (__int128(1) << (bits - 1)) : (__int128(1) << bits);
      if (lo < min || hi > end) return d.name() + " is outside the values of " + type;
      break;
    }
    case DistKind::low_bits:
      if (d.low_bits > bits)
        return d.name() + " needs keys of at least " + std::to_string(d.low_bits) + " bits (" + type + " has " +
               std::to_string(bits) + ")";
      break;
    case DistKind::hot_buckets:
      if (bits < 16) return "hot_buckets places keys by their top 16 bits: keys of 16 bits and more";
      break;
    case DistKind::timestamps:
      if (bits < 32) return "timestamps need keys of 32 bits and more";
      break;
    default: break;
  }
  return {};
}

namespace plan {

std::string value_index_skip_reason(ValueType v, std::size_t n) {
  if (v == ValueType::u32 && n > (std::size_t(1) << 32))
    return "u32 values hold each key's original index, and n = " + std::to_string(n) +
           " is past 2^32 (indices wrap, and stability cannot be checked): use u64 values";
  return {};
}

namespace {
std::string plan_number(double x) {
  std::ostringstream os;
  os << x;
  return os.str();
}
}  // namespace

std::string workload_skip_reason(const Workload& w) {
  if (const std::string why = value_index_skip_reason(w.value, w.n); !why.empty()) return why;
  std::string why = distribution_skip_reason(w.dist, w.key);
  // 32-bit stamps start at 0: the last one (n gaps, and one more of jitter) must fit the key.
  if (why.empty() && w.dist.kind == DistKind::timestamps && key_bytes(w.key) == 4 && !is_float(w.key)) {
    const double last = double(w.n + 1) * double(w.dist.gap);
    const double max = is_signed_integer(w.key) ? 2147483647.0 : 4294967295.0;
    if (last > max)
      why = w.dist.name() + " at n = " + std::to_string(w.n) + " passes the largest " + to_string(w.key) +
            " (about n x gap); use 64-bit keys or a smaller gap";
  }
  return why;
}

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

double energy_window_bound_s(double window_s) { return window_s > 0 ? window_s + 0.2 : 0; }

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

std::string summary_line(const Tally& t, double budget_s, const CompileEstimate& c, double energy_s) {
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
  os << ", est. measuring <= " << duration_text(measure_bound_s(t.to_measure, budget_s + energy_s)) << " ("
     << t.to_measure << " x ";
  if (energy_s > 0)
    os << "(" << plan_number(budget_s) << " s budget + " << plan_number(energy_s) << " s energy window)";
  else
    os << plan_number(budget_s) << " s budget";
  os << "), " << c.text();
  if (t.unchecked)
    os << "; " << t.unchecked << " point" << (t.unchecked == 1 ? "" : "s")
       << " whose own check needs the GPU may still be skipped";
  return os.str();
}

std::vector<Workload> shard_of(const std::vector<Workload>& workloads, std::size_t shard, std::size_t shards) {
  if (shards <= 1) return workloads;
  std::vector<std::size_t> order(workloads.size());
  std::iota(order.begin(), order.end(), std::size_t(0));
  auto bytes = [&](std::size_t i) {
    const Workload& w = workloads[i];
    return double(w.n) * double(key_bytes(w.key) + value_bytes(w.value));
  };
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return bytes(a) > bytes(b); });
  std::vector<bool> mine(workloads.size(), false);
  for (std::size_t k = 0; k < order.size(); ++k) {
    const std::size_t round = k / shards, pos = k % shards;
    if ((round % 2 == 0 ? pos : shards - 1 - pos) == shard) mine[order[k]] = true;
  }
  std::vector<Workload> out;
  for (std::size_t i = 0; i < workloads.size(); ++i)
    if (mine[i]) out.push_back(workloads[i]);
  return out;
}

}  // namespace plan
}  // namespace sortbench
