#include "sortbench/report.hpp"

#include <unistd.h>

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
  if (j.value("schema_version", 0) != kReportSchemaVersion)
    throw std::runtime_error(where + ": $.schema_version: expected " + std::to_string(kReportSchemaVersion));
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

void compute_speedups(std::vector<PointResult>& results, const std::vector<std::string>& baselines) {
  std::map<std::string, std::map<std::string, double>> base;  // workload -> label -> median
  for (const auto& r : results)
    if (r.status == Status::ok)
      for (const auto& b : baselines)
        if (r.variant == b) base[r.workload_key()][b] = r.time_ms.median;
  for (auto& r : results) {
    r.speedup.clear();
    if (r.status != Status::ok || r.time_ms.median <= 0) continue;
    const auto it = base.find(r.workload_key());
    if (it == base.end()) continue;
    for (const auto& [label, median] : it->second) r.speedup[label] = median / r.time_ms.median;
  }
}

std::string summary_table(const std::vector<PointResult>& results) {
  struct Row {
    const PointResult* best = nullptr;
    int failed = 0, skipped = 0;
  };
  std::vector<std::string> order;
  std::map<std::string, Row> rows;
  for (const auto& r : results) {
    const std::string w = r.workload_key();
    if (!rows.count(w)) order.push_back(w);
    Row& row = rows[w];
    if (r.status == Status::failed) ++row.failed;
    if (r.status == Status::skipped) ++row.skipped;
    if (r.status == Status::ok && (!row.best || r.time_ms.median < row.best->time_ms.median)) row.best = &r;
  }
  std::ostringstream os;
  os << std::left << std::setw(44) << "workload" << std::setw(34) << "fastest" << std::right << std::setw(10)
     << "GKeys/s" << std::setw(9) << "vs CUB" << std::setw(10) << "vs thrust" << "  failed/skipped\n";
  auto ratio = [](const PointResult* r, const char* label) -> std::string {
    if (!r) return "-";
    const auto it = r->speedup.find(label);
    if (it == r->speedup.end()) return "-";
    std::ostringstream s;
    s << std::fixed << std::setprecision(2) << it->second << "x";
    return s.str();
  };
  for (const auto& w : order) {
    const Row& row = rows[w];
    const PointResult* b = row.best;
    std::string name = w.substr(0, w.rfind('|'));  // drop the seed
    std::ostringstream gk;
    if (b) gk << std::fixed << std::setprecision(2) << b->gkeys_per_s;
    os << std::left << std::setw(44) << name << std::setw(34) << (b ? b->variant : "(none ok)") << std::right
       << std::setw(10) << (b ? gk.str() : "-") << std::setw(9) << ratio(b, "cub.radix_sort") << std::setw(10)
       << ratio(b, "thrust.sort") << "  " << row.failed << "/" << row.skipped << "\n";
  }
  return os.str();
}

}  // namespace sortbench
