// dispatch.sort and sortbench::sort (sort.hpp): the tuned pick for this GPU,
// chosen per input class from a sample of the keys (sortbench/input_class.hpp).
// best.json (version 3) keeps one pick per size range and class; where the
// picks of a problem's classes differ, run() samples kClassSamplePairs
// adjacent pairs on the GPU, waits for their counts (one kernel and a flag in
// mapped host memory, inside the timed sort) and sorts with the class's pick.
// Where they agree, nothing is sampled. No tuning for a class, key width or
// order: cub.radix_sort.off64.
// The library's sort_keys/sort_pairs run the same instances with a const
// input: a pick that declares const_input sorts from the caller's keys, any
// other from a copy in the temporary storage.
#include <algorithm>
#include <map>
#include <mutex>
#include <tuple>

#include "sortbench/best_json.hpp"
#include "sortbench/config.hpp"
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

// The variant best.json names for the problem and class (the nearest entry
// whose variant this build has and can sort the problem stably: a size past
// one pick's cap takes a neighbouring size's pick); else the fallback.
const VariantInfo& route_for(const Problem& p, InputClass c, const std::string& best_json, const std::string& model) {
  const Registry& reg = Registry::instance();
  auto runnable = [&](std::string label) -> const VariantInfo* {
    const VariantInfo* v = reg.find(label);
    // The DoubleBuffer forms of the library call want their input in keys_out;
    // its pointer form runs the same kernels (within 1 %, cub-knobs.json)
    // without a copy of the input.
    if (v && v->in_place) {
      const auto at = label.find("double_buffer.");
      if (at != std::string::npos) v = reg.find(label.erase(at, std::string("double_buffer.").size()));
    }
    return v && !v->host && !v->in_place && v->stable && !v->distributed() && v->skip_reason(p).empty() ? v : nullptr;
  };
  const std::string label =
      detail::tuned_label(detail::best_json_path(best_json, model), model, p.key, p.value, p.n, c, p.order,
                          [&](const std::string& l) { return runnable(l) != nullptr; });
  if (const VariantInfo* v = label.empty() ? nullptr : runnable(label)) return *v;
  const VariantInfo* v = reg.find(kFallback);
  if (!v) throw std::runtime_error(std::string("dispatch.sort: the fallback ") + kFallback + " is not in this build");
  return *v;
}

// Where a route sorts from a copy of a const input: the copies first in the
// temporary storage, the route's own storage after them.
constexpr std::size_t kTempAlign = 256;
std::size_t aligned(std::size_t bytes) { return (bytes + kTempAlign - 1) / kTempAlign * kTempAlign; }

