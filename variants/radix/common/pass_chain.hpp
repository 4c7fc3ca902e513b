// Which buffers the passes of Onesweep's skip_constant_digits form read and
// write (host side, so the CPU tests check the rule). The form's first pass
// is launched before the host knows which digits every key shares: it reads
// the input and writes `alt` while the host waits for the digit scan's
// verdict in mapped memory, so the answer's round trip (about 14 us a sort
// when every pass waited for it) is hidden behind that pass. The passes after
// it are then those whose digit is not the same for every key. Their number
// is not known when the first pass picks its output, so the chain from `alt`
// to the output takes a third buffer where the count is even: the input once
// the first pass has read it, or, where the input must stay as it was
// (Problem::const_input), a spare buffer.
#pragma once

#include <stdexcept>
#include <vector>

namespace sortbench::radix {

enum class ChainBuffer { in, out, alt, spare };

struct ChainStep {
  int pass;
  ChainBuffer src, dst;
};

// The passes after `first` (first + 1 .. passes - 1) with their buffers, from
// `alt`, where the first pass put the keys, to `out`. constant[p]: pass p's
// digit is the same for every key, so the pass would leave them in place;
// such passes are left out, but at least one pass runs (the last one decodes
// the keys: a signed or float key leaves the first pass encoded), so where
// every one is constant the top digit's pass runs.
inline std::vector<ChainStep> passes_after_first(int first, int passes, const std::vector<bool>& constant,
                                                 bool const_input) {
  if (first < 0 || passes - first < 2 || int(constant.size()) != passes)
    throw std::invalid_argument("passes_after_first: needs two passes or more and a verdict for each");
  std::vector<int> run;
  for (int p = first + 1; p < passes; ++p)
    if (!constant[std::size_t(p)]) run.push_back(p);
  if (run.empty()) run.push_back(passes - 1);
  const ChainBuffer third = const_input ? ChainBuffer::spare : ChainBuffer::in;
  // Odd: alt -> out -> alt -> ... -> out. Even: alt -> third -> out -> third -> ... -> out.
  const bool odd = run.size() % 2 == 1;
  std::vector<ChainStep> steps;
  ChainBuffer at = ChainBuffer::alt;
  for (std::size_t j = 0; j < run.size(); ++j) {
    const bool to_out = (run.size() - 1 - j) % 2 == 0;
    const ChainBuffer next = to_out ? ChainBuffer::out : (odd ? ChainBuffer::alt : third);
    steps.push_back({run[j], at, next});
    at = next;
  }
  return steps;
}

// radix.onesweep_packed_pairs (onesweep_packed_pairs.cuh): the word buffers
// of step `step` of a chain of `steps` passes (at least two). The first
// packs the input pairs into words[0], each step after reads what the one
// before wrote and writes the other word buffer, the last unpacks into the
// output pairs. -1: the input pairs (src) or the output pairs (dst). The
// input is never written, so a const input needs no spare buffer.
struct PackedPassBuffers {
  int src, dst;
};
constexpr PackedPassBuffers packed_pass_buffers(int step, int steps) {
  return {step == 0 ? -1 : (step - 1) % 2, step == steps - 1 ? -1 : step % 2};
}

}  // namespace sortbench::radix
