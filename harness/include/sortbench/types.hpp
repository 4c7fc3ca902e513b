// Workload vocabulary shared by host and device code: key and value types,
// sort order, and distributions. No CUDA and no JSON here, so the CPU-only
// tests and every variant file can include it.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace sortbench {

// Every key type, once, by width: X(name, C++ type, bytes, kind). The enum,
// the names, widths and kinds below, KeyTypeOf and the type sets variants
// instantiate (device/key_traits.cuh), sortbench::sort's type mapping
// (sort.hpp) and the help text are made from it, and a CPU test checks the
// JSON Schemas' enums against it; what really differs for a new type is its
// ordered-bits map (KeyTraits, device/key_traits.cuh) and its generator
// (harness/src/device/generate.cu). f16 is IEEE binary16 (__half), bf16 is
// bfloat16 (__nv_bfloat16): the C++ type is spelled only where a header that
// has it expands the list. Values are the original index of each key.
#define SORTBENCH_KEY_TYPES(X)               \
  X(u8, std::uint8_t, 1, unsigned_integer)   \
  X(i8, std::int8_t, 1, signed_integer)      \
  X(u16, std::uint16_t, 2, unsigned_integer) \
  X(i16, std::int16_t, 2, signed_integer)    \
  X(f16, __half, 2, floating)                \
  X(bf16, __nv_bfloat16, 2, floating)        \
  X(u32, std::uint32_t, 4, unsigned_integer) \
  X(i32, std::int32_t, 4, signed_integer)    \
  X(f32, float, 4, floating)                 \
  X(u64, std::uint64_t, 8, unsigned_integer) \
  X(i64, std::int64_t, 8, signed_integer)    \
  X(f64, double, 8, floating)

#define SORTBENCH_KEY_ENUMERATOR(name, cpp, bytes, kind) name,
enum class KeyType { SORTBENCH_KEY_TYPES(SORTBENCH_KEY_ENUMERATOR) };
#undef SORTBENCH_KEY_ENUMERATOR
enum class KeyClass { unsigned_integer, signed_integer, floating };
enum class ValueType { none, u32, u64 };
enum class Order { ascending, descending };

#define SORTBENCH_KEY_CONSTANT(name, cpp, bytes, kind) KeyType::name,
inline constexpr KeyType kAllKeyTypes[] = {SORTBENCH_KEY_TYPES(SORTBENCH_KEY_CONSTANT)};
#undef SORTBENCH_KEY_CONSTANT
inline constexpr ValueType kAllValueTypes[] = {ValueType::none, ValueType::u32, ValueType::u64};

constexpr std::size_t key_bytes(KeyType k) {
  switch (k) {
#define SORTBENCH_KEY_BYTES(name, cpp, bytes, kind) \
  case KeyType::name:                                \
    return bytes;
    SORTBENCH_KEY_TYPES(SORTBENCH_KEY_BYTES)
#undef SORTBENCH_KEY_BYTES
  }
  return 0;
}
constexpr KeyClass key_class(KeyType k) {
  switch (k) {
#define SORTBENCH_KEY_CLASS(name, cpp, bytes, kind) \
  case KeyType::name:                                \
    return KeyClass::kind;
    SORTBENCH_KEY_TYPES(SORTBENCH_KEY_CLASS)
#undef SORTBENCH_KEY_CLASS
  }
  return KeyClass::unsigned_integer;
}
constexpr bool is_float(KeyType k) { return key_class(k) == KeyClass::floating; }
constexpr bool is_signed_integer(KeyType k) { return key_class(k) == KeyClass::signed_integer; }

// The 32- and 64-bit types: what a variant takes unless it declares more.
inline constexpr std::size_t kWordKeyTypeCount = [] {
  std::size_t c = 0;
  for (KeyType k : kAllKeyTypes) c += key_bytes(k) >= 4;
  return c;
}();
inline constexpr std::array<KeyType, kWordKeyTypeCount> kWordKeyTypes = [] {
  std::array<KeyType, kWordKeyTypeCount> a{};
  std::size_t i = 0;
  for (KeyType k : kAllKeyTypes)
    if (key_bytes(k) >= 4) a[i++] = k;
  return a;
}();

std::size_t value_bytes(ValueType v);
std::string to_string(KeyType k);
std::string to_string(ValueType v);
std::string to_string(Order o);
std::optional<KeyType> parse_key_type(const std::string& s);
std::optional<ValueType> parse_value_type(const std::string& s);
std::optional<Order> parse_order(const std::string& s);
// "u8, i8, ..., f64" and "none, u32, u64": the names in error messages.
std::string key_type_names();
std::string value_type_names();

// A key distribution. Names (see README "Distributions"):
//   uniform, entropy:<bits per bit>, sorted, reverse, nearly_sorted,
//   few_unique:<k>, zipf, normal, range:<lo>:<hi>, low_bits:<b>,
//   timestamps[:<gap>:<window>], hot_buckets:<fraction>:<count>, runs:<r>,
//   file:<path>
enum class DistKind {
  uniform, entropy, sorted, reverse, nearly_sorted, few_unique, zipf, normal,
  range, low_bits, timestamps, hot_buckets, runs, file
};

struct Distribution {
  DistKind kind = DistKind::uniform;
  // entropy: how many uniform words are AND-ed (0..4), or -1 for all-equal (entropy 0).
  int and_count = 0;
  double entropy = 1.0;       // for the label
  std::uint64_t unique = 16;  // few_unique: distinct values
  double zipf_s = 1.0;        // zipf exponent (1.0 only for now, see README)
  std::string path;           // file
  // range: [lo, hi) as written; integer bounds also exactly (range_integers).
  std::string range_lo_text, range_hi_text;
  double range_lo = 0, range_hi = 0;
  bool range_integers = false;
  __int128 range_lo_int = 0;        // when range_integers: lo, and hi - lo (at most 2^64 - 1)
  std::uint64_t range_span = 0;
  int low_bits = 0;                 // low_bits: the bits that vary (1..64)
  std::uint64_t gap = 8;            // timestamps: mean gap between consecutive stamps
  std::uint64_t window = 64;        // timestamps: stamps shuffled within windows of this many keys (a power of 2)
  double hot_fraction = 0.9;        // hot_buckets: the share of keys in the hot buckets
  std::uint64_t hot_count = 16;     // hot_buckets: how many buckets of the top 16 bits are hot
  std::uint64_t runs = 1;           // runs: ascending runs

  std::string name() const;   // canonical, round-trips through parse_distribution
};

// Parses a distribution name; on failure returns nullopt and sets *why.
std::optional<Distribution> parse_distribution(const std::string& s, std::string* why);

// Bit entropy per bit for k AND-ed words (k = 0..4) as CCCL's benchmarks name them.
const std::vector<std::pair<int, double>>& entropy_levels();

}  // namespace sortbench
