// NCCL, dlopened at run time (sortbench/nccl.hpp). Part of a unity build: the
// file's own names start with nccl_.
#include "sortbench/nccl.hpp"
#include "sortbench/worker.hpp"

#include <cstdlib>

#if defined(SORTBENCH_HAVE_NCCL)
#include <dlfcn.h>
#include <sys/wait.h>

#include <cstdio>
#include <type_traits>
#endif

namespace sortbench::nccl {

void disable_multicast() {
  // Overwrites: a 1 inherited from the environment must not turn it back on.
  ::setenv("NCCL_NVLS_ENABLE", "0", 1);
}

#if !defined(SORTBENCH_HAVE_NCCL)

bool available(std::string* why) {
  if (why)
    *why = "built without NCCL (nccl.h was not found at configure time; run tools/setup.sh and reconfigure)";
  return false;
}
std::string library_path() { return ""; }
std::string version() { return ""; }

#else

namespace {

// The wheel's directory in `python3` on $PATH. nvidia/nccl has no __init__.py
// (a namespace package, no __file__), so its __path__ is searched for the library.
std::string nccl_python_wheel_dir(std::string* note) {
  int status = 0;
  std::string out = worker::command_output(
      "python3 -c 'import nvidia.nccl, os; print(next(d for d in nvidia.nccl.__path__ "
      "if os.path.isfile(os.path.join(d, \"lib\", \"libnccl.so.2\"))))' 2>/dev/null",
      &status);
  if (status == -1) {
    *note = "cannot run python3";
    return "";
  }
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
  if (status == -1 || !WIFEXITED(status) || WEXITSTATUS(status) == 127) {
    *note = "no python3 on $PATH";
    return "";
  }
  if (WEXITSTATUS(status) != 0 || out.empty()) {
    *note = "not installed";
    return "";
  }
  return out;
}

std::string nccl_version_text(int code) {
  // 2.9 and later: major*10000 + minor*100 + patch; before: major*1000 + minor*100 + patch.
  const int major = code >= 10000 ? code / 10000 : code / 1000;
  const int minor = code >= 10000 ? code % 10000 / 100 : code % 1000 / 100;
  return std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(code % 100);
}

struct NcclLoaded {
  bool ok = false;
  std::string why, path, version;
  Api api{};
};

const NcclLoaded& nccl_loaded() {
  // A function-local static: loaded once, by whichever thread asks first.
  static const NcclLoaded loaded = [] {
    NcclLoaded l;
    void* handle = detail::load(detail::places(), &l.api, &l.why);
    if (!handle) return l;
    l.ok = true;
    Dl_info info{};
    if (::dladdr(reinterpret_cast<void*>(l.api.GetVersion), &info) && info.dli_fname) l.path = info.dli_fname;
    int code = 0;
    if (l.api.GetVersion(&code) == ncclSuccess) l.version = nccl_version_text(code);
    return l;
  }();
  return loaded;
}

}  // namespace

namespace detail {

std::vector<Place> places() {
  std::vector<Place> p;
  const char* env = std::getenv("SORTBENCH_NCCL_LIBRARY");
  if (env && *env)
    p.push_back({"$SORTBENCH_NCCL_LIBRARY", env, ""});
  else
    p.push_back({"$SORTBENCH_NCCL_LIBRARY", "", "unset"});
  p.push_back({"the dynamic loader", "libnccl.so.2", ""});
  Place wheel{"python3's nvidia-nccl-cu13", "", ""};
  const std::string dir = nccl_python_wheel_dir(&wheel.note);
  if (!dir.empty()) wheel.path = dir + "/lib/libnccl.so.2";
  p.push_back(wheel);
#if defined(SORTBENCH_NCCL_BUILD_LIBRARY_DIR)
  p.push_back({"build-tools/nccl", SORTBENCH_NCCL_BUILD_LIBRARY_DIR "/libnccl.so.2", ""});
#else
  p.push_back({"build-tools/nccl", "", "no libnccl.so.2 next to nccl.h at configure time"});
#endif
  return p;
}

void* load(const std::vector<Place>& places, Api* api, std::string* why) {
  std::string tried;
  for (const Place& place : places) {
    if (!tried.empty()) tried += "; ";
    if (place.path.empty()) {
      tried += place.where + ": " + place.note;
      continue;
    }
    void* h = ::dlopen(place.path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!h) {
      const char* e = ::dlerror();
      tried += place.where + ": " + (e ? e : place.path + ": cannot be loaded");
      continue;
    }
    // The first file that loads is the one: every entry point must be in it.
    Api a{};
    const char* missing = nullptr;
    auto need = [&](const char* name, auto& fn) {
      if (missing) return;
      void* s = ::dlsym(h, name);
      if (!s) missing = name;
      fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(s);
    };
    need("ncclGetVersion", a.GetVersion);
    need("ncclGetUniqueId", a.GetUniqueId);
    need("ncclCommInitRank", a.CommInitRank);
    need("ncclCommInitAll", a.CommInitAll);
    need("ncclCommDestroy", a.CommDestroy);
    need("ncclCommAbort", a.CommAbort);
    need("ncclCommGetAsyncError", a.CommGetAsyncError);
    need("ncclGetErrorString", a.GetErrorString);
    need("ncclGetLastError", a.GetLastError);
    need("ncclGroupStart", a.GroupStart);
    need("ncclGroupEnd", a.GroupEnd);
    need("ncclSend", a.Send);
    need("ncclRecv", a.Recv);
    need("ncclAllGather", a.AllGather);
    need("ncclAllReduce", a.AllReduce);
    need("ncclBroadcast", a.Broadcast);
    if (missing) {
      ::dlclose(h);
      if (why)
        *why = "NCCL unusable: " + place.path + " (" + place.where + ") has no " + missing +
               "; set SORTBENCH_NCCL_LIBRARY to another libnccl.so.2";
      return nullptr;
    }
    *api = a;
    return h;
  }
  if (why)
    *why = "NCCL not found: " + tried + "; install it with tools/setup.sh or set SORTBENCH_NCCL_LIBRARY or LD_LIBRARY_PATH";
  return nullptr;
}

}  // namespace detail

bool available(std::string* why) {
  const NcclLoaded& l = nccl_loaded();
  if (!l.ok && why) *why = l.why;
  return l.ok;
}

std::string library_path() { return nccl_loaded().path; }
std::string version() { return nccl_loaded().version; }

const Api& api() {
  const NcclLoaded& l = nccl_loaded();
  if (!l.ok) throw Error(l.why);
  return l.api;
}

void check(ncclResult_t r, const char* what, ncclComm_t comm) {
  if (r == ncclSuccess) return;
  const Api& a = api();
  std::string message = std::string(what) + ": " + a.GetErrorString(r);
  const char* last = a.GetLastError(comm);
  if (last && *last) message += std::string(": ") + last;
  throw Error(message);
}

#endif

}  // namespace sortbench::nccl
