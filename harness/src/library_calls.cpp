// The table of library calls by key type (sortbench/library_calls.hpp).
#include "sortbench/library_calls.hpp"

#include <map>
#include <mutex>
#include <set>
#include <stdexcept>
#include <utility>

namespace sortbench::library_calls {
namespace {

struct Table {
  std::mutex mu;
  std::vector<LibraryCallGroup> groups;
  std::map<std::pair<std::string, KeyType>, InstanceFactory> calls;
  std::map<std::pair<std::string, KeyType>, std::string> failed;  // by group
  std::set<std::pair<std::string, KeyType>> pending;              // by group
};

// Function-local: static initializers of any translation unit may run first.
Table& table() {
  static Table t;
  return t;
}

const LibraryCallGroup* group_of_locked(Table& t, const std::string& label) {
  for (const auto& g : t.groups)
    for (const auto& l : g.labels)
      if (l == label) return &g;
  return nullptr;
}

}  // namespace

void declare_group(LibraryCallGroup g) {
  Table& t = table();
  std::lock_guard<std::mutex> lock(t.mu);
  t.groups.push_back(std::move(g));
}

const std::vector<LibraryCallGroup>& groups() { return table().groups; }

const LibraryCallGroup* group_of(const std::string& label) {
  Table& t = table();
  std::lock_guard<std::mutex> lock(t.mu);
  return group_of_locked(t, label);
}

InstanceFactory find(const std::string& label, KeyType k) {
  Table& t = table();
  std::lock_guard<std::mutex> lock(t.mu);
  const auto it = t.calls.find({label, k});
  return it == t.calls.end() ? nullptr : it->second;
}

std::size_t count() {
  Table& t = table();
  std::lock_guard<std::mutex> lock(t.mu);
  return t.calls.size();
}

std::string missing(const std::string& label, KeyType k) {
  Table& t = table();
  std::lock_guard<std::mutex> lock(t.mu);
  if (t.calls.count({label, k})) return {};
  const LibraryCallGroup* g = group_of_locked(t, label);
  if (!g) return label + " for " + to_string(k) + " keys is not in this build";
  if (const auto f = t.failed.find({g->name, k}); f != t.failed.end()) return f->second;
  if (t.pending.count({g->name, k})) return {};
  return label + " for " + to_string(k) + " keys is built on demand (" + g->header +
         "), before a sweep that names it; nothing has built it in this process";
}

std::unique_ptr<Instance> make(const std::string& label, const Problem& p) {
  if (InstanceFactory f = find(label, p.key)) return f(p);
  const std::string why = missing(label, p.key);
  throw std::runtime_error(why.empty() ? label + " for " + to_string(p.key) + " keys: a dry run's plan, not built"
                                       : why);
}

VariantInfo made_from_table(VariantInfo v) {
  const std::string label = v.label;
  v.unsupported = [label](const Problem& p) { return missing(label, p.key); };
  v.make = [label](const Problem& p) { return make(label, p); };
  return v;
}

void mark_pending(const std::string& group, KeyType k) {
  Table& t = table();
  std::lock_guard<std::mutex> lock(t.mu);
  t.pending.insert({group, k});
}

void mark_failed(const std::string& group, KeyType k, const std::string& reason) {
  Table& t = table();
  std::lock_guard<std::mutex> lock(t.mu);
  t.pending.erase({group, k});
  t.failed[{group, k}] = reason;
}

}  // namespace sortbench::library_calls

extern "C" void sortbench_add_library_call_v2(const char* label, int key_type, sortbench::InstanceFactory make) {
  using namespace sortbench::library_calls;
  Table& t = table();
  std::lock_guard<std::mutex> lock(t.mu);
  // Static initialization: nothing may throw. The first instantiation stays.
  t.calls.emplace(std::make_pair(std::string(label), static_cast<sortbench::KeyType>(key_type)), make);
}
