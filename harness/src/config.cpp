#include "sortbench/config.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

namespace sortbench {

using nlohmann::json;

namespace {

[[noreturn]] void fail(const std::string& where, const std::string& what) {
  throw ConfigError(where + ": " + what);
}

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t");
  if (b == std::string::npos) return {};
  return s.substr(b, s.find_last_not_of(" \t") - b + 1);
}

bool all_digits(const std::string& s) {
  return !s.empty() && s.find_first_not_of("0123456789") == std::string::npos;
}

// The largest size a sweep takes: what a signed 64-bit count holds.
constexpr std::uint64_t kMaxSize = std::uint64_t(std::numeric_limits<std::int64_t>::max());
const char* const kMaxSizeText = "2^63-1";

std::uint64_t checked_u64(const std::string& digits, const std::string& where, const std::string& token) {
  errno = 0;
  const unsigned long long v = std::strtoull(digits.c_str(), nullptr, 10);
  if (errno != 0 || v > kMaxSize) fail(where, "size '" + token + "' is too large; expected at most " + kMaxSizeText);
  return v;
}

}  // namespace

std::size_t parse_size(const std::string& raw, const std::string& where) {
  const std::string t = trim(raw);
  const std::string expected = "expected a non-negative whole number of keys such as 65536, 2^16, 5e6 or 1Mi";
  if (t.empty()) fail(where, "empty size; " + expected);
  if (t[0] == '-') fail(where, "size '" + t + "' is negative; " + expected);
  if (const auto caret = t.find('^'); caret != std::string::npos) {
    const std::string b = t.substr(0, caret), e = t.substr(caret + 1);
    if (!all_digits(b) || !all_digits(e)) fail(where, "size '" + t + "' is not a number; " + expected);
    // Exact integer powers, checked against the limit at every step.
    const std::uint64_t base = checked_u64(b, where, t), exp = checked_u64(e, where, t);
    std::uint64_t v = 1;
    for (std::uint64_t k = 0; k < exp && v != 0; ++k) {
      if (base != 0 && v > kMaxSize / base) fail(where, "size '" + t + "' is too large; expected at most " + kMaxSizeText);
      v *= base;
      if (base <= 1) break;
    }
    if (base == 0 && exp > 0) v = 0;
    return std::size_t(v);
  }
  for (const auto& [suffix, mult] : {std::pair<const char*, std::size_t>{"Ki", 1ull << 10},
                                     {"Mi", 1ull << 20}, {"Gi", 1ull << 30}}) {
    const std::string suf = suffix;
    if (t.size() > suf.size() && t.compare(t.size() - suf.size(), suf.size(), suf) == 0) {
      const std::string d = t.substr(0, t.size() - suf.size());
      if (!all_digits(d)) fail(where, "size '" + t + "' is not a number; " + expected);
      const std::uint64_t v = checked_u64(d, where, t);
      if (v > kMaxSize / mult) fail(where, "size '" + t + "' is too large; expected at most " + kMaxSizeText);
      return std::size_t(v * mult);
    }
  }
  if (all_digits(t)) return std::size_t(checked_u64(t, where, t));
  if (t.find_first_of("eE") != std::string::npos) {
    char* end = nullptr;
    const double v = std::strtod(t.c_str(), &end);
    if (*end == '\0' && v >= 0 && v == std::floor(v)) {
      // 2^63 is the first double past the limit; every double below it is exact here.
      if (v >= 9223372036854775808.0) fail(where, "size '" + t + "' is too large; expected at most " + kMaxSizeText);
      return std::size_t(v);
    }
  }
  fail(where, "size '" + t + "' is not a number; " + expected);
}

