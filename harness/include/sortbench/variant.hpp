// The variant registry. A variant file describes itself with a VariantInfo and
// registers it with SORTBENCH_REGISTER_VARIANT at namespace scope; nothing else
// in the project needs to change to add one (NVBench-style registration).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <cuda_runtime_api.h>

#include "sortbench/types.hpp"

namespace sortbench {

// One point of a sweep as a variant sees it.
struct Problem {
  KeyType key = KeyType::u32;
  ValueType value = ValueType::none;
  Order order = Order::ascending;
  std::size_t n = 0;
  int gpus = 1;  // GPUs the point spans (distributed variants: sortbench/distributed.hpp)
  // run() must leave keys_in and values_in as they were: the library's
  // sort_keys/sort_pairs take const input, as CUB's do. Set only for variants
  // that declare VariantInfo::const_input.
  bool const_input = false;
};

// Buffers of one point. Device pointers for device variants, host pointers
// for host variants. keys_in holds the input when run() starts and may be used
// as scratch; keys_out must hold the sorted keys when the stream's work is done.
// The values (u32 or u64, the original index of each key) follow the same
// rule; both value pointers are null for keys-only problems.
struct Buffers {
  void* keys_in = nullptr;
  void* keys_out = nullptr;
  void* values_in = nullptr;
  void* values_out = nullptr;
};

// One kernel launch of an instance as the instance makes it: the compiled
// function (its host handle, for cudaFuncGetAttributes) with the block size
// and dynamic shared memory of the launch. The tuner prunes points whose
// launches cannot keep one block resident on an SM (sortbench/resources.hpp).
struct KernelLaunch {
  std::string name;                  // the kernel's role in the variant: "pass", "scatter"
  const void* function = nullptr;
  int block_threads = 0;
  std::size_t dynamic_smem = 0;
  // cudaFuncGetAttributes of the CUDA runtime that registered the kernel: a
  // plugin's kernels are known to its own runtime, not to the binary's.
  cudaError_t (*attributes)(cudaFuncAttributes*, const void*) = nullptr;
};

namespace detail {
// One copy per binary and plugin (plugins bind their own definitions first).
inline cudaError_t func_attributes(cudaFuncAttributes* a, const void* f) { return cudaFuncGetAttributes(a, f); }
}  // namespace detail

template <class Kernel>
KernelLaunch kernel_launch(std::string name, Kernel* kernel, int block_threads, std::size_t dynamic_smem) {
  return {std::move(name), reinterpret_cast<const void*>(kernel), block_threads, dynamic_smem, &detail::func_attributes};
}

// A variant bound to one problem. Created outside the timed region.
class Instance {
 public:
  virtual ~Instance() = default;
  // Bytes of temporary storage run() needs. Called once, untimed; it may sort
  // the buffers (the harness restores the input afterwards).
  virtual std::size_t temp_bytes(const Buffers& b, cudaStream_t stream) = 0;
  // Enqueue the whole sort on `stream`. Every kernel, child grids included,
  // must have finished when work enqueued after it on `stream` starts.
  // Host variants sort synchronously. Throws CudaError on failure.
  virtual void run(const Buffers& b, void* temp, std::size_t temp_bytes, cudaStream_t stream) = 0;
  // Every kernel run() launches for this problem (child grids excepted).
  // Empty: the variant declares none (host sorts, library baselines), and
  // nothing is pruned for its resources.
  virtual std::vector<KernelLaunch> kernels() const { return {}; }
  // An instance that picks its path at run time (dispatch.sort, and
  // radix.two_digit_msd_local_lsd where buckets overflow): what its last run()
  // ran and why. Empty for every other variant.
  virtual std::string dispatched() const { return {}; }
};

class DistributedInstance;  // sortbench/distributed.hpp

// The library sort every result can be checked against: it takes every key
// type, value type, order and size (validation, the GPU tests, and
// sortbench::sort where no tuning applies).
inline constexpr const char* kReferenceVariant = "cub.radix_sort.off64";

struct Param {
  std::string name;    // descriptive: "radix_bits", "items_per_thread", "scan"
  std::string abbrev;  // label component prefix: "rb" -> "rb8"; empty: the value alone
  std::string value;   // numbers in decimal; written to reports as numbers
};
using Params = std::vector<Param>;

struct VariantInfo {
  std::string label;        // stable, readable: family.method.params (radix.onesweep.rb8.ipt15.tpb512)
  std::string family;       // the label's leading components, e.g. "baseline.cub" or "radix"
  std::string description;  // one line
  std::string seed;         // the seed section it implements, e.g. "000 PMPP 13.3 Fig. 13.4"; "-" for baselines
  // The 32- and 64-bit key types unless the variant declares the 8- and 16-bit ones too.
  std::vector<KeyType> key_types{std::begin(kWordKeyTypes), std::end(kWordKeyTypes)};
  std::vector<ValueType> value_types{ValueType::none, ValueType::u32};  // none: keys only
  bool descending = false;  // supports Order::descending
  bool stable = false;
  bool host = false;        // runs on the CPU over host buffers
  bool opt_in = false;      // selected only by a pattern that names its family (host baselines)
  bool in_place = false;    // sorts keys_out (values_out) in place: the harness puts the input there
  // Takes Problem::const_input: sorts without writing keys_in or values_in.
  // sortbench::sort_keys/sort_pairs copy the input for a pick without it.
  bool const_input = false;
  // The family's point where no tuning picks one (a config's best:FAMILY):
  // one per family of ours, documented in its variant file.
  bool family_default = false;
  Params params;            // the parameter point (one policy struct)
  std::size_t tile_keys = 0;  // keys per tile / block, for boundary tests; 0 if none
  std::size_t max_n = std::numeric_limits<std::size_t>::max();  // declared cap
  std::string max_n_why;    // what sets the cap, for the skip reason ("32-bit num_items")
  // Bytes moved through device memory per key by this variant (for GB/s and
  // the fraction of copy bandwidth).
  std::function<double(const Problem&)> bytes_per_key;
  // Empty if the variant can run the problem, otherwise why it cannot.
  std::function<std::string(const Problem&)> unsupported;
  std::function<std::unique_ptr<Instance>(const Problem&)> make;
  // A variant that sorts across GPUs (min_gpus > 1) is made by make_distributed
  // instead of make, and runs only on problems whose `gpus` it takes.
  int min_gpus = 1;
  std::function<std::unique_ptr<DistributedInstance>(const Problem&)> make_distributed;
  bool distributed() const { return min_gpus > 1; }
  // Set by the plugin loader, never by the variant: the plugin file that
  // registered it (absolute path); empty for the binary's own variants.
  std::string plugin;

