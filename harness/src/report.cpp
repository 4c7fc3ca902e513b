#include <algorithm>
#include "sortbench/report.hpp"

#include "sortbench/input_class.hpp"

#include "sortbench/config.hpp"
#include "sortbench/files.hpp"
#include "sortbench/json_read.hpp"

#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <map>
#include <sstream>

namespace sortbench {

using nlohmann::json;

std::string to_string(Status s) {
  switch (s) {
    case Status::ok: return "ok";
    case Status::failed: return "failed";
    case Status::skipped: return "skipped";
  }
  return "?";
}

Status parse_status(const std::string& s) {
  if (s == "ok") return Status::ok;
  if (s == "failed") return Status::failed;
  if (s == "skipped") return Status::skipped;
  throw std::runtime_error("unknown status '" + s + "'");
}

std::string PointResult::placement_key() const {
  if (gpus.size() < 2) return {};
  std::string s = "|gpus:";
  for (std::size_t i = 0; i < gpus.size(); ++i) s += (i ? "," : "") + std::to_string(gpus[i]);
  return s;
}

std::string PointResult::workload_key() const {
  return to_string(key) + "|" + to_string(value) + "|" + to_string(order) + "|" + std::to_string(n) + "|" +
         distribution + "|" + std::to_string(seed);
}

namespace {

// Clocks in a report are MHz: a GPU's run at a few GHz at most. Far beyond
// that is a damaged or foreign file, and would turn compare's clock
// scaling into nonsense.
constexpr double kMaxClockMhz = 100000;

bool is_integer(const std::string& s) {
  return !s.empty() && s.size() < 19 && s.find_first_not_of("0123456789") == std::string::npos;
}

json stats_to_json(const SampleStats& s) {
  return {{"samples", s.samples}, {"median", s.median}, {"mean", s.mean},   {"min", s.min},
          {"max", s.max},         {"stdev", s.stdev},   {"q1", s.q1},       {"q3", s.q3},
          {"rel_stderr", s.rel_stderr}, {"raw", s.raw}};
}

SampleStats stats_from_json(const JsonAt& j) {
  SampleStats s;
  s.samples = j["samples"].unsigned_integer();
  s.median = j["median"].non_negative();
  s.mean = j["mean"].non_negative();
  s.min = j["min"].non_negative();
  s.max = j["max"].non_negative();
  s.stdev = j["stdev"].non_negative();
  s.q1 = j["q1"].non_negative();
  s.q3 = j["q3"].non_negative();
  s.rel_stderr = j["rel_stderr"].non_negative();
  const JsonAt raw = j["raw"];
  for (std::size_t i = 0; i < raw.size(); ++i) s.raw.push_back(raw[i].non_negative());
  // A measured time is never 0 (a verdict against it would read -100 %), and
  // the count is that of the samples kept.
  if (!(s.median > 0)) j["median"].fail("a time above 0 ms");
  if (!s.raw.empty() && s.raw.size() != s.samples)
    j["samples"].fail("the number of raw samples (" + std::to_string(s.raw.size()) + ")");
  return s;
}

}  // namespace

json result_to_json(const PointResult& r) {
  json j;
  j["variant"] = r.variant;
  j["family"] = r.family;
  json params = json::object();
  for (const auto& p : r.params) params[p.name] = is_integer(p.value) ? json(std::stoll(p.value)) : json(p.value);
  j["params"] = params;
  j["claims_stable"] = r.claims_stable;
  j["key"] = to_string(r.key);
  j["value"] = to_string(r.value);
  j["order"] = to_string(r.order);
  j["n"] = r.n;
  j["distribution"] = r.distribution;
  j["seed"] = r.seed;
  j["status"] = to_string(r.status);
  if (!r.reason.empty()) j["reason"] = r.reason;
  const auto& v = r.validation;
  j["validation"] = {{"checked", v.checked},
                     {"sorted", v.sorted},
                     {"permutation", v.permutation},
                     {"stability_checked", v.stability_checked},
                     {"stable", v.stable},
                     {"first_bad_index", v.first_bad_index},
                     {"message", v.message}};
  j["temp_bytes"] = r.temp_bytes;
  j["bytes_per_key"] = r.bytes_per_key;
  if (!r.gpus.empty()) j["gpus"] = r.gpus;
  if (!r.part_sizes.empty()) j["part_sizes"] = r.part_sizes;
  if (!r.local_sort.empty()) j["local_sort"] = r.local_sort;
  if (!r.input_class.empty()) j["input_class"] = r.input_class;
  if (r.sample_us >= 0) j["sample_us"] = r.sample_us;
  if (!r.dispatch.empty()) j["dispatch"] = r.dispatch;
  if (!r.selected_by.empty()) j["selected_by"] = r.selected_by;
  if (r.status == Status::ok) {
    const EnergyResult& e = r.energy;
    if (e.measured)
      j["energy"] = {{"joules", e.joules},         {"joules_per_gkey", e.joules_per_gkey},
                     {"watts_mean", e.watts_mean}, {"power_reading_w", e.power_reading_w}, {"window_s", e.window_s},
                     {"sorts", e.sorts},           {"restore_joules", e.restore_joules},
                     {"rel_error", e.rel_error}, {"method", e.method}};
    else if (!e.missing.empty())
      j["energy"] = {{"missing", e.missing}};
  }
  if (r.status == Status::ok && r.gpus.size() > 1) {
    json phases = json::array();
    for (const auto& [name, ms] : r.phases_ms) phases.push_back({{"phase", name}, {"ms", ms}});
    j["phases_ms"] = phases;
    j["exchange_gb_per_s"] = r.exchange_gb_per_s;
    j["link_alltoall_gb_per_s"] = r.link_alltoall_gb_per_s;
    if (r.link_alltoall_gb_per_s > 0)
      j["exchange_fraction_of_link"] = r.exchange_gb_per_s / r.link_alltoall_gb_per_s;
  }
  if (r.has_scaling) {
    const Scaling& c = r.scaling;
    j["scaling"] = {{"one_gpu_baseline", c.one_gpu_baseline}, {"one_gpu_ms", c.one_gpu_ms},
                    {"speedup", c.speedup},                   {"efficiency", c.efficiency},
                    {"ideal_baseline", c.ideal_baseline},     {"ideal_n", c.ideal_n},
                    {"ideal_ms", c.ideal_ms},                 {"fraction_of_ideal", c.fraction_of_ideal}};
  }
  if (r.status == Status::ok) {
    j["time_ms"] = stats_to_json(r.time_ms);
    j["stop_reason"] = r.stop_reason;
    j["cold_l2"] = r.cold_l2;
    j["sm_clock_mhz"] = r.sm_clock_mhz;
    j["throttled_samples"] = r.throttled_samples;
    j["throttled"] = r.throttled;
    j["gkeys_per_s"] = r.gkeys_per_s;
    j["gb_per_s"] = r.gb_per_s;
    j["fraction_of_copy_bw"] = r.fraction_of_copy_bw;
    j["speedup"] = r.speedup;
    json vs = json::object();
    for (const auto& [group, b] : r.vs) vs[group] = {{"baseline", b.baseline}, {"speedup", b.speedup}};
    j["vs"] = vs;
  }
  return j;
}

PointResult result_from_json(const json& doc, const std::string& where, const std::string& path) {
  const JsonAt j(doc, where, path);
  j.object();
  PointResult r;
  r.variant = j["variant"].string();
  // Labels are what the registry takes: printable, no spaces (tables and globs split on them).
  if (std::any_of(r.variant.begin(), r.variant.end(), [](char c) { return static_cast<unsigned char>(c) <= ' ' || c == 0x7f; }))
    j["variant"].fail("a variant label without spaces or control characters");
  r.family = j["family"].string();
  const JsonAt params = j["params"];
  for (const auto& [k, v] : params.object().items()) {
    if (!v.is_string() && !v.is_number()) params[k].fail("a string or a number");
    r.params.push_back({k, "", v.is_string() ? v.get<std::string>() : v.dump()});
  }
  r.claims_stable = j["claims_stable"].boolean();
  auto parsed = [&](const char* field, auto parse, const std::string& names) {
    const JsonAt f = j[field];
    const auto v = parse(f.string());
    if (!v) f.fail("one of " + names);
    return *v;
  };
  r.key = parsed("key", parse_key_type, key_type_names());
  r.value = parsed("value", parse_value_type, value_type_names());
  r.order = parsed("order", parse_order, "ascending, descending");
  r.n = j["n"].unsigned_integer(std::uint64_t(INT64_MAX));
  r.distribution = j["distribution"].string();
  std::string why;
  if (!parse_distribution(r.distribution, &why)) j["distribution"].fail("a distribution (" + why + ")");
  r.seed = j["seed"].unsigned_integer();
  const JsonAt status = j["status"];
  const std::string st = status.string();
  if (st == "ok") r.status = Status::ok;
  else if (st == "failed") r.status = Status::failed;
  else if (st == "skipped") r.status = Status::skipped;
  else status.fail("ok, failed or skipped");
  if (j.has("reason")) r.reason = j["reason"].string();
  const JsonAt v = j["validation"];
  r.validation.checked = v["checked"].boolean();
  r.validation.sorted = v["sorted"].boolean();
  r.validation.permutation = v["permutation"].boolean();
  r.validation.stability_checked = v["stability_checked"].boolean();
  r.validation.stable = v["stable"].boolean();
  r.validation.first_bad_index = v["first_bad_index"].integer();
  r.validation.message = v["message"].string();
  r.temp_bytes = j["temp_bytes"].unsigned_integer();
  r.bytes_per_key = j["bytes_per_key"].non_negative();
  if (j.has("gpus")) {
    const JsonAt g = j["gpus"];
    for (std::size_t i = 0; i < g.size(); ++i) r.gpus.push_back(int(g[i].unsigned_integer(1023)));
  }
  if (j.has("part_sizes")) {
    const JsonAt ps = j["part_sizes"];
    for (std::size_t i = 0; i < ps.size(); ++i) r.part_sizes.push_back(ps[i].unsigned_integer());
  }
  if (j.has("local_sort")) r.local_sort = j["local_sort"].string();
  if (j.has("input_class")) {
    r.input_class = j["input_class"].string();
    if (!parse_input_class(r.input_class)) j["input_class"].fail(input_class_names());
  }
  if (j.has("sample_us")) r.sample_us = j["sample_us"].non_negative();
  if (j.has("dispatch")) r.dispatch = j["dispatch"].string();
  if (j.has("selected_by")) {
    const JsonAt sel = j["selected_by"];
    for (std::size_t i = 0; i < sel.size(); ++i) r.selected_by.push_back(sel[i].string());
  }
  if (j.has("energy")) {  // schema version 3
    const JsonAt e = j["energy"];
    e.object();
    if (e.has("missing")) {
      r.energy.missing = e["missing"].string();
    } else {
      EnergyResult& x = r.energy;
      x.measured = true;
      x.joules = e["joules"].non_negative();
      x.joules_per_gkey = e["joules_per_gkey"].non_negative();
      x.watts_mean = e["watts_mean"].non_negative();
      x.window_s = e["window_s"].non_negative();
      x.sorts = e["sorts"].unsigned_integer();
      x.restore_joules = e["restore_joules"].non_negative();
      x.method = e["method"].string();
      if (e.has("rel_error")) x.rel_error = e["rel_error"].non_negative();
      if (e.has("power_reading_w")) x.power_reading_w = e["power_reading_w"].non_negative();
    }
  }
  if (j.has("phases_ms")) {
    const JsonAt ph = j["phases_ms"];
    for (std::size_t i = 0; i < ph.size(); ++i) r.phases_ms.emplace_back(ph[i]["phase"].string(), ph[i]["ms"].non_negative());
  }
  if (j.has("exchange_gb_per_s")) r.exchange_gb_per_s = j["exchange_gb_per_s"].non_negative();
  if (j.has("link_alltoall_gb_per_s")) r.link_alltoall_gb_per_s = j["link_alltoall_gb_per_s"].non_negative();
  if (j.has("scaling")) {  // recomputed by compute_speedups; read so a merge keeps it
    const JsonAt c = j["scaling"];
    r.has_scaling = true;
    r.scaling = {c["one_gpu_baseline"].string(), c["one_gpu_ms"].non_negative(), c["speedup"].non_negative(),
                 c["efficiency"].non_negative(), c["ideal_baseline"].string(), std::size_t(c["ideal_n"].unsigned_integer()),
                 c["ideal_ms"].non_negative(), c["fraction_of_ideal"].non_negative()};
  }
  if (r.status == Status::ok) {
    r.time_ms = stats_from_json(j["time_ms"]);
    r.stop_reason = j["stop_reason"].string();
    if (!r.stop_reason.empty() && r.stop_reason != "noise" && r.stop_reason != "budget" &&
        r.stop_reason != "max_samples" && r.stop_reason != "throttled")
      j["stop_reason"].fail("noise, budget, max_samples, throttled or \"\"");
    r.cold_l2 = j["cold_l2"].boolean();
    r.sm_clock_mhz = j["sm_clock_mhz"].non_negative(kMaxClockMhz);
    r.throttled_samples = j["throttled_samples"].unsigned_integer();
    r.throttled = j["throttled"].boolean();
    r.gkeys_per_s = j["gkeys_per_s"].non_negative();
    r.gb_per_s = j["gb_per_s"].non_negative();
    r.fraction_of_copy_bw = j["fraction_of_copy_bw"].non_negative();
    const JsonAt speedup = j["speedup"];
    for (const auto& [label, x] : speedup.object().items()) r.speedup[label] = speedup[label].non_negative();
    if (j.has("vs")) {  // schema version 2
      const JsonAt vs = j["vs"];
      for (const auto& [group, b] : vs.object().items())
        r.vs[group] = {vs[group]["baseline"].string(), vs[group]["speedup"].non_negative()};
    }
  }
  return r;
}

json report_to_json(const Report& r) {
  json j;
  j["schema"] = kReportSchema;
  j["schema_version"] = kReportSchemaVersion;
  j["complete"] = r.complete;
  j["context"] = r.context;
  j["results"] = json::array();
  for (const auto& p : r.results) j["results"].push_back(result_to_json(p));
  return j;
}

Report report_from_json(const json& doc, const std::string& where) {
  const JsonAt j(doc, where);
  // The schema and its version first: a file of another kind is named as such.
  if (!doc.is_object() || !doc.contains("schema") || doc["schema"] != kReportSchema)
    throw ConfigError(where + ": not a sortbench report (expected \"schema\": \"" + kReportSchema + "\")");
  const JsonAt version = j["schema_version"];
  if (!doc["schema_version"].is_number_integer() || doc["schema_version"].get<std::int64_t>() < 0 ||
      version.unsigned_integer() < 1 || version.unsigned_integer() > std::uint64_t(kReportSchemaVersion))
    version.fail("1 to " + std::to_string(kReportSchemaVersion) + " (a report schema version this build reads)");
  Report r;
  r.complete = j.has("complete") ? j["complete"].boolean() : true;
  r.context = j["context"].object();
  // The fields of the context the tools read, typed where present.
  const JsonAt context = j["context"];
  if (context.has("device")) {
    const JsonAt device = context["device"];
    device.object();
    for (const char* field : {"name", "model", "uuid"})
      if (device.has(field)) device[field].string();
    for (const char* field : {"sm_clock_peak_mhz", "sm_clock_mhz", "mem_clock_peak_mhz"})
      if (device.has(field)) device[field].non_negative(kMaxClockMhz);
    if (device.has("copy_gb_per_s")) device["copy_gb_per_s"].non_negative();
  }
  if (context.has("build")) {
    const JsonAt build = context["build"];
    build.object();
    for (const char* field : {"git_commit", "build_type"})
      if (build.has(field)) build[field].string();
    if (build.has("git_dirty")) build["git_dirty"].boolean();
  }
  for (const char* field : {"timestamp", "command_line"})
    if (context.has(field)) context[field].string();
  if (context.has("host")) {
    context["host"].object();
    if (context["host"].has("hostname")) context["host"]["hostname"].string();
  }
  if (context.has("config")) context["config"].object();
  if (context.has("tune")) {
    const JsonAt tune = context["tune"];
    tune.object();
    if (tune.has("shard")) tune["shard"].string();
    for (const char* field : {"evaluations", "cache_hits"})
      if (tune.has(field)) tune[field].unsigned_integer();
    if (tune.has("wall_s")) tune["wall_s"].non_negative();
    if (tune.has("groups")) tune["groups"].array();
    if (tune.has("resources")) {
      const JsonAt resources = tune["resources"];
      resources.object();
      if (resources.has("points")) resources["points"].object();
      if (resources.has("undeclared")) resources["undeclared"].array();
    }
  }
  const JsonAt results = j["results"];
  // One result per variant and workload: compare and merge pair results by these.
  std::map<std::string, std::size_t> first_of;
  for (std::size_t i = 0; i < results.size(); ++i) {
    const std::string at = "$.results[" + std::to_string(i) + "]";
    r.results.push_back(result_from_json(results.value()[i], where, at));
    const PointResult& p = r.results.back();
    if (p.variant.empty()) throw ConfigError(where + ": " + at + ".variant: expected a variant label, got \"\"");
    const auto [it, fresh] = first_of.emplace(p.variant + "|" + p.workload_key() + p.placement_key(), i);
    if (!fresh)
      throw ConfigError(where + ": " + at + ": " + p.variant + " on " + p.workload_key() + p.placement_key() + " again (also $.results[" +
                        std::to_string(it->second) + "]); expected each variant and workload once");
  }
  return r;
}

Report read_report(const std::string& path) {
  files::check_input(path, path, "report");
  return report_from_json(parse_json_text(read_text_file(path, "report"), path), path);
}

void write_report_atomic(const Report& r, const std::string& path) {
  files::write_atomically(path, path, report_to_json(r).dump(1) + "\n");
}

bool is_baseline(const std::string& label, const std::vector<std::string>& baseline_globs) {
  for (const auto& g : baseline_globs)
    if (glob_match(g, label)) return true;
  return false;
}

std::vector<std::string> baseline_groups(const std::string& label) {
  const auto dot = label.find('.');
  if (dot == std::string::npos) return {label};
  const auto dot2 = label.find('.', dot + 1);
  return {label.substr(0, dot), label.substr(0, dot2)};
}

void compute_speedups(std::vector<PointResult>& results, const std::vector<std::string>& baseline_globs) {
  struct Base {
    std::string label;
    double median;
  };
  std::map<std::string, std::vector<Base>> base;  // workload -> baselines measured ok
  for (const auto& r : results)
    if (r.status == Status::ok && r.time_ms.median > 0 && is_baseline(r.variant, baseline_globs))
      base[r.workload_key()].push_back({r.variant, r.time_ms.median});
  for (auto& r : results) {
    r.speedup.clear();
    r.vs.clear();
    if (r.status != Status::ok || r.time_ms.median <= 0) continue;
    const auto it = base.find(r.workload_key());
    if (it == base.end()) continue;
    for (const auto& b : it->second) {
      r.speedup[b.label] = b.median / r.time_ms.median;
      for (const auto& group : baseline_groups(b.label)) {
        auto [slot, fresh] = r.vs.try_emplace(group, BaselineRatio{b.label, b.median / r.time_ms.median});
        if (!fresh && b.median / r.time_ms.median < slot->second.speedup) slot->second = {b.label, b.median / r.time_ms.median};
      }
    }
  }
  // Points across g GPUs: against the fastest baseline sorting all n keys on
  // one GPU, and the fastest sorting one GPU's share alone (ceil(n/g) keys)
  // where the sweep measured that size.
  auto fastest = [&](const std::string& workload) -> const Base* {
    const auto it = base.find(workload);
    if (it == base.end()) return nullptr;
    const Base* best = nullptr;
    for (const auto& b : it->second)
      if (!best || b.median < best->median) best = &b;
    return best;
  };
  for (auto& r : results) {
    r.has_scaling = false;
    r.scaling = {};
    if (r.status != Status::ok || r.time_ms.median <= 0 || r.gpus.size() < 2) continue;
    const double g = double(r.gpus.size());
    Scaling& c = r.scaling;
    if (const Base* one = fastest(r.workload_key())) {
      c.one_gpu_baseline = one->label;
      c.one_gpu_ms = one->median;
      c.speedup = one->median / r.time_ms.median;
      c.efficiency = c.speedup / g;
      r.has_scaling = true;
    }
    PointResult share = r;
    share.n = (r.n + r.gpus.size() - 1) / r.gpus.size();
    if (const Base* ideal = fastest(share.workload_key())) {
      c.ideal_baseline = ideal->label;
      c.ideal_n = share.n;
      c.ideal_ms = ideal->median;
      c.fraction_of_ideal = ideal->median / r.time_ms.median;
      r.has_scaling = true;
    }
  }
}

namespace {

std::string fixed(double x, int digits) {
  std::ostringstream s;
  s << std::fixed << std::setprecision(digits) << x;
  return s.str();
}

// "u32/u32 n=2^28 entropy:0.544" (" desc" for descending).
std::string workload_text(const PointResult& r) {
  const std::size_t n = r.n;
  const std::string size = n >= 1024 && (n & (n - 1)) == 0 ? "2^" + std::to_string(int(std::log2(double(n))))
                                                           : std::to_string(n);
  return to_string(r.key) + "/" + to_string(r.value) + " n=" + size + " " + r.distribution +
         (r.order == Order::descending ? " desc" : "");
}

}  // namespace

std::string summary_table(const std::vector<PointResult>& results, const std::vector<std::string>& baseline_globs) {
  struct Row {
    const PointResult* any = nullptr;
    const PointResult* ours = nullptr;
    const PointResult* library = nullptr;
    int failed = 0, skipped = 0;
  };
  std::vector<std::string> order;
  std::map<std::string, Row> rows;
  auto faster = [](const PointResult* a, const PointResult& b) { return !a || b.time_ms.median < a->time_ms.median; };
  for (const auto& r : results) {
    const std::string w = r.workload_key();
    if (!rows.count(w)) order.push_back(w);
    Row& row = rows[w];
    if (!row.any) row.any = &r;
    if (r.status == Status::failed) ++row.failed;
    if (r.status == Status::skipped) ++row.skipped;
    if (r.status != Status::ok) continue;
    const PointResult*& slot = is_baseline(r.variant, baseline_globs) ? row.library : row.ours;
    if (faster(slot, r)) slot = &r;
  }
  // GKeys per joule beside GKeys per second, where the point's energy was measured.
  auto per_joule = [](const PointResult* r) {
    return r && r->energy.measured && r->energy.joules_per_gkey > 0 ? fixed(1 / r->energy.joules_per_gkey, 3)
                                                                     : std::string("-");
  };
  std::ostringstream os;
  os << std::left << std::setw(40) << "workload" << std::setw(38) << "fastest of ours" << std::right << std::setw(8)
     << "GKeys/s" << std::setw(8) << "GKeys/J" << "  " << std::left << std::setw(36) << "fastest library call"
     << std::right << std::setw(8) << "GKeys/s" << std::setw(8) << "GKeys/J" << "  " << std::left << std::setw(18)
     << "won by" << "failed/skipped\n";
  for (const auto& w : order) {
    const Row& row = rows[w];
    std::string verdict = "-";
    if (row.ours && row.library) {
      const double ratio = row.library->time_ms.median / row.ours->time_ms.median;
      const double e = std::hypot(row.ours->time_ms.rel_stderr, row.library->time_ms.rel_stderr);
      if (std::abs(std::log(ratio)) <= 2 * e) verdict = "tie (" + fixed(ratio, 2) + "x)";
      else if (ratio > 1) verdict = "ours " + fixed(ratio, 2) + "x";
      else verdict = "library " + fixed(1 / ratio, 2) + "x";
    }
    os << std::left << std::setw(40) << workload_text(*row.any) << std::setw(38)
       << (row.ours ? row.ours->variant : "-") << std::right << std::setw(8)
       << (row.ours ? fixed(row.ours->gkeys_per_s, 2) : "-") << std::setw(8) << per_joule(row.ours) << "  "
       << std::left << std::setw(36) << (row.library ? row.library->variant : "-") << std::right << std::setw(8)
       << (row.library ? fixed(row.library->gkeys_per_s, 2) : "-") << std::setw(8) << per_joule(row.library) << "  "
       << std::left << std::setw(18) << verdict
       << row.failed << "/" << row.skipped << "\n";
  }
  return os.str();
}

}  // namespace sortbench
