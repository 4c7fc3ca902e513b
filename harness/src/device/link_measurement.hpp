// Times the link between the GPUs of a group (link_measurement.cpp): what a
// distributed point's exchange is set beside in its report.
#pragma once

#include <cstddef>
#include <string>

#include "sortbench/device.hpp"

#include "gpu_group.hpp"

namespace sortbench {

// `bytes` per GPU; the measurement's error says why not where `unavailable`
// is set, a buffer does not fit or a call fails.
LinkMeasurement time_link(GpuGroup& group, std::size_t bytes, const std::string& unavailable);

}  // namespace sortbench
