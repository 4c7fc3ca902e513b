// Key order shared by every variant, the validator and the tests.
//
// Keys are ordered by an order-preserving map to unsigned bits, exactly as
// cub::DeviceRadixSort orders them: signed integers flip the sign bit; floats
// flip the sign bit of positives and all bits of negatives, after mapping -0.0
// to +0.0 so the two zeros are equal keys (a stable sort keeps their input
// order). NaNs with the sign bit set sort before -inf, others after +inf.
// Descending order complements the ordered bits. Sorts move the original key
// bits; the map is used only to compare or to extract digits.
#pragma once

#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <iterator>
#include <type_traits>
#include <utility>

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "sortbench/types.hpp"

#if defined(__CUDACC__)
#define SORTBENCH_HD __host__ __device__ __forceinline__
#else
#define SORTBENCH_HD inline
#endif

namespace sortbench {

template <class T> struct KeyTraits;

template <class T, class U>
SORTBENCH_HD U bit_copy(T v) {
  static_assert(sizeof(T) == sizeof(U), "bit_copy needs equal sizes");
  U u;
  std::memcpy(&u, &v, sizeof(U));
  return u;
}

// The order-preserving maps on raw bits, one definition for every width:
// KeyTraits below and the radix kernels' run-time key map both use them.
template <class Bits>
SORTBENCH_HD constexpr Bits sign_bit() {
  return Bits(Bits(1) << (sizeof(Bits) * 8 - 1));
}
template <class Bits>
SORTBENCH_HD Bits signed_ordered_bits(Bits b) {
  return Bits(b ^ sign_bit<Bits>());
}
// Sign-magnitude floats (binary16, bfloat16, binary32, binary64): -0.0 first
// becomes +0.0, then negatives flip every bit and positives the sign bit.
template <class Bits>
SORTBENCH_HD Bits float_ordered_bits(Bits b) {
  const Bits sign = sign_bit<Bits>();
  if (b == sign) b = 0;
  return (b & sign) ? Bits(~b) : Bits(b ^ sign);
}

template <class T, class Bits>
struct UnsignedKeyTraits {
  using Key = T;
  using UnsignedBits = Bits;
  static constexpr int kBits = int(sizeof(T) * 8);
  static constexpr bool kFloat = false;
  SORTBENCH_HD static Bits to_bits(T k) { return bit_copy<T, Bits>(k); }
  SORTBENCH_HD static T from_bits(Bits b) { return bit_copy<Bits, T>(b); }
  SORTBENCH_HD static Bits ordered(T k) { return to_bits(k); }
  // Inverse of ordered() (for floats, ordered(+0.0) maps back to +0.0).
  SORTBENCH_HD static T from_ordered(Bits b) { return from_bits(b); }
};

template <class T, class Bits>
struct SignedKeyTraits : UnsignedKeyTraits<T, Bits> {
  SORTBENCH_HD static Bits ordered(T k) { return signed_ordered_bits(bit_copy<T, Bits>(k)); }
  SORTBENCH_HD static T from_ordered(Bits b) { return bit_copy<Bits, T>(signed_ordered_bits(b)); }
};

template <class T, class Bits>
struct FloatKeyTraits : UnsignedKeyTraits<T, Bits> {
  static constexpr bool kFloat = true;
  SORTBENCH_HD static Bits ordered(T k) { return float_ordered_bits(bit_copy<T, Bits>(k)); }
  SORTBENCH_HD static T from_ordered(Bits b) {
    return bit_copy<Bits, T>((b & sign_bit<Bits>()) ? Bits(b ^ sign_bit<Bits>()) : Bits(~b));
  }
};

template <> struct KeyTraits<std::uint8_t> : UnsignedKeyTraits<std::uint8_t, std::uint8_t> {};
template <> struct KeyTraits<std::uint16_t> : UnsignedKeyTraits<std::uint16_t, std::uint16_t> {};
template <> struct KeyTraits<std::uint32_t> : UnsignedKeyTraits<std::uint32_t, std::uint32_t> {};
template <> struct KeyTraits<std::uint64_t> : UnsignedKeyTraits<std::uint64_t, std::uint64_t> {};
template <> struct KeyTraits<std::int8_t> : SignedKeyTraits<std::int8_t, std::uint8_t> {};
template <> struct KeyTraits<std::int16_t> : SignedKeyTraits<std::int16_t, std::uint16_t> {};
template <> struct KeyTraits<std::int32_t> : SignedKeyTraits<std::int32_t, std::uint32_t> {};
template <> struct KeyTraits<std::int64_t> : SignedKeyTraits<std::int64_t, std::uint64_t> {};
template <> struct KeyTraits<__half> : FloatKeyTraits<__half, std::uint16_t> {};
template <> struct KeyTraits<__nv_bfloat16> : FloatKeyTraits<__nv_bfloat16, std::uint16_t> {};
template <> struct KeyTraits<float> : FloatKeyTraits<float, std::uint32_t> {};
template <> struct KeyTraits<double> : FloatKeyTraits<double, std::uint64_t> {};

// Ordered bits for a sort direction: ascending order of the result is the
// requested order of the keys.
template <class T>
SORTBENCH_HD typename KeyTraits<T>::UnsignedBits ordered_bits(T k, bool descending) {
  auto b = KeyTraits<T>::ordered(k);
  return descending ? decltype(b)(~b) : b;
}

// Strict weak order on keys matching CUB's radix order (for comparison sorts).
template <class T>
struct OrderedLess {
  SORTBENCH_HD bool operator()(const T& a, const T& b) const {
    return KeyTraits<T>::ordered(a) < KeyTraits<T>::ordered(b);
  }
};
template <class T>
struct OrderedGreater {
  SORTBENCH_HD bool operator()(const T& a, const T& b) const {
    return KeyTraits<T>::ordered(b) < KeyTraits<T>::ordered(a);
  }
};

template <KeyType K> struct KeyTypeOf;
#define SORTBENCH_KEY_TYPE_OF(name, cpp, bytes, kind)                  \
  template <> struct KeyTypeOf<KeyType::name> { using type = cpp; };   \
  static_assert(sizeof(cpp) == bytes, "sortbench/types.hpp: " #name " is not " #bytes " bytes");
SORTBENCH_KEY_TYPES(SORTBENCH_KEY_TYPE_OF)
#undef SORTBENCH_KEY_TYPE_OF

template <class T> struct TypeTag { using type = T; };

// The C++ key types by width, for explicit instantiation lists:
// SORTBENCH_KEYS_32(X) expands to X(std::uint32_t) X(std::int32_t) X(float).
#define SORTBENCH_KEYS_8(X) X(std::uint8_t) X(std::int8_t)
#define SORTBENCH_KEYS_16(X) X(std::uint16_t) X(std::int16_t) X(__half) X(__nv_bfloat16)
#define SORTBENCH_KEYS_8_16(X) SORTBENCH_KEYS_8(X) SORTBENCH_KEYS_16(X)
#define SORTBENCH_KEYS_32(X) X(std::uint32_t) X(std::int32_t) X(float)
#define SORTBENCH_KEYS_64(X) X(std::uint64_t) X(std::int64_t) X(double)

// A compile-time set of key types: a variant instantiates only the types it
// declares (VariantInfo::key_types), which keeps the build short.
template <KeyType... Ks> struct KeyTypeSet {};
namespace detail {
template <const auto& List, std::size_t... I>
KeyTypeSet<List[I]...> key_type_set(std::index_sequence<I...>);
}  // namespace detail
// Made from types.hpp's list (kWordKeyTypes, kAllKeyTypes).
using WordKeyTypes = decltype(detail::key_type_set<kWordKeyTypes>(std::make_index_sequence<kWordKeyTypes.size()>{}));
using AllKeyTypes = decltype(detail::key_type_set<kAllKeyTypes>(std::make_index_sequence<std::size(kAllKeyTypes)>{}));

namespace detail {
template <KeyType K, KeyType... Rest, class F>
decltype(auto) dispatch_key(KeyType k, F& f) {
  if constexpr (sizeof...(Rest) == 0) {
    return f(TypeTag<typename KeyTypeOf<K>::type>{});
  } else {
    if (k == K) return f(TypeTag<typename KeyTypeOf<K>::type>{});
    return dispatch_key<Rest...>(k, f);
  }
}
template <KeyType... Ks, class F>
decltype(auto) dispatch_in(KeyTypeSet<Ks...>, KeyType k, F& f) {
  if (((k != Ks) && ...))
    throw std::invalid_argument("key type " + to_string(k) + " is not instantiated by this variant");
  return dispatch_key<Ks...>(k, f);
}
}  // namespace detail

// Calls f(TypeTag<KeyT>{}) for the run-time key type, among the types of Set.
template <class Set, class F>
decltype(auto) with_key_type_in(KeyType k, F&& f) {
  return detail::dispatch_in(Set{}, k, f);
}
// The same over every key type.
template <class F>
decltype(auto) with_key_type(KeyType k, F&& f) {
  return with_key_type_in<AllKeyTypes>(k, f);
}

// Keys only: no value moves with a key.
struct NoValue {};
template <class V>
inline constexpr bool kHasValues = !std::is_same<V, NoValue>::value;

// Calls f(TypeTag<V>{}) with V = NoValue, std::uint32_t or std::uint64_t.
template <class F>
decltype(auto) with_value_type(ValueType v, F&& f) {
  if (v == ValueType::u32) return f(TypeTag<std::uint32_t>{});
  if (v == ValueType::u64) return f(TypeTag<std::uint64_t>{});
  return f(TypeTag<NoValue>{});
}

// The unsigned word of a key width: what the radix kernels move.
template <std::size_t Bytes> struct BitsOfSize;
template <> struct BitsOfSize<1> { using type = std::uint8_t; };
template <> struct BitsOfSize<2> { using type = std::uint16_t; };
template <> struct BitsOfSize<4> { using type = std::uint32_t; };
template <> struct BitsOfSize<8> { using type = std::uint64_t; };

// Calls f(TypeTag<Bits>{}) with the unsigned word of the key type's width.
template <class F>
decltype(auto) with_key_bits(KeyType k, F&& f) {
  switch (key_bytes(k)) {
    case 1: return f(TypeTag<std::uint8_t>{});
    case 2: return f(TypeTag<std::uint16_t>{});
    case 4: return f(TypeTag<std::uint32_t>{});
    default: break;
  }
  return f(TypeTag<std::uint64_t>{});
}

}  // namespace sortbench
