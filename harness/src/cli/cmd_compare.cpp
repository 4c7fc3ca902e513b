// sortbench compare BASE NEW: a noise-aware verdict per point and an exit code
// CI can fail on (README "Regression tracking").
#include <iostream>

#include "cli.hpp"
#include "sortbench/compare.hpp"
#include "sortbench/config.hpp"
#include "sortbench/files.hpp"

namespace po = boost::program_options;

namespace sortbench::cli {
namespace {

double fraction_from_percent(const po::variables_map& vm, const char* flag) {
  return number_flag(vm, flag, 0, 100) / 100.0;  // a percentage
}

int cmd_compare(const std::vector<std::string>& args, const std::string&) {
  po::options_description desc(
      "sortbench compare BASE NEW: match the points of two reports and judge each from its raw samples\n"
      "Verdicts: FAST/SLOW (rank test significant AND the median moved by at least --min-change),\n"
      "SAME (moved less), UNSURE (moved more, but not significant, or explained by a clock change),\n"
      "FAILED (NEW failed validation), MISSING (measured on one side only), FIXED, SKIPPED.\n"
      "Exit codes: 0 no regression; 1 a SLOW point, a validation failure in NEW, or a missing point\n"
      "(unless --allow-missing); 2 bad input.\nOptions");
  desc.add_options()("help,h", "this help")("alpha", po::value<std::string>()->default_value("0.01"),
                                           "significance level of the two-sided Mann-Whitney U test")(
      "min-change", po::value<std::string>()->default_value("2"),
      "smallest change of the median, in percent, that counts as FAST or SLOW")(
      "clock-tolerance", po::value<std::string>()->default_value("3"),
      "percent by which the two runs' SM clocks may differ before a verdict must also hold with NEW scaled to BASE's clock")(
      "allow-missing", "points measured on one side only do not fail the comparison")(
      "metric", po::value<std::string>()->default_value("time"),
      "time (the raw samples) or energy (one sort's joules from NVML: LESS-J/MORE-J by a normal test of the two "
      "windows, MORE-J fails like SLOW)")(
      "energy-drift", po::value<std::string>()->default_value("2"),
      "with --metric energy: percent of error taken for each run's energy beyond its window's own")(
      "markdown", po::value<std::string>(), "also write a markdown summary to this file (e.g. for $GITHUB_STEP_SUMMARY)")(
      "changes-only", "print only the points that are not SAME");
  const auto vm = parse("compare", desc, args, "reports", 2);
  if (vm.count("help")) {
    std::cout << "usage: sortbench compare BASE NEW [options]\n" << desc << "\n";
    return 0;
  }
  const auto reports = vm.count("reports") ? vm["reports"].as<std::vector<std::string>>() : std::vector<std::string>{};
  if (reports.size() != 2)
    throw UsageError("sortbench compare: expected two reports, BASE and NEW; got " + std::to_string(reports.size()) +
                     " (see sortbench compare --help)");
  files::check_input(reports[0], reports[0], "report");
  files::check_input(reports[1], reports[1], "report");
  if (vm.count("markdown"))
    files::check_output(vm["markdown"].as<std::string>(), "--markdown", {{reports[0], "BASE"}, {reports[1], "NEW"}});

  CompareOptions options;
  options.alpha = number_flag(vm, "alpha", 0, 0.5, true);
  options.min_change = fraction_from_percent(vm, "min-change");
  options.clock_tolerance = fraction_from_percent(vm, "clock-tolerance");
  options.allow_missing = vm.count("allow-missing") > 0;
  const std::string metric = vm["metric"].as<std::string>();
  if (metric == "energy") options.metric = CompareMetric::energy;
  else if (metric != "time") throw ConfigError("--metric: '" + metric + "'; expected time or energy");
  if (!vm["energy-drift"].defaulted() && options.metric != CompareMetric::energy)
    throw ConfigError("--energy-drift: only with --metric energy");
  options.energy_drift = fraction_from_percent(vm, "energy-drift");

  const Report base = read_report(reports[0]);
  const Report next = read_report(reports[1]);
  const Comparison c = compare_reports(base, next, options, reports[0], reports[1]);
  if (vm.count("markdown")) files::write_atomically(vm["markdown"].as<std::string>(), "--markdown", comparison_markdown(c));
  std::cout << comparison_text(c, vm.count("changes-only") > 0);
  return c.exit_code();
}

}  // namespace
SORTBENCH_REGISTER_COMMAND("compare", "BASE NEW: FAST/SLOW/SAME/UNSURE per point; exit 1 on a regression", cmd_compare);
}  // namespace sortbench::cli
