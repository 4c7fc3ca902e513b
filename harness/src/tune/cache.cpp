// The durable results cache: JSON lines, one fsync'd append per measured point
// (docs/tune.md "Cache").
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <iterator>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>

#include "sortbench/build_info.hpp"
#include "sortbench/config.hpp"
#include "sortbench/files.hpp"
#include "sortbench/json_read.hpp"
#include "sortbench/plugin.hpp"
#include "sortbench/report.hpp"
#include "sortbench/tune.hpp"

namespace sortbench::tune {

using nlohmann::json;

CacheIdentity identity_of_this_build(const std::string& gpu_model, const std::string& gpu_uuid) {
  const BuildInfo& b = build_info();
  CacheIdentity c;
  c.gpu_model = gpu_model;
  c.gpu_uuid = gpu_uuid;
  c.git_commit = b.git_commit + (b.git_dirty ? "+dirty" : "");
  c.cxx_compiler = b.compiler;
  c.cuda_compiler = b.cuda_compiler;
  c.cxx_flags = b.cxx_flags + " " + b.build_type;
  c.cuda_flags = b.cuda_flags;
  c.cuda_architectures = b.cuda_architectures;
  c.kernel_hash = kernel_source_hash();
  return c;
}

json to_json(const CacheIdentity& c) {
  return {{"gpu_model", c.gpu_model},         {"gpu_uuid", c.gpu_uuid},       {"git_commit", c.git_commit},
          {"cxx_compiler", c.cxx_compiler},   {"cuda_compiler", c.cuda_compiler}, {"cxx_flags", c.cxx_flags},
          {"cuda_flags", c.cuda_flags},       {"cuda_architectures", c.cuda_architectures},
          {"kernel_hash", c.kernel_hash}};
}

std::string cache_key(const CacheIdentity& id, const std::string& label, const Params& params, const Workload& w,
                      const MeasureSettings& m) {
  // nlohmann's object is a std::map: fields come out sorted, so the text is canonical.
  json p = json::object();
  for (const auto& x : params) p[x.name] = x.value;
  json k = {{"id", to_json(id)},
            {"variant", label},
            {"params", p},
            {"workload", {{"key", to_string(w.key)}, {"value", to_string(w.value)}, {"order", to_string(w.order)},
                          {"n", w.n}, {"distribution", w.dist.name()}, {"seed", w.seed}}},
            {"measure", {{"warmup_runs", m.warmup_runs}, {"min_samples", m.min_samples},
                         {"max_samples", m.max_samples}, {"max_rel_stderr", m.max_rel_stderr},
                         {"budget_s", m.budget_s}, {"cold_l2", m.cold_l2}, {"throttle_ratio", m.throttle_ratio}}}};
  // A plugin's variant is only the same code while the plugin file is the same.
  if (const LoadedPlugin* plugin = plugin_of(label)) k["plugin_sha256"] = plugin->sha256;
  return k.dump();
}

json cache_header(const CacheIdentity& id, const Space& space) {
  json build = to_json(id);
  build.erase("gpu_model");
  build.erase("gpu_uuid");  // per line, in each key: shards on several GPUs of one model share a cache
  // What the measurements depend on: the workloads, variants and measure
  // settings; not the strategy, the score or the name.
  json what = space_to_json(space);
  for (const char* k : {"name", "strategy", "score"}) what.erase(k);
  char digest[17];
  std::snprintf(digest, sizeof digest, "%016llx", static_cast<unsigned long long>(stable_hash(what.dump())));
  return {{"schema", kCacheSchema}, {"schema_version", kCacheSchemaVersion}, {"gpu_model", id.gpu_model},
          {"build", build}, {"space", digest}, {"space_name", space.sweep.name}};
}

namespace {

// A cache file as read: its header and its entries by key; a torn last line
// (what a kill leaves) is counted, any other bad line is an error naming the
// file and line number.
struct CacheFile {
  json header;  // null for an empty or missing file
  struct Entry {
    std::string key;
    json line;
    PointResult result;
  };
  std::vector<Entry> entries;
  std::size_t torn = 0;
};

// `flag` (--cache or --caches) leads every message.
CacheFile read_cache(const std::string& path, bool entries, const std::string& flag) {
  CacheFile c;
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return c;  // a new cache
  files::check_input(path, flag, "cache");
  const std::string named = flag + ": " + path;
  std::ifstream in(path, std::ios::binary);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (text.empty()) return c;
  const bool ends_with_newline = text.back() == '\n';
  std::size_t pos = 0, line_no = 0;
  while (pos < text.size()) {
    const std::size_t eol = text.find('\n', pos);
    const std::string line = text.substr(pos, eol == std::string::npos ? std::string::npos : eol - pos);
    pos = eol == std::string::npos ? text.size() : eol + 1;
    ++line_no;
    const bool last = pos >= text.size();
    const std::string where = named + ":" + std::to_string(line_no);
    if (line.empty()) {
      if (line_no == 1) throw ConfigError(where + ": not a sortbench cache (its first line is empty; expected the cache header)");
      continue;
    }
    json j;
    try {
      j = json::parse(line);
    } catch (const json::parse_error& e) {
      if (line_no == 1)
        throw ConfigError(named + ": not a sortbench cache (its first line is not a cache header)");
      // A write cut short by a kill: the line is a prefix of a cache line, so
      // the parser ran out of input. The next append starts a fresh line, so
      // such a line may sit before later ones; anything else is damage.
      if (e.byte >= line.size() || (last && !ends_with_newline)) {
        ++c.torn;
        continue;
      }
      throw ConfigError(where + ": not a cache line (malformed JSON); expected {\"key\": {...}, \"result\": {...}}");
    } catch (const json::exception&) {
      throw ConfigError(where + ": not a cache line (malformed JSON); expected {\"key\": {...}, \"result\": {...}}");
    }
    if (line_no == 1) {
      if (!j.is_object() || j.value("schema", json()) != kCacheSchema)
        throw ConfigError(named + ": not a sortbench cache (its first line is not a cache header)");
      const JsonAt h(j, where);
      if (h["schema_version"].unsigned_integer() != std::uint64_t(kCacheSchemaVersion))
        h["schema_version"].fail(std::to_string(kCacheSchemaVersion));
      h["gpu_model"].string();
      h["build"].object();
      h["space"].string();
      c.header = j;
      if (!entries) break;
      continue;
    }
    const JsonAt e(j, where);
    e["key"].object();
    PointResult r = result_from_json(e["result"].value(), where, "$.result");
    c.entries.push_back({e["key"].value().dump(), j, std::move(r)});
  }
  return c;
}

// What differs between a cache's header and the one this run writes, in
// words, or empty when it belongs to this run.
std::string header_difference(const json& file, const json& mine) {
  if (file.value("gpu_model", "") != mine.value("gpu_model", ""))
    return "GPU model " + file.value("gpu_model", "?") + " (this run: " + mine.value("gpu_model", "?") + ")";
  if (file.value("space", "") != mine.value("space", ""))
    return "another tune space ('" + file.value("space_name", "?") + "', " + file.value("space", "?") + "; this run: '" +
           mine.value("space_name", "?") + "', " + mine.value("space", "?") + ")";
  const json& a = file.at("build");
  const json& b = mine.at("build");
  for (const auto& [k, v] : b.items())
    if (!a.contains(k) || a[k] != v)
      return "another build (" + k + " " + (a.contains(k) ? a[k].dump() : "missing") + "; this run: " + v.dump() + ")";
  return {};
}

void write_all(int fd, const std::string& text, const std::string& path) {
  std::size_t off = 0;
  while (off < text.size()) {
    const ssize_t k = ::write(fd, text.data() + off, text.size() - off);
    if (k < 0) {
      if (errno == EINTR) continue;
      throw std::runtime_error(path + ": cannot append to the cache: " + std::strerror(errno));
    }
    off += std::size_t(k);
  }
}

// The cache file's lock (flock) while this scope appends to it or reads it:
// a reader can see a line another process is appending part written, where
// it crosses a page, and take it for a torn one.
class AppendLock {
 public:
  explicit AppendLock(int fd) : fd_(fd) { ::flock(fd_, LOCK_EX); }
  ~AppendLock() { ::flock(fd_, LOCK_UN); }
  AppendLock(const AppendLock&) = delete;
  AppendLock& operator=(const AppendLock&) = delete;