class DispatchInstance final : public Instance {
 public:
  DispatchInstance(const Problem& p, const std::string& best_json) : p_(p) {
    const std::string model = current_model();
    detail::check_best_json(detail::best_json_path(best_json, model));
    for (InputClass c : kAllInputClasses) {
      const VariantInfo& v = route_for(p, c, best_json, model);
      auto same = std::find_if(routes_.begin(), routes_.end(), [&](const Route& r) { return r.v == &v; });
      if (same == routes_.end()) {
        Problem q = p;
        q.const_input = p.const_input && v.const_input;
        const bool copies = p.const_input && !v.const_input && p.n >= 2;
        const std::size_t copy_bytes =
            copies ? aligned(p.n * key_bytes(p.key)) + aligned(p.n * value_bytes(p.value)) : 0;
        routes_.push_back({&v, v.make(q), copy_bytes});
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
    for (auto& r : routes_) bytes = std::max(bytes, r.copy_bytes + r.inst->temp_bytes(b, s));
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
      features_ = wait_for_sample(p_.key, p_.n, counts_->mapped.host(), s);
    }
    route_ = route_of_[int(sampled_ ? features_.cls : InputClass::spread)];
    Route& r = routes_[route_];
    if (!r.copy_bytes) return r.inst->run(b, temp, bytes, s);
    // A const input and a pick that writes its input: it sorts a copy.
    char* copy = static_cast<char*>(temp);
    const std::size_t kb = p_.n * key_bytes(p_.key), vb = p_.n * value_bytes(p_.value);
    Buffers c = b;
    c.keys_in = copy;
    cuda_check(cudaMemcpyAsync(c.keys_in, b.keys_in, kb, cudaMemcpyDeviceToDevice, s), "sortbench::sort: input copy");
    if (vb) {
      c.values_in = copy + aligned(kb);
      cuda_check(cudaMemcpyAsync(c.values_in, b.values_in, vb, cudaMemcpyDeviceToDevice, s),
                 "sortbench::sort: input copy");
    }
    r.inst->run(c, copy + r.copy_bytes, bytes - r.copy_bytes, s);
  }
  // The variant the last run sorted with (a registry label: it outlives the instance).
  const std::string& chosen() const { return routes_[route_].v->label; }
  // Composed here, not in run(): no host work in the timed sort beyond the wait.
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
    std::size_t copy_bytes;  // a const input's copy, where the pick writes its input
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

// The library's instances, one per device and problem: a two-phase call
// (size query, then sort) builds one. Past kMaxCached problems the cache
// starts again.
struct CacheKey {
  int device;
  Problem p;
  std::string best_json;
  bool operator<(const CacheKey& o) const {
    return std::tie(device, p.key, p.value, p.order, p.n, best_json) <
           std::tie(o.device, o.p.key, o.p.value, o.p.order, o.p.n, o.best_json);
  }
};
// An instance and its temporary storage, asked once (the size query), not at every sort.
struct Cached {
  std::unique_ptr<DispatchInstance> inst;
  std::size_t temp_bytes = 0;
};
constexpr std::size_t kMaxCached = 64;
std::mutex library_mutex;
std::map<CacheKey, Cached>& library_cache() {
  static std::map<CacheKey, Cached> cache;
  return cache;
}

// SortOptions::best_json, else $SORTBENCH_BEST_JSON: checked before any GPU work.
std::string named_best_json(const SortOptions& o) {
  if (!o.best_json.empty()) return o.best_json;
  const char* env = std::getenv("SORTBENCH_BEST_JSON");
  return env ? env : "";
}

template <class F>
auto best_json_errors_as_documented(F&& f) {
  try {
    return f();
  } catch (const ConfigError& e) {
    throw BestJsonError(std::string("sortbench::sort: ") + e.what());
  }
}

}  // namespace

SORTBENCH_REGISTER_VARIANT(dispatch_sort_info());

namespace detail {

cudaError_t sort(KeyType key, ValueType value, void* temp, std::size_t& temp_bytes, const void* keys_in,
                 void* keys_out, const void* values_in, void* values_out, std::size_t n, cudaStream_t stream,
                 const SortOptions& o) {
  if (n > 0 && (!keys_in || !keys_out || (value != ValueType::none && (!values_in || !values_out))))
    return cudaErrorInvalidValue;
  return best_json_errors_as_documented([&]() -> cudaError_t {
    if (const std::string named = named_best_json(o); !named.empty()) check_best_json(named);
    int device = 0;
    if (const cudaError_t e = cudaGetDevice(&device); e != cudaSuccess) return e;
    Problem p{key, value, o.descending ? Order::descending : Order::ascending, n};
    p.const_input = true;
    std::lock_guard<std::mutex> lock(library_mutex);
    try {
      auto& cache = library_cache();
      CacheKey k{device, p, o.best_json};
      auto it = cache.find(k);
      if (it == cache.end()) {
        if (cache.size() >= kMaxCached) cache.clear();
        auto inst = std::make_unique<DispatchInstance>(p, o.best_json);
        const std::size_t bytes = std::max<std::size_t>(1, inst->temp_bytes(Buffers{}, stream));
        it = cache.emplace(std::move(k), Cached{std::move(inst), bytes}).first;
      }
      DispatchInstance& inst = *it->second.inst;
      const std::size_t need = it->second.temp_bytes;
      if (!temp) {
        temp_bytes = need;
        return cudaSuccess;
      }
      if (temp_bytes < need) return cudaErrorInvalidValue;
      if (n > 0)
        inst.run(Buffers{const_cast<void*>(keys_in), keys_out, const_cast<void*>(values_in), values_out}, temp,
                 temp_bytes, stream);
      if (o.chosen) *o.chosen = inst.chosen();
      return cudaSuccess;
    } catch (const CudaError& e) {
      return e.code();
    }
  });
}

std::string sort_choice(KeyType key, ValueType value, std::size_t n, const SortOptions& o) {
  return best_json_errors_as_documented([&] {
    if (const std::string named = named_best_json(o); !named.empty()) check_best_json(named);
    const std::string model = current_model();
    check_best_json(best_json_path(o.best_json, model));
    const Problem p{key, value, o.descending ? Order::descending : Order::ascending, n};
    return route_for(p, InputClass::spread, o.best_json, model).label;
  });
}

}  // namespace detail

}  // namespace sortbench
