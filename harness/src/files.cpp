#include "sortbench/files.hpp"

#include <dlfcn.h>
#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <vector>

#include "sortbench/config.hpp"

namespace sortbench::files {
namespace fs = std::filesystem;

namespace {

[[noreturn]] void fail(const std::string& where, const std::string& what) { throw ConfigError(where + ": " + what); }

// The path a message names: "--out: x.json" when `where` is a flag or a
// default path ("the default report path: sortbench-out/..."), else the path alone.
std::string named(const std::string& path, const std::string& where) {
  return where.rfind("--", 0) == 0 || where.rfind("the default ", 0) == 0 ? where + ": " + path : path;
}

// An input in a message: "--config: c.json", "BASE (a.json)", or the path alone.
std::string named_input(const Input& in) {
  if (in.where.rfind("--", 0) == 0) return in.where + ": " + in.path;
  return in.where.empty() || in.where == in.path ? in.path : in.where + " (" + in.path + ")";
}

bool stat_of(const std::string& path, struct stat* st) { return ::stat(path.c_str(), st) == 0; }

// The longest existing prefix of `p` (the folder a new file would go in, or
// the first missing folder's parent); empty for a relative path whose first
// component is missing (then it is ".").
fs::path existing_ancestor(const fs::path& p) {
  for (fs::path a = p.parent_path(); !a.empty(); a = a.parent_path()) {
    struct stat st {};
    if (::stat(a.string().c_str(), &st) == 0) return a;
    if (errno != ENOENT && errno != ENOTDIR) return a;  // reported by the caller's stat of it
    if (a == a.parent_path()) break;
  }
  return ".";
}

void check_name_lengths(const std::string& path, const std::string& where) {
  if (path.size() >= PATH_MAX) fail(named(path.substr(0, 60) + "...", where), "the path is too long for the file system");
  for (const auto& part : fs::path(path))
    if (part.string().size() > NAME_MAX)
      fail(named(path, where), "the name '" + part.string().substr(0, 40) + "...' is longer than the file system takes (" +
                                   std::to_string(NAME_MAX) + " bytes)");
}

}  // namespace

bool same_file(const std::string& a, const std::string& b) {
  struct stat x {}, y {};
  return stat_of(a, &x) && stat_of(b, &y) && x.st_dev == y.st_dev && x.st_ino == y.st_ino;
}

void check_input(const std::string& path, const std::string& where, const std::string& what) {
  if (path.empty()) fail(where, "empty path; expected a " + what);
  struct stat st {};
  if (!stat_of(path, &st)) fail(named(path, where), "cannot open the " + what + ": " + std::strerror(errno));
  if (S_ISDIR(st.st_mode)) fail(named(path, where), "is a folder; expected a " + what);
  if (!S_ISREG(st.st_mode)) fail(named(path, where), "is not a regular file; expected a " + what);
  if (::access(path.c_str(), R_OK) != 0) fail(named(path, where), "cannot read the " + what + ": " + std::strerror(errno));
}

void check_output(const std::string& path, const std::string& where, const std::vector<Input>& inputs,
                  const std::vector<Input>& other_outputs, bool allow_stdout) {
  if (path == "-" && allow_stdout) return;
  if (path == "-") fail(where, "'-' (standard output) is not taken here; expected a file path");
  if (path.empty()) fail(where, "empty path; expected a file to write");
  check_name_lengths(path, where);
  const std::string me = named(path, where);
  const std::string last = fs::path(path).filename().string();
  if (path.back() == '/' || last == "." || last == "..") fail(me, "names a folder; expected a file path");
  struct stat st {};
  fs::path folder;
  if (stat_of(path, &st)) {
    if (S_ISDIR(st.st_mode)) fail(me, "is a folder; expected a file to write");
    if (!S_ISREG(st.st_mode)) fail(me, "is not a regular file; expected a file to write");
    // O_WRONLY without O_CREAT or O_TRUNC changes nothing; it fails on a
    // read-only file or file system even where access() would let root pass.
    const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd < 0 || ::access(path.c_str(), W_OK) != 0) {
      const int e = errno;
      if (fd >= 0) ::close(fd);
      fail(me, std::string("cannot write: ") + std::strerror(e));
    }
    ::close(fd);
    folder = fs::path(path).parent_path();
    if (folder.empty()) folder = ".";
  } else if (errno == ENOENT || errno == ENOTDIR) {
    folder = existing_ancestor(fs::path(path));
    struct stat ft {};
    if (!stat_of(folder.string(), &ft)) fail(me, "cannot reach " + folder.string() + ": " + std::strerror(errno));
    if (!S_ISDIR(ft.st_mode)) fail(me, "goes through " + folder.string() + ", which is a file, not a folder");
  } else {
    // ENAMETOOLONG, ELOOP, EACCES.
    fail(me, std::string("cannot write here: ") + std::strerror(errno));
  }
  // Outputs are written to a temporary file beside the target and renamed
  // (Outputs): the folder must take a new file. Tried, not inferred from mode
  // bits, which root, read-only mounts and /proc do not honour alike.
  const std::string probe = (folder / (".sortbench-probe." + std::to_string(::getpid()))).string();
  const int pfd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (pfd < 0) fail(me, "cannot create files in " + folder.string() + ": " + std::strerror(errno));
  ::close(pfd);
  ::unlink(probe.c_str());
  for (const auto& in : inputs)
    if (same_file(path, in.path))
      fail(me, "is the input " + named_input(in) + "; writing it would destroy it (pick another output path)");
  std::error_code ec;
  const fs::path canon = fs::weakly_canonical(path, ec);
  for (const auto& out : other_outputs) {
    std::error_code ec2;
    if (same_file(path, out.path) || (!ec && canon == fs::weakly_canonical(out.path, ec2) && !ec2))
      fail(me, "is also the output " + named(out.path, out.where) + "; expected two different files");
  }
}

