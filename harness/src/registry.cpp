#include <algorithm>
#include <sstream>

#include "sortbench/variant.hpp"

namespace sortbench {

bool VariantInfo::supports_key(KeyType k) const {
  return std::find(key_types.begin(), key_types.end(), k) != key_types.end();
}

bool VariantInfo::supports_value(ValueType v) const {
  return std::find(value_types.begin(), value_types.end(), v) != value_types.end();
}

std::string VariantInfo::skip_reason(const Problem& p) const {
  if (auto why = declared_skip_reason(p); !why.empty()) return why;
  if (unsupported) return unsupported(p);
  return {};
}

std::string VariantInfo::declared_skip_reason(const Problem& p) const {
  if (!supports_key(p.key)) return "key type " + to_string(p.key) + " not supported";
  if (!supports_value(p.value))
    return p.value == ValueType::none ? "keys-only sorting not supported"
                                      : "key-value pairs with " + to_string(p.value) + " values not supported";
  if (p.order == Order::descending && !descending) return "descending order not supported";
  if (distributed() && p.gpus < min_gpus)
    return "sorts across GPUs: needs at least " + std::to_string(min_gpus) + ", the point names " +
           std::to_string(p.gpus) + " (--gpus, or a sweep's \"gpus\")";
  if (!distributed() && p.gpus != 1) return "sorts on one GPU; the point names " + std::to_string(p.gpus);
  if (p.n > max_n)
    return "n = " + std::to_string(p.n) + " above the variant's cap of " + std::to_string(max_n) +
           (max_n_why.empty() ? "" : " (" + max_n_why + ")");
  return {};
}

Registry& Registry::instance() {
  static Registry r;
  return r;
}

void Registry::add(VariantInfo v) {
  if (v.label.empty() || v.label.find_first_of(" \t*?,") != std::string::npos)
    throw std::logic_error("variant label '" + v.label + "' is empty or has a space, comma or wildcard");
  if (v.family.empty() || v.label.rfind(v.family, 0) != 0)
    throw std::logic_error("variant '" + v.label + "': the label must start with its family '" + v.family + "'");
  if ((v.distributed() ? !v.make_distributed : !v.make) || !v.bytes_per_key)
    throw std::logic_error("variant '" + v.label + "' has no " + (v.distributed() ? "make_distributed" : "make") +
                           " or bytes_per_key");
  if (find(v.label)) throw std::logic_error("variant '" + v.label + "' registered twice");
  if (v.family_default && family_default(v.family))
    throw std::logic_error("variant '" + v.label + "': family '" + v.family + "' already has a default point, '" +
                           family_default(v.family)->label + "'");
  variants_.push_back(std::move(v));
  std::sort(variants_.begin(), variants_.end(),
            [](const VariantInfo& a, const VariantInfo& b) { return a.label < b.label; });
}

void Registry::begin_staging() {
  staging_ = true;
  staged_.clear();
}

std::vector<VariantInfo> Registry::end_staging() {
  staging_ = false;
  return std::move(staged_);
}

void Registry::register_variant(VariantInfo v) {
  if (staging_)
    staged_.push_back(std::move(v));
  else
    add(std::move(v));
}

void Registry::remove(const std::string& label) {
  variants_.erase(std::remove_if(variants_.begin(), variants_.end(),
                                 [&](const VariantInfo& v) { return v.label == label; }),
                  variants_.end());
}

const VariantInfo* Registry::find(const std::string& label) const {
  for (const auto& v : variants_)
    if (v.label == label) return &v;
  return nullptr;
}

const VariantInfo* Registry::family_default(const std::string& family) const {
  for (const auto& v : variants_)
    if (v.family_default && v.family == family) return &v;
  return nullptr;
}

std::vector<std::string> Registry::default_families() const {
  std::vector<std::string> out;
  for (const auto& v : variants_)
    if (v.family_default && std::find(out.begin(), out.end(), v.family) == out.end()) out.push_back(v.family);
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<const VariantInfo*> Registry::match(const std::vector<std::string>& patterns) const {
  std::vector<const VariantInfo*> out;
  for (const auto& v : variants_) {
    for (const auto& pat : patterns) {
      if (!glob_match(pat, v.label)) continue;
      if (v.opt_in && pat.rfind(v.family, 0) != 0) continue;
      out.push_back(&v);
      break;
    }
  }
  return out;
}

bool glob_match(const std::string& pattern, const std::string& text) {
  // Iterative wildcard match with backtracking to the last '*'.
  std::size_t p = 0, t = 0, star = std::string::npos, mark = 0;
  while (t < text.size()) {
    if (p < pattern.size() && (pattern[p] == '?' || pattern[p] == text[t])) {
      ++p;
      ++t;
    } else if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      mark = t;
    } else if (star != std::string::npos) {
      p = star + 1;
      t = ++mark;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

CudaError::CudaError(cudaError_t code, const std::string& where)
    : std::runtime_error(where + ": " + cudaGetErrorName(code) + " (" + cudaGetErrorString(code) + ")"),
      code_(code) {}

void cuda_check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw CudaError(e, what);
}

std::string param_label(const Params& params) {
  std::string out;
  for (const auto& p : params) {
    if (!out.empty()) out += '.';
    out += p.abbrev + p.value;
  }
  return out;
}

}  // namespace sortbench

extern "C" void sortbench_register_variant_v2(sortbench::VariantInfo* v) {
  sortbench::Registry::instance().register_variant(std::move(*v));
}
