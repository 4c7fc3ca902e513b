// Host-side glue shared by the comparison-sort variants: an Instance that
// forwards to a CUB-style entry point (temp == nullptr asks for the size),
// the dispatch from a Problem to <Key, Value, Less>, and the opt-in to more
// than 48 KB of dynamic shared memory.
#pragma once

#include <cstdint>
#include <memory>
#include <stdexcept>

#include "merge_path.cuh"
#include "sortbench/device/key_traits.cuh"
#include "sortbench/variant.hpp"

namespace sortbench::common {

// Raises a kernel's dynamic shared memory limit once per instantiation.
template <class Kernel>
inline void allow_smem(Kernel kernel, std::size_t bytes) {
  if (bytes > 48 * 1024) {
    cuda_check(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(bytes)),
               "cudaFuncSetAttribute(MaxDynamicSharedMemorySize)");
  }
}

// Sort is a class template with
//   static cudaError_t sort(void* temp, std::size_t& bytes, Key* kin, Value* vin,
//                           Key* kout, Value* vout, long long n, Less, cudaStream_t)
// following CUB's convention: temp == nullptr only sizes the temp storage.
template <template <class, class, class> class Sort, class Key, class Value, class Less>
class EntryInstance final : public Instance {
 public:
  explicit EntryInstance(const Problem& p) : n_(static_cast<long long>(p.n)) {}
  std::size_t temp_bytes(const Buffers& b, cudaStream_t s) override {
    std::size_t bytes = 0;
    cuda_check(call(b, nullptr, bytes, s), "temp size query");
    return bytes;
  }
  void run(const Buffers& b, void* temp, std::size_t bytes, cudaStream_t s) override {
    cuda_check(call(b, temp, bytes, s), "sort");
  }

 private:
  cudaError_t call(const Buffers& b, void* temp, std::size_t& bytes, cudaStream_t s) {
    return Sort<Key, Value, Less>::sort(temp, bytes, static_cast<Key*>(b.keys_in), static_cast<Value*>(b.values_in),
                                        static_cast<Key*>(b.keys_out), static_cast<Value*>(b.values_out), n_, Less{},
                                        s);
  }
  long long n_;
};

// Problem -> Sort<Key, Value, OrderedLess/OrderedGreater<Key>> for the key
// types of KeySet, keys only or with u32 values (and u64 values when
// kWideValues). kDescending = false instantiates the ascending order only (the
// variant then declares descending = false). The variant's key_types and
// value_types must match: what it declares is what is instantiated here.
template <template <class, class, class> class Sort, bool kDescending, class KeySet = WordKeyTypes,
          bool kWideValues = false>
std::unique_ptr<Instance> make_entry_instance(const Problem& p) {
  return with_key_type_in<KeySet>(p.key, [&](auto tag) -> std::unique_ptr<Instance> {
    using K = typename decltype(tag)::type;
    auto by_order = [&](auto value_tag) -> std::unique_ptr<Instance> {
      using V = typename decltype(value_tag)::type;
      if constexpr (kDescending) {
        if (p.order == Order::descending) return std::make_unique<EntryInstance<Sort, K, V, OrderedGreater<K>>>(p);
      }
      return std::make_unique<EntryInstance<Sort, K, V, OrderedLess<K>>>(p);
    };
    if (p.value == ValueType::none) return by_order(TypeTag<NoValue>{});
    if constexpr (kWideValues) {
      if (p.value == ValueType::u64) return by_order(TypeTag<std::uint64_t>{});
    }
    if (p.value != ValueType::u32) throw std::invalid_argument("value type " + to_string(p.value) + " is not instantiated by this variant");
    return by_order(TypeTag<std::uint32_t>{});
  });
}

}  // namespace sortbench::common
