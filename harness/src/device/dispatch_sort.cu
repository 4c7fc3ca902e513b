// dispatch.sort and sortbench::sort (sort.hpp): the tuned pick for this GPU,
// chosen per input class from a sample of the keys (sortbench/input_class.hpp).
// best.json (version 3) keeps one pick per size range and class; where the
// picks of a problem's classes differ, run() samples kClassSamplePairs
// adjacent pairs on the GPU, waits for their counts (one kernel and a flag in
// mapped host memory, inside the timed sort) and sorts with the class's pick.
// Where they agree, nothing is sampled. No tuning for a class, key width or
// order: cub.radix_sort.off64.
#include <algorithm>

#include "sortbench/device.hpp"
#include "sortbench/sort.hpp"
#include "sortbench/traffic.hpp"
#include "sortbench/variant.hpp"

namespace sortbench {
namespace {

const char* const kFallback = kReferenceVariant;

std::string current_model() {
  int dev = 0;
  cuda_check(cudaGetDevice(&dev), "dispatch.sort: cudaGetDevice");
  cudaDeviceProp prop{};
  cuda_check(cudaGetDeviceProperties(&prop, dev), "dispatch.sort: cudaGetDeviceProperties");
  return device_model_slug(prop.name);
}

// The variant best.json names for the problem and class, where this build
// has it and it can sort the problem stably; else the fallback.
const VariantInfo& route_for(const Problem& p, InputClass c, const std::string& best_json, const std::string& model) {
  const Registry& reg = Registry::instance();
  std::string label =
      detail::tuned_label(detail::best_json_path(best_json, model), model, p.key, p.value, p.n, c, p.order);
  if (const VariantInfo* v = label.empty() ? nullptr : reg.find(label)) {
    // The DoubleBuffer forms of the library call want their input in keys_out;
    // its pointer form runs the same kernels (within 1 %, cub-knobs.json)
    // without a copy of the input.
    if (v->in_place) {
      const auto at = label.find("double_buffer.");
      if (at != std::string::npos) v = reg.find(label.erase(at, std::string("double_buffer.").size()));
    }
    if (v && !v->host && !v->in_place && v->stable && !v->distributed() && v->skip_reason(p).empty()) return *v;
  }
  const VariantInfo* v = reg.find(kFallback);
  if (!v) throw std::runtime_error(std::string("dispatch.sort: the fallback ") + kFallback + " is not in this build");
  return *v;
}

class DispatchInstance final : public Instance {
 public:
  DispatchInstance(const Problem& p, const std::string& best_json) : p_(p) {
    const std::string model = current_model();
    for (InputClass c : kAllInputClasses) {
      const VariantInfo& v = route_for(p, c, best_json, model);
      auto same = std::find_if(routes_.begin(), routes_.end(), [&](const Route& r) { return r.v == &v; });
      if (same == routes_.end()) {
        routes_.push_back({&v, v.make(p)});
        same = routes_.end() - 1;
      }
      route_of_[int(c)] = std::size_t(same - routes_.begin());
    }
    if (routes_.size() > 1) counts_ = std::make_unique<MappedSampleCounts>();
    route_ = route_of_[int(InputClass::spread)];
  }
  DispatchInstance(const DispatchInstance&) = delete;
  DispatchInstance& operator=(const DispatchInstance&) = delete;

  std::size_t temp_bytes(const Buffers& b, cudaStream_t s) override {
    std::size_t bytes = 0;
    for (auto& r : routes_) bytes = std::max(bytes, r.inst->temp_bytes(b, s));
    return bytes;
  }
  std::vector<KernelLaunch> kernels() const override {
    std::vector<KernelLaunch> k;
    for (const auto& r : routes_)
      for (auto& l : r.inst->kernels()) k.push_back(l);
    return k;
  }
  void run(const Buffers& b, void* temp, std::size_t bytes, cudaStream_t s) override {
    sampled_ = routes_.size() > 1 && p_.n >= 2;
    if (sampled_) {
      count_sample(p_.key, b.keys_in, p_.n, *counts_, s);
      features_ = wait_for_sample(p_.key, p_.n, counts_->p, s);
    }
    route_ = route_of_[int(sampled_ ? features_.cls : InputClass::spread)];
    routes_[route_].inst->run(b, temp, bytes, s);
  }
  // Composed here, not in run(): no host work in the timed sort beyond the wait.
  // The variant the last run sorted with (a registry label: it outlives the instance).
  const std::string& chosen() const { return routes_[route_].v->label; }
  std::string dispatched() const override {
    const std::string why = sampled_              ? features_.summary()
                            : routes_.size() > 1 ? "fewer than 2 keys"
                                                 : "one pick for every input class";
    return why + " -> " + routes_[route_].v->label;
  }

