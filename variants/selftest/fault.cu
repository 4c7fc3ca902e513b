// Variants that fail on purpose, so a user can watch fault isolation work on
// their own GPU and driver (docs/tune.md, "Fault isolation"):
//   sortbench run --isolate --variants 'test.fault.*,cub.radix_sort.off64' ...
// Each is recorded failed with its CUDA error while the other points are
// measured. Opt-in: only a pattern that begins with "test.fault" selects them,
// so "*" and family globs never do.
//   illegal_address  writes through a bad pointer: cudaErrorIllegalAddress, which
//                    poisons the CUDA context (the worker process is replaced)
//   trap             executes a trap instruction: cudaErrorLaunchFailure, also sticky
//   invalid_launch   launches 2048 threads per block, which the runtime refuses
//                    (cudaErrorInvalidValue on CUDA 13.0) and which leaves the
//                    context usable; tune prunes it from its kernel's resources
//                    before it runs
#include <cstdint>
#include <memory>

#include "sortbench/variant.hpp"

namespace sortbench::selftest {
namespace {

enum class Fault { illegal_address, trap, invalid_launch };

__global__ void write_through(unsigned* target) { target[threadIdx.x] = threadIdx.x; }
__global__ void trap_kernel() { __trap(); }

constexpr int kTooManyThreads = 2048;

class FaultInstance final : public Instance {
 public:
  explicit FaultInstance(Fault f) : fault_(f) {}
  std::size_t temp_bytes(const Buffers&, cudaStream_t) override { return 0; }
  std::vector<KernelLaunch> kernels() const override {
    switch (fault_) {
      case Fault::illegal_address: return {kernel_launch("write_through", write_through, 32, 0)};
      case Fault::trap: return {kernel_launch("trap", trap_kernel, 32, 0)};
      case Fault::invalid_launch: return {kernel_launch("write_through", write_through, kTooManyThreads, 0)};
    }
    return {};
  }
  void run(const Buffers& b, void*, std::size_t, cudaStream_t s) override {
    switch (fault_) {
      case Fault::illegal_address:
        // An address no allocation can have: the key buffer moved up by 2^40 bytes.
        write_through<<<1, 32, 0, s>>>(reinterpret_cast<unsigned*>(static_cast<char*>(b.keys_out) + (1ull << 40)));
        break;
      case Fault::trap:
        trap_kernel<<<1, 32, 0, s>>>();
        break;
      case Fault::invalid_launch:
        write_through<<<1, kTooManyThreads, 0, s>>>(static_cast<unsigned*>(b.keys_out));
        break;
    }
    cuda_check(cudaGetLastError(), "test.fault: launch");
  }

 private:
  Fault fault_;
};

VariantInfo fault_info(const char* name, Fault f, const char* what) {
  VariantInfo v;
  v.label = std::string("test.fault.") + name;
  v.family = "test.fault";
  v.description = what;
  v.seed = "-";
  v.key_types = {KeyType::u32};
  v.value_types = {ValueType::none};
  v.opt_in = true;
  v.bytes_per_key = [](const Problem&) { return 8.0; };
  v.make = [f](const Problem&) -> std::unique_ptr<Instance> { return std::make_unique<FaultInstance>(f); };
  return v;
}

}  // namespace

SORTBENCH_REGISTER_VARIANT(fault_info("illegal_address", Fault::illegal_address,
                                      "fails on purpose: writes through a bad pointer (cudaErrorIllegalAddress)"));
SORTBENCH_REGISTER_VARIANT(fault_info("trap", Fault::trap, "fails on purpose: a trap instruction (cudaErrorLaunchFailure)"));
SORTBENCH_REGISTER_VARIANT(fault_info("invalid_launch", Fault::invalid_launch,
                                      "fails on purpose: a launch of 2048 threads per block, refused by the runtime"));

}  // namespace sortbench::selftest
