// sortbench merge: joins shard reports (and their caches) of one tune space,
// or reports of plain runs, into one report; for tune reports also best.json.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <tuple>

#include "cli.hpp"
#include "sortbench/config.hpp"
#include "sortbench/files.hpp"
#include "sortbench/report.hpp"
#include "sortbench/tune.hpp"

namespace po = boost::program_options;
using nlohmann::json;

namespace sortbench::cli {
namespace {

int cmd_merge(const std::vector<std::string>& args, const std::string&) {
  po::options_description desc("sortbench merge: join shard reports and caches\nusage: sortbench merge --out PATH REPORT...\nOptions");
  desc.add_options()("help,h", "this help")("out", po::value<std::string>(), "merged report path")(
      "best", po::value<std::string>(), "best.json path for tune reports (default sortbench-out/<gpu-model>/best.json)")(
      "no-best", "do not write best.json")(
      "best-base", po::value<std::string>(), "tune reports: a best.json of the same GPU whose entries the merged tune did "
                                           "not measure the new best.json keeps (as tune --best-base)")(
      "caches", po::value<std::string>(), "comma-separated cache files (JSON lines) to join")(
      "cache-out", po::value<std::string>(), "joined cache path (with --caches)");
  const auto vm = parse("merge", desc, args, "reports", SIZE_MAX);
  if (vm.count("help")) {
    std::cout << desc << "\n";
    return 0;
  }
  // Every argument, input and output is checked before anything is read in
  // full or written; then the outputs are written all or nothing.
  const auto inputs = vm.count("reports") ? vm["reports"].as<std::vector<std::string>>() : std::vector<std::string>{};
  if (vm.count("caches") != vm.count("cache-out"))
    throw ConfigError("--caches: needs --cache-out (and --cache-out needs --caches)");
  if (inputs.empty() && !vm.count("caches")) throw ConfigError("merge: expected report files (and/or --caches with --cache-out)");
  if (!inputs.empty() && !vm.count("out")) throw ConfigError("--out: missing; expected the merged report path");
  if (inputs.empty() && vm.count("out")) throw ConfigError("--out: no reports to merge (give the shard reports)");
  if (vm.count("best") && vm.count("no-best")) throw ConfigError("--best: cannot be combined with --no-best");
  if (inputs.empty() && (vm.count("best") || vm.count("no-best")))
    throw ConfigError(std::string(vm.count("best") ? "--best" : "--no-best") + ": only with reports to merge");
  if (vm.count("best-base") && vm.count("no-best")) throw ConfigError("--best-base: cannot be combined with --no-best");
  if (vm.count("best-base") && inputs.empty()) throw ConfigError("--best-base: only with tune reports to merge");
  std::vector<files::Input> in_files;
  for (const auto& in : inputs) {
    files::check_input(in, in, "report");
    for (const auto& seen : in_files)
      if (files::same_file(seen.path, in)) throw ConfigError(in + ": given twice (also as " + seen.path + ")");
    in_files.push_back({in, in});
  }
  if (vm.count("best-base")) {
    const std::string base = vm["best-base"].as<std::string>();
    files::check_input(base, "--best-base", "best.json");
    for (const auto& seen : in_files)
      if (files::same_file(seen.path, base)) throw ConfigError("--best-base: " + base + ": given twice (also as " + seen.path + ")");
    in_files.push_back({base, "--best-base"});
  }
  std::vector<std::string> caches;
  if (vm.count("caches")) {
    caches = split_list(vm["caches"].as<std::string>(), "--caches");
    for (const auto& c : caches) {
      files::check_input(c, "--caches", "cache");
      for (const auto& seen : in_files)
        if (files::same_file(seen.path, c)) throw ConfigError("--caches: " + c + ": given twice (also as " + seen.path + ")");
      in_files.push_back({c, "--caches"});
    }
  }
  std::vector<files::Input> out_files;
  auto output = [&](const std::string& path, const std::string& flag) {
    files::check_output(path, flag, in_files, out_files);
    out_files.push_back({path, flag});
  };
  if (vm.count("out")) output(vm["out"].as<std::string>(), "--out");
  if (vm.count("best")) output(vm["best"].as<std::string>(), "--best");
  if (vm.count("cache-out")) output(vm["cache-out"].as<std::string>(), "--cache-out");

  std::vector<Report> reports;
  for (const auto& in : inputs) reports.push_back(read_report(in));
  files::Outputs writes;
  std::string summary;
  if (!reports.empty()) {
    const Report merged = tune::merge_reports(reports, inputs);
    const bool is_tune = merged.context.contains("tune");
    if (vm.count("best-base") && !is_tune) throw ConfigError("--best-base: only with tune reports to merge");
    const std::string out = vm["out"].as<std::string>();
    writes.add(out, "--out", report_to_json(merged).dump(1) + "\n");
    // A merged run reads as one run would: the table run prints, over every
    // shard's results, against the config's baselines. Shards deal workloads
    // by size, so the rows are put back in workload order.
    if (!is_tune) {
      std::vector<PointResult> rows = merged.results;
      std::stable_sort(rows.begin(), rows.end(), [](const PointResult& a, const PointResult& b) {
        return std::tie(a.key, a.value, a.distribution, a.n) < std::tie(b.key, b.value, b.distribution, b.n);
      });
      const json baselines = merged.context.value("config", json::object()).value("baselines", json::array());
      summary += summary_table(rows, baselines.get<std::vector<std::string>>());
    }
    summary += "report: " + out + " (" + std::to_string(merged.results.size()) + " results from " +
               std::to_string(reports.size()) + " reports)\n";
    if (is_tune && !vm.count("no-best")) {
      const tune::Space space = tune::parse_space(merged.context.at("config").dump(), inputs[0] + ": $.context.config");
      const json device = merged.context.value("device", json::object());
      const std::string path =
          vm.count("best") ? vm["best"].as<std::string>() : files::default_best(device.value("model", "unknown-gpu"));
      if (!vm.count("best")) output(path, "the default best.json path");
      json best = tune::best_json(merged.results, space, device, {{"report", out}, {"tune", merged.context["tune"]}});
      if (vm.count("best-base")) {
        const std::string base = vm["best-base"].as<std::string>(), model = device.value("model", "unknown-gpu");
        const json base_best = tune::read_best_json(base, model);
        if (base_best.is_null()) throw ConfigError("--best-base: " + base + " is missing or for another GPU than " + model);
        best = tune::keep_unmeasured_entries(base_best, std::move(best), base);
      }
      writes.add(path, "--best", best.dump(2) + "\n");
      summary += "best: " + path + "\n";
    }
  }
  if (!caches.empty()) {
    const tune::MergedCache joined = tune::merge_caches(caches);
    writes.add(vm["cache-out"].as<std::string>(), "--cache-out", joined.text);
    summary += "cache: " + vm["cache-out"].as<std::string>() + " (" + std::to_string(joined.entries) + " entries)\n";
  }
  writes.commit();
  std::cout << summary;
  return 0;
}

}  // namespace
SORTBENCH_REGISTER_COMMAND("merge", "join shard reports and caches (tune: also best.json)", cmd_merge);
}  // namespace sortbench::cli