Outputs::~Outputs() { remove_temporaries(); }

void Outputs::add(const std::string& path, const std::string& where, std::string text) {
  items_.push_back({path, where, std::move(text), ""});
}

void Outputs::remove_temporaries() {
  for (auto& it : items_) {
    if (!it.tmp.empty()) std::remove(it.tmp.c_str());
    it.tmp.clear();
  }
}

void Outputs::commit() {
  std::vector<fs::path> made;  // folders this commit created, removed again on failure
  auto undo = [&] {
    remove_temporaries();
    for (auto d = made.rbegin(); d != made.rend(); ++d) {
      std::error_code ec;
      fs::remove(*d, ec);  // only when empty
    }
  };
  try {
    int serial = 0;
    for (auto& it : items_) {
      const fs::path target(it.path);
      for (fs::path d = target.parent_path(); !d.empty() && !fs::exists(d); d = d.parent_path()) made.push_back(d);
      std::sort(made.begin(), made.end(), [](const fs::path& a, const fs::path& b) { return a.string().size() < b.string().size(); });
      made.erase(std::unique(made.begin(), made.end()), made.end());
      if (target.has_parent_path()) fs::create_directories(target.parent_path());
      it.tmp = (target.parent_path() / ("." + target.filename().string() + ".tmp." + std::to_string(::getpid()) + "." +
                                        std::to_string(serial++)))
                   .string();
      const int fd = ::open(it.tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
      if (fd < 0) throw std::runtime_error(named(it.path, it.where) + ": cannot write: " + std::strerror(errno));
      std::size_t off = 0;
      while (off < it.text.size()) {
        const ssize_t k = ::write(fd, it.text.data() + off, it.text.size() - off);
        if (k < 0 && errno == EINTR) continue;
        if (k < 0) {
          const int e = errno;
          ::close(fd);
          throw std::runtime_error(named(it.path, it.where) + ": write failed: " + std::strerror(e));
        }
        off += std::size_t(k);
      }
      if (::fsync(fd) != 0 || ::close(fd) != 0)
        throw std::runtime_error(named(it.path, it.where) + ": write failed: " + std::strerror(errno));
    }
    // Every target must be replaceable before the first is replaced: a rename
    // over a folder is the failure left at this point.
    for (auto& it : items_) {
      struct stat st {};
      if (stat_of(it.path, &st) && S_ISDIR(st.st_mode))
        throw std::runtime_error(named(it.path, it.where) + ": cannot replace: it is a folder");
    }
    for (auto& it : items_) {
      if (::rename(it.tmp.c_str(), it.path.c_str()) != 0)
        throw std::runtime_error(named(it.path, it.where) + ": cannot replace: " + std::strerror(errno));
      it.tmp.clear();
    }
  } catch (...) {
    undo();
    throw;
  }
  items_.clear();
}

void write_atomically(const std::string& path, const std::string& where, const std::string& text) {
  Outputs o;
  o.add(path, where, text);
  o.commit();
}

std::string default_run_report(const std::string& gpu_model, const std::string& config_name) {
  return std::string(kDefaultOutDir) + "/" + gpu_model + "/" + config_name + ".json";
}

std::string default_tune_report(const std::string& gpu_model, const std::string& space_name, const std::string& strategy) {
  return std::string(kDefaultOutDir) + "/" + gpu_model + "/" + space_name + "-" + strategy + ".json";
}

std::string default_best(const std::string& gpu_model) { return std::string(kDefaultOutDir) + "/" + gpu_model + "/best.json"; }

std::string default_cache(const std::string& gpu_model, const std::string& space_name) {
  return std::string(kDefaultOutDir) + "/" + gpu_model + "/cache/" + space_name + ".jsonl";
}

std::string default_devices_report(const std::string& space_name, const std::string& strategy) {
  return std::string(kDefaultOutDir) + "/shards/" + space_name + "-" + strategy + ".json";
}

std::string installed_data_dir() {
  // The file this code was loaded from (the library, in an application), then the program.
  std::vector<fs::path> modules;
  std::error_code ec;
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&installed_data_dir), &info) && info.dli_fname && info.dli_fname[0] == '/')
    modules.push_back(fs::canonical(info.dli_fname, ec));
  modules.push_back(fs::canonical("/proc/self/exe", ec));
  for (const fs::path& m : modules) {
    if (m.empty()) continue;
    // <prefix>/bin/x, <prefix>/lib/x or <prefix>/lib/<multiarch>/x
    fs::path prefix = m.parent_path();
    for (int up = 0; up < 2 && prefix.has_parent_path(); ++up) {
      prefix = prefix.parent_path();
      const fs::path share = prefix / "share" / "sortbench";
      if (fs::is_directory(share, ec)) return share.string();
    }
  }
  return {};
}

std::string config_path(const std::string& arg) {
  std::error_code ec;
  const bool is_path = arg.find('/') != std::string::npos ||
                       (arg.size() > 5 && arg.compare(arg.size() - 5, 5, ".json") == 0) || fs::exists(arg, ec);
  if (is_path || arg.empty()) return arg;
  const std::string local = "configs/" + arg + ".json";
  if (fs::exists(local, ec)) return local;
  if (const std::string share = installed_data_dir(); !share.empty()) {
    const std::string installed = share + "/configs/" + arg + ".json";
    if (fs::exists(installed, ec)) return installed;
  }
  return arg;
}

}  // namespace sortbench::files
