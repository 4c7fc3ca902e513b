// Workload vocabulary shared by host and device code: key and value types,
// sort order, and distributions. No CUDA and no JSON here, so the CPU-only
// tests and every variant file can include it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace sortbench {

// Key types by width; f16 is IEEE binary16 (__half), bf16 is bfloat16
// (__nv_bfloat16). Values are the original index of each key (u32 or u64).
enum class KeyType { u8, i8, u16, i16, f16, bf16, u32, i32, f32, u64, i64, f64 };
enum class ValueType { none, u32, u64 };
enum class Order { ascending, descending };

inline constexpr KeyType kAllKeyTypes[] = {KeyType::u8,  KeyType::i8,  KeyType::u16, KeyType::i16,
                                           KeyType::f16, KeyType::bf16, KeyType::u32, KeyType::i32,
                                           KeyType::f32, KeyType::u64, KeyType::i64, KeyType::f64};
// The 32- and 64-bit types: what a variant takes unless it declares more.
inline constexpr KeyType kWordKeyTypes[] = {KeyType::u32, KeyType::i32, KeyType::f32,
                                            KeyType::u64, KeyType::i64, KeyType::f64};
inline constexpr ValueType kAllValueTypes[] = {ValueType::none, ValueType::u32, ValueType::u64};

std::size_t key_bytes(KeyType k);
std::size_t value_bytes(ValueType v);
bool is_float(KeyType k);
bool is_signed_integer(KeyType k);
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