 private:
  struct Route {
    const VariantInfo* v;
    std::unique_ptr<Instance> inst;
  };
  Problem p_;
  std::vector<Route> routes_;  // one per distinct pick
  std::size_t route_of_[std::size(kAllInputClasses)] = {};
  std::unique_ptr<MappedSampleCounts> counts_;  // where routes differ by class
  // The last run: whether it sampled, what the sample said, the route it took.
  bool sampled_ = false;
  InputFeatures features_;
  std::size_t route_ = 0;
};

VariantInfo dispatch_sort_info() {
  VariantInfo v;
  v.label = "dispatch.sort";
  v.family = "dispatch";
  v.description = "sortbench::sort: this GPU's best.json pick for the size and types, per input class from a sample "
                  "of the keys read back before the sort (inside its time); cub.radix_sort.off64 where nothing is tuned";
  v.seed = "-";
  v.key_types = {std::begin(kAllKeyTypes), std::end(kAllKeyTypes)};
  v.value_types = {std::begin(kAllValueTypes), std::end(kAllValueTypes)};
  v.descending = true;
  v.stable = true;  // every route is a stable sort (route_for)
  v.family_default = true;
  // The picks are Onesweep-class LSD sorts or CUB's: about their traffic.
  v.bytes_per_key = [](const Problem& p) { return traffic::onesweep(p, 8); };
  v.make = [](const Problem& p) { return std::make_unique<DispatchInstance>(p, std::string()); };
  return v;
}

const std::string& sort_any(KeyType key, void* keys, std::uint32_t* values, std::size_t n, cudaStream_t s,
                            const SortOptions& o) {
  const ValueType vt = values ? ValueType::u32 : ValueType::none;
  const Problem p{key, vt, Order::ascending, n};
  DispatchInstance inst(p, o.best_json);
  if (n < 2) return inst.chosen();  // the spread class's pick, as run() takes for fewer than 2 keys
  const std::size_t kb = n * key_bytes(key), vb = values ? n * sizeof(std::uint32_t) : 0;
  // The routes read keys_in (and may overwrite it) and write keys_out: the
  // caller's keys are keys_in, a scratch copy keys_out.
  char* scratch = nullptr;
  void* temp = nullptr;
  try {
    cuda_check(cudaMallocAsync(reinterpret_cast<void**>(&scratch), kb + vb, s), "sortbench::sort: scratch");
    const Buffers b{keys, scratch, values, values ? scratch + kb : nullptr};
    const std::size_t tb = inst.temp_bytes(Buffers{}, s);
    if (tb) cuda_check(cudaMallocAsync(&temp, tb, s), "sortbench::sort: temporary storage");
    inst.run(b, temp, tb, s);
    cuda_check(cudaMemcpyAsync(keys, b.keys_out, kb, cudaMemcpyDeviceToDevice, s), "sortbench::sort: output");
    if (vb) cuda_check(cudaMemcpyAsync(values, b.values_out, vb, cudaMemcpyDeviceToDevice, s), "sortbench::sort: output");
  } catch (...) {
    cudaFreeAsync(temp, s);
    cudaFreeAsync(scratch, s);
    throw;
  }
  if (temp) cuda_check(cudaFreeAsync(temp, s), "sortbench::sort: free");
  cuda_check(cudaFreeAsync(scratch, s), "sortbench::sort: free");
  return inst.chosen();
}

}  // namespace

SORTBENCH_REGISTER_VARIANT(dispatch_sort_info());

const std::string& sort(std::uint32_t* k, std::size_t n, cudaStream_t s, const SortOptions& o) {
  return sort_any(KeyType::u32, k, nullptr, n, s, o);
}
const std::string& sort(std::uint32_t* k, std::uint32_t* v, std::size_t n, cudaStream_t s, const SortOptions& o) {
  return sort_any(KeyType::u32, k, v, n, s, o);
}
const std::string& sort(std::uint64_t* k, std::size_t n, cudaStream_t s, const SortOptions& o) {
  return sort_any(KeyType::u64, k, nullptr, n, s, o);
}
const std::string& sort(std::uint64_t* k, std::uint32_t* v, std::size_t n, cudaStream_t s, const SortOptions& o) {
  return sort_any(KeyType::u64, k, v, n, s, o);
}
const std::string& sort(std::int32_t* k, std::uint32_t* v, std::size_t n, cudaStream_t s, const SortOptions& o) {
  return sort_any(KeyType::i32, k, v, n, s, o);
}
const std::string& sort(float* k, std::uint32_t* v, std::size_t n, cudaStream_t s, const SortOptions& o) {
  return sort_any(KeyType::f32, k, v, n, s, o);
}

std::string sort_choice(KeyType key, ValueType value, std::size_t n, const SortOptions& o) {
  return route_for(Problem{key, value, Order::ascending, n}, InputClass::spread, o.best_json, current_model()).label;
}

}  // namespace sortbench
