// Committed reports the CPU tests read (real data, as the harness wrote it).
#pragma once

#include <string>

namespace sortbench::test {
inline const std::string kQuickReport = std::string(SORTBENCH_SOURCE_DIR) + "/results/h200/quick.json";
}  // namespace sortbench::test
