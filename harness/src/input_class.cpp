#include "sortbench/input_class.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

namespace sortbench {

std::string to_string(InputClass c) {
  switch (c) {
    case InputClass::spread: return "spread";
    case InputClass::skewed: return "skewed";
    case InputClass::presorted: return "presorted";
    case InputClass::narrow: return "narrow";
  }
  return "?";
}

std::optional<InputClass> parse_input_class(const std::string& s) {
  for (InputClass c : kAllInputClasses)
    if (to_string(c) == s) return c;
  return std::nullopt;
}

std::string InputFeatures::summary() const {
  char buf[160];
  std::snprintf(buf, sizeof buf,
                "%s: top-16-bit repeats %.2f, ascending %.2f, descending %.2f, %d top bits shared, of %zu pairs",
                to_string(cls).c_str(), top16_repeats, ascending, descending, shared_top_bits, pairs);
  return buf;
}

InputFeatures classify_counts(const SampleCounts& c, std::size_t pairs, int key_bits) {
  InputFeatures f;
  f.pairs = pairs;
  if (pairs == 0) return f;
  // Uniform keys in B = 2^top_bits buckets leave B (1 - (1 - 1/B)^pairs) distinct.
  const double buckets = std::ldexp(1.0, std::min(16, key_bits));
  const double uniform_distinct = buckets * (1.0 - std::pow(1.0 - 1.0 / buckets, double(pairs)));
  f.ascending = double(c.ascending) / double(pairs);
  f.descending = double(c.descending) / double(pairs);
  f.top16_repeats = std::max(0.0, (uniform_distinct - double(c.distinct_tops)) / double(pairs));
  f.shared_top_bits = int(c.shared_top_bits);
  const double differ = f.ascending + f.descending;
  if (differ >= 0.5 && std::max(f.ascending, f.descending) >= 0.9 * differ) f.cls = InputClass::presorted;
  else if (f.shared_top_bits >= 8) f.cls = InputClass::narrow;
  else if (f.top16_repeats >= 0.1) f.cls = InputClass::skewed;
  return f;
}

InputFeatures input_features(const std::uint64_t* pairs, std::size_t count, int key_bits) {
  SampleCounts c;
  const int top_bits = std::min(16, key_bits);
  std::vector<std::uint32_t> tops(count);
  std::uint64_t all_and = ~std::uint64_t(0), all_or = 0;
  for (std::size_t j = 0; j < count; ++j) {
    const std::uint64_t a = pairs[2 * j], b = pairs[2 * j + 1];
    c.ascending += a < b;
    c.descending += a > b;
    tops[j] = std::uint32_t(a >> (key_bits - top_bits));
    all_and &= a;
    all_or |= a;
  }
  c.shared_top_bits = shared_leading_bits(all_and, all_or, key_bits);
  std::sort(tops.begin(), tops.end());
  c.distinct_tops = std::uint32_t(std::unique(tops.begin(), tops.end()) - tops.begin());
  return classify_counts(c, count, key_bits);
}

}  // namespace sortbench
