// sortbench export REPORT --format gbench --out FILE: the report in Google
// Benchmark's JSON shape, for compare.py and github-action-benchmark.
#include <iostream>

#include "cli.hpp"
#include "sortbench/config.hpp"
#include "sortbench/files.hpp"
#include "sortbench/gbench.hpp"

namespace po = boost::program_options;

namespace sortbench::cli {
namespace {

int cmd_export(const std::vector<std::string>& args, const std::string&) {
  po::options_description desc(
      "sortbench export REPORT --format gbench --out FILE: write a report for other benchmark tools\nOptions");
  desc.add_options()("help,h", "this help")("format", po::value<std::string>()->default_value("gbench"),
                                           "gbench: Google Benchmark JSON")(
      "out", po::value<std::string>(), "output file ('-' for standard output)")(
      "samples", po::value<std::string>()->default_value("all"),
      "all: --repetitions quantiles of each point's raw samples plus mean/median/stddev/cv aggregates "
      "(compare.py's U test);\n"
      "median: one entry per point with its median (github-action-benchmark, tool: googlecpp)")(
      "repetitions", po::value<std::string>(),
      ("--samples all: entries per point, its (i+0.5)/R quantiles, the same for every point so compare.py's "
       "geomean weighs points alike (" + std::to_string(kGbenchMinRepetitions) + " to " +
       std::to_string(kGbenchMaxRepetitions) + ", default " + std::to_string(kGbenchRepetitions) + ")")
          .c_str())(
      "time-unit", po::value<std::string>()->default_value("us"),
      "ms, us or ns (compare.py prints whole numbers of the unit)");
  const auto vm = parse("export", desc, args, "report", 1);
  if (vm.count("help")) {
    std::cout << "usage: sortbench export REPORT --format gbench --out FILE [--samples all|median] [--repetitions R] "
                 "[--time-unit us]\n"
              << desc << "\n";
    return 0;
  }
  const auto inputs = vm.count("report") ? vm["report"].as<std::vector<std::string>>() : std::vector<std::string>{};
  if (inputs.size() != 1)
    throw UsageError("sortbench export: expected one report; got " + std::to_string(inputs.size()) +
                     " (see sortbench export --help)");
  const std::string format = vm["format"].as<std::string>();
  if (format != "gbench") throw ConfigError("--format: unknown format '" + format + "'; expected gbench");
  const std::string samples_text = vm["samples"].as<std::string>();
  if (samples_text != "all" && samples_text != "median")
    throw ConfigError("--samples: unknown value '" + samples_text + "'; expected all or median");
  std::size_t repetitions = kGbenchRepetitions;
  if (vm.count("repetitions")) {
    // Refused rather than ignored: whoever passed it expected more than one entry per point.
    if (samples_text != "all")
      throw ConfigError("--repetitions: applies to --samples all only; --samples " + samples_text +
                        " writes one entry per point");
    repetitions = std::size_t(count_flag(vm, "repetitions", kGbenchMinRepetitions, kGbenchMaxRepetitions));
  }
  const std::string time_unit = vm["time-unit"].as<std::string>();
  if (gbench_ms_per_unit(time_unit) == 0.0)
    throw ConfigError("--time-unit: unknown unit '" + time_unit + "'; expected ms, us or ns");
  if (!vm.count("out")) throw UsageError("sortbench export: --out FILE is required (see sortbench export --help)");
  const std::string out_path = vm["out"].as<std::string>();
  files::check_input(inputs[0], inputs[0], "report");
  files::check_output(out_path, "--out", {{inputs[0], "the report"}}, {}, /*allow_stdout=*/true);

  const Report report = read_report(inputs[0]);
  std::size_t left_out = 0;
  const bool all = samples_text == "all";
  const auto gbench =
      to_gbench(report, all ? GbenchSamples::all : GbenchSamples::median, time_unit, &left_out, repetitions);
  // Their quantiles interpolate between fewer samples than entries, and
  // compare.py's U test takes them for R measurements.
  std::size_t thin = 0;
  if (all)
    for (const auto& r : report.results)
      if (r.status == Status::ok && !r.time_ms.raw.empty() && r.time_ms.raw.size() < repetitions) ++thin;
  const std::string text = gbench.dump(2) + "\n";
  if (out_path == "-") {
    std::cout << text;
  } else {
    files::write_atomically(out_path, "--out", text);
    std::cerr << "sortbench export: " << inputs[0] << " -> " << out_path << " (" << gbench["benchmarks"].size()
              << " entries";
    if (all) std::cerr << "; " << repetitions << " quantiles per point";
    if (thin)
      std::cerr << "; " << thin << " points with fewer raw samples than that (their U test p-values overstate)";
    if (left_out) std::cerr << "; " << left_out << " points left out (failed, skipped, or without raw samples for --samples all)";
    std::cerr << ")\n";
  }
  return 0;
}

}  // namespace
SORTBENCH_REGISTER_COMMAND("export", "REPORT --format gbench --out FILE: Google Benchmark JSON", cmd_export);
}  // namespace sortbench::cli
