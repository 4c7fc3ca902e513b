// sortbench info: the GPU, its measured copy bandwidth and the build.
#include <iomanip>
#include <iostream>

#include "cli.hpp"
#include "sortbench/build_info.hpp"

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
  require_gpu();
  const DeviceInfo d = query_device(true);
  json j = {{"device", device_json(d)}, {"build", build_json()}};
  if (vm.count("json")) {
    std::cout << j.dump(1) << "\n";
    return 0;
  }
  std::cout << "GPU            " << d.name << " (" << d.uuid << ")\n"
            << "SMs            " << d.sm_count << ", compute capability " << d.cc_major << "." << d.cc_minor << "\n"
            << "L2             " << d.l2_bytes / 1024 / 1024 << " MiB\n"
            << "memory         " << std::fixed << std::setprecision(1) << double(d.total_mem) / (1 << 30) << " GiB, "
            << double(d.free_mem) / (1 << 30) << " GiB free, bus " << d.mem_bus_width_bits << " bits\n"
            << "clocks (peak)  SM " << d.sm_clock_peak_mhz << " MHz, memory " << d.mem_clock_peak_mhz << " MHz\n"
            << "driver         " << d.driver_version << ", runtime " << d.runtime_version << ", CCCL " << d.cccl_version << "\n"
            << "copy bandwidth " << std::setprecision(0) << d.copy_gb_per_s << " GB/s (device to device, read + write)\n"
            << "build          " << build_info().git_commit.substr(0, 12) << (build_info().git_dirty ? " (dirty)" : "")
            << ", " << build_info().build_type << ", sm_" << build_info().cuda_architectures << "\n";
  return 0;
}

}  // namespace
SORTBENCH_REGISTER_COMMAND("info", "the GPU, its measured copy bandwidth and the build (--json)", cmd_info);
}  // namespace sortbench::cli
