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
#include <type_traits>

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

template <class T, class Bits>
struct UnsignedKeyTraits {
  using Key = T;
  using UnsignedBits = Bits;
  static constexpr int kBits = int(sizeof(T) * 8);
  SORTBENCH_HD static Bits to_bits(T k) { return bit_copy<T, Bits>(k); }
  SORTBENCH_HD static T from_bits(Bits b) { return bit_copy<Bits, T>(b); }
  SORTBENCH_HD static Bits ordered(T k) { return to_bits(k); }
  // Inverse of ordered() (for floats, ordered(+0.0) maps back to +0.0).
  SORTBENCH_HD static T from_ordered(Bits b) { return from_bits(b); }
};

template <class T, class Bits>
struct SignedKeyTraits : UnsignedKeyTraits<T, Bits> {
  static constexpr Bits kSign = Bits(1) << (sizeof(T) * 8 - 1);
  SORTBENCH_HD static Bits ordered(T k) { return bit_copy<T, Bits>(k) ^ kSign; }
  SORTBENCH_HD static T from_ordered(Bits b) { return bit_copy<Bits, T>(b ^ kSign); }
};

template <class T, class Bits>
struct FloatKeyTraits : UnsignedKeyTraits<T, Bits> {
  static constexpr Bits kSign = Bits(1) << (sizeof(T) * 8 - 1);
  SORTBENCH_HD static Bits ordered(T k) {
    Bits b = bit_copy<T, Bits>(k);
    if (b == kSign) b = 0;  // -0.0 sorts as +0.0, as in CUB
    return (b & kSign) ? Bits(~b) : Bits(b ^ kSign);
  }
  SORTBENCH_HD static T from_ordered(Bits b) {
    return bit_copy<Bits, T>((b & kSign) ? Bits(b ^ kSign) : Bits(~b));
  }
};

template <> struct KeyTraits<std::uint32_t> : UnsignedKeyTraits<std::uint32_t, std::uint32_t> {};
template <> struct KeyTraits<std::uint64_t> : UnsignedKeyTraits<std::uint64_t, std::uint64_t> {};
template <> struct KeyTraits<std::int32_t> : SignedKeyTraits<std::int32_t, std::uint32_t> {};
template <> struct KeyTraits<std::int64_t> : SignedKeyTraits<std::int64_t, std::uint64_t> {};
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
template <> struct KeyTypeOf<KeyType::u32> { using type = std::uint32_t; };
template <> struct KeyTypeOf<KeyType::i32> { using type = std::int32_t; };
template <> struct KeyTypeOf<KeyType::f32> { using type = float; };
template <> struct KeyTypeOf<KeyType::u64> { using type = std::uint64_t; };
template <> struct KeyTypeOf<KeyType::i64> { using type = std::int64_t; };
template <> struct KeyTypeOf<KeyType::f64> { using type = double; };

template <class T> struct TypeTag { using type = T; };

// Calls f(TypeTag<KeyT>{}) for the run-time key type.
template <class F>
decltype(auto) with_key_type(KeyType k, F&& f) {
  switch (k) {
    case KeyType::u32: return f(TypeTag<std::uint32_t>{});
    case KeyType::i32: return f(TypeTag<std::int32_t>{});
    case KeyType::f32: return f(TypeTag<float>{});
    case KeyType::u64: return f(TypeTag<std::uint64_t>{});
    case KeyType::i64: return f(TypeTag<std::int64_t>{});
    case KeyType::f64: break;
  }
  return f(TypeTag<double>{});
}

}  // namespace sortbench
