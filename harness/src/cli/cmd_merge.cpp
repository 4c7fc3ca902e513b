// sortbench merge: joins shard reports (and their caches) of one tune space,
// or reports of plain runs, into one report; for tune reports also best.json.
#include <filesystem>
#include <fstream>
#include <iostream>

#include "cli.hpp"
#include "sortbench/config.hpp"
#include "sortbench/report.hpp"
#include "sortbench/tune.hpp"

namespace po = boost::program_options;
using nlohmann::json;

namespace sortbench::cli {
namespace {

int cmd_merge(const std::vector<std::string>& args, const std::string&) {
  po::options_description desc("sortbench merge: join shard reports and caches\nusage: sortbench merge --out PATH REPORT...\nOptions");
  desc.add_options()("help,h", "this help")("out", po::value<std::string>(), "merged report path")(
      "best", po::value<std::string>(), "best.json path for tune reports (default results/<gpu-model>/best.json)")(
      "no-best", "do not write best.json")(
      "caches", po::value<std::string>(), "comma-separated cache files (JSON lines) to join")(
      "cache-out", po::value<std::string>(), "joined cache path (with --caches)");
  po::options_description hidden;
  hidden.add_options()("reports", po::value<std::vector<std::string>>(), "");
  po::options_description all;
  all.add(desc).add(hidden);
  po::positional_options_description pos;
  pos.add("reports", -1);
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(args).options(all).positional(pos).run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    throw UsageError(std::string("sortbench merge: ") + e.what() + " (see sortbench merge --help)");
  }
  if (vm.count("help")) {
    std::cout << desc << "\n";
    return 0;
  }
  const auto inputs = vm.count("reports") ? vm["reports"].as<std::vector<std::string>>() : std::vector<std::string>{};
  if (vm.count("caches") != vm.count("cache-out"))
    throw ConfigError("--caches: needs --cache-out (and --cache-out needs --caches)");
  if (inputs.empty() && !vm.count("caches")) throw ConfigError("merge: expected report files (and/or --caches with --cache-out)");
  if (!inputs.empty() && !vm.count("out")) throw ConfigError("--out: missing; expected the merged report path");
  // Read and check everything before writing anything.
  std::vector<Report> reports;
  for (const auto& in : inputs) {
    if (!std::filesystem::exists(in)) throw ConfigError(in + ": no such report");
    try {
      reports.push_back(read_report(in));
    } catch (const std::exception& e) {
      throw ConfigError(e.what());
    }
  }
  std::vector<std::string> caches;
  if (vm.count("caches")) {
    caches = split_list(vm["caches"].as<std::string>(), "--caches");
    for (const auto& c : caches)
      if (!std::filesystem::exists(c)) throw ConfigError("--caches: " + c + ": no such cache file");
  }
  if (!reports.empty()) {
    const Report merged = tune::merge_reports(reports, inputs);
    const bool is_tune = merged.context.contains("tune");
    std::optional<tune::Space> space;
    if (is_tune) space = tune::parse_space(merged.context.at("config").dump(), inputs[0] + ": $.context.config");
    write_report_atomic(merged, vm["out"].as<std::string>());
    std::cout << "report: " << vm["out"].as<std::string>() << " (" << merged.results.size() << " results from "
              << reports.size() << " reports)\n";
    if (is_tune && !vm.count("no-best")) {
      const json device = merged.context.value("device", json::object());
      const std::string path = vm.count("best") ? vm["best"].as<std::string>()
                                                : "results/" + device.value("model", "unknown-gpu") + "/best.json";
      const json best = tune::best_json(merged.results, *space, device,
                                        {{"report", vm["out"].as<std::string>()}, {"tune", merged.context["tune"]}});
      const auto parent = std::filesystem::path(path).parent_path();
      if (!parent.empty()) std::filesystem::create_directories(parent);
      const std::string tmp = path + ".tmp";
      std::ofstream(tmp) << best.dump(2) << "\n";
      std::filesystem::rename(tmp, path);
      std::cout << "best: " << path << "\n";
    }
  }
  if (!caches.empty()) {
    const std::size_t n = tune::merge_caches(caches, vm["cache-out"].as<std::string>());
    std::cout << "cache: " << vm["cache-out"].as<std::string>() << " (" << n << " entries)\n";
  }
  return 0;
}

}  // namespace
SORTBENCH_REGISTER_COMMAND("merge", "join shard reports and caches (tune: also best.json)", cmd_merge);
}  // namespace sortbench::cli
