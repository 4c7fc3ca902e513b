// sortbench::sort: dispatch to the tuned best variant for this GPU (sort.hpp).
#include "sortbench/device.hpp"
#include "sortbench/sort.hpp"
#include "sortbench/variant.hpp"

namespace sortbench {
namespace {

// Without tuning for this GPU, key type and size: the CUB call that takes
// every size (64-bit num_items).
const char* const kFallback = kReferenceVariant;

std::string current_model() {
  int dev = 0;
  cuda_check(cudaGetDevice(&dev), "sortbench::sort: cudaGetDevice");
  cudaDeviceProp prop{};
  cuda_check(cudaGetDeviceProperties(&prop, dev), "sortbench::sort: cudaGetDeviceProperties");
  return device_model_slug(prop.name);
}

const VariantInfo& choose(KeyType key, ValueType value, std::size_t n, const SortOptions& o) {
  const std::string model = current_model();
  const Registry& reg = Registry::instance();
  const Problem p{key, value, Order::ascending, n};
  const std::string label = detail::tuned_label(detail::best_json_path(o.best_json, model), model, key, value, n);
  if (!label.empty())
    if (const VariantInfo* v = reg.find(label); v && !v->host && v->skip_reason(p).empty()) return *v;
  const VariantInfo* v = reg.find(kFallback);
  if (!v) throw std::runtime_error(std::string("sortbench::sort: the fallback ") + kFallback + " is not in this build");
  return *v;
}

const std::string& sort_any(KeyType key, void* keys, std::uint32_t* values, std::size_t n, cudaStream_t s,
                            const SortOptions& o) {
  const ValueType vt = values ? ValueType::u32 : ValueType::none;
  const VariantInfo& v = choose(key, vt, n, o);
  if (n < 2) return v.label;
  const Problem p{key, vt, Order::ascending, n};
  const std::size_t kb = n * key_bytes(key), vb = values ? n * sizeof(std::uint32_t) : 0;
  // Scratch: the variant reads keys_in (and may overwrite it) and writes keys_out.
  char* scratch = nullptr;
  cuda_check(cudaMallocAsync(reinterpret_cast<void**>(&scratch), 2 * kb + 2 * vb, s), "sortbench::sort: scratch");
  Buffers b{scratch, scratch + kb, values ? scratch + 2 * kb : nullptr, values ? scratch + 2 * kb + vb : nullptr};
  void* kdst = v.in_place ? b.keys_out : b.keys_in;
  void* vdst = v.in_place ? b.values_out : b.values_in;
  auto load_input = [&] {
    cuda_check(cudaMemcpyAsync(kdst, keys, kb, cudaMemcpyDeviceToDevice, s), "sortbench::sort: input");
    if (vb) cuda_check(cudaMemcpyAsync(vdst, values, vb, cudaMemcpyDeviceToDevice, s), "sortbench::sort: input");
  };
  void* temp = nullptr;
  try {
    auto inst = v.make(p);
    load_input();
    const std::size_t tb = inst->temp_bytes(b, s);
    load_input();  // temp_bytes may have sorted the buffers
    if (tb) cuda_check(cudaMallocAsync(&temp, tb, s), "sortbench::sort: temporary storage");
    inst->run(b, temp, tb, s);
    cuda_check(cudaMemcpyAsync(keys, b.keys_out, kb, cudaMemcpyDeviceToDevice, s), "sortbench::sort: output");
    if (vb) cuda_check(cudaMemcpyAsync(values, b.values_out, vb, cudaMemcpyDeviceToDevice, s), "sortbench::sort: output");
  } catch (...) {
    cudaFreeAsync(temp, s);
    cudaFreeAsync(scratch, s);
    throw;
  }
  if (temp) cuda_check(cudaFreeAsync(temp, s), "sortbench::sort: free");
  cuda_check(cudaFreeAsync(scratch, s), "sortbench::sort: free");
  return v.label;
}

}  // namespace

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
  return choose(key, value, n, o).label;
}

}  // namespace sortbench
