// The GPUs of a distributed point (gpu_group.hpp): NCCL's bootstrap, the
// host-side gathers across ranks, and the group clock.
#include "gpu_group.hpp"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <stdexcept>
#include <thread>

#include <unistd.h>

#include "sortbench/nccl.hpp"

namespace sortbench {

void GpuGroup::sync_all() const {
  for (std::size_t i = 0; i < devices.size(); ++i) {
    set(i);
    cuda_check(cudaStreamSynchronize(team.local[i].stream), "synchronize");
  }
}

#if defined(SORTBENCH_HAVE_NCCL)
void GpuGroup::init_comms() {
  nccl::disable_multicast();
  if (!one_per_process) {
    std::vector<ncclComm_t> comms(devices.size());
    nccl::check(nccl::api().CommInitAll(comms.data(), g(), devices.data()), "ncclCommInitAll");
    for (std::size_t i = 0; i < devices.size(); ++i) team.local[i].comm = comms[i];
  } else {
    // Rank 0 writes the unique id; the others wait for it (the launcher's shared file).
    const std::string path = generation++ ? id_file + "." + std::to_string(generation - 1) : id_file;
    ncclUniqueId id{};
    if (my_rank == 0) {
      nccl::check(nccl::api().GetUniqueId(&id), "ncclGetUniqueId");
      std::error_code ec;
      const auto folder = std::filesystem::path(path).parent_path();
      if (!folder.empty()) std::filesystem::create_directories(folder, ec);
      const std::string tmp = path + ".tmp" + std::to_string(::getpid());
      FILE* f = std::fopen(tmp.c_str(), "wb");
      if (!f || std::fwrite(&id, sizeof id, 1, f) != 1 || std::fclose(f) != 0 || std::rename(tmp.c_str(), path.c_str()))
        throw nccl::Error("cannot write the NCCL id file " + path);
    } else {
      const auto t0 = std::chrono::steady_clock::now();
      for (;;) {
        if (FILE* f = std::fopen(path.c_str(), "rb")) {
          const bool ok = std::fread(&id, sizeof id, 1, f) == 1;
          std::fclose(f);
          if (ok) break;
        }
        if (std::chrono::steady_clock::now() - t0 > std::chrono::seconds(120))
          throw nccl::Error("no NCCL id from rank 0 in " + path + " after 120 s");
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
      }
    }
    set(0);
    ncclComm_t comm = nullptr;
    const ncclResult_t joined = nccl::api().CommInitRank(&comm, world_size, id, my_rank);
    // Every rank has read the id once the collective init returns (or it has
    // failed): rank 0 removes it, so no later launch can read this one's id.
    if (my_rank == 0) std::remove(path.c_str());
    nccl::check(joined, "ncclCommInitRank");
    team.local[0].comm = comm;
  }
  comms_ready = true;
}

void GpuGroup::destroy_comms(bool abort) {
  if (!comms_ready) return;
  for (auto& mbr : team.local)
    if (mbr.comm) {
      if (abort) nccl::api().CommAbort(mbr.comm);
      else nccl::api().CommDestroy(mbr.comm);
      mbr.comm = nullptr;
    }
  comms_ready = false;
}
#else
void GpuGroup::init_comms() {}
void GpuGroup::destroy_comms(bool) {}
#endif

std::vector<char> GpuGroup::gather(const std::vector<std::vector<char>>& mine) {
  const std::size_t bytes = mine.empty() ? 0 : mine[0].size();
  std::vector<char> all(bytes * std::size_t(g()));
  if (!one_per_process) {
    for (std::size_t i = 0; i < local(); ++i)
      std::copy(mine[i].begin(), mine[i].end(), all.begin() + std::ptrdiff_t(bytes * std::size_t(rank_of(i))));
    return all;
  }
#if defined(SORTBENCH_HAVE_NCCL)
  set(0);
  const std::size_t need = bytes * std::size_t(g() + 1);
  if (scratch_bytes < need) {
    if (scratch) cudaFree(scratch);
    scratch = nullptr;
    cuda_check(cudaMalloc(&scratch, need), "collective scratch");
    scratch_bytes = need;
  }
  const cudaStream_t st = team.local[0].stream;
  char* d = static_cast<char*>(scratch);
  cuda_check(cudaMemcpyAsync(d, mine[0].data(), bytes, cudaMemcpyHostToDevice, st), "gather");
  nccl::check(nccl::api().AllGather(d, d + bytes, bytes, ncclUint8, team.local[0].comm, st), "ncclAllGather",
              team.local[0].comm);
  cuda_check(cudaMemcpyAsync(all.data(), d + bytes, all.size(), cudaMemcpyDeviceToHost, st), "gather");
  cuda_check(cudaStreamSynchronize(st), "gather");
  return all;
#else
  throw std::runtime_error("built without NCCL");
#endif
}

void GpuGroup::free_scratch() {
  if (scratch) {
    cudaSetDevice(devices[0]);
    cudaFree(scratch);
  }
  scratch = nullptr;
  scratch_bytes = 0;
}

void GpuGroup::record_start() {
  if (one_per_process) max_over_ranks(0);
  set(0);
  cuda_check(cudaEventRecord(start[0], team.local[0].stream), "event");
  for (std::size_t i = 1; i < devices.size(); ++i) {
    set(i);
    cuda_check(cudaStreamWaitEvent(team.local[i].stream, start[0], 0), "event wait");
  }
}

float GpuGroup::record_stop_and_wait() {
  for (std::size_t i = 1; i < devices.size(); ++i) {
    set(i);
    cuda_check(cudaEventRecord(stop[i], team.local[i].stream), "event");
    set(0);
    cuda_check(cudaStreamWaitEvent(team.local[0].stream, stop[i], 0), "event wait");
  }
  set(0);
  cuda_check(cudaEventRecord(stop[0], team.local[0].stream), "event");
  cuda_check(cudaEventSynchronize(stop[0]), "sample");
  sync_all();
  float ms = 0;
  cuda_check(cudaEventElapsedTime(&ms, start[0], stop[0]), "event time");
  // One per process: from the common barrier to the slowest rank's finish.
  return one_per_process ? float(max_over_ranks(ms)) : ms;
}

}  // namespace sortbench
