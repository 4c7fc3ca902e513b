// Chained launches (variants/common/chained_launch.cuh): a kernel launched
// behind a slow one, whose blocks are scheduled while the slow one still runs,
// reads nothing before the slow one has finished.
#include <gtest/gtest.h>

#include "common/chained_launch.cuh"
#include "gpu_test_util.hpp"

namespace sortbench::test {
namespace {

// Releases its successor at once, then writes data[i] = round + i only after a
// pause, so a successor that did not wait reads the previous round's values.
// Launched unchained: it writes what the previous round's checker reads.
__global__ void slow_writer(unsigned* data, unsigned n, unsigned round) {
  common::chain_release();
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 0; k < 20; ++k) __nanosleep(1000);
  if (i < n) data[i] = round + i;
}

// Counts the elements that do not hold what slow_writer wrote this round.
__global__ void chained_checker(const unsigned* data, unsigned n, unsigned round, unsigned* wrong) {
  common::chain_wait();
  common::chain_release();
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && data[i] != round + i) atomicAdd(wrong, 1u);
}

TEST(ChainedLaunch, SuccessorSeesEveryWriteOfItsPredecessor) {
  SORTBENCH_REQUIRE_GPU();
  if (!common::chained_launch_supported()) GTEST_SKIP() << "chained launches need compute capability 9.0";
  constexpr unsigned kN = 1u << 20, kThreads = 256, kBlocks = kN / kThreads, kRounds = 20;
  DevMem data(kN * sizeof(unsigned)), wrong(sizeof(unsigned));
  cuda_check(cudaMemset(data.p, 0, kN * sizeof(unsigned)), "clear");
  cuda_check(cudaMemset(wrong.p, 0, sizeof(unsigned)), "clear");
  cudaStream_t s = nullptr;
  cuda_check(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "stream");
  auto* d = static_cast<unsigned*>(data.p);
  auto* w = static_cast<unsigned*>(wrong.p);
  for (unsigned round = 1; round <= kRounds; ++round) {
    ASSERT_EQ(common::launch_chained(false, slow_writer, kBlocks, kThreads, 0, s, d, kN, round * 7919u), cudaSuccess);
    ASSERT_EQ(common::launch_chained(true, chained_checker, kBlocks, kThreads, 0, s, d, kN, round * 7919u, w),
              cudaSuccess);
  }
  cuda_check(cudaStreamSynchronize(s), "chained rounds");
  cuda_check(cudaStreamDestroy(s), "stream");
  EXPECT_EQ(to_host<unsigned>(wrong.p, 1)[0], 0u) << "a chained kernel read before its predecessor finished";
}

}  // namespace
}  // namespace sortbench::test
