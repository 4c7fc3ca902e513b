// The durable results cache: JSON lines, one fsync'd append per measured point
// (docs/tune.md "Cache").
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>

#include "sortbench/build_info.hpp"
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
  return k.dump();
}

namespace {

// Reads every complete line; a line that does not parse (a torn write) is counted and skipped.
template <class F>
std::size_t read_lines(const std::string& path, F&& on_entry) {
  std::ifstream in(path, std::ios::binary);
  std::size_t torn = 0;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    try {
      const json j = json::parse(line);
      on_entry(j.at("key").dump(), j);
    } catch (const std::exception&) {
      ++torn;
    }
  }
  return torn;
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

}  // namespace

ResultCache::ResultCache(std::string path, bool load_existing) : path_(std::move(path)) {
  if (load_existing) {
    torn_ = read_lines(path_, [&](const std::string& key, const json& j) {
      entries_[key] = result_from_json(j.at("result"), path_);
      ++loaded_;
    });
  }
  const auto parent = std::filesystem::path(path_).parent_path();
  if (!parent.empty()) std::filesystem::create_directories(parent);
  fd_ = ::open(path_.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  if (fd_ < 0) throw std::runtime_error(path_ + ": cannot open the cache: " + std::strerror(errno));
  // A torn last line (killed mid-write) must not swallow the next entry: start on a fresh line.
  struct stat st {};
  if (::fstat(fd_, &st) == 0 && st.st_size > 0) {
    std::ifstream in(path_, std::ios::binary);
    in.seekg(-1, std::ios::end);
    char c = '\n';
    in.get(c);
    if (c != '\n') write_all(fd_, "\n", path_);
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
  // One write() on an O_APPEND descriptor: concurrent shards appending to the
  // same file do not interleave within a line on a local file system.
  write_all(fd_, line, path_);
  ::fdatasync(fd_);
  entries_[key] = slim;
}

std::size_t merge_caches(const std::vector<std::string>& inputs, const std::string& out) {
  std::set<std::string> seen;
  std::string text;
  for (const auto& in : inputs) {
    if (!std::filesystem::exists(in)) throw ConfigError(in + ": no such cache file");
    read_lines(in, [&](const std::string& key, const json& j) {
      if (seen.insert(key).second) text += j.dump() + "\n";
    });
  }
  const auto parent = std::filesystem::path(out).parent_path();
  if (!parent.empty()) std::filesystem::create_directories(parent);
  const std::string tmp = out + ".tmp." + std::to_string(::getpid());
  {
    std::ofstream o(tmp, std::ios::binary | std::ios::trunc);
    o << text;
    o.flush();
    if (!o) throw std::runtime_error(tmp + ": cannot write the merged cache");
  }
  std::filesystem::rename(tmp, out);
  return seen.size();
}

}  // namespace sortbench::tune
