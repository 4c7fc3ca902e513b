// The buffers of Onesweep's skip_constant_digits chain
// (variants/radix/common/pass_chain.hpp): every verdict of 2..8 passes, with
// and without a kept input; and the word buffers of packed pairs' chains.
#include <gtest/gtest.h>

#include <vector>

#include "radix/common/pass_chain.hpp"

namespace sortbench::radix {
namespace {

TEST(PassChain, EveryVerdictEndsInTheOutputThroughDistinctBuffers) {
  for (int passes = 2; passes <= 8; ++passes)
    for (int first = 0; first + 2 <= passes; ++first)
      for (unsigned mask = 0; mask < (1u << passes); ++mask)
        for (bool const_input : {false, true}) {
          std::vector<bool> constant(static_cast<std::size_t>(passes), false);
          for (int p = 0; p < passes; ++p) constant[std::size_t(p)] = (mask >> p) & 1;
          SCOPED_TRACE(testing::Message() << passes << " passes from " << first << ", constant 0x" << std::hex << mask
                                          << (const_input ? ", kept input" : ""));
          const auto steps = passes_after_first(first, passes, constant, const_input);
          ASSERT_FALSE(steps.empty());
          // Every pass whose digit varies runs, in order, and no other but
          // the top digit's where all are constant.
          std::vector<int> want;
          for (int p = first + 1; p < passes; ++p)
            if (!constant[std::size_t(p)]) want.push_back(p);
          if (want.empty()) want.push_back(passes - 1);
          ASSERT_EQ(steps.size(), want.size());
          ChainBuffer at = ChainBuffer::alt;  // where the first pass wrote
          for (std::size_t j = 0; j < steps.size(); ++j) {
            EXPECT_EQ(steps[j].pass, want[j]);
            EXPECT_EQ(steps[j].src, at);
            EXPECT_NE(steps[j].dst, steps[j].src);
            if (const_input) EXPECT_NE(steps[j].dst, ChainBuffer::in);
            else EXPECT_NE(steps[j].dst, ChainBuffer::spare);
            at = steps[j].dst;
          }
          EXPECT_EQ(at, ChainBuffer::out);
        }
}

TEST(PassChain, RefusesAChainWithoutASecondPassOrVerdicts) {
  EXPECT_THROW(passes_after_first(0, 1, {false}, false), std::invalid_argument);
  EXPECT_THROW(passes_after_first(3, 4, {false, false, false, false}, false), std::invalid_argument);
  EXPECT_THROW(passes_after_first(0, 4, {false, false}, false), std::invalid_argument);
}

// Every chain of 2..8 packed passes reads the input pairs first, then what
// the step before wrote, never writes the buffer it reads, and ends in the
// output pairs.
TEST(PassChain, PackedWordsGoFromTheInputPairsToTheOutputPairs) {
  for (int steps = 2; steps <= 8; ++steps) {
    SCOPED_TRACE(testing::Message() << steps << " steps");
    int at = -1;  // the input pairs
    for (int j = 0; j < steps; ++j) {
      const PackedPassBuffers b = packed_pass_buffers(j, steps);
      EXPECT_EQ(b.src, at);
      EXPECT_EQ(b.dst < 0, j == steps - 1);
      if (b.dst >= 0) {
        EXPECT_NE(b.dst, b.src);
        EXPECT_LT(b.dst, 2);
      }
      at = b.dst;
    }
  }
}

}  // namespace
}  // namespace sortbench::radix
