// Adapts a CUB-style two-phase entry point to Instance: the call
//   call(void* temp, std::size_t& bytes, const Buffers&, cudaStream_t)
// only sets `bytes` when temp is null, and enqueues the sort otherwise.
#pragma once

#include <memory>
#include <utility>

#include "sortbench/variant.hpp"

namespace sortbench {

template <class Call>
class TwoPhaseInstance final : public Instance {
 public:
  explicit TwoPhaseInstance(Call call) : call_(std::move(call)) {}
  std::size_t temp_bytes(const Buffers& b, cudaStream_t s) override {
    std::size_t bytes = 0;
    call_(nullptr, bytes, b, s);
    return bytes;
  }
  void run(const Buffers& b, void* temp, std::size_t bytes, cudaStream_t s) override { call_(temp, bytes, b, s); }

 private:
  Call call_;
};

template <class Call>
std::unique_ptr<Instance> make_two_phase(Call call) {
  return std::make_unique<TwoPhaseInstance<Call>>(std::move(call));
}

}  // namespace sortbench
