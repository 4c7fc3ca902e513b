// On-demand points (sortbench/on_demand.hpp).
#include "sortbench/on_demand.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <mutex>
#include <set>
#include <sstream>
#include <thread>

#include "sortbench/build_info.hpp"
#include "sortbench/config.hpp"
#include "sortbench/files.hpp"
#include "sortbench/plugin.hpp"
#include "sortbench/stats.hpp"
#include "sortbench/worker.hpp"

extern char** environ;

namespace sortbench::on_demand {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

std::vector<std::string> split_words(const std::string& s) {
  std::istringstream in(s);
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

// The key widths of the key types, for the translation unit (deduplicated by width).
std::vector<KeyType> widths_of(const std::vector<KeyType>& keys) {
  std::vector<KeyType> out;
  std::set<std::size_t> seen;
  for (KeyType k : keys)
    if (seen.insert(key_bytes(k)).second) out.push_back(k);
  return out;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void write_file(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  if (!out) throw std::runtime_error("cannot write " + path);
}

// Writes `text` to `path` all or nothing (a temporary beside it, then a
// rename), so a process reading the cache meanwhile sees the old file or the new.
void publish(const std::string& path, const std::string& text) { files::write_atomically(path, "the on-demand cache", text); }

// Runs argv with stdout and stderr to `log_path`; the exit status.
int run_logged(const std::vector<std::string>& argv, const std::string& log_path) {
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 1, log_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&fa, 1, 2);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  const int rc = posix_spawn(&pid, args[0], &fa, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  if (rc != 0) return 127;
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

// The compiler's first error line, for a skip reason.
std::string first_error(const std::string& log) {
  std::istringstream in(log);
  std::string line, last;
  while (std::getline(in, line)) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    if (line.find("error") != std::string::npos) return line.substr(0, 400);
    last = line;
  }
  return last.empty() ? "the compiler failed without a message" : last.substr(0, 400);
}

// A SHA-256 over every header in these folders.
std::string hash_of_headers(const std::vector<std::string>& dirs) {
  std::string all;
  for (const auto& dir : dirs) {
    std::vector<fs::path> files;
    std::error_code ec;
    for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::recursive_directory_iterator();
         it.increment(ec)) {
      const std::string ext = it->path().extension().string();
      if (it->is_regular_file() && (ext == ".cuh" || ext == ".hpp" || ext == ".h")) files.push_back(it->path());
    }
    if (ec) throw ConfigError("on-demand points: cannot read the header folder " + dir + ": " + ec.message());
    std::sort(files.begin(), files.end());
    for (const auto& f : files) all += fs::relative(f, dir).string() + "\n" + sha256_file(f.string()) + "\n";
  }
  return sha256_text(all);
}

// Every header a point's translation unit can include: sortbench's own, once a run.
const std::string& headers_hash() {
  static const std::string h = hash_of_headers(include_dirs());
  return h;
}

const std::string& compiler_identity() {
  static const std::string id = [] {
    const std::string v = worker::command_output("'" + find_nvcc() + "' --version 2>&1");
    std::string last;
    std::istringstream in(v);
    for (std::string line; std::getline(in, line);)
      if (!line.empty()) last = line;
    return last.empty() ? std::string("unknown nvcc") : last;
  }();
  return id;
}

std::string identity_line(const std::string& label, const std::string& arch) {
  std::string flags;
  for (const auto& f : compile_flags(arch)) flags += (flags.empty() ? "" : " ") + f;
  std::string text = "on-demand " + label + "; " + compiler_identity() + "; " + flags;
  for (char& c : text)
    if (c == '"' || c == '\\') c = '\'';
  return "SORTBENCH_PLUGIN_IDENTITY(\"" + std::string(kOnDemandPluginName) + "\", \"" + arch + "\", \"" + text + "\");\n";
}

// The C++ spelling of a key type, for a library-call unit's macro.
std::string cpp_type_of(KeyType k) {
  switch (k) {
#define SORTBENCH_KEY_CPP(name, cpp, bytes, kind) \
  case KeyType::name:                              \
    return #cpp;
    SORTBENCH_KEY_TYPES(SORTBENCH_KEY_CPP)
#undef SORTBENCH_KEY_CPP
  }
  return "";
}

std::string full_source(const Planned& p, const PointTypes& types, const std::string& arch) {
  if (p.group)
    return "// Generated by sortbench: the library calls " + p.label + ".\n" + "#include \"sortbench/plugin.hpp\"\n" +
           "#include \"" + p.group->header + "\"\n" + p.group->macro + "(" + cpp_type_of(p.key) + ")\n" +
           identity_line(p.label, arch);
  return "// Generated by sortbench: the on-demand point " + p.label + ".\n" + "#include \"sortbench/plugin.hpp\"\n" +
         p.space->translation_unit(p.point, widths_of(types.keys)) + identity_line(p.label, arch);
}

// A plugin space's own header folders; none for library calls.
const std::vector<std::string>& space_dirs(const Planned& p) {
  static const std::vector<std::string> none;
  return p.space ? p.space->include_dirs : none;
}

// Whether a built unit added what it was built for.
bool unit_loaded(const Planned& p) {
  if (!p.group) {
    const VariantInfo* v = Registry::instance().find(p.label);
    return v && !v->plugin.empty();
  }
  for (const auto& l : p.group->labels)
    if (!library_calls::find(l, p.key)) return false;
  return true;
}

struct Entry {
  std::string so, meta, failed, source;
};
Entry entry_of(const std::string& dir, const std::string& key) {
  const std::string base = dir + "/" + key.substr(0, 32);
  return {base + ".so", base + ".json", base + ".failed", base + ".cu"};
}

// A complete entry: the library and its record, which names the library's hash.
bool cached_ok(const Entry& e, double* compile_s) {
  std::error_code ec;
  if (!fs::is_regular_file(e.so, ec) || !fs::is_regular_file(e.meta, ec)) return false;
  try {
    const json m = json::parse(read_file(e.meta));
    if (m.value("sha256", "") != sha256_file(e.so)) return false;
    *compile_s = m.value("compile_s", 0.0);
    return true;
  } catch (const std::exception&) {
    return false;
  }
}

void register_stub(const Planned& p, const std::string& reason, bool placeholder) {
  VariantInfo v;
  v.label = p.label;
  v.family = p.space->family;
  v.params = p.space->params(p.point);
  v.description = placeholder ? "on-demand point, built when the sweep runs" : "on-demand point that is not built: " + reason;
  v.seed = "-";
  v.key_types = {std::begin(kAllKeyTypes), std::end(kAllKeyTypes)};
  v.value_types = {std::begin(kAllValueTypes), std::end(kAllValueTypes)};
  v.descending = true;
  v.bytes_per_key = [](const Problem&) { return 0.0; };
  if (!placeholder) v.unsupported = [reason](const Problem&) { return reason; };
  const std::string label = p.label;
  v.make = [label, placeholder](const Problem&) -> std::unique_ptr<Instance> {
    throw std::runtime_error(label + (placeholder ? ": a dry run's placeholder" : ": not built"));
  };
  Registry::instance().add(std::move(v));
}

bool in_registry(const std::string& label) { return Registry::instance().find(label) != nullptr; }

// Registered by the binary or a plugin of the user's (a plugin's own points of
// its space), not by an on-demand build of an earlier run.
bool compiled_in(const std::string& label) {
  const VariantInfo* v = Registry::instance().find(label);
  if (!v) return false;
  if (v->plugin.empty()) return true;
  const LoadedPlugin* from = plugin_of(label);
  return from && from->name != kOnDemandPluginName;
}

// The binary holds the point, but not at every key type asked for: the lean
// build compiles a point only at the key widths best.json picks it for. Built
// on demand for all of them, the build replaces it (its placeholder stands
// in until then).
bool held_at_other_widths(const std::string& label, const PointTypes& types) {
  const VariantInfo* v = Registry::instance().find(label);
  return v && v->plugin.empty() &&
         std::any_of(types.keys.begin(), types.keys.end(), [&](KeyType k) { return !v->supports_key(k); });
}

}  // namespace

Limits limits_of(const SmLimits& sm) {
  return {sm.props.sharedMemPerBlockOptin, sm.props.sharedMemPerMultiprocessor, sm.props.maxThreadsPerMultiprocessor};
}

std::string arch_of(const SmLimits& sm) { return std::to_string(sm.props.computeMajor * 10 + sm.props.computeMinor); }

PointTypes point_types(const SweepConfig& c) {
  PointTypes t;
  for (const auto& s : c.sweeps) {
    for (KeyType k : s.keys)
      if (std::find(t.keys.begin(), t.keys.end(), k) == t.keys.end()) t.keys.push_back(k);
    for (ValueType v : s.values)
      if (std::find(t.values.begin(), t.values.end(), v) == t.values.end()) t.values.push_back(v);
  }
  return t;
}

Summary replace_placeholders_and_build(std::vector<Planned>& points, const PointTypes& types, const Limits& limits,
                                       const Settings& settings, std::ostream& log) {
  for (auto& p : points) {
    if (p.compiled_in || p.group) continue;
    Registry::instance().remove(p.label);
    p.pruned = p.space->why_not(p.point, types, limits.smem_per_block, limits.smem_per_sm, limits.threads_per_sm);
  }
  return build_and_load(points, types, settings, log);
}

std::string default_cache_dir() {
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return std::string(x) + "/sortbench/on-demand";
  if (const char* h = std::getenv("HOME"); h && *h) return std::string(h) + "/.cache/sortbench/on-demand";
  return ".cache/sortbench/on-demand";
}

std::string find_nvcc() {
  std::vector<std::string> tries;
  for (const char* var : {"SORTBENCH_NVCC", "CUDACXX"})
    if (const char* v = std::getenv(var); v && *v) tries.push_back(v);
  if (const char* path = std::getenv("PATH")) {
    std::istringstream in(path);
    for (std::string d; std::getline(in, d, ':');)
      if (!d.empty()) tries.push_back(d + "/nvcc");
  }
  tries.push_back("/usr/local/cuda/bin/nvcc");
  for (const auto& t : tries)
    if (::access(t.c_str(), X_OK) == 0) return t;
  throw ConfigError("on-demand points need nvcc: none in SORTBENCH_NVCC, CUDACXX, PATH or /usr/local/cuda/bin");
}

std::vector<std::string> include_dirs() {
  std::error_code ec;
  const fs::path exe_dir = fs::canonical("/proc/self/exe", ec).parent_path();
  // Installed: <prefix>/bin/sortbench beside <prefix>/include.
  const fs::path inc = exe_dir / ".." / "include";
  if (fs::is_regular_file(inc / "sortbench" / "variant.hpp", ec) && fs::is_directory(inc / "sortbench-variants", ec))
    return {fs::canonical(inc).string(), fs::canonical(inc / "sortbench-variants").string()};
  // A build folder inside (or beside) the source tree, or anywhere else: the
  // checkout the binary was built from.
  std::vector<fs::path> roots = {exe_dir / "..", exe_dir / ".." / "..", exe_dir};
  if (!build_info().source_dir.empty()) roots.push_back(build_info().source_dir);
  for (const fs::path& root : roots)
    if (fs::is_regular_file(root / "harness" / "include" / "sortbench" / "variant.hpp", ec) &&
        fs::is_directory(root / "variants", ec))
      return {fs::canonical(root / "harness" / "include").string(), fs::canonical(root / "variants").string()};
  throw ConfigError("on-demand points need the kernel headers: run an installed sortbench (cmake --install) or a "
                    "binary whose source tree (" + build_info().source_dir + ") is still there");
}

std::vector<std::string> compile_flags(const std::string& arch) {
  // The binary's own CUDA flags (build type and project flags), so a point
  // built here runs the code the same point compiled in runs.
  std::vector<std::string> f = {"-std=c++17"};
  for (const auto& w : split_words(build_info().cuda_flags)) f.push_back(w);
  f.push_back("--generate-code=arch=compute_" + arch + ",code=[compute_" + arch + ",sm_" + arch + "]");
  f.push_back("-Xcompiler=-fPIC");
  f.push_back("-shared");
  // As sortbench_add_plugin: the point's own definitions bind within it.
  f.push_back("-Xlinker=-Bsymbolic");
  return f;
}

std::string cache_key(const std::string& translation_unit, const std::string& arch,
                      const std::vector<std::string>& space_include_dirs) {
  std::string flags;
  for (const auto& f : compile_flags(arch)) flags += f + "\n";
  // A plugin's space: its own headers too (hashed once a run per set of folders).
  std::string space_headers;
  if (!space_include_dirs.empty()) {
    static std::mutex mu;
    static std::map<std::vector<std::string>, std::string> hashed;
    std::lock_guard<std::mutex> lock(mu);
    auto it = hashed.find(space_include_dirs);
    if (it == hashed.end()) it = hashed.emplace(space_include_dirs, hash_of_headers(space_include_dirs)).first;
    space_headers = "plugin headers " + it->second + "\n";
  }
  return sha256_text("sortbench on-demand entry 1\n" + translation_unit + "\n" + headers_hash() + "\n" +
                     space_headers + compiler_identity() + "\n" + flags + arch + "\n");
}

std::vector<Planned> plan_space(const std::vector<std::string>& patterns, const std::vector<tune::ParamFilter>& filters,
                                const PointTypes& types, const Limits& limits, const std::string& where,
                                std::size_t max_points) {
  std::vector<Planned> out;
  std::set<std::string> named;
  for (const auto& s : family_spaces()) {
    bool selected = false;
    for (const auto& pat : patterns) selected = selected || glob_match(pat, s.method + ".x");
    if (!selected) continue;
    bool has_all = true;
    for (const auto& f : filters) {
      bool has = false;
      for (const auto& a : s.axes) has = has || a.name == f.name;
      has_all = has_all && has;
      if (has) named.insert(f.name);
    }
    if (!has_all) continue;
    // The product of each axis's values that pass its filters.
    std::vector<std::vector<long long>> values;
    std::size_t count = 1;
    for (const auto& a : s.axes) {
      std::vector<long long> vs;
      for (long long v : a.values) {
        bool ok = true;
        for (const auto& f : filters)
          if (f.name == a.name) ok = ok && f.accepts({{a.name, a.abbrev, std::to_string(v)}});
        if (ok) vs.push_back(v);
      }
      count *= std::max<std::size_t>(1, vs.size());
      if (vs.empty() || count > max_points) {
        if (vs.empty()) count = 0;
        break;
      }
      values.push_back(std::move(vs));
    }
    if (count > max_points)
      throw ConfigError(where + ": the " + s.method + " space holds more than " + std::to_string(max_points) +
                        " points under these filters; narrow them");
    if (count == 0) continue;
    SpacePoint p(s.axes.size());
    std::vector<std::size_t> at(s.axes.size(), 0);
    while (true) {
      for (std::size_t i = 0; i < at.size(); ++i) p[i] = values[i][at[i]];
      Planned x{s.label(p), &s, p, s.why_not(p, types, limits.smem_per_block, limits.smem_per_sm, limits.threads_per_sm)};
      x.replaces = held_at_other_widths(x.label, types) && x.pruned.empty();
      x.compiled_in = compiled_in(x.label) && !x.replaces;
      out.push_back(std::move(x));
      std::size_t i = at.size();
      while (i > 0 && ++at[i - 1] == values[i - 1].size()) at[--i] = 0;
      if (i == 0) break;
    }
  }
  for (const auto& f : filters)
    if (!named.count(f.name))
      throw ConfigError(where + "." + f.name + ": no family space selected by the variants has a parameter '" + f.name +
                        "'");
  return out;
}

std::vector<Planned> plan_labels(const std::vector<std::string>& labels, const PointTypes& types, const Limits& limits) {
  std::vector<Planned> out;
  for (const auto& l : labels) {
    if (l.find_first_of("*?") != std::string::npos || (in_registry(l) && !held_at_other_widths(l, types))) continue;
    const FamilySpace* s = family_space_of(l);
    if (!s) continue;
    if (auto p = s->parse_label(l)) {
      Planned x{l, s, *p, s->why_not(*p, types, limits.smem_per_block, limits.smem_per_sm, limits.threads_per_sm)};
      x.replaces = in_registry(l);
      if (x.pruned.empty() || !x.replaces) out.push_back(std::move(x));
    }
  }
  return out;
}

std::vector<Planned> plan_library_calls(const std::vector<const VariantInfo*>& variants, const PointTypes& types) {
  std::vector<Planned> out;
  for (const VariantInfo* v : variants) {
    const LibraryCallGroup* g = library_calls::group_of(v->label);
    if (!g) continue;
    for (KeyType k : types.keys) {
      if (!v->supports_key(k) || library_calls::find(v->label, k)) continue;
      const std::string label = g->name + "." + to_string(k);
      if (std::none_of(out.begin(), out.end(), [&](const Planned& p) { return p.label == label; })) {
        Planned p;
        p.label = label;
        p.group = g;
        p.key = k;
        out.push_back(std::move(p));
      }
    }
  }
  return out;
}

void add_library_calls(const std::vector<const VariantInfo*>& variants, const PointTypes& types,
                       std::vector<Planned>& planned) {
  for (auto& p : plan_library_calls(variants, types)) {
    if (std::any_of(planned.begin(), planned.end(), [&](const Planned& q) { return q.label == p.label; })) continue;
    register_placeholders({p});
    planned.push_back(std::move(p));
  }
}

std::size_t Summary::count(const std::string& status) const {
  return std::size_t(std::count_if(points.begin(), points.end(), [&](const Outcome& o) { return o.status == status; }));
}

json Summary::to_json() const {
  json pts = json::array();
  double cpu = 0;
  for (const auto& o : points) {
    json j = {{"variant", o.label}, {"status", o.status}};
    if (!o.reason.empty()) j["reason"] = o.reason;
    if (!o.key.empty()) j["cache_key"] = o.key;
    if (o.status == "compiled" || o.status == "cached" || o.status == "failed") j["compile_s"] = o.compile_s;
    if (o.status == "compiled") cpu += o.compile_s;
    pts.push_back(j);
  }
  return {{"cache", cache_dir},       {"arch", arch},
          {"compiler", compiler},     {"flags", flags},
          {"jobs", jobs},             {"points", points.size()},
          {"compiled_in", count("compiled_in")}, {"cached", count("cached")},
          {"compiled", count("compiled")},       {"failed", count("failed")},
          {"pruned", count("pruned")},           {"compile_wall_s", wall_s},
          {"compile_cpu_s", cpu},     {"per_point", pts}};
}

std::string Summary::line() const {
  std::ostringstream s;
  s << "on-demand: " << points.size() << " points: " << count("compiled_in") << " compiled in, " << count("cached")
    << " cached, " << count("compiled") << " compiled, " << count("failed") << " failed to compile, " << count("pruned")
    << " pruned";
  if (const std::size_t n = count("to_compile")) s << ", " << n << " to compile";
  s << "; " << duration_text(wall_s) << " (" << jobs << " jobs, sm_" << arch << ", " << cache_dir << ")";
  return s.str();
}

Summary dry_plan(const std::vector<Planned>& points, const PointTypes& types, const Settings& settings) {
  Summary sum;
  sum.cache_dir = settings.cache_dir;
  sum.arch = settings.arch;
  sum.jobs = settings.jobs;
  std::string no_compiler;
  try {
    sum.compiler = compiler_identity();
  } catch (const ConfigError& e) {
    no_compiler = e.what();
  }
  for (const auto& p : points) {
    Outcome o{p.label, "", p.pruned};
    if (p.compiled_in) {
      o.status = "compiled_in";
    } else if (!p.pruned.empty()) {
      o.status = "pruned";
    } else if (!no_compiler.empty()) {
      o.status = "to_compile";
    } else {
      o.key = cache_key(full_source(p, types, settings.arch), settings.arch, space_dirs(p));
      double s = 0;
      const Entry e = entry_of(settings.cache_dir, o.key);
      std::error_code ec;
      o.status = cached_ok(e, &s) ? "cached" : fs::is_regular_file(e.failed, ec) ? "failed" : "to_compile";
      if (o.status == "failed") o.reason = read_file(e.failed);
    }
    sum.points.push_back(o);
  }
  return sum;
}

std::vector<double> recorded_compile_times(const std::string& cache_dir) {
  std::vector<double> out;
  std::error_code ec;
  for (fs::directory_iterator it(cache_dir, ec), end; !ec && it != end; it.increment(ec)) {
    if (it->path().extension() != ".json" || !it->is_regular_file(ec)) continue;
    try {
      const json m = json::parse(read_file(it->path().string()));
      const auto s = m.find("compile_s");
      if (s != m.end() && s->is_number() && s->get<double>() > 0) out.push_back(s->get<double>());
    } catch (const std::exception&) {
      // Not an entry's record (or a torn one): no time to learn from.
    }
  }
  return out;
}

void register_placeholders(const std::vector<Planned>& points) {
  for (const auto& p : points) {
    if (p.group) {
      library_calls::mark_pending(p.group->name, p.key);
      continue;
    }
    if (p.compiled_in || (in_registry(p.label) && !p.replaces)) continue;
    Registry::instance().remove(p.label);
    register_stub(p, p.pruned, p.pruned.empty());
  }
}

Summary build(const std::vector<Planned>& points, const PointTypes& types, const Settings& settings, std::ostream& log) {
  const auto t0 = std::chrono::steady_clock::now();
  Summary sum;
  sum.cache_dir = settings.cache_dir;
  sum.arch = settings.arch;
  sum.jobs = std::max(1u, settings.jobs);
  // The compiler and headers must be there before anything is planned to
  // compile. Where they are not, a point a label named is an error; library
  // calls a pattern swept (cub.*) are skipped with the reason instead.
  std::string nvcc, no_compiler;
  try {
    nvcc = find_nvcc();
    include_dirs();
    sum.compiler = compiler_identity();
  } catch (const ConfigError& e) {
    if (std::any_of(points.begin(), points.end(),
                    [](const Planned& p) { return !p.group && !p.compiled_in && p.pruned.empty(); }))
      throw;
    no_compiler = e.what();
  }
  for (const auto& f : compile_flags(settings.arch)) sum.flags += (sum.flags.empty() ? "" : " ") + f;
  struct Job {
    std::size_t index;
    std::string source, key;
    Entry entry;
  };
  std::vector<Job> jobs;
  sum.points.resize(points.size());
  bool cache_made = false;
  for (std::size_t i = 0; i < points.size(); ++i) {
    const Planned& p = points[i];
    Outcome& o = sum.points[i];
    o.label = p.label;
    if (p.compiled_in) {
      o.status = "compiled_in";
      continue;
    }
    if (!p.pruned.empty()) {
      o.status = "pruned";
      o.reason = p.pruned;
      continue;
    }
    if (!no_compiler.empty()) {
      o.status = "failed";
      o.reason = "not built: " + no_compiler;
      continue;
    }
    if (!cache_made) {
      std::error_code ec;
      fs::create_directories(settings.cache_dir, ec);
      if (!fs::is_directory(settings.cache_dir) || ::access(settings.cache_dir.c_str(), W_OK) != 0)
        throw ConfigError("--jit-cache: " + settings.cache_dir + ": not a folder this user can write");
      cache_made = true;
    }
    const std::string source = full_source(p, types, settings.arch);
    o.key = cache_key(source, settings.arch, space_dirs(p));
    const Entry e = entry_of(settings.cache_dir, o.key);
    std::error_code ec;
    if (cached_ok(e, &o.compile_s)) {
      o.status = "cached";
      o.plugin = e.so;
    } else if (fs::is_regular_file(e.failed, ec)) {
      o.status = "failed";
      o.reason = "on-demand build failed (cached): " + read_file(e.failed);
    } else {
      jobs.push_back({i, source, o.key, e});
    }
  }
  // Compile what the cache lacks, `jobs` at a time.
  if (!jobs.empty()) {
    const bool tty = ::isatty(2);
    std::mutex mu;
    std::atomic<std::size_t> next{0};
    std::size_t done = 0, failed = 0;
    const auto c0 = std::chrono::steady_clock::now();
    auto last_line = c0;
    log << "on-demand: compiling " << jobs.size() << " points with " << sum.jobs << " jobs into " << settings.cache_dir
        << "\n";
    auto worker = [&] {
      for (std::size_t j = next++; j < jobs.size(); j = next++) {
        const Job& job = jobs[j];
        Outcome& o = sum.points[job.index];
        const std::string tmp = settings.cache_dir + "/" + job.key.substr(0, 32) + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(j);
        const auto s0 = std::chrono::steady_clock::now();
        int rc = 127;
        std::string error;
        try {
          // A unit of host code is C++: nvcc hands a .cpp to the host compiler alone.
          const std::string ext = points[job.index].group && points[job.index].group->host_code ? ".cpp" : ".cu";
          write_file(tmp + ext, job.source);
          std::vector<std::string> argv = {nvcc};
          for (const auto& f : compile_flags(settings.arch)) argv.push_back(f);
          for (const auto& d : include_dirs()) argv.push_back("-I" + d);
          for (const auto& d : space_dirs(points[job.index])) argv.push_back("-I" + d);
          if (const LibraryCallGroup* g = points[job.index].group)
            argv.insert(argv.end(), g->extra_flags.begin(), g->extra_flags.end());
          argv.insert(argv.end(), {tmp + ext, "-o", tmp + ".so"});
          rc = run_logged(argv, tmp + ".log");
          o.compile_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - s0).count();
          if (rc == 0) {
            const json meta = {{"variant", o.label}, {"sha256", sha256_file(tmp + ".so")}, {"compile_s", o.compile_s},
                               {"arch", settings.arch}, {"compiler", sum.compiler}, {"flags", sum.flags}};
            if (std::rename((tmp + ".so").c_str(), job.entry.so.c_str()) != 0)
              throw std::runtime_error("cannot rename into " + job.entry.so);
            publish(job.entry.meta, meta.dump(1) + "\n");
            publish(job.entry.source, job.source);
            o.status = "compiled";
            o.plugin = job.entry.so;
          } else if (rc == 127) {
            // The compiler did not start: nothing about the point to remember.
            o.status = "failed";
            o.reason = "on-demand build failed: " + nvcc + " did not start";
          } else {
            error = first_error(read_file(tmp + ".log"));
            // Name the cache's copy of the source, not the temporary the compiler saw.
            for (std::size_t at; (at = error.find(tmp + ext)) != std::string::npos;)
              error.replace(at, tmp.size() + ext.size(), job.entry.source);
            publish(job.entry.failed, error);
            publish(job.entry.source, job.source);
            o.status = "failed";
            o.reason = "on-demand build failed: " + error;
          }
        } catch (const std::exception& e) {
          o.status = "failed";
          o.reason = std::string("on-demand build failed: ") + e.what();
        }
        for (const char* ext : {".cu", ".cpp", ".so", ".log"}) std::remove((tmp + ext).c_str());
        std::lock_guard<std::mutex> lock(mu);
        ++done;
        failed += o.status == "failed";
        const auto now = std::chrono::steady_clock::now();
        const double el = std::chrono::duration<double>(now - c0).count();
        if (tty || done == jobs.size() || std::chrono::duration<double>(now - last_line).count() >= 10) {
          last_line = now;
          log << (tty ? "\r" : "") << "on-demand: " << done << "/" << jobs.size() << " compiled (" << failed
              << " failed), " << duration_text(el) << " elapsed, about "
              << duration_text(el / double(done) * double(jobs.size() - done)) << " left" << (tty ? "   " : "\n")
              << std::flush;
        }
      }
    };
    std::vector<std::thread> pool;
    for (unsigned t = 0; t < std::min<std::size_t>(sum.jobs, jobs.size()); ++t) pool.emplace_back(worker);
    for (auto& t : pool) t.join();
    if (tty) log << "\n";
  }
  sum.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return sum;
}

Summary build_and_load(const std::vector<Planned>& points, const PointTypes& types, const Settings& settings,
                       std::ostream& log) {
  const auto t0 = std::chrono::steady_clock::now();
  Summary sum = build(points, types, settings, log);
  // Load what was built, and make the rest skip with their reason.
  std::vector<PluginPath> libs;
  for (std::size_t i = 0; i < points.size(); ++i)
    if (!sum.points[i].plugin.empty()) libs.push_back({sum.points[i].plugin, "on-demand point " + points[i].label});
  load_plugins(libs);
  for (std::size_t i = 0; i < points.size(); ++i) {
    Outcome& o = sum.points[i];
    const Planned& p = points[i];
    if (!o.plugin.empty() && !unit_loaded(p)) {
      o.status = "failed";
      o.reason = "on-demand build " + o.plugin + " did not register " + o.label;
    }
    if (o.status != "pruned" && o.status != "failed") continue;
    if (p.group)
      library_calls::mark_failed(p.group->name, p.key, o.reason);
    else if (!in_registry(o.label))
      register_stub(p, o.reason, false);
  }
  sum.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return sum;
}

}  // namespace sortbench::on_demand
