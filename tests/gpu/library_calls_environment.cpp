// The lean build compiles the comparison-sort library calls of no key type in
// (sortbench/library_calls.hpp), and the suites test every variant at every
// key type: on a GPU machine, before any test, every library call the binary
// lacks is built on demand into the user's cache (once: later runs find it
// there) and loaded. ctest runs the tests as parallel processes, so one at a
// time builds while the others wait on a lock, then find the cache full.
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <filesystem>
#include <iostream>
#include <thread>

#include <gtest/gtest.h>

#include "sortbench/device.hpp"
#include "sortbench/library_calls.hpp"
#include "sortbench/on_demand.hpp"
#include "sortbench/resources.hpp"

namespace sortbench::test {
namespace {

class LibraryCallsEnvironment : public ::testing::Environment {
 public:
  void SetUp() override {
    std::string no_gpu;
    if (!gpu_available(&no_gpu)) return;
    std::vector<const VariantInfo*> all;
    for (const auto& v : Registry::instance().all()) all.push_back(&v);
    const PointTypes types{{std::begin(kAllKeyTypes), std::end(kAllKeyTypes)},
                           {std::begin(kAllValueTypes), std::end(kAllValueTypes)}};
    std::vector<on_demand::Planned> units = on_demand::plan_library_calls(all, types);
    if (units.empty()) return;
    on_demand::Settings s;
    s.cache_dir = on_demand::default_cache_dir();
    s.jobs = std::max(1u, std::thread::hardware_concurrency());
    s.arch = on_demand::arch_of(device_sm_limits());
    std::filesystem::create_directories(s.cache_dir);
    const std::string lock_path = s.cache_dir + "/.library-calls.lock";
    const int fd = ::open(lock_path.c_str(), O_RDWR | O_CREAT, 0644);
    ASSERT_GE(fd, 0) << "cannot open " << lock_path;
    ::flock(fd, LOCK_EX);
    const on_demand::Summary sum = on_demand::build_and_load(units, types, s, std::cerr);
    ::flock(fd, LOCK_UN);
    ::close(fd);
    for (const auto& o : sum.points) EXPECT_NE(o.status, "failed") << o.label << ": " << o.reason;
    if (sum.count("compiled")) std::cerr << sum.line() << "\n";
  }
};

::testing::Environment* const library_calls_environment =
    ::testing::AddGlobalTestEnvironment(new LibraryCallsEnvironment);

}  // namespace
}  // namespace sortbench::test
