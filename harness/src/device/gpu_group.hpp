// The GPUs a distributed point spans, as this process sees them (host code
// over the CUDA runtime and NCCL): a stream and an NCCL communicator for each
// (one process driving them all, or one process per GPU bootstrapped from an
// id file), gathers across every rank on the host, and the group clock, from
// the first GPU's start to the last GPU's finish. DistributedRunner measures
// over it; link_measurement.cpp times the link with it.
#pragma once

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include <cuda_runtime_api.h>

#include "sortbench/distributed.hpp"
#include "sortbench/variant.hpp"

namespace sortbench {

struct GpuGroup {
  std::vector<int> devices;
  Team team;
  std::vector<cudaEvent_t> start, stop;  // per member: the group clock
  bool comms_ready = false;
  // One process per GPU (a launcher's ranks): this process's rank and the id file.
  bool one_per_process = false;
  int world_size = 0, my_rank = 0;
  std::string id_file;
  int generation = 0;  // communicators made so far: a remade one reads a new id file
  void* scratch = nullptr;  // device bytes for the host-side collectives (one per process), gather's
  std::size_t scratch_bytes = 0;

  int g() const { return world_size; }                  // ranks in all
  std::size_t local() const { return devices.size(); }  // ranks this process drives
  int rank_of(std::size_t i) const { return team.local[i].rank; }
  void set(std::size_t i) const { cuda_check(cudaSetDevice(devices[i]), "cudaSetDevice"); }
  void sync_all() const;

  // NCCL's communicators for every member (throws nccl::Error).
  void init_comms();
  void destroy_comms(bool abort);
  // Every rank's `bytes` (mine: one block per local member) in rank order.
  std::vector<char> gather(const std::vector<std::vector<char>>& mine);
  void free_scratch();
  template <class X>
  std::vector<X> gather_values(const std::vector<X>& mine) {
    std::vector<std::vector<char>> blocks;
    for (const X& x : mine) blocks.emplace_back(reinterpret_cast<const char*>(&x), reinterpret_cast<const char*>(&x) + sizeof(X));
    const std::vector<char> all = gather(blocks);
    std::vector<X> out(static_cast<std::size_t>(g()));
    std::memcpy(out.data(), all.data(), all.size());
    return out;
  }
  double max_over_ranks(double mine) {
    const auto all = gather_values(std::vector<double>(local(), mine));
    return *std::max_element(all.begin(), all.end());
  }

  // Starts every member's work after an event on the first GPU (one per
  // process: after a barrier of every rank).
  void record_start();
  // The first GPU waits for every other's work, then records the stop event:
  // milliseconds from the first GPU's start to the last GPU's finish.
  float record_stop_and_wait();
};

}  // namespace sortbench
