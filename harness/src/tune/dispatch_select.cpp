// Which variant sortbench::sort uses: best.json lookup (host code, CPU-tested).
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>

#include "sortbench/config.hpp"
#include "sortbench/files.hpp"
#include "sortbench/json_read.hpp"
#include "sortbench/best_json.hpp"
#include "sortbench/tune.hpp"

namespace sortbench::detail {

namespace {
// best.json at `path`, parsed, with its schema and version checked (ConfigError).
nlohmann::json read_best_json_header(const std::string& path) {
  files::check_input(path, path, "best.json");
  nlohmann::json doc = parse_json_text(read_text_file(path, "best.json"), path);
  const JsonAt j(doc, path);
  if (!doc.is_object() || doc.value("schema", nlohmann::json()) != "sortbench-best")
    throw ConfigError(path + ": not a sortbench best.json (expected \"schema\": \"sortbench-best\")");
  const JsonAt version = j["schema_version"];
  if (!version.value().is_number_integer() || version.value().get<std::int64_t>() < 1 ||
      version.value().get<std::int64_t>() > 3)
    version.fail("1, 2 or 3 (a best.json schema version this build reads)");
  j["gpu_model"].string();
  return doc;
}
}  // namespace

std::string best_json_path(const std::string& explicit_path, const std::string& gpu_model) {
  if (!explicit_path.empty()) return explicit_path;
  if (const char* p = std::getenv("SORTBENCH_BEST_JSON"); p && *p) return p;
  if (const char* dir = std::getenv("SORTBENCH_RESULTS_DIR"); dir && *dir)
    return std::string(dir) + "/" + gpu_model + "/best.json";
  const std::string local = "results/" + gpu_model + "/best.json";
  std::error_code ec;
  if (std::filesystem::exists(local, ec)) return local;
  // An installed binary reads <prefix>/share/sortbench/results/.
  if (const std::string share = files::installed_data_dir(); !share.empty()) {
    const std::string installed = share + "/results/" + gpu_model + "/best.json";
    if (std::filesystem::exists(installed, ec)) return installed;
  }
  return local;
}

namespace {

// best.json's entry at `path` for this problem; not found when the file is
// missing, unreadable or for another GPU model.
tune::BestChoice tuned_choice(const std::string& path, const std::string& gpu_model, KeyType key, ValueType value,
                              Order order, std::size_t n, InputClass input,
                              const std::function<bool(const std::string&)>& usable = {}) {
  // Parsed once per version of the file: a file rewritten in place (a new
  // tune, a test writing another entry) is read again.
  // The document is shared, not borrowed: `usable` runs variants' own checks,
  // which must not run under the cache's lock.
  struct Parsed {
    std::filesystem::file_time_type mtime;
    std::uintmax_t size = 0;
    std::shared_ptr<const nlohmann::json> doc;
  };
  static std::mutex mu;
  static std::map<std::string, Parsed> loaded;
  std::shared_ptr<const nlohmann::json> doc;
  {
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
      it = loaded.insert_or_assign(path, Parsed{mtime, size, std::make_shared<const nlohmann::json>(std::move(j))})
               .first;
    }
    doc = it->second.doc;
  }
  const nlohmann::json& best = *doc;
  if (!best.is_object() || best.value("gpu_model", "") != gpu_model) return {};
  // The key type's entry, else one of another key type of the same width (the
  // radix kernels are per key width: i32 takes u32's pick).
  std::function<bool(const tune::BestChoice&)> accepts;
  if (usable) accepts = [&](const tune::BestChoice& c) { return usable(c.variant); };
  tune::BestChoice choice = tune::select_best(best, key, value, order, n, input, accepts);
  for (KeyType k : kAllKeyTypes)
    if (!choice.found && k != key && key_bytes(k) == key_bytes(key) && is_float(k) == is_float(key))
      choice = tune::select_best(best, k, value, order, n, input, accepts);
  return choice;
}

}  // namespace

void check_best_json(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::exists(std::filesystem::symlink_status(path, ec))) return;
  const auto mtime = std::filesystem::last_write_time(path, ec);
  const auto size = ec ? 0 : std::filesystem::file_size(path, ec);
  static std::mutex mu;
  static std::map<std::string, std::pair<std::filesystem::file_time_type, std::uintmax_t>> checked;
  std::lock_guard<std::mutex> lock(mu);
  if (auto it = checked.find(path); !ec && it != checked.end() && it->second == std::make_pair(mtime, size)) return;
  read_best_json_header(path);
  if (!ec) checked[path] = {mtime, size};
}

