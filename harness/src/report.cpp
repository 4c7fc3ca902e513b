#include "sortbench/report.hpp"

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

std::string PointResult::workload_key() const {
  return to_string(key) + "|" + to_string(value) + "|" + to_string(order) + "|" + std::to_string(n) + "|" +
         distribution + "|" + std::to_string(seed);
}

namespace {

bool is_integer(const std::string& s) {
  return !s.empty() && s.size() < 19 && s.find_first_not_of("0123456789") == std::string::npos;
}

json stats_to_json(const SampleStats& s) {
  return {{"samples", s.samples}, {"median", s.median}, {"mean", s.mean},   {"min", s.min},
          {"max", s.max},         {"stdev", s.stdev},   {"q1", s.q1},       {"q3", s.q3},
          {"rel_stderr", s.rel_stderr}, {"raw", s.raw}};
}

SampleStats stats_from_json(const json& j) {
  SampleStats s;
  s.samples = j.at("samples").get<std::size_t>();
  s.median = j.at("median").get<double>();
  s.mean = j.at("mean").get<double>();
  s.min = j.at("min").get<double>();
  s.max = j.at("max").get<double>();
  s.stdev = j.at("stdev").get<double>();
  s.q1 = j.at("q1").get<double>();
  s.q3 = j.at("q3").get<double>();
  s.rel_stderr = j.at("rel_stderr").get<double>();
  s.raw = j.at("raw").get<std::vector<double>>();
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

PointResult result_from_json(const json& j, const std::string& where) {
  try {
    PointResult r;
    r.variant = j.at("variant").get<std::string>();
    r.family = j.at("family").get<std::string>();
    for (const auto& [k, v] : j.at("params").items())
      r.params.push_back({k, "", v.is_string() ? v.get<std::string>() : v.dump()});
    r.claims_stable = j.at("claims_stable").get<bool>();
    auto key = parse_key_type(j.at("key").get<std::string>());
    auto value = parse_value_type(j.at("value").get<std::string>());
    auto order = parse_order(j.at("order").get<std::string>());
    if (!key || !value || !order) throw std::runtime_error("bad key, value or order");
    r.key = *key;
    r.value = *value;
    r.order = *order;
    r.n = j.at("n").get<std::size_t>();
    r.distribution = j.at("distribution").get<std::string>();
    r.seed = j.at("seed").get<std::uint64_t>();
    r.status = parse_status(j.at("status").get<std::string>());
    r.reason = j.value("reason", "");
    const json& v = j.at("validation");
    r.validation.checked = v.at("checked").get<bool>();
    r.validation.sorted = v.at("sorted").get<bool>();
    r.validation.permutation = v.at("permutation").get<bool>();
    r.validation.stability_checked = v.at("stability_checked").get<bool>();
    r.validation.stable = v.at("stable").get<bool>();
    r.validation.first_bad_index = v.at("first_bad_index").get<std::int64_t>();
    r.validation.message = v.at("message").get<std::string>();
    r.temp_bytes = j.at("temp_bytes").get<std::size_t>();
    r.bytes_per_key = j.at("bytes_per_key").get<double>();
    if (r.status == Status::ok) {
      r.time_ms = stats_from_json(j.at("time_ms"));
      r.stop_reason = j.at("stop_reason").get<std::string>();
      r.cold_l2 = j.at("cold_l2").get<bool>();
      r.sm_clock_mhz = j.at("sm_clock_mhz").get<double>();
      r.throttled_samples = j.at("throttled_samples").get<std::size_t>();
      r.throttled = j.at("throttled").get<bool>();
      r.gkeys_per_s = j.at("gkeys_per_s").get<double>();
      r.gb_per_s = j.at("gb_per_s").get<double>();
      r.fraction_of_copy_bw = j.at("fraction_of_copy_bw").get<double>();
      r.speedup = j.at("speedup").get<std::map<std::string, double>>();
      if (j.contains("vs"))  // schema version 2
        for (const auto& [group, b] : j.at("vs").items())
          r.vs[group] = {b.at("baseline").get<std::string>(), b.at("speedup").get<double>()};
    }
    return r;
  } catch (const std::exception& e) {
    throw std::runtime_error(where + ": " + e.what());
  }
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

Report report_from_json(const json& j, const std::string& where) {
  if (!j.is_object() || j.value("schema", "") != kReportSchema)
    throw std::runtime_error(where + ": not a sortbench report (expected \"schema\": \"" + kReportSchema + "\")");
  const int version = j.value("schema_version", 0);
  if (version != 1 && version != kReportSchemaVersion)
    throw std::runtime_error(where + ": $.schema_version: expected 1 or " + std::to_string(kReportSchemaVersion));
  Report r;
  r.complete = j.value("complete", true);
  r.context = j.at("context");
  const json& res = j.at("results");
  for (std::size_t i = 0; i < res.size(); ++i)
    r.results.push_back(result_from_json(res[i], where + ": $.results[" + std::to_string(i) + "]"));
  return r;
}

Report read_report(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(path + ": cannot open the report");
  json j;
  try {
    j = json::parse(in);
  } catch (const json::parse_error& e) {
    throw std::runtime_error(path + ": malformed JSON: " + e.what());
  }
  return report_from_json(j, path);
}

void write_report_atomic(const Report& r, const std::string& path) {
  namespace fs = std::filesystem;
  const fs::path target(path);
  if (target.has_parent_path()) fs::create_directories(target.parent_path());
  const std::string tmp = path + ".tmp." + std::to_string(::getpid());
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) throw std::runtime_error(tmp + ": cannot write");
    out << report_to_json(r).dump(1) << '\n';
    out.flush();
    if (!out) {
      std::remove(tmp.c_str());
      throw std::runtime_error(tmp + ": write failed");
    }
  }
  std::error_code ec;
  fs::rename(tmp, target, ec);
  if (ec) {
    std::remove(tmp.c_str());
    throw std::runtime_error(path + ": cannot replace: " + ec.message());
  }
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
  std::ostringstream os;
  os << std::left << std::setw(40) << "workload" << std::setw(38) << "fastest of ours" << std::right << std::setw(8)
     << "GKeys/s" << "  " << std::left << std::setw(36) << "fastest library call" << std::right << std::setw(8)
     << "GKeys/s" << "  " << std::left << std::setw(18) << "won by" << "failed/skipped\n";
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
       << (row.ours ? fixed(row.ours->gkeys_per_s, 2) : "-") << "  " << std::left << std::setw(36)
       << (row.library ? row.library->variant : "-") << std::right << std::setw(8)
       << (row.library ? fixed(row.library->gkeys_per_s, 2) : "-") << "  " << std::left << std::setw(18) << verdict
       << row.failed << "/" << row.skipped << "\n";
  }
  return os.str();
}

}  // namespace sortbench
