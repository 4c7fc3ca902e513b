// Which variant sortbench::sort uses: best.json lookup (host code, CPU-tested).
#include <fstream>
#include <map>
#include <mutex>

#include "sortbench/sort.hpp"
#include "sortbench/tune.hpp"

namespace sortbench::detail {

std::string tuned_label(const std::string& path, const std::string& gpu_model, KeyType key, ValueType value,
                        std::size_t n) {
  // Parsed once per path; a missing or unreadable file means "no tuning".
  static std::mutex mu;
  static std::map<std::string, nlohmann::json> loaded;
  std::lock_guard<std::mutex> lock(mu);
  auto it = loaded.find(path);
  if (it == loaded.end()) {
    nlohmann::json j;
    std::ifstream in(path);
    if (in) {
      try {
        in >> j;
      } catch (const std::exception&) {
        j = nlohmann::json();
      }
    }
    it = loaded.emplace(path, j).first;
  }
  const nlohmann::json& best = it->second;
  if (!best.is_object() || best.value("gpu_model", "") != gpu_model) return {};
  return tune::select_best(best, key, value, Order::ascending, n).variant;
}

}  // namespace sortbench::detail
