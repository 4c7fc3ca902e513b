#include "sortbench/input_class.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iterator>
#include <map>
#include <set>
#include <vector>

namespace sortbench {

std::string to_string(InputClass c) {
  switch (c) {
    case InputClass::spread: return "spread";
    case InputClass::skewed: return "skewed";
    case InputClass::presorted: return "presorted";
    case InputClass::narrow: return "narrow";
    case InputClass::clustered: return "clustered";
    case InputClass::few_distinct: return "few_distinct";
  }
  return "?";
}

std::string input_class_names() {
  std::string out;
  const std::size_t n = std::size(kAllInputClasses);
  for (std::size_t i = 0; i < n; ++i)
    out += (i == 0 ? "" : i + 1 == n ? " or " : ", ") + to_string(kAllInputClasses[i]);
  return out;
}

std::optional<InputClass> parse_input_class(const std::string& s) {
  for (InputClass c : kAllInputClasses)
    if (to_string(c) == s) return c;
  return std::nullopt;
}

std::string InputFeatures::summary() const {
  char buf[256];
  std::snprintf(buf, sizeof buf,
                "%s: top-16-bit repeats %.3f (uniform keys: %.3f at most), neighbours sharing them %.2f (keys "
                "from anywhere %.3f), distinct keys %.2f, ascending %.2f, descending %.2f, %d top bits "
                "shared, of %zu pairs",
                to_string(cls).c_str(), top16_repeats, uniform_margin, neighbours_share, anywhere_share, distinct_keys,
                ascending, descending, shared_top_bits, pairs);
  return buf;
}

UniformTops uniform_tops(std::size_t keys, int key_bits) {
  // m keys uniform over B buckets: D distinct, E[D] = B (1 - q^m) with
  // q = 1 - 1/B, Var[D] = B (B - 1) (1 - 2/B)^m + B q^m - B^2 q^2m.
  const double b = std::ldexp(1.0, std::min(16, key_bits)), m = double(keys);
  const double qm = std::exp(m * std::log1p(-1.0 / b)), q2m = std::exp(m * std::log1p(-2.0 / b));
  UniformTops u;
  u.distinct = b * (1.0 - qm);
  u.sd = std::sqrt(std::max(0.0, b * (b - 1.0) * q2m + b * qm - b * b * qm * qm));
  return u;
}

InputFeatures classify_counts(const SampleCounts& c, std::size_t pairs, int key_bits) {
  InputFeatures f;
  f.pairs = pairs;
  if (pairs == 0) return f;
  const std::size_t keys = 2 * pairs;
  const UniformTops u = uniform_tops(keys, key_bits);
  f.ascending = double(c.ascending) / double(pairs);
  f.descending = double(c.descending) / double(pairs);
  f.top16_repeats = std::max(0.0, (u.distinct - double(c.distinct_tops)) / double(keys));
  f.uniform_margin = kSkewedSds * u.sd / double(keys);
  f.neighbours_share = double(c.same_top_pairs) / double(pairs);
  f.anywhere_share = pairs > 1 ? double(c.first_same_pairs) / (double(pairs) * double(pairs - 1) / 2) : 0.0;
  f.shared_top_bits = int(c.shared_top_bits);
  f.distinct_keys = double(c.distinct_keys) / double(keys);
  const double differ = f.ascending + f.descending;
  if (differ >= 0.5 && std::max(f.ascending, f.descending) >= 0.9 * differ) f.cls = InputClass::presorted;
  else if (f.shared_top_bits >= 8) f.cls = InputClass::narrow;
  else if (f.neighbours_share >= kClusteredNeighbours &&
           f.neighbours_share >= kClusteredOverAnywhere * f.anywhere_share)
    f.cls = InputClass::clustered;
  else if (f.distinct_keys < kFewDistinctKeys) f.cls = InputClass::few_distinct;
  else if (f.top16_repeats > f.uniform_margin) f.cls = InputClass::skewed;
  return f;
}

InputFeatures input_features(const std::uint64_t* pairs, std::size_t count, int key_bits) {
  SampleCounts c;
  const int top_bits = std::min(16, key_bits);
  std::vector<std::uint32_t> tops(2 * count);
  std::uint64_t all_and = ~std::uint64_t(0), all_or = 0;
  for (std::size_t j = 0; j < count; ++j) {
    const std::uint64_t a = pairs[2 * j], b = pairs[2 * j + 1];
    c.ascending += a < b;
    c.descending += a > b;
    tops[2 * j] = std::uint32_t(a >> (key_bits - top_bits));
    tops[2 * j + 1] = std::uint32_t(b >> (key_bits - top_bits));
    c.same_top_pairs += tops[2 * j] == tops[2 * j + 1];
    all_and &= a;
    all_or |= a;
  }
  c.shared_top_bits = shared_leading_bits(all_and, all_or, key_bits);
  std::set<std::uint32_t> key_slots;
  for (std::size_t i = 0; i < 2 * count; ++i) key_slots.insert(key_slot(pairs[i]));
  c.distinct_keys = std::uint32_t(key_slots.size());
  std::map<std::uint32_t, std::uint32_t> first_count;
  for (std::size_t j = 0; j < count; ++j) c.first_same_pairs += first_count[tops[2 * j]]++;
  std::sort(tops.begin(), tops.end());
  c.distinct_tops = std::uint32_t(std::unique(tops.begin(), tops.end()) - tops.begin());
  return classify_counts(c, count, key_bits);
}

}  // namespace sortbench
