// sortbench info: the build, then the GPU and its measured copy bandwidth, or what
// is missing where there is none (no driver, no GPU).
#include <iomanip>
#include <iostream>

#include <filesystem>

#include "cli.hpp"
#include "sortbench/gpu_status.hpp"
#include "sortbench/best_json.hpp"

namespace po = boost::program_options;
using nlohmann::json;

namespace sortbench::cli {
namespace {

int cmd_info(const std::vector<std::string>& args, const std::string&) {
  po::options_description desc("sortbench info: the GPU and the build\nOptions");
  desc.add_options()("help,h", "this help")("json", "print JSON");
  const auto vm = parse("info", desc, args);
  if (vm.count("help")) {
    std::cout << desc << "\n";
    return 0;
  }
  // The build is known without a GPU: say it, then what is missing (exit 1, a runtime failure).
  const GpuStatus status = gpu_status();
  if (!status.usable) {
    if (vm.count("json"))
      std::cout << json{{"build", version_json()}, {"device", nullptr}, {"device_error", status.text()}}.dump(1) << "\n";
    else
      std::cout << build_facts_text() << "GPU            none: " << status.missing << "\n";
    std::cout.flush();
    throw std::runtime_error(no_gpu_line(status));
  }
  const DeviceInfo d = query_device(true);
  // The picks best:FAMILY and sortbench::sort read on this GPU (SortOptions's rules).
  const std::string best = detail::best_json_path("", device_model_slug(d.name));
  std::error_code ec;
  const bool have_best = std::filesystem::exists(best, ec);
  json j = {{"device", device_json(d)}, {"build", version_json()}, {"best_json", have_best ? json(best) : json(nullptr)}};
  if (vm.count("json")) {
    std::cout << j.dump(1) << "\n";
    return 0;
  }
  std::cout << build_facts_text()
            << "GPU            " << d.name << " (" << d.uuid << "), model " << device_model_slug(d.name) << "\n"
            << "SMs            " << d.sm_count << ", compute capability " << d.cc_major << "." << d.cc_minor << "\n"
            << "L2             " << d.l2_bytes / 1024 / 1024 << " MiB\n"
            << "memory         " << std::fixed << std::setprecision(1) << double(d.total_mem) / (1 << 30) << " GiB, "
            << double(d.free_mem) / (1 << 30) << " GiB free, bus " << d.mem_bus_width_bits << " bits\n"
            << "clocks (peak)  SM " << d.sm_clock_peak_mhz << " MHz, memory " << d.mem_clock_peak_mhz << " MHz\n"
            << "driver         " << d.driver_version << ", runtime " << d.runtime_version << ", CCCL " << d.cccl_version << "\n"
            << "copy bandwidth " << std::setprecision(0) << d.copy_gb_per_s << " GB/s (device to device, read + write)\n"
            << "best.json      "
            << (have_best ? best : "none (" + best + " is missing): each family's default point, the CUB call") << "\n";
  return 0;
}

}  // namespace
SORTBENCH_REGISTER_COMMAND("info", "the GPU, its measured copy bandwidth and the build (--json)", cmd_info);
}  // namespace sortbench::cli
