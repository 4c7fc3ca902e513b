// A host variant (std::sort of u32 keys) for the plugin loader tests: enough
// to register, list and plan; host code, so the test plugins build in seconds.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>

#include "sortbench/variant.hpp"

namespace plugin_test {

class HostSortU32 final : public sortbench::Instance {
 public:
  explicit HostSortU32(const sortbench::Problem& p) : n_(p.n) {}
  std::size_t temp_bytes(const sortbench::Buffers&, cudaStream_t) override { return 0; }
  void run(const sortbench::Buffers& b, void*, std::size_t, cudaStream_t) override {
    auto* out = static_cast<std::uint32_t*>(b.keys_out);
    std::memcpy(out, b.keys_in, n_ * sizeof(std::uint32_t));
    std::sort(out, out + n_);
  }

 private:
  std::size_t n_;
};

inline sortbench::VariantInfo host_sort_info(const std::string& label) {
  sortbench::VariantInfo v;
  v.label = label;
  v.family = label.substr(0, label.find('.'));
  v.description = "std::sort of u32 keys on the host (plugin loader tests)";
  v.seed = "-";
  v.key_types = {sortbench::KeyType::u32};
  v.value_types = {sortbench::ValueType::none};
  v.host = true;
  v.bytes_per_key = [](const sortbench::Problem&) { return 8.0; };
  v.make = [](const sortbench::Problem& p) { return std::make_unique<HostSortU32>(p); };
  return v;
}

}  // namespace plugin_test
