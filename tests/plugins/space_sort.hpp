// The points of a plugin's family space (space.cpp declares the space): host
// sorts of u32 keys in chunks of Chunk keys, then merged. Host code, so the
// loader tests and their on-demand points build in seconds. A translation
// unit that includes this header and registers one point is what the
// space's translation_unit generates; the space itself is declared once, in
// space.cpp, not here.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>

#include "sortbench/variant.hpp"

namespace plugin_space {

template <int Chunk>
class ChunkedSort final : public sortbench::Instance {
 public:
  explicit ChunkedSort(const sortbench::Problem& p) : n_(p.n) {}
  std::size_t temp_bytes(const sortbench::Buffers&, cudaStream_t) override { return 0; }
  void run(const sortbench::Buffers& b, void*, std::size_t, cudaStream_t) override {
    auto* out = static_cast<std::uint32_t*>(b.keys_out);
    std::memcpy(out, b.keys_in, n_ * sizeof(std::uint32_t));
    for (std::size_t i = 0; i < n_; i += Chunk) std::sort(out + i, out + std::min(n_, i + Chunk));
    for (std::size_t w = Chunk; w < n_; w *= 2)
      for (std::size_t i = 0; i + w < n_; i += 2 * w)
        std::inplace_merge(out + i, out + i + w, out + std::min(n_, i + 2 * w));
  }

 private:
  std::size_t n_;
};

template <int Chunk>
sortbench::VariantInfo chunked_info() {
  sortbench::VariantInfo v;
  v.params = {{"chunk", "c", std::to_string(Chunk)}};
  v.label = "pluginspace.chunked." + sortbench::param_label(v.params);
  v.family = "pluginspace";
  v.description = "chunks of keys sorted with std::sort, then merged (plugin family space tests)";
  v.seed = "-";
  v.key_types = {sortbench::KeyType::u32};
  v.value_types = {sortbench::ValueType::none};
  v.host = true;
  v.bytes_per_key = [](const sortbench::Problem&) { return 8.0; };
  v.make = [](const sortbench::Problem& p) { return std::make_unique<ChunkedSort<Chunk>>(p); };
  return v;
}

}  // namespace plugin_space
