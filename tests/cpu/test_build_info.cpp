#include <gtest/gtest.h>

#include "sortbench/build_info.hpp"

// The default build targets Hopper machine code. (CMake once cached the
// compiler's default, compute_75, and every kernel ran as JIT-compiled PTX.)
TEST(BuildInfo, TargetsSm90AndKnowsItsCommit) {
  const auto& b = sortbench::build_info();
  EXPECT_EQ(b.cuda_architectures, "90");
  EXPECT_FALSE(b.git_commit.empty());
  EXPECT_FALSE(b.cuda_compiler.empty());
}
