// NCCL, loaded at run time (dlopen), never linked: the binary starts on a
// machine without NCCL, and the distributed family then reports it as
// unavailable with the reason. Where the library is looked for (first hit wins):
//   1. $SORTBENCH_NCCL_LIBRARY (a path to libnccl.so.2);
//   2. "libnccl.so.2" through the dynamic loader ($LD_LIBRARY_PATH, ldconfig);
//   3. the nvidia-nccl-cu13 wheel of `python3` on $PATH (its nvidia/nccl/lib);
//   4. the wheel tools/setup.sh installed at build time (build-tools/nccl).
// A file that loads but lacks an entry point ends the search (unavailable, naming both).
// Host code. The function table carries NCCL's own types only when the build
// found nccl.h (SORTBENCH_HAVE_NCCL); a build without it still has
// nccl::available(), which then says why not.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#if defined(SORTBENCH_HAVE_NCCL)
#include <nccl.h>
#endif

namespace sortbench::nccl {

// NVLink SHARP / multicast stays off in this process and every child it starts
// (NCCL_NVLS_ENABLE=0): on shared hosts multicast objects can put GPUs that
// others use out of service. Called before any communicator is made.
void disable_multicast();

// True when the library is loaded (loading it on the first call); otherwise
// *why (if given) says what was tried and what failed.
bool available(std::string* why = nullptr);
// Where it was loaded from and its version ("2.28.3"), for reports; empty when unavailable.
std::string library_path();
std::string version();

#if defined(SORTBENCH_HAVE_NCCL)
// The entry points the project uses, resolved with dlsym.
struct Api {
  ncclResult_t (*GetVersion)(int*);
  ncclResult_t (*GetUniqueId)(ncclUniqueId*);
  ncclResult_t (*CommInitRank)(ncclComm_t*, int, ncclUniqueId, int);
  ncclResult_t (*CommInitAll)(ncclComm_t*, int, const int*);
  ncclResult_t (*CommDestroy)(ncclComm_t);
  ncclResult_t (*CommAbort)(ncclComm_t);
  ncclResult_t (*CommGetAsyncError)(ncclComm_t, ncclResult_t*);
  const char* (*GetErrorString)(ncclResult_t);
  const char* (*GetLastError)(ncclComm_t);
  ncclResult_t (*GroupStart)();
  ncclResult_t (*GroupEnd)();
  ncclResult_t (*Send)(const void*, size_t, ncclDataType_t, int, ncclComm_t, cudaStream_t);
  ncclResult_t (*Recv)(void*, size_t, ncclDataType_t, int, ncclComm_t, cudaStream_t);
  ncclResult_t (*AllGather)(const void*, void*, size_t, ncclDataType_t, ncclComm_t, cudaStream_t);
  ncclResult_t (*AllReduce)(const void*, void*, size_t, ncclDataType_t, ncclRedOp_t, ncclComm_t, cudaStream_t);
  ncclResult_t (*Broadcast)(const void*, void*, size_t, ncclDataType_t, int, ncclComm_t, cudaStream_t);
};
// The loaded table; throws Error (with the reason of available()) when NCCL is unavailable.
const Api& api();

// The lookup itself, apart from the process-wide load that caches its answer (tests).
namespace detail {
// One place to look: what the reason calls it, and the file for dlopen (empty
// when there is nothing to try; `note` then says why).
struct Place {
  std::string where;
  std::string path;
  std::string note;
};
// Places 1-4 above, in order, from the environment as it is now.
std::vector<Place> places();
// dlopens each place in turn (RTLD_NOW | RTLD_LOCAL); at the first that loads,
// fills *api and returns its handle. Otherwise nullptr, and *why (if given)
// lists every place with what failed there, in one line.
void* load(const std::vector<Place>& places, Api* api, std::string* why);
}  // namespace detail
#endif

// An NCCL failure: NCCL's own message and the call that failed.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

#if defined(SORTBENCH_HAVE_NCCL)
// Throws Error naming `what`, with ncclGetErrorString and ncclGetLastError, when r is not ncclSuccess.
void check(ncclResult_t r, const char* what, ncclComm_t comm = nullptr);
#endif

}  // namespace sortbench::nccl