std::vector<std::size_t> parse_sizes(const std::string& spec, const std::string& where) {
  std::vector<std::size_t> out;
  // Ranges are counted before they are built: a typo such as 1:1e12:+1 is an
  // error, not an allocation of terabytes.
  auto room_for = [&](std::uint64_t count, const std::string& item) {
    if (count > kMaxSizesPerList || out.size() + count > kMaxSizesPerList)
      fail(where, "range '" + item + "' makes " + std::to_string(count) + " sizes; expected at most " +
                      std::to_string(kMaxSizesPerList) + " sizes in one list");
  };
  for (const auto& item : split_list(spec, where)) {
    const auto c1 = item.find(':');
    if (c1 == std::string::npos) {
      room_for(1, item);
      out.push_back(parse_size(item, where));
      continue;
    }
    const auto c2 = item.find(':', c1 + 1);
    if (c2 == std::string::npos) fail(where, "range '" + item + "' needs a step: A:B:xF or A:B:+D");
    const std::size_t a = parse_size(item.substr(0, c1), where);
    const std::size_t b = parse_size(item.substr(c1 + 1, c2 - c1 - 1), where);
    const std::string step = trim(item.substr(c2 + 1));
    if (a > b) fail(where, "range '" + item + "' runs backwards");
    if (step.size() < 2 || (step[0] != 'x' && step[0] != '+'))
      fail(where, "range '" + item + "' step must be xF (geometric) or +D (arithmetic)");
    const std::size_t s = parse_size(step.substr(1), where);
    if (step[0] == 'x') {
      if (s < 2) fail(where, "range '" + item + "' geometric factor must be at least 2");
      if (a == 0) fail(where, "range '" + item + "' geometric range cannot start at 0");
      std::uint64_t count = 0;
      for (std::uint64_t v = a; v <= b; v = v > b / s ? b + 1 : v * s) ++count;
      room_for(count, item);
      for (std::size_t v = a; v <= b; v *= s) {
        out.push_back(v);
        if (v > std::numeric_limits<std::size_t>::max() / s) break;
      }
    } else {
      if (s == 0) fail(where, "range '" + item + "' arithmetic step must be positive");
      room_for((b - a) / s + 1, item);
      for (std::size_t v = a; v <= b; v += s) out.push_back(v);
    }
  }
  return out;
}

