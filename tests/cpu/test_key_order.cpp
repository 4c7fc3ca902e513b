// The run-time key order of the comparison sorts (RunTimeOrderedLess, one
// kernel per key width) is the compile-time order of each key type
// (KeyTraits::ordered, OrderedLess/OrderedGreater), both directions, on
// every key type: random bit patterns and the edges (zeros of both signs,
// infinities, NaNs of both signs, the extremes of every integer type).
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "sortbench/device/key_traits.cuh"

namespace sortbench {
namespace {

template <class Key>
void expect_same_order(KeyType type) {
  using Bits = typename KeyTraits<Key>::UnsignedBits;
  std::vector<Bits> patterns = {Bits(0), sign_bit<Bits>(), Bits(~Bits(0)), Bits(sign_bit<Bits>() - 1),
                                Bits(sign_bit<Bits>() + 1), Bits(1)};
  std::mt19937_64 rng(type == KeyType::f32 ? 7 : 11);
  for (int i = 0; i < 4000; ++i) patterns.push_back(Bits(rng()));
  for (bool descending : {false, true}) {
    const auto less = RunTimeOrderedLess<Bits>::of(key_kind(type), descending);
    for (Bits b : patterns) {
      const Key k = bit_copy<Bits, Key>(b);
      ASSERT_EQ(less.ordered(b), ordered_bits(k, descending))
          << to_string(type) << (descending ? " descending" : " ascending") << " bits " << std::uint64_t(b);
    }
    for (std::size_t i = 0; i + 1 < patterns.size(); ++i) {
      const Key a = bit_copy<Bits, Key>(patterns[i]), b = bit_copy<Bits, Key>(patterns[i + 1]);
      const bool want = descending ? OrderedGreater<Key>{}(a, b) : OrderedLess<Key>{}(a, b);
      ASSERT_EQ(less(patterns[i], patterns[i + 1]), want) << to_string(type);
    }
  }
}

TEST(KeyOrder, RunTimeOrderIsEveryKeyTypesOrder) {
  expect_same_order<std::uint8_t>(KeyType::u8);
  expect_same_order<std::int8_t>(KeyType::i8);
  expect_same_order<std::uint16_t>(KeyType::u16);
  expect_same_order<std::int16_t>(KeyType::i16);
  expect_same_order<__half>(KeyType::f16);
  expect_same_order<__nv_bfloat16>(KeyType::bf16);
  expect_same_order<std::uint32_t>(KeyType::u32);
  expect_same_order<std::int32_t>(KeyType::i32);
  expect_same_order<float>(KeyType::f32);
  expect_same_order<std::uint64_t>(KeyType::u64);
  expect_same_order<std::int64_t>(KeyType::i64);
  expect_same_order<double>(KeyType::f64);
}

TEST(KeyOrder, ZerosOfBothSignsAreEqualKeysOnlyForFloats) {
  const auto f = RunTimeOrderedLess<std::uint32_t>::of(KeyKind::floating, false);
  EXPECT_FALSE(f(0x80000000u, 0u));
  EXPECT_FALSE(f(0u, 0x80000000u));
  const auto i = RunTimeOrderedLess<std::uint32_t>::of(KeyKind::signed_int, false);
  EXPECT_TRUE(i(0x80000000u, 0u));  // INT32_MIN < 0
  const auto u = RunTimeOrderedLess<std::uint32_t>::of(KeyKind::unsigned_int, true);
  EXPECT_TRUE(u(0x80000000u, 0u));  // descending: the larger first
}

}  // namespace
}  // namespace sortbench
