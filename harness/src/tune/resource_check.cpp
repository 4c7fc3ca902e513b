// Pruning from the compiled kernels: a point whose kernels cannot keep a block
// resident on an SM is recorded skipped with the kernel and the limit, before
// anything runs.
#include <algorithm>

#include "sortbench/tune.hpp"

namespace sortbench::tune {

using nlohmann::json;

std::vector<KernelResources> compiled_variant_resources(const VariantInfo& v, const Problem& p) {
  if (v.host || !v.make) return {};
  const auto instance = v.make(p);
  return compiled_resources(*instance);
}

KernelResourceCheck::KernelResourceCheck(SmLimits sm, ResourceProvider provider)
    : sm_(std::move(sm)), provider_(std::move(provider)) {}

std::string KernelResourceCheck::operator()(const VariantInfo& v, const Problem& p) {
  std::vector<KernelResources> kernels;
  try {
    kernels = provider_(v, p);
  } catch (const std::exception& e) {
    return std::string("its kernels' resources could not be read: ") + e.what();
  }
  if (kernels.empty()) {
    if (std::find(undeclared_.begin(), undeclared_.end(), v.label) == undeclared_.end()) undeclared_.push_back(v.label);
    return {};
  }
  // Groups check their sizes in ascending order: the largest checked size's
  // kernels are the ones kept.
  const std::string problem = to_string(p.key) + "/" + to_string(p.value) + (p.order == Order::descending ? " desc" : "");
  json list = json::array();
  std::string why;
  for (const auto& k : kernels) {
    list.push_back(to_json(k, residency(sm_, k)));
    if (why.empty()) why = resource_reason(sm_, k);
  }
  points_[v.label][problem] = list;
  return why;
}

json KernelResourceCheck::report() const {
  return {{"sm", to_json(sm_)}, {"points", points_}, {"undeclared", undeclared_}};
}

}  // namespace sortbench::tune
