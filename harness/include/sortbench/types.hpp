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

enum class KeyType { u32, i32, f32, u64, i64, f64 };
enum class ValueType { none, u32 };
enum class Order { ascending, descending };

inline constexpr KeyType kAllKeyTypes[] = {KeyType::u32, KeyType::i32, KeyType::f32,
                                           KeyType::u64, KeyType::i64, KeyType::f64};

std::size_t key_bytes(KeyType k);
std::size_t value_bytes(ValueType v);
bool is_float(KeyType k);
std::string to_string(KeyType k);
std::string to_string(ValueType v);
std::string to_string(Order o);
std::optional<KeyType> parse_key_type(const std::string& s);
std::optional<ValueType> parse_value_type(const std::string& s);
std::optional<Order> parse_order(const std::string& s);

// A key distribution. Names (see README "Distributions"):
//   uniform, entropy:<bits per bit>, sorted, reverse, nearly_sorted,
//   few_unique:<k>, zipf:<exponent>, normal, file:<path>
enum class DistKind { uniform, entropy, sorted, reverse, nearly_sorted, few_unique, zipf, normal, file };

struct Distribution {
  DistKind kind = DistKind::uniform;
  // entropy: how many uniform words are AND-ed (0..4), or -1 for all-equal (entropy 0).
  int and_count = 0;
  double entropy = 1.0;       // for the label
  std::uint64_t unique = 16;  // few_unique: distinct values
  double zipf_s = 1.0;        // zipf exponent (1.0 only for now, see README)
  std::string path;           // file

  std::string name() const;   // canonical, round-trips through parse_distribution
};

// Parses a distribution name; on failure returns nullopt and sets *why.
std::optional<Distribution> parse_distribution(const std::string& s, std::string* why);

// Bit entropy per bit for k AND-ed words (k = 0..4) as CCCL's benchmarks name them.
const std::vector<std::pair<int, double>>& entropy_levels();

}  // namespace sortbench
