// The verdict on a sort across GPUs from every rank's PartSummary (host
// logic of validation; summarize_part makes the summaries on each GPU).
#include <algorithm>
#include <climits>

#include "sortbench/device.hpp"
#include "sortbench/distributed.hpp"
#include "sortbench/best_json.hpp"

namespace sortbench {

namespace {
Problem one_shard(const Problem& p) {
  Problem one = p;
  one.gpus = 1;
  one.n = shard_size(p.n, std::max(1, p.gpus), 0);
  return one;
}
}  // namespace

const VariantInfo* local_sort_variant(const Problem& p, const std::string& gpu_model) {
  const Registry& reg = Registry::instance();
  const Problem one = one_shard(p);
  if (!gpu_model.empty()) {
    const std::string path = detail::best_json_path("", gpu_model);
    auto usable = [&](std::size_t n) -> const VariantInfo* {
      const std::string label = detail::tuned_ours_label(path, gpu_model, p.key, p.value, n);
      const VariantInfo* v = label.empty() ? nullptr : reg.find(label);
      return v && v->family == "radix" && !v->host && !v->in_place && !v->distributed() && v->skip_reason(one).empty()
                 ? v
                 : nullptr;
    };
    // The shard's own pick; where it cannot sort the shard (a design capped
    // below it), the pick of the nearest size whose pick can, larger sizes
    // first: a tuned point of the same key and value type sorts at about the
    // speed of the tune, the family's default point for pairs 25 % slower
    // (two H200s, 2^27 u32 pairs a GPU).
    if (const VariantInfo* v = usable(one.n)) return v;
    for (int step = 1; step <= 8; ++step) {
      if (const VariantInfo* v = usable(one.n << step)) return v;
      if (const VariantInfo* v = usable(std::max<std::size_t>(1, one.n >> step))) return v;
    }
  }
  return reg.family_default("radix");
}

std::string local_sort_unavailable(const Problem& p, const std::string& gpu_model) {
  const VariantInfo* local = local_sort_variant(p, gpu_model);
  if (!local) return "no radix family default point in this build (the local sort)";
  // A shard, not all n keys: each GPU sorts its own.
  if (auto r = local->skip_reason(one_shard(p)); !r.empty()) return "the local sort " + local->label + ": " + r;
  return {};
}

Validation combine_parts(const Problem& p, const std::vector<PartSummary>& parts, bool check_stable) {
  Validation v;
  v.checked = true;
  const bool pairs = p.value != ValueType::none;
  v.stability_checked = pairs && check_stable;
  unsigned long long total = 0, first_unsorted = ULLONG_MAX, first_unstable = ULLONG_MAX, offset = 0;
  unsigned long long in[4] = {0, 0, 0, 0}, out[4] = {0, 0, 0, 0};
  const PartSummary* before = nullptr;  // the last non-empty part so far
  for (const PartSummary& part : parts) {
    total += part.n;
    for (int k = 0; k < 4; ++k) in[k] += part.in[k], out[k] += part.out[k];
    if (part.first_unsorted != ULLONG_MAX) first_unsorted = std::min(first_unsorted, offset + part.first_unsorted);
    if (part.first_unstable != ULLONG_MAX) first_unstable = std::min(first_unstable, offset + part.first_unstable);
    if (part.n && before) {
      if (before->last_bits > part.first_bits) first_unsorted = std::min(first_unsorted, offset);
      else if (v.stability_checked && before->last_bits == part.first_bits && before->last_value > part.first_value)
        first_unstable = std::min(first_unstable, offset);
    }
    if (part.n) before = &part;
    offset += part.n;
  }
  if (total != p.n) {
    v.message = "the parts hold " + std::to_string(total) + " keys in all, the input " + std::to_string(p.n);
    return v;
  }
  v.sorted = first_unsorted == ULLONG_MAX;
  v.stable = first_unstable == ULLONG_MAX;
  v.permutation = std::equal(in, in + 4, out);
  if (!v.sorted) {
    v.first_bad_index = std::int64_t(first_unsorted);
    v.message = "not sorted: key " + std::to_string(v.first_bad_index) + " is out of order (global position)";
  } else if (!v.permutation) {
    v.message = pairs ? "not a permutation: the (key, index) pairs of the parts differ from those of the shards"
                      : "not a permutation of the input keys (multiset hashes of the parts differ from the shards')";
  } else if (v.stability_checked && !v.stable) {
    v.first_bad_index = std::int64_t(first_unstable);
    v.message = "not stable: equal keys at global positions " + std::to_string(v.first_bad_index - 1) + " and " +
                std::to_string(v.first_bad_index) + " are out of input order";
  }
  return v;
}

}  // namespace sortbench
