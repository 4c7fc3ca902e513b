#pragma once
#include <string>

namespace sortbench {
struct BuildInfo {
  std::string version, git_commit, compiler, cuda_compiler, cxx_flags, cuda_flags, build_type, cuda_architectures;
  bool git_dirty = false;
  bool full_grid = false;
  std::string source_dir;  // the checkout it was built from: on-demand builds' headers, wherever the build folder is
};
// Filled in at build time (cmake/build_info.cmake).
const BuildInfo& build_info();
}  // namespace sortbench
