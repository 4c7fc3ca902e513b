// The JSON report: versioned schema (README "Report schema"), atomic writes,
// speedups against baselines from the same run, and the summary table.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sortbench/result.hpp"

namespace sortbench {

inline constexpr const char* kReportSchema = "sortbench-report";
// Version 2 added each result's "vs" (the fastest baseline of each library and
// library call); version 1 reports still read.
inline constexpr int kReportSchemaVersion = 3;  // 3: energy per result

struct Report {
  nlohmann::json context = nlohmann::json::object();  // device, build, host, command, config
  std::vector<PointResult> results;
  bool complete = true;  // false while a sweep is still writing
};

// Reading checks every field's type and range; errors are ConfigErrors (bad
// input, exit 2) naming `where` (the file), the JSON path and what was
// expected. The published shape: schemas/report.schema.json.
nlohmann::json result_to_json(const PointResult& r);
PointResult result_from_json(const nlohmann::json& j, const std::string& where, const std::string& path = "$");
nlohmann::json report_to_json(const Report& r);
Report report_from_json(const nlohmann::json& j, const std::string& where);
Report read_report(const std::string& path);

// Writes to a temporary file beside PATH, flushes, then renames over PATH: a
// reader sees the old report or the new one, never half of one
// (files::write_atomically). Creates parent folders.
void write_report_atomic(const Report& r, const std::string& path);

// Baselines are the results whose label matches one of the config's baseline
// globs. A baseline label is library.call[.form...]: its groups are the
// library ("cub") and the call ("cub.radix_sort"); the forms of one call
// (".off32", ".off64") are the ways a user can make it.
bool is_baseline(const std::string& label, const std::vector<std::string>& baseline_globs);
std::vector<std::string> baseline_groups(const std::string& label);  // {"cub", "cub.radix_sort"}

// For each ok result: speedup[baseline] = baseline's median / this median for
// every baseline measured ok on the same workload, and vs[group] the fastest
// baseline of each group there with the speedup over it.
void compute_speedups(std::vector<PointResult>& results, const std::vector<std::string>& baseline_globs);

// Per workload: the fastest of our variants and the fastest library call
// (baseline), each with GKeys/s, and who won by how much ("tie" within
// noise: the medians differ by less than twice their combined relative
// standard error); failed and skipped counts after it.
std::string summary_table(const std::vector<PointResult>& results, const std::vector<std::string>& baseline_globs);

}  // namespace sortbench
