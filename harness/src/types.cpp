#include "sortbench/types.hpp"

#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <sstream>

namespace sortbench {

std::size_t value_bytes(ValueType v) {
  switch (v) {
    case ValueType::none: return 0;
    case ValueType::u32: return 4;
    case ValueType::u64: return 8;
  }
  return 0;
}
std::string to_string(KeyType k) {
  switch (k) {
#define SORTBENCH_KEY_NAME(name, cpp, bytes, kind) \
  case KeyType::name:                               \
    return #name;
    SORTBENCH_KEY_TYPES(SORTBENCH_KEY_NAME)
#undef SORTBENCH_KEY_NAME
  }
  return "?";
}
std::string to_string(ValueType v) {
  switch (v) {
    case ValueType::none: return "none";
    case ValueType::u32: return "u32";
    case ValueType::u64: return "u64";
  }
  return "?";
}
std::string to_string(Order o) { return o == Order::descending ? "descending" : "ascending"; }

std::optional<KeyType> parse_key_type(const std::string& s) {
  for (KeyType k : kAllKeyTypes)
    if (to_string(k) == s) return k;
  return std::nullopt;
}
std::optional<ValueType> parse_value_type(const std::string& s) {
  for (ValueType v : kAllValueTypes)
    if (to_string(v) == s) return v;
  return std::nullopt;
}
std::optional<Order> parse_order(const std::string& s) {
  if (s == "ascending") return Order::ascending;
  if (s == "descending") return Order::descending;
  return std::nullopt;
}

std::string key_type_names() {
  std::string out;
  for (KeyType k : kAllKeyTypes) out += (out.empty() ? "" : ", ") + to_string(k);
  return out;
}
std::string value_type_names() {
  std::string out;
  for (ValueType v : kAllValueTypes) out += (out.empty() ? "" : ", ") + to_string(v);
  return out;
}

const std::vector<std::pair<int, double>>& entropy_levels() {
  // AND-ing k+1 uniform words leaves each bit set with probability 2^-(k+1).
  static const std::vector<std::pair<int, double>> levels = {
      {0, 1.0}, {1, 0.811}, {2, 0.544}, {3, 0.337}, {4, 0.201}, {-1, 0.0}};
  return levels;
}

namespace {
std::string fmt_entropy(double e) {
  std::ostringstream os;
  if (e == 0.0) return "0.0";
  if (e == 1.0) return "1.0";
  os << e;
  return os.str();
}
bool parse_u64(const std::string& s, std::uint64_t* out) {
  if (s.empty() || s.find_first_not_of("0123456789") != std::string::npos) return false;
  errno = 0;
  *out = std::strtoull(s.c_str(), nullptr, 10);
  return errno == 0;
}
// An integer in [-2^63, 2^64 - 1], exactly.
bool parse_wide_int(const std::string& s, __int128* out) {
  const bool neg = !s.empty() && s[0] == '-';
  std::uint64_t mag = 0;
  if (!parse_u64(neg ? s.substr(1) : s, &mag)) return false;
  if (neg && mag > (std::uint64_t(1) << 63)) return false;
  *out = neg ? -__int128(mag) : __int128(mag);
  return true;
}
bool parse_finite(const std::string& s, double* out) {
  if (s.empty()) return false;
  char* end = nullptr;
  errno = 0;
  *out = std::strtod(s.c_str(), &end);
  return *end == '\0' && errno == 0 && std::isfinite(*out);
}
std::string fmt_number(double x) {
  std::ostringstream os;
  os << x;
  return os.str();
}
// "A:B" split at its first colon; false without one.
bool split_pair(const std::string& s, std::string* a, std::string* b) {
  const auto c = s.find(':');
  if (c == std::string::npos) return false;
  *a = s.substr(0, c);
  *b = s.substr(c + 1);
  return true;
}
}  // namespace

std::string Distribution::name() const {
  switch (kind) {
    case DistKind::uniform: return "uniform";
    case DistKind::entropy: return "entropy:" + fmt_entropy(entropy);
    case DistKind::sorted: return "sorted";
    case DistKind::reverse: return "reverse";
    case DistKind::nearly_sorted: return "nearly_sorted";
    case DistKind::few_unique: return "few_unique:" + std::to_string(unique);
    case DistKind::zipf: return "zipf";
    case DistKind::normal: return "normal";
    case DistKind::range: return "range:" + range_lo_text + ":" + range_hi_text;
    case DistKind::low_bits: return "low_bits:" + std::to_string(low_bits);
    case DistKind::timestamps: return "timestamps:" + std::to_string(gap) + ":" + std::to_string(window);
    case DistKind::hot_buckets: return "hot_buckets:" + fmt_number(hot_fraction) + ":" + std::to_string(hot_count);
    case DistKind::runs: return "runs:" + std::to_string(runs);
    case DistKind::file: return "file:" + path;
  }
  return "?";
}

std::optional<Distribution> parse_distribution(const std::string& s, std::string* why) {
  Distribution d;
  const auto colon = s.find(':');
  const std::string head = s.substr(0, colon);
  const std::string arg = colon == std::string::npos ? "" : s.substr(colon + 1);
  auto fail = [&](const std::string& w) -> std::optional<Distribution> {
    if (why) *why = w;
    return std::nullopt;
  };
  auto no_arg = [&](DistKind k) -> std::optional<Distribution> {
    if (colon != std::string::npos) return fail("'" + head + "' takes no argument");
    d.kind = k;
    return d;
  };
  if (head == "uniform") return no_arg(DistKind::uniform);
  if (head == "sorted") return no_arg(DistKind::sorted);
  if (head == "reverse") return no_arg(DistKind::reverse);
  if (head == "nearly_sorted") return no_arg(DistKind::nearly_sorted);
  if (head == "zipf") return no_arg(DistKind::zipf);
  if (head == "normal") return no_arg(DistKind::normal);
  if (head == "entropy") {
    char* end = nullptr;
    const double e = std::strtod(arg.c_str(), &end);
    if (arg.empty() || *end != '\0') return fail("entropy needs a number, e.g. entropy:0.544");
    for (const auto& [k, level] : entropy_levels()) {
      if (std::fabs(level - e) < 5e-4) {
        d.kind = DistKind::entropy;
        d.and_count = k;
        d.entropy = level;
        return d;
      }
    }
    return fail("entropy must be one of 1.0, 0.811, 0.544, 0.337, 0.201, 0.0");
  }
  if (head == "few_unique") {
    std::uint64_t k = 0;
    if (!parse_u64(arg, &k) || k == 0) return fail("few_unique needs a positive count, e.g. few_unique:16");
    d.kind = DistKind::few_unique;
    d.unique = k;
    return d;
  }
  if (head == "range") {
    std::string lo, hi;
    if (!split_pair(arg, &lo, &hi) || !parse_finite(lo, &d.range_lo) || !parse_finite(hi, &d.range_hi))
      return fail("range needs two numbers, range:LO:HI (keys in [LO, HI)), e.g. range:0:1000000");
    if (!(d.range_lo < d.range_hi)) return fail("range:LO:HI needs LO < HI (keys in [LO, HI))");
    __int128 ilo = 0, ihi = 0;
    d.range_integers = parse_wide_int(lo, &ilo) && parse_wide_int(hi, &ihi);
    if (d.range_integers) {
      if (ilo >= ihi) return fail("range:LO:HI needs LO < HI (keys in [LO, HI))");
      if (ihi - ilo > __int128(~std::uint64_t(0))) return fail("range:LO:HI spans at most 2^64 - 1 integers");
      d.range_lo_int = ilo;
      d.range_span = std::uint64_t(ihi - ilo);
    }
    d.kind = DistKind::range;
    d.range_lo_text = lo;
    d.range_hi_text = hi;
    return d;
  }
  if (head == "low_bits") {
    std::uint64_t b = 0;
    if (!parse_u64(arg, &b) || b < 1 || b > 64)
      return fail("low_bits needs the number of low bits that vary, 1 to 64, e.g. low_bits:32");
    d.kind = DistKind::low_bits;
    d.low_bits = int(b);
    return d;
  }
  if (head == "timestamps") {
    d.kind = DistKind::timestamps;
    if (colon == std::string::npos) return d;
    std::string g, w;
    if (!split_pair(arg, &g, &w) || !parse_u64(g, &d.gap) || !parse_u64(w, &d.window) || d.gap == 0 ||
        d.gap > (std::uint64_t(1) << 32) || d.window == 0 || d.window > (std::uint64_t(1) << 20) ||
        (d.window & (d.window - 1)))
      return fail("timestamps takes GAP:WINDOW, a mean gap of 1 to 2^32 and a window of a power of 2 up to 2^20 "
                  "keys, e.g. timestamps:8:64");
    return d;
  }
  if (head == "hot_buckets") {
    std::string f, c;
    if (!split_pair(arg, &f, &c) || !parse_finite(f, &d.hot_fraction) || !parse_u64(c, &d.hot_count) ||
        d.hot_fraction < 0 || d.hot_fraction > 1 || d.hot_count < 1 || d.hot_count > 65536)
      return fail("hot_buckets takes FRACTION:COUNT, a fraction in [0, 1] of keys in COUNT (1 to 65536) buckets of "
                  "their top 16 bits, e.g. hot_buckets:0.9:16");
    d.kind = DistKind::hot_buckets;
    return d;
  }
  if (head == "runs") {
    if (!parse_u64(arg, &d.runs) || d.runs == 0) return fail("runs needs a positive number of runs, e.g. runs:64");
    d.kind = DistKind::runs;
    return d;
  }
  if (head == "file") {
    if (arg.empty()) return fail("file needs a path, e.g. file:keys.bin");
    d.kind = DistKind::file;
    d.path = arg;
    return d;
  }
  return fail("expected uniform, entropy:<e>, sorted, reverse, nearly_sorted, few_unique:<k>, zipf, normal, "
              "range:<lo>:<hi>, low_bits:<b>, timestamps[:<gap>:<window>], hot_buckets:<fraction>:<count>, "
              "runs:<r> or file:<path>");
}

}  // namespace sortbench