std::vector<std::string> split_list(const std::string& s, const std::string& where) {
  if (trim(s).empty()) fail(where, "empty list");
  std::vector<std::string> out;
  for (std::size_t start = 0;;) {  // getline would drop an empty last item ("a,")
    const std::size_t comma = s.find(',', start);
    const std::string item = trim(s.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (item.empty()) fail(where, "empty item in list '" + s + "'");
    out.push_back(item);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

namespace {

// Reads `doc[key]` as an array of strings (a lone string is a one-item list).
std::vector<std::string> strings_at(const json& doc, const std::string& key, const std::string& path) {
  const json& v = doc.at(key);
  std::vector<std::string> out;
  if (v.is_string()) {
    out.push_back(v.get<std::string>());
    return out;
  }
  if (!v.is_array() || v.empty()) fail(path, "expected a non-empty array of strings");
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (!v[i].is_string()) fail(path + "[" + std::to_string(i) + "]", "expected a string");
    out.push_back(v[i].get<std::string>());
  }
  return out;
}

std::vector<std::size_t> sizes_at(const json& doc, const std::string& path) {
  const json& v = doc.at("sizes");
  std::vector<std::size_t> out;
  const json arr = v.is_array() ? v : json::array({v});
  if (arr.empty()) fail(path, "expected a non-empty array of sizes");
  for (std::size_t i = 0; i < arr.size(); ++i) {
    const std::string p = path + "[" + std::to_string(i) + "]";
    // JSON's -0 is an integer zero with a sign: a size of 0, not a negative one.
    if (arr[i].is_number_unsigned() || (arr[i].is_number_integer() && arr[i].get<std::int64_t>() == 0)) {
      if (arr[i].get<std::uint64_t>() > kMaxSize) fail(p, "size " + arr[i].dump() + " is too large; expected at most " + kMaxSizeText);
      if (out.size() >= kMaxSizesPerList) fail(p, "more than " + std::to_string(kMaxSizesPerList) + " sizes in one list");
      out.push_back(arr[i].get<std::size_t>());
    } else if (arr[i].is_number_integer()) {
      fail(p, "size " + arr[i].dump() + " is negative; expected a non-negative whole number");
    } else if (arr[i].is_string()) {
      for (auto n : parse_sizes(arr[i].get<std::string>(), p)) {
        if (out.size() >= kMaxSizesPerList) fail(p, "more than " + std::to_string(kMaxSizesPerList) + " sizes in one list");
        out.push_back(n);
      }
    } else {
      fail(p, "expected a size: a whole number or a string such as \"2^16:2^28:x4\"");
    }
  }
  return out;
}

template <class T, class Parse>
std::vector<T> parsed_at(const json& doc, const std::string& key, const std::string& path, Parse parse,
                         const std::string& expected) {
  std::vector<T> out;
  const auto items = strings_at(doc, key, path);
  for (std::size_t i = 0; i < items.size(); ++i) {
    auto v = parse(items[i]);
    if (!v) fail(path + "[" + std::to_string(i) + "]", "unknown value '" + items[i] + "'; expected " + expected);
    out.push_back(*v);
  }
  return out;
}

std::vector<Distribution> dists_at(const json& doc, const std::string& path) {
  std::vector<Distribution> out;
  const auto items = strings_at(doc, "distributions", path);
  for (std::size_t i = 0; i < items.size(); ++i) {
    std::string why;
    auto d = parse_distribution(items[i], &why);
    if (!d) fail(path + "[" + std::to_string(i) + "]", "unknown distribution '" + items[i] + "'; " + why);
    out.push_back(*d);
  }
  return out;
}


std::vector<int> gpus_at(const json& obj, const std::string& path) {
  const json& v = obj.at("gpus");
  if (!v.is_array() || v.empty()) fail(path, "expected a non-empty array of GPU ordinals, e.g. [0, 1]");
  std::vector<int> out;
  for (std::size_t i = 0; i < v.size(); ++i) {
    const std::string p = path + "[" + std::to_string(i) + "]";
    if (!v[i].is_number_integer() || v[i].get<std::int64_t>() < 0 || v[i].get<std::int64_t>() > 1023)
      fail(p, "expected a GPU ordinal: a whole number from 0 to 1023");
    const int d = int(v[i].get<std::uint64_t>());
    if (std::find(out.begin(), out.end(), d) != out.end()) fail(p, "GPU " + std::to_string(d) + " is named twice");
    out.push_back(d);
  }
  return out;
}

// Fills axes from the keys present in `obj`; others stay as in `axes`.
void read_axes(const json& obj, const std::string& path, SweepAxes& axes) {
  if (obj.contains("keys"))
    axes.keys = parsed_at<KeyType>(obj, "keys", path + ".keys", parse_key_type, "one of " + key_type_names());
  if (obj.contains("values"))
    axes.values = parsed_at<ValueType>(obj, "values", path + ".values", parse_value_type, "one of " + value_type_names());
  if (obj.contains("orders"))
    axes.orders = parsed_at<Order>(obj, "orders", path + ".orders", parse_order, "ascending or descending");
  if (obj.contains("sizes")) axes.sizes = sizes_at(obj, path + ".sizes");
  if (obj.contains("distributions")) axes.distributions = dists_at(obj, path + ".distributions");
  if (obj.contains("gpus")) axes.gpus = gpus_at(obj, path + ".gpus");
}

double number_at(const json& obj, const char* key, const std::string& path, double lo, double hi) {
  return number_in(obj.at(key), path, lo, hi);
}

}  // namespace

SweepConfig parse_config_json(const json& doc, const std::string& where) {
  if (!doc.is_object()) fail(where, "expected a JSON object at the top level");
  if (doc.contains("schema") && doc["schema"].is_string() && doc["schema"].get<std::string>().rfind("sortbench-", 0) == 0)
    fail(where, "is a " + doc["schema"].get<std::string>() + " file, not a sweep config" +
                    (doc["schema"] == "sortbench-report" ? " (the config it ran is at $.context.config)" : ""));
  // "source" is written into reports by config_to_json and ignored here.
  static const std::set<std::string> top = {"name", "description", "source", "variants", "baselines", "seed", "measure",
                                            "sweeps", "keys", "values", "orders", "sizes", "distributions", "gpus"};
  for (const auto& [k, v] : doc.items())
    if (!top.count(k)) fail(where + ": $." + k, "unknown field; expected one of name, description, variants, baselines, seed, measure, sweeps, keys, values, orders, sizes, distributions, gpus");
  SweepConfig c;
  c.source = where;
  const std::string root = where + ": $";
  if (doc.contains("name")) {
    if (!doc["name"].is_string() || doc["name"].get<std::string>().empty()) fail(root + ".name", "expected a non-empty string");
    c.name = doc["name"].get<std::string>();
    // It names report and cache files: no path separators, control characters
    // (a NUL would cut the file name short) or names of folders.
    const bool control = std::any_of(c.name.begin(), c.name.end(), [](char ch) {
      return static_cast<unsigned char>(ch) < 0x20 || ch == 0x7f;
    });
    if (control || c.name.find_first_of("/\\ ") != std::string::npos || c.name == "." || c.name == ".." ||
        c.name.size() > 200)
      fail(root + ".name", "expected a name without '/', '\\', spaces or control characters, at most 200 bytes, not '.' or '..'");
  }
  if (doc.contains("variants")) {
    c.variants = strings_at(doc, "variants", root + ".variants");
    for (std::size_t i = 0; i < c.variants.size(); ++i)
      if (is_best_selector(c.variants[i]) && best_selector_family(c.variants[i]).empty())
        fail(root + ".variants[" + std::to_string(i) + "]", "'best:' needs a family name or glob, e.g. best:radix or best:*");
  }
  if (doc.contains("baselines")) c.baselines = strings_at(doc, "baselines", root + ".baselines");
  if (doc.contains("seed")) {
    if (!doc["seed"].is_number_unsigned()) fail(root + ".seed", "expected a non-negative integer");
    c.seed = doc["seed"].get<std::uint64_t>();
  }
  if (doc.contains("measure")) {
    const json& m = doc["measure"];
    const std::string mp = root + ".measure";
    if (!m.is_object()) fail(mp, "expected an object");
    for (const auto& [k, v] : m.items()) {
      const std::string p = mp + "." + k;
      if (k == "warmup_runs") c.measure.warmup_runs = int(whole_number_in(v, p, 1, 1000));
      else if (k == "min_samples") c.measure.min_samples = int(whole_number_in(v, p, 2, 1e6));
      else if (k == "max_samples") c.measure.max_samples = int(whole_number_in(v, p, 2, 1e7));
      else if (k == "max_rel_stderr") c.measure.max_rel_stderr = number_at(m, "max_rel_stderr", p, 0, 1);
      else if (k == "budget_s") c.measure.budget_s = number_at(m, "budget_s", p, 0.001, 3600);
      else if (k == "throttle_ratio") c.measure.throttle_ratio = number_at(m, "throttle_ratio", p, 0, 1);
      else if (k == "energy_window_s") c.measure.energy_window_s = number_at(m, "energy_window_s", p, 0, 600);
      else if (k == "cold_l2") {
        if (!v.is_boolean()) fail(p, "expected true or false");
        c.measure.cold_l2 = v.get<bool>();
      } else {
        fail(p, "unknown field; expected warmup_runs, min_samples, max_samples, max_rel_stderr, budget_s, throttle_ratio, "
                "energy_window_s or cold_l2");
      }
    }
    if (c.measure.max_samples < c.measure.min_samples) fail(mp + ".max_samples", "must be at least min_samples");
  }
  SweepAxes defaults;
  read_axes(doc, root, defaults);
  if (doc.contains("sweeps")) {
    const json& s = doc["sweeps"];
    if (!s.is_array() || s.empty()) fail(root + ".sweeps", "expected a non-empty array of objects");
    for (std::size_t i = 0; i < s.size(); ++i) {
      const std::string p = root + ".sweeps[" + std::to_string(i) + "]";
      if (!s[i].is_object()) fail(p, "expected an object with keys, values, orders, sizes, distributions, gpus");
      for (const auto& [k, v] : s[i].items())
        if (k != "keys" && k != "values" && k != "orders" && k != "sizes" && k != "distributions" && k != "gpus")
          fail(p + "." + k, "unknown field; expected keys, values, orders, sizes, distributions or gpus");
      SweepAxes a = defaults;
      read_axes(s[i], p, a);
      c.sweeps.push_back(a);
    }
  } else {
    c.sweeps.push_back(defaults);
  }
  for (std::size_t i = 0; i < c.sweeps.size(); ++i) {
    const std::string p = doc.contains("sweeps") ? root + ".sweeps[" + std::to_string(i) + "]" : root;
    if (c.sweeps[i].sizes.empty()) fail(p + ".sizes", "missing: no sizes given");
    if (c.sweeps[i].distributions.empty()) fail(p + ".distributions", "missing: no distributions given");
  }
  return c;
}

json parse_json_text(const std::string& text, const std::string& where) {
  // nlohmann keeps the last of two equal keys in an object without a word: a
  // config with "sizes" twice would sweep the second list. Every key is
  // checked against its object's earlier ones as the parser meets it.
  struct Frame {
    bool array = false;
    std::size_t index = 0;
    std::string key;
    std::set<std::string> keys;
  };
  std::vector<Frame> frames;
  auto element_done = [&] {
    if (!frames.empty() && frames.back().array) ++frames.back().index;
  };
  auto at = [&](std::size_t upto) {
    std::string path = "$";
    for (std::size_t i = 0; i < upto; ++i)
      path += frames[i].array ? "[" + std::to_string(frames[i].index) + "]" : "." + frames[i].key;
    return path;
  };
  const json::parser_callback_t unique_keys = [&](int, json::parse_event_t event, json& parsed) {
    switch (event) {
      case json::parse_event_t::object_start:
      case json::parse_event_t::array_start:
        frames.push_back({event == json::parse_event_t::array_start, 0, {}, {}});
        break;
      case json::parse_event_t::object_end:
      case json::parse_event_t::array_end:
        frames.pop_back();
        element_done();
        break;
      case json::parse_event_t::key: {
        Frame& f = frames.back();
        f.key = parsed.get<std::string>();
        if (!f.keys.insert(f.key).second)
          fail(where, at(frames.size()) + ": the key \"" + f.key + "\" appears twice in one object; expected each key once");
        break;
      }
      case json::parse_event_t::value:
        element_done();
        break;
    }
    return true;
  };
  try {
    return json::parse(text, unique_keys);
  } catch (const json::exception& e) {
    // nlohmann's message carries line and column; its "[json.exception...]"
    // prefix is not for users.
    std::string what = e.what();
    const auto bracket = what.find("] ");
    if (what.rfind("[json.exception", 0) == 0 && bracket != std::string::npos) what = what.substr(bracket + 2);
    fail(where, "malformed JSON: " + what);
  }
}

std::string read_text_file(const std::string& path, const std::string& what) {
  std::ifstream in(path, std::ios::binary);
  if (!in) fail(path, "cannot open the " + what);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

SweepConfig parse_config(const std::string& text, const std::string& where) {
  return parse_config_json(parse_json_text(text, where), where);
}

std::vector<std::string> check_key_files(const SweepConfig& c, const std::string& where) {
  std::vector<std::string> paths;
  for (const auto& s : c.sweeps)
    for (const auto& d : s.distributions) {
      if (d.kind != DistKind::file) continue;
      const std::string at = where + ": file:" + d.path;
      struct stat st {};
      if (::stat(d.path.c_str(), &st) != 0) fail(at, std::string("cannot open the key file: ") + std::strerror(errno));
      if (S_ISDIR(st.st_mode)) fail(at, "is a folder; expected a file of raw keys");
      if (!S_ISREG(st.st_mode)) fail(at, "is not a regular file; expected a file of raw keys");
      if (::access(d.path.c_str(), R_OK) != 0) fail(at, std::string("cannot read the key file: ") + std::strerror(errno));
      if (st.st_size == 0) fail(at, "is empty; expected raw little-endian keys");
      std::size_t largest = 0;
      for (auto n : s.sizes) largest = std::max(largest, n);
      for (KeyType k : s.keys) {
        const std::size_t bytes = std::size_t(st.st_size), kb = key_bytes(k);
        if (bytes % kb)
          fail(at, std::to_string(bytes) + " bytes are not a whole number of " + to_string(k) + " keys (" +
                       std::to_string(kb) + " bytes each)");
        if (bytes / kb < largest)
          fail(at, "holds " + std::to_string(bytes / kb) + " " + to_string(k) + " keys; the sweep's largest size needs " +
                       std::to_string(largest));
      }
      if (std::find(paths.begin(), paths.end(), d.path) == paths.end()) paths.push_back(d.path);
    }
  return paths;
}

double number_in(const json& v, const std::string& path, double lo, double hi) {
  if (!v.is_number()) fail(path, "expected a number");
  const double d = v.get<double>();
  if (!(d >= lo && d <= hi)) {
    std::ostringstream os;
    os << "expected a number from " << lo << " to " << hi << ", got " << v.dump();
    fail(path, os.str());
  }
  return d;
}

double whole_number_in(const json& v, const std::string& path, double lo, double hi) {
  const double d = number_in(v, path, lo, hi);
  if (d != std::floor(d)) {
    std::ostringstream os;
    os << "expected a whole number from " << lo << " to " << hi << ", got " << v.dump();
    fail(path, os.str());
  }
  return d;
}

std::string gpu_list_text(const std::vector<int>& gpus) {
  std::string s;
  for (std::size_t i = 0; i < gpus.size(); ++i) s += (i ? "," : "") + std::to_string(gpus[i]);
  return s;
}

std::vector<int> parse_gpu_list(const std::string& spec, const std::string& where) {
  std::vector<int> out;
  for (const auto& item : split_list(spec, where)) {
    if (item.empty() || item.size() > 4 || item.find_first_not_of("0123456789") != std::string::npos ||
        std::stoi(item) > 1023)
      fail(where, "'" + item + "' is not a GPU ordinal; expected CUDA ordinals from 0 to 1023, e.g. 0,1");
    const int d = std::stoi(item);
    if (std::find(out.begin(), out.end(), d) != out.end()) fail(where, "GPU " + item + " is named twice");
    out.push_back(d);
  }
  return out;
}

bool is_best_selector(const std::string& v) { return v.rfind(kBestPrefix, 0) == 0; }
std::string best_selector_family(const std::string& v) { return v.substr(std::string(kBestPrefix).size()); }

std::vector<Workload> expand_workloads(const SweepConfig& c, std::size_t* repeats) {
  std::vector<Workload> out;
  std::set<std::string> seen;
  std::size_t dropped = 0;
  for (const auto& s : c.sweeps)
    for (auto k : s.keys)
      for (auto val : s.values)
        for (auto o : s.orders)
          for (const auto& d : s.distributions)
            for (auto n : s.sizes) {
              std::string id = to_string(k) + "|" + to_string(val) + "|" + to_string(o) + "|" + d.name() +
                               "|" + std::to_string(n) + "|";
              for (int g : s.gpus) id += std::to_string(g) + ",";
              if (!seen.insert(id).second) {
                ++dropped;
                continue;
              }
              out.push_back({k, val, o, n, d, c.seed, s.gpus});
            }
  if (repeats) *repeats = dropped;
  return out;
}

SweepConfig load_config_file(const std::string& path) {
  return parse_config(read_text_file(path, "config file"), path);
}

json config_to_json(const SweepConfig& c) {
  json j;
  j["name"] = c.name;
  j["source"] = c.source;
  j["variants"] = c.variants;
  j["baselines"] = c.baselines;
  j["seed"] = c.seed;
  j["measure"] = {{"warmup_runs", c.measure.warmup_runs},   {"min_samples", c.measure.min_samples},
                  {"max_samples", c.measure.max_samples},   {"max_rel_stderr", c.measure.max_rel_stderr},
                  {"budget_s", c.measure.budget_s},         {"throttle_ratio", c.measure.throttle_ratio},
                  {"energy_window_s", c.measure.energy_window_s}, {"cold_l2", c.measure.cold_l2}};
  j["sweeps"] = json::array();
  for (const auto& a : c.sweeps) {
    json s;
    for (auto k : a.keys) s["keys"].push_back(to_string(k));
    for (auto v : a.values) s["values"].push_back(to_string(v));
    for (auto o : a.orders) s["orders"].push_back(to_string(o));
    s["sizes"] = a.sizes;
    for (const auto& d : a.distributions) s["distributions"].push_back(d.name());
    if (!a.gpus.empty()) s["gpus"] = a.gpus;
    j["sweeps"].push_back(s);
  }
  return j;
}

}  // namespace sortbench
