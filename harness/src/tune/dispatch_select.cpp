// Which variant sortbench::sort uses: best.json lookup (host code, CPU-tested).
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>

#include "sortbench/sort.hpp"
#include "sortbench/tune.hpp"

namespace sortbench::detail {

std::string tuned_label(const std::string& path, const std::string& gpu_model, KeyType key, ValueType value,
                        std::size_t n) {
  // Parsed once per version of the file: a file rewritten in place (a new
  // tune, a test writing another entry) is read again.
  struct Parsed {
    std::filesystem::file_time_type mtime;
    std::uintmax_t size = 0;
    nlohmann::json doc;
  };
  static std::mutex mu;
  static std::map<std::string, Parsed> loaded;
  std::lock_guard<std::mutex> lock(mu);
  std::error_code ec;
  const auto mtime = std::filesystem::last_write_time(path, ec);
  const auto size = ec ? 0 : std::filesystem::file_size(path, ec);
  if (ec) return {};  // no file: no tuning
  auto it = loaded.find(path);
  if (it == loaded.end() || it->second.mtime != mtime || it->second.size != size) {
    nlohmann::json j;
    std::ifstream in(path);
    try {
      in >> j;
    } catch (const std::exception&) {
      j = nlohmann::json();  // unreadable: no tuning
    }
    it = loaded.insert_or_assign(path, Parsed{mtime, size, std::move(j)}).first;
  }
  const nlohmann::json& best = it->second.doc;
  if (!best.is_object() || best.value("gpu_model", "") != gpu_model) return {};
  return tune::select_best(best, key, value, Order::ascending, n).variant;
}

}  // namespace sortbench::detail
