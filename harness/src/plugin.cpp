// The plugin loader (sortbench/plugin.hpp).
#include "sortbench/plugin.hpp"

#include <dlfcn.h>
#include <elf.h>
#include <openssl/sha.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <regex>
#include <set>

#include "sortbench/build_info.hpp"
#include "sortbench/config.hpp"
#include "sortbench/family_space.hpp"
#include "sortbench/files.hpp"
#include "sortbench/library_calls.hpp"

namespace sortbench {

namespace {

std::vector<LoadedPlugin>& plugins() {
  static std::vector<LoadedPlugin> p;
  return p;
}

std::string join_numbers(const std::vector<int>& xs) {
  std::string s;
  for (int x : xs) s += (s.empty() ? "sm_" : ", sm_") + std::to_string(x);
  return s;
}

// dlopen's refusal, in the user's terms.
std::string dlopen_problem(const std::string& error) {
  static const std::regex other_interface("undefined symbol: sortbench_register_variant_v([0-9]+)");
  std::smatch m;
  if (std::regex_search(error, m, other_interface))
    return "built against sortbench plugin interface " + m[1].str() + "; this binary loads interface " +
           std::to_string(SORTBENCH_PLUGIN_INTERFACE) + " (rebuild it against this sortbench)";
  if (error.find("invalid ELF header") != std::string::npos || error.find("file too short") != std::string::npos ||
      error.find("not an ELF") != std::string::npos || error.find("ELF load command") != std::string::npos)
    return "not a shared library; expected a plugin built with sortbench_add_plugin (" + error + ")";
  if (error.find("undefined symbol") != std::string::npos)
    return "needs a symbol this sortbench binary does not have; rebuild it against this sortbench (" + error + ")";
  return "cannot be loaded: " + error;
}

// dlopen maps a shared library's segments as its headers describe them: a
// truncated file maps pages past its end, and the first touch of one is a
// SIGBUS, not an error. So the headers' extents are checked against the size
// first. Empty where the file holds everything its ELF headers describe, or is
// no 64-bit ELF file at all (dlopen words that refusal).
std::string elf_truncation(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::vector<char> bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  const std::uint64_t size = bytes.size();
  Elf64_Ehdr eh{};
  if (size < sizeof eh) return "";
  std::memcpy(&eh, bytes.data(), sizeof eh);
  if (std::memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 || eh.e_ident[EI_CLASS] != ELFCLASS64) return "";
  std::uint64_t need = sizeof eh;
  auto cover = [&](std::uint64_t off, std::uint64_t len) {
    need = std::max(need, off + len < off ? ~std::uint64_t(0) : off + len);
  };
  cover(eh.e_phoff, std::uint64_t(eh.e_phnum) * eh.e_phentsize);
  if (eh.e_shoff) cover(eh.e_shoff, std::uint64_t(eh.e_shnum) * eh.e_shentsize);
  if (need <= size && eh.e_phentsize >= sizeof(Elf64_Phdr))
    for (std::uint16_t i = 0; i < eh.e_phnum; ++i) {
      Elf64_Phdr ph{};
      std::memcpy(&ph, bytes.data() + eh.e_phoff + std::uint64_t(i) * eh.e_phentsize, sizeof ph);
      if (ph.p_type == PT_LOAD) cover(ph.p_offset, ph.p_filesz);
    }
  if (need <= size) return "";
  return "is truncated: its ELF headers describe at least " + std::to_string(need) + " bytes, the file has " +
         std::to_string(size) + "; expected a plugin built with sortbench_add_plugin";
}

void load_one(const PluginPath& p) {
  const std::string where = p.where + ": " + p.path;
  files::check_input(p.path, p.where, "plugin");
  const std::string path = std::filesystem::canonical(p.path).string();
  for (const auto& done : plugins())
    if (done.path == path || files::same_file(done.path, path)) return;
  LoadedPlugin info;
  info.path = path;
  try {
    info.sha256 = sha256_file(path);
  } catch (const std::exception& e) {
    throw ConfigError(where + ": " + e.what());
  }
  if (const std::string cut = elf_truncation(path); !cut.empty()) throw ConfigError(where + ": " + cut);
  Registry& reg = Registry::instance();
  reg.begin_staging();
  begin_space_staging();
  const std::size_t calls_before = library_calls::count();
  void* handle = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  std::vector<VariantInfo> staged = reg.end_staging();
  std::vector<FamilySpace> staged_spaces = end_space_staging();
  if (!handle) {
    const char* e = ::dlerror();
    throw ConfigError(where + ": " + dlopen_problem(e ? e : "unknown error"));
  }
  // Loaded code stays loaded: its variants' functions live in it.
  const auto* id = static_cast<const sortbench_plugin_identity_t*>(::dlsym(handle, "sortbench_plugin_identity"));
  if (!id)
    throw ConfigError(where + ": not a sortbench plugin: it defines no sortbench_plugin_identity (build it with "
                      "sortbench_add_plugin from find_package(sortbench))");
  if (id->interface_version != SORTBENCH_PLUGIN_INTERFACE)
    throw ConfigError(where + ": built against sortbench plugin interface " + std::to_string(id->interface_version) +
                      "; this binary loads interface " + std::to_string(SORTBENCH_PLUGIN_INTERFACE));
  info.name = id->name ? id->name : "";
  info.cuda_architectures = id->cuda_architectures ? id->cuda_architectures : "";
  info.build = id->build ? id->build : "";
  const auto theirs = cuda_architecture_numbers(info.cuda_architectures);
  const auto ours = cuda_architecture_numbers(build_info().cuda_architectures);
  bool shared = false;
  for (int a : theirs)
    for (int b : ours) shared = shared || a == b;
  if (!shared)
    throw ConfigError(where + ": built for " + (theirs.empty() ? "no GPU architecture" : join_numbers(theirs)) +
                      ", this binary for " + join_numbers(ours) + "; rebuild it with CMAKE_CUDA_ARCHITECTURES " +
                      build_info().cuda_architectures);
  // Library calls built on demand add key types to variants the binary has.
  if (staged.empty() && library_calls::count() == calls_before)
    throw ConfigError(where + ": registers no variants (SORTBENCH_REGISTER_VARIANT at namespace scope in its sources)");
  // A family space it declares: its points are built on demand like Onesweep's.
  for (const auto& s : staged_spaces) {
    if (const std::string why = family_space_problem(s); !why.empty())
      throw ConfigError(where + ": family space '" + s.method + "': " + why);
    for (const auto& other : staged_spaces)
      if (&other != &s && other.method == s.method)
        throw ConfigError(where + ": family space '" + s.method + "' is declared twice");
  }
  std::set<std::string> own;
  for (const auto& v : staged) {
    if (!own.insert(v.label).second) throw ConfigError(where + ": registers variant '" + v.label + "' twice");
    if (const VariantInfo* old = reg.find(v.label))
      throw ConfigError(where + ": variant '" + v.label + "' is already registered by " +
                        (old->plugin.empty() ? std::string("the sortbench binary") : "plugin " + old->plugin) +
                        "; labels must be unique");
  }
  for (auto& s : staged_spaces) {
    info.spaces.push_back(s.method);
    register_family_space(std::move(s));
  }
  for (auto& v : staged) {
    info.labels.push_back(v.label);
    v.plugin = path;
    try {
      reg.add(std::move(v));
    } catch (const std::logic_error& e) {
      throw ConfigError(where + ": " + e.what());
    }
  }
  plugins().push_back(std::move(info));
}

}  // namespace

std::vector<PluginPath> plugin_paths(const std::vector<std::string>& flags) {
  std::vector<PluginPath> out;
  if (const char* env = std::getenv("SORTBENCH_PLUGIN_PATH")) {
    std::string s = env;
    std::size_t start = 0;
    while (start <= s.size()) {
      const std::size_t colon = std::min(s.find(':', start), s.size());
      if (colon > start) out.push_back({s.substr(start, colon - start), "SORTBENCH_PLUGIN_PATH"});
      start = colon + 1;
    }
  }
  for (const auto& f : flags) {
    if (f.empty()) throw ConfigError("--plugin: empty path; expected a plugin file (.so)");
    out.push_back({f, "--plugin"});
  }
  return out;
}

void load_plugins(const std::vector<PluginPath>& paths) {
  for (const auto& p : paths) load_one(p);
  if (plugins().empty()) return;
  std::string all;
  for (const auto& p : plugins()) all += (all.empty() ? "" : ":") + p.path;
  ::setenv("SORTBENCH_PLUGIN_PATH", all.c_str(), 1);
}

const std::vector<LoadedPlugin>& loaded_plugins() { return plugins(); }

const LoadedPlugin* plugin_of(const std::string& label) {
  for (const auto& p : plugins())
    for (const auto& l : p.labels)
      if (l == label) return &p;
  return nullptr;
}

std::string sha256_text(const std::string& bytes) {
  unsigned char digest[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size(), digest);
  static const char* hex = "0123456789abcdef";
  std::string out;
  for (unsigned char c : digest) {
    out += hex[c >> 4];
    out += hex[c & 15];
  }
  return out;
}

std::string sha256_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) throw std::runtime_error("cannot read " + path);
  return sha256_text(bytes);
}

std::vector<int> cuda_architecture_numbers(const std::string& list) {
  std::vector<int> out;
  static const std::regex number("([0-9]+)[a-z]?(-real|-virtual)?");
  std::size_t start = 0;
  while (start <= list.size()) {
    const std::size_t sep = std::min(list.find_first_of(";, ", start), list.size());
    const std::string item = list.substr(start, sep - start);
    std::smatch m;
    if (std::regex_match(item, m, number)) out.push_back(std::stoi(m[1].str()));
    start = sep + 1;
  }
  return out;
}

}  // namespace sortbench
