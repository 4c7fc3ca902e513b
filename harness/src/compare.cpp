#include "sortbench/compare.hpp"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <map>
#include <sstream>

namespace sortbench {

using nlohmann::json;

std::string to_string(Verdict v) {
  switch (v) {
    case Verdict::fast: return "FAST";
    case Verdict::slow: return "SLOW";
    case Verdict::same: return "SAME";
    case Verdict::unsure: return "UNSURE";
    case Verdict::failed: return "FAILED";
    case Verdict::missing: return "MISSING";
    case Verdict::fixed: return "FIXED";
    case Verdict::skipped: return "SKIPPED";
  }
  return "?";
}

RankTest mann_whitney_u(const std::vector<double>& x, const std::vector<double>& y) {
  RankTest t;
  const std::size_t n1 = x.size(), n2 = y.size(), n = n1 + n2;
  if (n1 == 0 || n2 == 0) return t;
  // Midranks of the pooled sample; tie groups feed the variance correction.
  std::vector<std::pair<double, bool>> pooled;  // value, from x
  pooled.reserve(n);
  for (double v : x) pooled.push_back({v, true});
  for (double v : y) pooled.push_back({v, false});
  std::sort(pooled.begin(), pooled.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  double rank_sum_x = 0, tie_term = 0;  // tie_term = sum over tie groups of (t^3 - t)
  for (std::size_t i = 0; i < n;) {
    std::size_t j = i;
    while (j < n && pooled[j].first == pooled[i].first) ++j;
    const double tied = double(j - i);
    const double midrank = (double(i + 1) + double(j)) / 2.0;
    for (std::size_t k = i; k < j; ++k)
      if (pooled[k].second) rank_sum_x += midrank;
    tie_term += tied * tied * tied - tied;
    i = j;
  }
  const double a = double(n1), b = double(n2), N = double(n);
  t.u = rank_sum_x - a * (a + 1) / 2.0;
  const double mean = a * b / 2.0;
  const double variance = a * b / 12.0 * ((N + 1) - tie_term / (N * (N - 1)));
  if (!(variance > 0)) return t;  // every value tied: no evidence either way
  const double distance = std::max(0.0, std::fabs(t.u - mean) - 0.5);
  t.z = distance / std::sqrt(variance);
  t.p = std::min(1.0, std::erfc(t.z / std::sqrt(2.0)));
  return t;
}

namespace {

double median_of(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const std::size_t m = v.size() / 2;
  return v.size() % 2 ? v[m] : (v[m - 1] + v[m]) / 2.0;
}

std::string size_text(std::size_t n) {
  if (n >= 1024 && (n & (n - 1)) == 0) {
    int k = 0;
    while ((std::size_t(1) << k) < n) ++k;
    return "2^" + std::to_string(k);
  }
  return std::to_string(n);
}

std::string workload_text(const PointResult& r) {
  std::string s = to_string(r.key) + (r.value == ValueType::none ? " keys" : "+" + to_string(r.value) + " pairs");
  if (r.order == Order::descending) s += ", descending";
  s += ", " + r.distribution + ", n=" + size_text(r.n);
  if (r.seed != 1) s += ", seed " + std::to_string(r.seed);
  return s;
}

std::string params_text(const PointResult& r) {
  std::vector<std::string> parts;
  for (const auto& p : r.params) parts.push_back(p.name + "=" + p.value);
  std::sort(parts.begin(), parts.end());
  std::string s;
  for (const auto& p : parts) s += (s.empty() ? "" : " ") + p;
  return s;
}

// Identity of a point across reports: variant, params and the whole workload.
std::string match_key(const PointResult& r) {
  return r.variant + "|" + params_text(r) + "|" + r.workload_key() + r.placement_key();
}

std::string percent(double fraction, int digits = 1, bool sign = true) {
  std::ostringstream os;
  if (sign) os << std::showpos;
  os << std::fixed << std::setprecision(digits) << fraction * 100 << "%";
  return os.str();
}

std::string number(double v, int significant = 4) {
  std::ostringstream os;
  os << std::setprecision(significant) << v;
  return os.str();
}

std::string p_text(double p) {
  std::ostringstream os;
  if (p < 1e-3) os << std::scientific << std::setprecision(1) << p;
  else os << std::fixed << std::setprecision(3) << p;
  return os.str();
}

std::string about(const json& context) {
  std::string s;
  const json device = context.value("device", json::object());
  s += device.value("name", std::string("unknown GPU"));
  const json build = context.value("build", json::object());
  const std::string commit = build.value("git_commit", std::string());
  if (!commit.empty()) s += ", commit " + commit.substr(0, 7) + (build.value("git_dirty", false) ? "+dirty" : "");
  const std::string when = context.value("timestamp", std::string());
  if (!when.empty()) s += ", " + when;
  return s;
}

// The SM clock a point was measured at: its own median clock, else the
// device's peak (older or hand-made reports).
double clock_of(const PointResult& r, const json& context) {
  if (r.sm_clock_mhz > 0) return r.sm_clock_mhz;
  return context.value("device", json::object()).value("sm_clock_peak_mhz", 0.0);
}

// One run with a hot L2 and the other cold: no verdict either way.
void mark_l2_mismatch(PointComparison& pc, const PointResult& b, const PointResult& n, std::vector<std::string>& notes) {
  if (b.cold_l2 == n.cold_l2) return;
  pc.verdict = Verdict::unsure;
  notes.push_back(std::string("L2 ") + (b.cold_l2 ? "cold" : "hot") + " in BASE, " + (n.cold_l2 ? "cold" : "hot") +
                  " in NEW: not comparable");
}

void judge_timed(PointComparison& pc, const PointResult& b, const PointResult& n, const CompareOptions& o,
                 const json& base_ctx, const json& new_ctx) {
  pc.base_samples = b.time_ms.raw.size();
  pc.new_samples = n.time_ms.raw.size();
  pc.base_median_ms = b.time_ms.median;
  pc.new_median_ms = n.time_ms.median;
  pc.base_clock_mhz = clock_of(b, base_ctx);
  pc.new_clock_mhz = clock_of(n, new_ctx);
  std::vector<std::string> notes;
  if (pc.base_samples == 0 || pc.new_samples == 0) {
    pc.verdict = Verdict::unsure;
    pc.note = "no raw samples in " + std::string(pc.base_samples == 0 ? "BASE" : "NEW");
    return;
  }
  pc.judged = true;
  const TimingVerdict measured = judge_samples(b.time_ms.raw, n.time_ms.raw, o);
  pc.verdict = measured.verdict;
  pc.change = measured.change;
  pc.p = measured.p;
  const double ratio = (pc.base_clock_mhz > 0 && pc.new_clock_mhz > 0) ? pc.new_clock_mhz / pc.base_clock_mhz : 1.0;
  if (std::fabs(ratio - 1.0) > o.clock_tolerance) {
    // Sorts are mostly memory-bound, so time scales with 1/clock at most. A
    // verdict counts only if it holds both as measured and with NEW's times
    // scaled to BASE's clock (the most a clock change can explain).
    pc.clocks_differ = true;
    const TimingVerdict scaled = judge_samples(b.time_ms.raw, n.time_ms.raw, o, ratio);
    std::string clock_note = "SM clock " + number(pc.base_clock_mhz, 4) + " -> " + number(pc.new_clock_mhz, 4) +
                             " MHz (" + percent(ratio - 1.0) + ")";
    if (scaled.verdict == measured.verdict) {
      notes.push_back(clock_note + "; verdict holds with NEW scaled to BASE's clock (" + percent(scaled.change) + ")");
    } else {
      pc.verdict = Verdict::unsure;
      notes.push_back(clock_note + ": " + to_string(measured.verdict) + " as measured, " +
                      to_string(scaled.verdict) + " scaled to BASE's clock (" + percent(scaled.change) +
                      "); rerun with steady clocks");
    }
  }
  mark_l2_mismatch(pc, b, n, notes);
  if (pc.verdict == Verdict::unsure && notes.empty())
    notes.push_back("change of " + percent(pc.change) + " not significant at alpha " + number(o.alpha) + " (p " +
                    p_text(pc.p) + ")");
  if (std::min(pc.base_samples, pc.new_samples) < 5)
    notes.push_back("few samples (" + std::to_string(pc.base_samples) + " vs " + std::to_string(pc.new_samples) +
                    "): the test has little power");
  if (b.throttled || n.throttled)
    notes.push_back(std::string("throttled samples discarded in ") +
                    (b.throttled && n.throttled ? "both" : (b.throttled ? "BASE" : "NEW")));
  for (const auto& s : notes) pc.note += (pc.note.empty() ? "" : "; ") + s;
}

// Energy: one value a side with its error, so no rank test; clocks and L2
// are noted, not scaled (energy does not follow the clock as time does).
void judge_energy_point(PointComparison& pc, const PointResult& b, const PointResult& n, const CompareOptions& o,
                        const json& base_ctx, const json& new_ctx) {
  pc.base_median_ms = b.time_ms.median;
  pc.new_median_ms = n.time_ms.median;
  pc.base_clock_mhz = clock_of(b, base_ctx);
  pc.new_clock_mhz = clock_of(n, new_ctx);
  if (!b.energy.measured || !n.energy.measured) {
    pc.verdict = Verdict::unsure;
    const PointResult& without = b.energy.measured ? n : b;
    pc.note = std::string("no energy in ") + (b.energy.measured ? "NEW" : "BASE") +
              (without.energy.missing.empty() ? std::string() : ": " + without.energy.missing);
    return;
  }
  pc.base_joules = b.energy.joules;
  pc.new_joules = n.energy.joules;
  pc.judged = true;
  const TimingVerdict v = judge_energy(b.energy.joules, b.energy.rel_error, n.energy.joules, n.energy.rel_error, o);
  pc.verdict = v.verdict;
  pc.change = v.change;
  pc.p = v.p;
  std::vector<std::string> notes;
  if (pc.verdict == Verdict::unsure)
    notes.push_back("change of " + percent(pc.change) + " not significant at alpha " + number(o.alpha) + " (p " +
                    p_text(pc.p) + ")");
  const double ratio = (pc.base_clock_mhz > 0 && pc.new_clock_mhz > 0) ? pc.new_clock_mhz / pc.base_clock_mhz : 1.0;
  if (std::fabs(ratio - 1.0) > o.clock_tolerance) {
    pc.clocks_differ = true;
    notes.push_back("SM clock " + number(pc.base_clock_mhz, 4) + " -> " + number(pc.new_clock_mhz, 4) + " MHz (" +
                    percent(ratio - 1.0) + ")");
  }
  mark_l2_mismatch(pc, b, n, notes);
  for (const auto& s : notes) pc.note += (pc.note.empty() ? "" : "; ") + s;
}

// FAST and SLOW read as LESS-J and MORE-J when energy is compared.
std::string verdict_text(Verdict v, CompareMetric m) {
  if (m == CompareMetric::energy && v == Verdict::fast) return "LESS-J";
  if (m == CompareMetric::energy && v == Verdict::slow) return "MORE-J";
  return to_string(v);
}

// The compared value of one side: the median in ms, or one sort's joules.
std::string value_text(const PointComparison& p, CompareMetric m, bool base) {
  const double v = m == CompareMetric::energy ? (base ? p.base_joules : p.new_joules)
                                              : (base ? p.base_median_ms : p.new_median_ms);
  return v > 0 ? number(v) : "-";
}

std::string outcome_text(const Comparison& c) {
  if (!c.regression()) return "no regression";
  std::vector<std::string> why;
  if (c.count(Verdict::slow))
    why.push_back(std::to_string(c.count(Verdict::slow)) + " " + verdict_text(Verdict::slow, c.options.metric));
  if (c.count(Verdict::failed)) why.push_back(std::to_string(c.count(Verdict::failed)) + " failed validation in NEW");
  if (c.count(Verdict::missing) && !c.options.allow_missing)
    why.push_back(std::to_string(c.count(Verdict::missing)) + " missing");
  std::string s = "regression: ";
  for (std::size_t i = 0; i < why.size(); ++i) s += (i ? ", " : "") + why[i];
  return s;
}

std::string counts_text(const Comparison& c) {
  std::ostringstream os;
  os << c.points.size() << " points: ";
  bool first = true;
  for (Verdict v : {Verdict::slow, Verdict::failed, Verdict::missing, Verdict::fast, Verdict::unsure, Verdict::same,
                    Verdict::fixed, Verdict::skipped}) {
    const std::size_t k = c.count(v);
    if (!k && v != Verdict::slow && v != Verdict::fast && v != Verdict::same && v != Verdict::unsure) continue;
    os << (first ? "" : ", ") << k << " " << verdict_text(v, c.options.metric);
    first = false;
  }
  return os.str();
}

std::string rule_text(const CompareOptions& o) {
  std::ostringstream os;
  if (o.metric == CompareMetric::energy) {
    os << "energy: two-sided normal test of ln(NEW J / BASE J), each side's error its window's own and "
       << percent(o.energy_drift, 1, false) << " between runs in quadrature, alpha " << number(o.alpha)
       << "; minimum change " << percent(o.min_change, 1, false) << " of one sort's joules"
       << (o.allow_missing ? "; missing points allowed" : "");
    return os.str();
  }
  os << "two-sided Mann-Whitney U on the raw samples (normal approximation, tie-corrected), alpha " << number(o.alpha)
     << "; minimum change " << percent(o.min_change, 1, false) << " of the median; SM clocks differing by more than "
     << percent(o.clock_tolerance, 1, false) << " must not explain the verdict"
     << (o.allow_missing ? "; missing points allowed" : "");
  return os.str();
}

bool needs_attention(Verdict v) { return v != Verdict::same && v != Verdict::skipped; }


}  // namespace

TimingVerdict judge_samples(const std::vector<double>& base_ms, const std::vector<double>& new_ms,
                            const CompareOptions& o, double clock_ratio) {
  std::vector<double> scaled = new_ms;
  for (double& v : scaled) v *= clock_ratio;
  TimingVerdict t;
  const double base_median = median_of(base_ms);
  t.change = base_median > 0 ? median_of(scaled) / base_median - 1.0 : 0.0;
  t.p = mann_whitney_u(base_ms, scaled).p;
  const bool significant = t.p < o.alpha;
  // A tiny margin keeps an exactly planted threshold-sized change on the side it was meant for.
  const bool large = std::fabs(t.change) >= o.min_change * (1 - 1e-9);
  if (!large) t.verdict = Verdict::same;
  else if (!significant) t.verdict = Verdict::unsure;
  else t.verdict = t.change > 0 ? Verdict::slow : Verdict::fast;
  return t;
}

TimingVerdict judge_energy(double base_joules, double base_rel_error, double new_joules, double new_rel_error,
                           const CompareOptions& o) {
  TimingVerdict t;
  if (base_joules <= 0 || new_joules <= 0) {
    t.verdict = Verdict::unsure;
    return t;
  }
  t.change = new_joules / base_joules - 1.0;
  const double drift2 = o.energy_drift * o.energy_drift;
  const double sigma = std::sqrt(base_rel_error * base_rel_error + new_rel_error * new_rel_error + 2 * drift2);
  const double z = sigma > 0 ? std::fabs(std::log(new_joules / base_joules)) / sigma : HUGE_VAL;
  t.p = std::erfc(z / std::sqrt(2.0));
  const bool large = std::fabs(t.change) >= o.min_change * (1 - 1e-9);
  if (!large) t.verdict = Verdict::same;
  else if (t.p >= o.alpha) t.verdict = Verdict::unsure;
  else t.verdict = t.change > 0 ? Verdict::slow : Verdict::fast;
  return t;
}

std::size_t Comparison::count(Verdict v) const {
  return std::size_t(std::count_if(points.begin(), points.end(), [v](const auto& p) { return p.verdict == v; }));
}

bool Comparison::regression() const {
  return count(Verdict::slow) || count(Verdict::failed) || (!options.allow_missing && count(Verdict::missing));
}

Comparison compare_reports(const Report& base, const Report& next, const CompareOptions& o,
                           const std::string& base_path, const std::string& new_path) {
  Comparison c;
  c.options = o;
  c.base_path = base_path;
  c.new_path = new_path;
  c.base_about = about(base.context);
  c.new_about = about(next.context);

  const json bdev = base.context.value("device", json::object()), ndev = next.context.value("device", json::object());
  const std::string bname = bdev.value("name", std::string()), nname = ndev.value("name", std::string());
  if (!bname.empty() && !nname.empty() && bname != nname)
    c.warnings.push_back("different GPUs: BASE ran on " + bname + ", NEW on " + nname +
                         "; timings are not comparable across models");
  const double bpeak = bdev.value("sm_clock_peak_mhz", 0.0), npeak = ndev.value("sm_clock_peak_mhz", 0.0);
  if (bpeak > 0 && npeak > 0 && std::fabs(npeak / bpeak - 1.0) > o.clock_tolerance)
    c.warnings.push_back("peak SM clocks differ: " + number(bpeak) + " MHz in BASE, " + number(npeak) + " MHz in NEW");
  if (!base.complete) c.warnings.push_back(base_path + " is incomplete (\"complete\": false): the sweep was interrupted");
  if (!next.complete) c.warnings.push_back(new_path + " is incomplete (\"complete\": false): the sweep was interrupted");

  // First occurrence wins; a repeated point is reported, not silently merged.
  auto index = [&](const Report& r, const std::string& side) {
    std::map<std::string, const PointResult*> m;
    std::size_t duplicates = 0;
    for (const auto& p : r.results)
      if (!m.emplace(match_key(p), &p).second) ++duplicates;
    if (duplicates)
      c.warnings.push_back(side + " has " + std::to_string(duplicates) + " repeated point(s); the first of each is used");
    return m;
  };
  const auto base_index = index(base, base_path);
  const auto new_index = index(next, new_path);

  auto describe = [](PointComparison& pc, const PointResult& r) {
    pc.variant = r.variant;
    pc.workload = workload_text(r);
    pc.params = params_text(r);
  };
  std::map<std::string, bool> seen;
  for (const auto& b : base.results) {
    const std::string key = match_key(b);
    if (seen[key]) continue;
    seen[key] = true;
    PointComparison pc;
    describe(pc, b);
    pc.in_base = true;
    const auto it = new_index.find(key);
    if (it == new_index.end()) {
      pc.verdict = b.status == Status::skipped ? Verdict::skipped : Verdict::missing;
      pc.note = b.status == Status::skipped ? "skipped in BASE, absent from NEW" : "absent from NEW";
      c.points.push_back(pc);
      continue;
    }
    const PointResult& n = *it->second;
    pc.in_new = true;
    if (n.status == Status::failed) {
      pc.verdict = Verdict::failed;
      pc.note = "NEW failed validation: " + (n.reason.empty() ? n.validation.message : n.reason) +
                (b.status == Status::failed ? " (BASE failed too)" : "");
    } else if (b.status == Status::ok && n.status == Status::ok) {
      if (o.metric == CompareMetric::energy) judge_energy_point(pc, b, n, o, base.context, next.context);
      else judge_timed(pc, b, n, o, base.context, next.context);
    } else if (b.status == Status::ok && n.status == Status::skipped) {
      pc.verdict = Verdict::missing;
      pc.base_median_ms = b.time_ms.median;
      pc.note = "skipped in NEW: " + n.reason;
    } else if (b.status == Status::failed && n.status == Status::ok) {
      pc.verdict = Verdict::fixed;
      pc.new_median_ms = n.time_ms.median;
      pc.note = "BASE failed validation (" + b.reason + "); NEW passes";
    } else {
      pc.verdict = Verdict::skipped;
      pc.note = b.status == Status::failed ? "BASE failed validation, NEW skipped: " + n.reason
                                           : "skipped in BASE: " + b.reason;
      if (b.status == Status::skipped && n.status == Status::skipped && b.reason != n.reason)
        pc.note += "; in NEW: " + n.reason;
    }
    c.points.push_back(pc);
  }
  for (const auto& n : next.results) {
    const std::string key = match_key(n);
    if (seen[key]) continue;
    seen[key] = true;
    PointComparison pc;
    describe(pc, n);
    pc.in_new = true;
    if (n.status == Status::failed) {
      pc.verdict = Verdict::failed;
      pc.note = "absent from BASE; NEW failed validation: " + (n.reason.empty() ? n.validation.message : n.reason);
    } else if (n.status == Status::skipped) {
      pc.verdict = Verdict::skipped;
      pc.note = "absent from BASE, skipped in NEW: " + n.reason;
    } else {
      pc.verdict = Verdict::missing;
      pc.new_median_ms = n.time_ms.median;
      pc.note = "absent from BASE (new point: refresh the baseline)";
    }
    c.points.push_back(pc);
  }
  return c;
}

std::string comparison_text(const Comparison& c, bool changes_only) {
  std::ostringstream os;
  os << "BASE " << c.base_path << " (" << c.base_about << ")\n";
  os << "NEW  " << c.new_path << " (" << c.new_about << ")\n";
  os << "rule: " << rule_text(c.options) << "\n";
  for (const auto& w : c.warnings) os << "warning: " << w << "\n";
  std::size_t variant_width = 7, workload_width = 8;
  for (const auto& p : c.points) {
    variant_width = std::max(variant_width, p.variant.size());
    workload_width = std::max(workload_width, p.workload.size());
  }
  const CompareMetric m = c.options.metric;
  const std::string unit = m == CompareMetric::energy ? " J" : " ms";
  os << std::left << std::setw(8) << "verdict" << std::setw(int(variant_width) + 2) << "variant"
     << std::setw(int(workload_width) + 2) << "workload" << std::right << std::setw(11) << "BASE" + unit << std::setw(11)
     << "NEW" + unit << std::setw(9) << "change" << std::setw(9) << "p" << "  note\n";
  std::size_t shown = 0;
  for (const auto& p : c.points) {
    if (changes_only && !needs_attention(p.verdict)) continue;
    ++shown;
    os << std::left << std::setw(8) << verdict_text(p.verdict, m) << std::setw(int(variant_width) + 2) << p.variant
       << std::setw(int(workload_width) + 2) << p.workload << std::right << std::setw(11) << value_text(p, m, true)
       << std::setw(11) << value_text(p, m, false) << std::setw(9) << (p.judged ? percent(p.change) : "-")
       << std::setw(9) << (p.judged ? p_text(p.p) : "-") << "  " << p.note << "\n";
  }
  if (changes_only && shown == 0) os << "(every point SAME or skipped)\n";
  os << counts_text(c) << " -> " << outcome_text(c) << " (exit " << c.exit_code() << ")\n";
  return os.str();
}

std::string comparison_markdown(const Comparison& c) {
  auto cell = [](std::string s) {  // a table cell: no pipes or newlines
    for (char& ch : s)
      if (ch == '\n') ch = ' ';
    std::string out;
    for (char ch : s) out += ch == '|' ? std::string("\\|") : std::string(1, ch);
    return out;
  };
  const CompareMetric m = c.options.metric;
  auto row = [&](const PointComparison& p) {
    std::string variant = "`" + p.variant + "`";
    std::string verdict = verdict_text(p.verdict, m);
    if (p.verdict == Verdict::slow || p.verdict == Verdict::failed ||
        (p.verdict == Verdict::missing && !c.options.allow_missing))
      verdict = "**" + verdict + "**";
    return "| " + verdict + " | " + variant + " | " + cell(p.workload) + " | " +
           value_text(p, m, true) + " | " + value_text(p, m, false) + " | " + (p.judged ? percent(p.change) : "-") +
           " | " + (p.judged ? p_text(p.p) : "-") + " | " + cell(p.note) + " |\n";
  };
  const std::string what = m == CompareMetric::energy ? "J a sort" : "median ms";
  const std::string header =
      "| verdict | variant | workload | BASE " + what + " | NEW " + what + " | change | p | note |\n"
      "| --- | --- | --- | ---: | ---: | ---: | ---: | --- |\n";
  std::ostringstream os;
  os << "## sortbench compare: " << (c.regression() ? "❌ " : "✅ ") << outcome_text(c) << "\n\n";
  os << "- BASE `" << c.base_path << "`: " << c.base_about << "\n";
  os << "- NEW `" << c.new_path << "`: " << c.new_about << "\n";
  os << "- rule: " << rule_text(c.options) << "\n";
  os << "- " << counts_text(c) << "\n";
  for (const auto& w : c.warnings) os << "- ⚠️ " << w << "\n";
  os << "\n";
  std::size_t attention = 0;
  for (const auto& p : c.points) attention += needs_attention(p.verdict);
  if (attention) {
    os << "### Points to look at\n\n" << header;
    for (const auto& p : c.points)
      if (needs_attention(p.verdict)) os << row(p);
    os << "\n";
  }
  os << "<details><summary>All " << c.points.size() << " points</summary>\n\n" << header;
  for (const auto& p : c.points) os << row(p);
  os << "\n</details>\n";
  return os.str();
}

}  // namespace sortbench
