// The JSON report: versioned schema (README "Report schema"), atomic writes,
// speedups against baselines from the same run, and the summary table.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sortbench/result.hpp"

namespace sortbench {

inline constexpr const char* kReportSchema = "sortbench-report";
inline constexpr int kReportSchemaVersion = 1;

struct Report {
  nlohmann::json context = nlohmann::json::object();  // device, build, host, command, config
  std::vector<PointResult> results;
  bool complete = true;  // false while a sweep is still writing
};

nlohmann::json result_to_json(const PointResult& r);
PointResult result_from_json(const nlohmann::json& j, const std::string& where);
nlohmann::json report_to_json(const Report& r);
Report report_from_json(const nlohmann::json& j, const std::string& where);
Report read_report(const std::string& path);  // throws std::runtime_error naming the file

// Writes to PATH.tmp.<pid>, flushes, then renames over PATH: a reader sees the
// old report or the new one, never half of one. Creates parent folders.
void write_report_atomic(const Report& r, const std::string& path);

// For each ok result, speedup[baseline] = baseline's median / this median, for
// every baseline label measured ok on the same workload.
void compute_speedups(std::vector<PointResult>& results, const std::vector<std::string>& baselines);

// Per workload: fastest ok variant, its GKeys/s, and its ratio to
// cub.radix_sort and thrust.sort; failed and skipped counts after it.
std::string summary_table(const std::vector<PointResult>& results);

}  // namespace sortbench