 private:
  int fd_;
};

}  // namespace

void check_cache_file(const std::string& path, const json& expected) {
  const CacheFile file = read_cache(path, true, "--cache");
  if (file.header.is_null()) return;
  json mine = expected;
  if (mine.value("gpu_model", "").empty()) mine["gpu_model"] = file.header.value("gpu_model", "");
  if (const std::string diff = header_difference(file.header, mine); !diff.empty())
    throw ConfigError("--cache: " + path + ": a cache of " + diff + "; pick another --cache path");
}

ResultCache::ResultCache(std::string path, const json& header, bool load_existing) : path_(std::move(path)) {
  const auto parent = std::filesystem::path(path_).parent_path();
  if (!parent.empty()) std::filesystem::create_directories(parent);
  // A new cache starts with its header. Shards started side by side may race
  // to create it, so the file comes into being with its header already in it:
  // written to a temporary file and hard-linked into place (link() fails if
  // the path exists), never an empty file another process could see.
  const std::string header_line = header.dump() + "\n";
  if (::access(path_.c_str(), F_OK) != 0) {
    const std::string tmp = path_ + ".new." + std::to_string(::getpid());
    const int t = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (t < 0) throw std::runtime_error(tmp + ": cannot create the cache: " + std::strerror(errno));
    try {
      write_all(t, header_line, tmp);
    } catch (...) {
      ::close(t);
      ::unlink(tmp.c_str());
      throw;
    }
    ::fdatasync(t);
    ::close(t);
    const int linked = ::link(tmp.c_str(), path_.c_str());
    const int link_errno = errno;
    ::unlink(tmp.c_str());
    if (linked != 0 && link_errno != EEXIST)
      throw std::runtime_error(path_ + ": cannot create the cache: " + std::strerror(link_errno));
  }
  fd_ = ::open(path_.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
  if (fd_ < 0) throw std::runtime_error(path_ + ": cannot open the cache: " + std::strerror(errno));
  // The descriptor is the cache's once the constructor returns; a refusal
  // (another run's cache) closes it.
  try {
    // Under the lock every append takes, so a line another shard is appending
    // is never read part written (taken for a torn one). An empty file given as
    // the cache (made by the user): the first process to hold the lock writes
    // the header.
    const AppendLock lock(fd_);
    struct stat st {};
    if (::fstat(fd_, &st) == 0 && st.st_size == 0) {
      write_all(fd_, header_line, path_);
      ::fdatasync(fd_);
    }
    CacheFile file = read_cache(path_, load_existing, "--cache");
    if (const std::string diff = header_difference(file.header, header); !diff.empty())
      throw ConfigError("--cache: " + path_ + ": a cache of " + diff + "; pick another --cache path");
    for (auto& e : file.entries) {
      entries_[e.key] = std::move(e.result);
      ++loaded_;
    }
    torn_ = file.torn;
    // A torn last line (killed mid-write) must not swallow the next entry: start on a fresh line.
    if (::fstat(fd_, &st) == 0 && st.st_size > 0) {
      std::ifstream in(path_, std::ios::binary);
      in.seekg(-1, std::ios::end);
      char c = '\n';
      in.get(c);
      if (c != '\n') write_all(fd_, "\n", path_);
    }
  } catch (...) {
    ::close(fd_);
    fd_ = -1;
    throw;
  }
}

ResultCache::~ResultCache() {
  if (fd_ >= 0) ::close(fd_);
}

const PointResult* ResultCache::find(const std::string& key) const {
  const auto it = entries_.find(key);
  return it == entries_.end() ? nullptr : &it->second;
}

void ResultCache::append(const std::string& key, const PointResult& r) {
  PointResult slim = r;
  slim.time_ms.raw.clear();  // the summary is what scoring needs; keeps lines short
  const std::string line = json{{"key", json::parse(key)}, {"result", result_to_json(slim)}}.dump() + "\n";
  // One write() on an O_APPEND descriptor, under the lock: concurrent shards
  // appending to the same file neither interleave within a line nor see
  // another's line part written.
  {
    const AppendLock lock(fd_);
    write_all(fd_, line, path_);
  }
  ::fdatasync(fd_);
  entries_[key] = slim;
}

MergedCache merge_caches(const std::vector<std::string>& inputs) {
  MergedCache out;
  std::set<std::string> seen;
  std::string first;
  for (const auto& in : inputs) {
    files::check_input(in, "--caches", "cache");  // a missing file is no new cache here
    CacheFile file = read_cache(in, true, "--caches");
    if (file.header.is_null()) throw ConfigError("--caches: " + in + ": an empty cache (no header); nothing to merge");
    if (out.header.is_null()) {
      out.header = file.header;
      first = in;
      out.text = file.header.dump() + "\n";
    } else if (const std::string diff = header_difference(file.header, out.header); !diff.empty()) {
      throw ConfigError("--caches: " + in + ": a cache of " + diff + " where " + first +
                        " is not; only caches of one space, GPU model and build merge");
    }
    for (const auto& e : file.entries)
      if (seen.insert(e.key).second) out.text += e.line.dump() + "\n";
  }
  out.entries = seen.size();
  return out;
}

}  // namespace sortbench::tune
