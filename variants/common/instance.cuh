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
  EntryInstance(const Problem& p, Less less) : n_(static_cast<long long>(p.n)), less_(less) {}
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
                                        static_cast<Key*>(b.keys_out), static_cast<Value*>(b.values_out), n_, less_,
                                        s);
  }
  long long n_;
  Less less_;
};

// Whether a key type of `Bytes` bytes is among the types of Set.
template <class Set, std::size_t Bytes>
constexpr bool kSetHasWidth = false;
template <KeyType... Ks, std::size_t Bytes>
constexpr bool kSetHasWidth<KeyTypeSet<Ks...>, Bytes> = ((sizeof(typename KeyTypeOf<Ks>::type) == Bytes) || ...);

// Problem -> Sort<Bits, Value, RunTimeOrderedLess<Bits>>: one instantiation
// per key width (the unsigned word of the key's bits), the key type's map and
// the order chosen at run time by the comparator, instead of one per key
// type and order (six times the kernels). Keys only or with u32 values (and
// u64 values when kWideValues). Key types outside KeySet are refused;
// kDescending = false refuses the descending order (the variant then
// declares descending = false). The variant's key_types and value_types must
// match: what it declares is what is dispatched here.
template <template <class, class, class> class Sort, bool kDescending, class KeySet = WordKeyTypes,
          bool kWideValues = false>
std::unique_ptr<Instance> make_entry_instance(const Problem& p) {
  // Refuses key types outside the set, as with_key_type_in does.
  with_key_type_in<KeySet>(p.key, [](auto) {});
  if (!kDescending && p.order == Order::descending)
    throw std::invalid_argument("the descending order is not offered by this variant");
  return with_key_bits(p.key, [&](auto bits_tag) -> std::unique_ptr<Instance> {
    using Bits = typename decltype(bits_tag)::type;
    if constexpr (!kSetHasWidth<KeySet, sizeof(Bits)>) {
      throw std::invalid_argument("key type " + to_string(p.key) + " is not instantiated by this variant");
    } else {
      using Less = RunTimeOrderedLess<Bits>;
      const Less less = Less::of(key_kind(p.key), p.order == Order::descending);
      auto make = [&](auto value_tag) -> std::unique_ptr<Instance> {
        using V = typename decltype(value_tag)::type;
        return std::make_unique<EntryInstance<Sort, Bits, V, Less>>(p, less);
      };
      if (p.value == ValueType::none) return make(TypeTag<NoValue>{});
      if constexpr (kWideValues) {
        if (p.value == ValueType::u64) return make(TypeTag<std::uint64_t>{});
      }
      if (p.value != ValueType::u32)
        throw std::invalid_argument("value type " + to_string(p.value) + " is not instantiated by this variant");
      return make(TypeTag<std::uint32_t>{});
    }
  });
}

}  // namespace sortbench::common