  bool supports_key(KeyType k) const;
  bool supports_value(ValueType v) const;
  // Why this variant cannot run p (type, order, cap or its own check); empty if it can.
  std::string skip_reason(const Problem& p) const;
  // skip_reason without the variant's own check (`unsupported`, which may query
  // the GPU): the declared type, order and size limits only. Needs no GPU.
  std::string declared_skip_reason(const Problem& p) const;
};

class Registry {
 public:
  static Registry& instance();
  // Throws std::logic_error on a duplicate or malformed label.
  void add(VariantInfo v);
  const std::vector<VariantInfo>& all() const { return variants_; }
  const VariantInfo* find(const std::string& label) const;
  // The family's default point (family_default), or null.
  const VariantInfo* family_default(const std::string& family) const;
  // Families with a default point, sorted: our families (not libraries, host or test variants).
  std::vector<std::string> default_families() const;
  // Variants whose label matches any of the glob patterns ('*', '?'), in
  // registration-independent (label) order. Opt-in variants match only a
  // pattern that begins with their family name.
  std::vector<const VariantInfo*> match(const std::vector<std::string>& patterns) const;

  // While a plugin loads, its registrations are held back, unchecked, until
  // the loader has checked the plugin (sortbench/plugin.hpp): a static
  // initializer that threw inside dlopen() would end the process.
  void begin_staging();
  std::vector<VariantInfo> end_staging();
  void register_variant(VariantInfo v);  // add(), or held back while staging
  // Takes a label out (an on-demand placeholder, before the point it stands
  // for is loaded). Pointers into the registry are invalid afterwards.
  void remove(const std::string& label);

 private:
  std::vector<VariantInfo> variants_;
  bool staging_ = false;
  std::vector<VariantInfo> staged_;
};

bool glob_match(const std::string& pattern, const std::string& text);

// Marks a registration as its family's default point:
// SORTBENCH_REGISTER_VARIANT(family_default_point(my_info<256, 17>()));
inline VariantInfo family_default_point(VariantInfo v) {
  v.family_default = true;
  return v;
}

// A CUDA error raised by a variant or the harness.
class CudaError : public std::runtime_error {
 public:
  CudaError(cudaError_t code, const std::string& where);
  cudaError_t code() const { return code_; }

 private:
  cudaError_t code_;
};

void cuda_check(cudaError_t e, const char* what);

// Labels are built from parameters so a value is never written twice:
// {radix_bits rb 8, items_per_thread ipt 15} -> "rb8.ipt15".
std::string param_label(const Params& p);

}  // namespace sortbench

// The one door into the registry, for the binary's own variants and for
// plugins alike (sortbench/plugin.hpp). Its name carries the plugin interface
// version: a plugin built against another version of this header names a
// function this binary does not have, and the loader says so instead of
// reading a VariantInfo laid out differently.
#define SORTBENCH_PLUGIN_INTERFACE 2
extern "C" void sortbench_register_variant_v2(sortbench::VariantInfo* v);

namespace sortbench::detail {
struct Registrar {
  explicit Registrar(VariantInfo v) { sortbench_register_variant_v2(&v); }
};
}  // namespace sortbench::detail

#define SORTBENCH_CONCAT_INNER(a, b) a##b
#define SORTBENCH_CONCAT(a, b) SORTBENCH_CONCAT_INNER(a, b)
// Registers the VariantInfo returned by the expression (usually a function call).
#define SORTBENCH_REGISTER_VARIANT(...)                                                  \
  static const ::sortbench::detail::Registrar SORTBENCH_CONCAT(sortbench_registrar_, \
                                                               __COUNTER__)(__VA_ARGS__)
