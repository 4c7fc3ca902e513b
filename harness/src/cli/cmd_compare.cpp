// sortbench compare BASE NEW: a noise-aware verdict per point and an exit code
// CI can fail on (README "Regression tracking").
#include <fstream>
#include <iostream>

#include "cli.hpp"
#include "sortbench/compare.hpp"
#include "sortbench/config.hpp"

namespace po = boost::program_options;

namespace sortbench::cli {
namespace {

// An unreadable file or one that is not a report is bad input (exit 2), named
// in one line.
Report load(const std::string& path) {
  try {
    return read_report(path);
  } catch (const std::exception& e) {
    throw ConfigError(e.what());
  }
}

double fraction_from_percent(const po::variables_map& vm, const char* flag, double lo, double hi) {
  const double pct = vm[flag].as<double>();
  if (!(pct >= lo && pct <= hi))
    throw ConfigError(std::string("--") + flag + ": " + std::to_string(pct) + " is out of range; expected a percentage from " +
                      std::to_string(int(lo)) + " to " + std::to_string(int(hi)));
  return pct / 100.0;
}

int cmd_compare(const std::vector<std::string>& args, const std::string&) {
  po::options_description desc(
      "sortbench compare BASE NEW: match the points of two reports and judge each from its raw samples\n"
      "Verdicts: FAST/SLOW (rank test significant AND the median moved by at least --min-change),\n"
      "SAME (moved less), UNSURE (moved more, but not significant, or explained by a clock change),\n"
      "FAILED (NEW failed validation), MISSING (measured on one side only), FIXED, SKIPPED.\n"
      "Exit codes: 0 no regression; 1 a SLOW point, a validation failure in NEW, or a missing point\n"
      "(unless --allow-missing); 2 bad input.\nOptions");
  desc.add_options()("help,h", "this help")("alpha", po::value<double>()->default_value(0.01, "0.01"),
                                           "significance level of the two-sided Mann-Whitney U test")(
      "min-change", po::value<double>()->default_value(2.0, "2"),
      "smallest change of the median, in percent, that counts as FAST or SLOW")(
      "clock-tolerance", po::value<double>()->default_value(3.0, "3"),
      "percent by which the two runs' SM clocks may differ before a verdict must also hold with NEW scaled to BASE's clock")(
      "allow-missing", "points measured on one side only do not fail the comparison")(
      "markdown", po::value<std::string>(), "also write a markdown summary to this file (e.g. for $GITHUB_STEP_SUMMARY)")(
      "changes-only", "print only the points that are not SAME");
  po::options_description hidden;
  hidden.add_options()("reports", po::value<std::vector<std::string>>());
  po::options_description all;
  all.add(desc).add(hidden);
  po::positional_options_description positional;
  positional.add("reports", -1);
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(args).options(all).positional(positional).run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    throw UsageError(std::string("sortbench compare: ") + e.what() + " (see sortbench compare --help)");
  }
  if (vm.count("help")) {
    std::cout << "usage: sortbench compare BASE NEW [options]\n" << desc << "\n";
    return 0;
  }
  const auto reports = vm.count("reports") ? vm["reports"].as<std::vector<std::string>>() : std::vector<std::string>{};
  if (reports.size() != 2)
    throw UsageError("sortbench compare: expected two reports, BASE and NEW; got " + std::to_string(reports.size()) +
                     " (see sortbench compare --help)");

  CompareOptions options;
  options.alpha = vm["alpha"].as<double>();
  if (!(options.alpha > 0 && options.alpha < 1))
    throw ConfigError("--alpha: " + std::to_string(options.alpha) + " is out of range; expected a number between 0 and 1, e.g. 0.01");
  options.min_change = fraction_from_percent(vm, "min-change", 0, 100);
  options.clock_tolerance = fraction_from_percent(vm, "clock-tolerance", 0, 100);
  options.allow_missing = vm.count("allow-missing") > 0;

  const Report base = load(reports[0]);
  const Report next = load(reports[1]);
  const Comparison c = compare_reports(base, next, options, reports[0], reports[1]);
  if (vm.count("markdown")) {
    const std::string path = vm["markdown"].as<std::string>();
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (!out) throw ConfigError("--markdown: " + path + ": cannot write");
    out << comparison_markdown(c);
    if (!out.flush()) throw ConfigError("--markdown: " + path + ": write failed");
  }
  std::cout << comparison_text(c, vm.count("changes-only") > 0);
  return c.exit_code();
}

}  // namespace
SORTBENCH_REGISTER_COMMAND("compare", "BASE NEW: FAST/SLOW/SAME/UNSURE per point; exit 1 on a regression", cmd_compare);
}  // namespace sortbench::cli
