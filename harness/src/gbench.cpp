#include "sortbench/gbench.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "sortbench/stats.hpp"

namespace sortbench {

using nlohmann::json;

std::string gbench_name(const PointResult& r) {
  std::string name = r.variant + "/" + to_string(r.key);
  if (r.value != ValueType::none) name += "/pairs:" + to_string(r.value);
  if (r.order == Order::descending) name += "/descending";
  name += "/" + r.distribution;
  if (r.seed != 1) name += "/seed:" + std::to_string(r.seed);
  // Variants whose label does not spell out their params still get unique names.
  for (const auto& p : r.params)
    if (r.variant.find(p.abbrev.empty() ? p.value : p.abbrev + p.value) == std::string::npos)
      name += "/" + p.name + ":" + p.value;
  return name + "/n:" + std::to_string(r.n);
}

namespace {

json context_of(const Report& report) {
  const json& ctx = report.context;
  const json device = ctx.value("device", json::object());
  const json build = ctx.value("build", json::object());
  const std::string type = build.value("build_type", std::string("Release"));
  // Google Benchmark's context fields describe the host CPU; tools read
  // date, host_name, executable and library_build_type. The GPU goes in
  // extra keys, which they ignore.
  return {{"date", ctx.value("timestamp", std::string())},
          {"host_name", ctx.value("host", json::object()).value("hostname", std::string())},
          {"executable", "sortbench"},
          {"num_cpus", 1},
          {"mhz_per_cpu", int(std::lround(device.value("sm_clock_peak_mhz", 0.0)))},
          {"cpu_scaling_enabled", false},
          {"caches", json::array()},
          {"load_avg", json::array()},
          {"library_build_type", type == "Debug" ? "debug" : "release"},
          {"sortbench_device", device.value("name", std::string())},
          {"sortbench_commit", build.value("git_commit", std::string())},
          {"sortbench_command_line", ctx.value("command_line", std::string())}};
}

json entry(const PointResult& r, const std::string& name, double time_ms, const std::string& unit) {
  json e;
  e["name"] = name;
  e["run_name"] = gbench_name(r);
  e["threads"] = 1;
  // One timed sort per sample; GPU time is both the real and the "CPU" time
  // (the host only waits on events).
  e["iterations"] = 1;
  e["real_time"] = time_ms / gbench_ms_per_unit(unit);
  e["cpu_time"] = time_ms / gbench_ms_per_unit(unit);
  e["time_unit"] = unit;
  if (time_ms > 0) {
    e["items_per_second"] = double(r.n) / (time_ms * 1e-3);
    e["bytes_per_second"] = r.bytes_per_key * double(r.n) / (time_ms * 1e-3);
  }
  return e;
}

}  // namespace

double gbench_ms_per_unit(const std::string& time_unit) {
  if (time_unit == "ms") return 1.0;
  if (time_unit == "us") return 1e-3;
  if (time_unit == "ns") return 1e-6;
  return 0.0;
}

json to_gbench(const Report& report, GbenchSamples samples, const std::string& time_unit, std::size_t* left_out,
               std::size_t repetitions) {
  if (gbench_ms_per_unit(time_unit) == 0.0)
    throw std::invalid_argument("unknown time unit '" + time_unit + "'; expected ms, us or ns");
  if (samples == GbenchSamples::all && repetitions == 0)
    throw std::invalid_argument("no repetitions; expected at least 1");
  json out;
  out["context"] = context_of(report);
  json benchmarks = json::array();
  std::size_t family = 0, dropped = 0;
  for (const auto& r : report.results) {
    if (r.status != Status::ok || (samples == GbenchSamples::all && r.time_ms.raw.empty())) {
      ++dropped;
      continue;
    }
    const std::string name = gbench_name(r);
    auto placed = [&](json e) {  // compare.py sorts by these indices
      e["family_index"] = family;
      e["per_family_instance_index"] = 0;
      return e;
    };
    if (samples == GbenchSamples::median) {
      json e = placed(entry(r, name, r.time_ms.median, time_unit));
      e["run_type"] = "iteration";
      e["repetitions"] = 1;
      e["repetition_index"] = 0;
      benchmarks.push_back(e);
    } else {
      // The same number of entries for every point, whatever its sample count
      // (gbench.hpp: compare.py's geomean weighs points by their entries).
      std::vector<double> sorted = r.time_ms.raw;
      std::sort(sorted.begin(), sorted.end());
      const std::size_t k = repetitions;
      for (std::size_t i = 0; i < k; ++i) {
        json e = placed(entry(r, name, quantile(sorted, (double(i) + 0.5) / double(k)), time_unit));
        e["run_type"] = "iteration";
        e["repetitions"] = k;
        e["repetition_index"] = i;
        benchmarks.push_back(e);
      }
      // Aggregates over the raw samples (the report's own statistics), not
      // over the quantiles: a Google Benchmark file's aggregates describe
      // the run, and the report's median is the figure everything else quotes.
      const double cv = r.time_ms.mean > 0 ? r.time_ms.stdev / r.time_ms.mean : 0.0;
      const std::pair<const char*, double> aggregates[] = {
          {"mean", r.time_ms.mean}, {"median", r.time_ms.median}, {"stddev", r.time_ms.stdev}, {"cv", cv}};
      for (const auto& [agg, value] : aggregates) {
        // cv is a ratio, not a time: Google Benchmark writes it unscaled.
        json e = placed(entry(r, name + "_" + agg, std::string(agg) == "cv" ? value * gbench_ms_per_unit(time_unit) : value,
                              time_unit));
        if (std::string(agg) != "mean" && std::string(agg) != "median") {
          e.erase("items_per_second");  // a rate of a spread means nothing
          e.erase("bytes_per_second");
        }
        e["run_type"] = "aggregate";
        e["repetitions"] = k;
        e["aggregate_name"] = agg;
        e["aggregate_unit"] = std::string(agg) == "cv" ? "percentage" : "time";
        benchmarks.push_back(e);
      }
    }
    ++family;
  }
  out["benchmarks"] = benchmarks;
  if (left_out) *left_out = dropped;
  return out;
}

}  // namespace sortbench