std::string tuned_label(const std::string& path, const std::string& gpu_model, KeyType key, ValueType value,
                        std::size_t n, InputClass input, Order order,
                        const std::function<bool(const std::string&)>& usable) {
  return tuned_choice(path, gpu_model, key, value, order, n, input, usable).variant;
}

std::string tuned_ours_label(const std::string& path, const std::string& gpu_model, KeyType key, ValueType value,
                             std::size_t n) {
  return tuned_choice(path, gpu_model, key, value, Order::ascending, n, InputClass::spread).ours;
}

}  // namespace sortbench::detail

namespace sortbench::tune {

nlohmann::json read_best_json(const std::string& path, const std::string& gpu_model) {
  std::error_code ec;
  if (!std::filesystem::exists(std::filesystem::symlink_status(path, ec))) return nullptr;
  // A file that is there is this run's choice of points: read it strictly.
  const nlohmann::json doc = detail::read_best_json_header(path);
  const JsonAt j(doc, path);
  if (j["gpu_model"].string() != gpu_model) return nullptr;
  const JsonAt entries = j["entries"];
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const JsonAt e = entries[i];
    e.object();
    if (!parse_key_type(e["key"].string())) e["key"].fail("a key type: one of " + key_type_names());
    if (!parse_value_type(e["value"].string())) e["value"].fail("a value type: one of " + value_type_names());
    if (e.has("order") && !parse_order(e["order"].string())) e["order"].fail("ascending or descending");
    if (e["n_min"].unsigned_integer() > e["n_max"].unsigned_integer()) e["n_max"].fail("n_max at least n_min");
    e["variant"].string();
    if (e.has("ours")) e["ours"].string();
    if (e.has("score")) e["score"].number();
    if (e.has("library")) e["library"].boolean();
    if (e.has("params")) e["params"].object();
    if (e.has("class") && !parse_input_class(e["class"].string()))
      e["class"].fail(input_class_names());
  }
  return doc;
}

InputClass class_of_distribution(const nlohmann::json& best, KeyType key, const std::string& distribution) {
  return measured_class(best, key, distribution).value_or(InputClass::spread);
}

std::optional<InputClass> measured_class(const nlohmann::json& best, KeyType key, const std::string& distribution) {
  if (!best.is_object() || !best.contains("entries") || !best["entries"].is_array()) return std::nullopt;
  // The key type's entries first: one distribution can fall in another class at another width.
  for (const bool same_key : {true, false})
    for (const auto& e : best["entries"])
      if (e.contains("class") && e.contains("distributions") && e["distributions"].is_array() &&
          (!same_key || e.value("key", "") == to_string(key)))
        for (const auto& d : e["distributions"])
          if (d.is_string() && d.get<std::string>() == distribution)
            if (auto c = parse_input_class(e.value("class", ""))) return *c;
  return std::nullopt;
}

std::vector<const VariantInfo*> resolve_best_selectors(const std::vector<std::string>& family_globs,
                                                       const Workload& w, const nlohmann::json& best,
                                                       const Registry& r, std::optional<InputClass> keys_class) {
  std::vector<const VariantInfo*> out;
  // The entry for the key type, else for another key type of the same width
  // (f64 and i64 take u64's pick: the radix kernels are per key width).
  const InputClass input =
      measured_class(best, w.key, w.dist.name()).value_or(keys_class.value_or(InputClass::spread));
  // Only entries whose best of ours can sort w by what it declares: a pick
  // past its cap (radix.two_digit_msd_local_lsd's buckets x slab) gives way
  // to the nearest size's pick, as in a dispatch; a pick of another key type
  // that w's types are not declared for (f32 pairs and u32's
  // radix.onesweep_packed_pairs) to the family's default.
  const Problem p{w.key, w.value, w.order, w.n};
  auto declared_for_w = [&](const BestChoice& c) {
    const VariantInfo* v = r.find(c.ours);
    return v && v->declared_skip_reason(p).empty();
  };
  BestChoice choice = select_best(best, w.key, w.value, w.order, w.n, input, declared_for_w);
  for (KeyType k : kAllKeyTypes)
    if (!choice.found && key_bytes(k) == key_bytes(w.key))
      choice = select_best(best, k, w.value, w.order, w.n, input, declared_for_w);
  const VariantInfo* tuned = choice.found ? r.find(choice.ours) : nullptr;
  for (const auto& family : r.default_families()) {
    bool wanted = false;
    for (const auto& g : family_globs) wanted = wanted || glob_match(g, family);
    if (!wanted) continue;
    const VariantInfo* v = tuned && tuned->family == family ? tuned : r.family_default(family);
    if (std::find(out.begin(), out.end(), v) == out.end()) out.push_back(v);
  }
  return out;
}

}  // namespace sortbench::tune
