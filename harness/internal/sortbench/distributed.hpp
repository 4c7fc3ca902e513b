// Sorts across GPUs (issue 16). A distributed variant registers a VariantInfo
// with min_gpus > 1 and make_distributed; the harness (DistributedRunner in
// sortbench/device.hpp) gives it a Team and each rank's shard of the input, and
// reads each rank's part of the sorted output back for validation.
//
// The input of n keys is split into g shards of contiguous global indices,
// rank r holding [shard_first(n, g, r), shard_first(n, g, r + 1)); a key (and
// its value, the global index) is a pure function of (seed, global index), so
// each GPU makes its own shard. The output is the concatenation of the ranks'
// parts in rank order: rank r's part is sorted, and ordered against its
// neighbours' parts. Part sizes are the variant's choice (load balance is
// reported, not required).
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include <cuda_runtime_api.h>

#include "sortbench/variant.hpp"

struct ncclComm;  // nccl.h's ncclComm_t is `struct ncclComm*`

namespace sortbench {

// One GPU of a distributed sort, as this process drives it.
struct TeamMember {
  int device = 0;            // CUDA ordinal
  int rank = 0;              // 0..world-1: which shard and which part of the output
  ncclComm* comm = nullptr;  // its NCCL communicator (every rank of the team)
  cudaStream_t stream = nullptr;
};

// The ranks of one sort: `world` in all, `local` those this process drives
// (every one in a single process; one per process under a launcher).
struct Team {
  int world = 1;
  std::vector<TeamMember> local;
};

inline std::size_t shard_first(std::size_t n, int world, int rank) {
  return std::size_t((unsigned __int128)n * unsigned(rank) / unsigned(world));
}
inline std::size_t shard_size(std::size_t n, int world, int rank) {
  return shard_first(n, world, rank + 1) - shard_first(n, world, rank);
}

// What each GPU of a distributed point p sorts its keys with on a GPU of
// `gpu_model` (host logic; variants/distributed/local_sort.cuh asks it with the
// current GPU's model): the radix point of ours that the model's best.json
// picks for a shard of p (its "ours" where a library call won the range),
// if it can sort the shard, else the radix family's default point. Null where
// neither is in the build. Sizes past the pick's cap that a GPU may hold after
// an exchange sort with the default point (LocalSort).
const VariantInfo* local_sort_variant(const Problem& p, const std::string& gpu_model);
// Why no local sort can sort a shard of p; empty when one can.
std::string local_sort_unavailable(const Problem& p, const std::string& gpu_model);

// A rank's shard: device pointers on its GPU. keys (values) hold the input
// when run() starts and may be used as scratch; temp is the storage
// temp_bytes() asked for on that GPU.
struct Shard {
  void* keys = nullptr;
  void* values = nullptr;  // null for keys-only problems
  std::size_t n = 0;
  void* temp = nullptr;
  std::size_t temp_bytes = 0;
};

// A rank's part of the sorted output (device pointers on its GPU).
struct Part {
  const void* keys = nullptr;
  const void* values = nullptr;
  std::size_t n = 0;
};

// A variant bound to one problem (p.n total keys over p.gpus ranks). Created
// outside the timed region.
class DistributedInstance {
 public:
  virtual ~DistributedInstance() = default;
  // Bytes of temporary storage the given rank needs on its GPU. Untimed, data-independent.
  virtual std::size_t temp_bytes(int rank) = 0;
  // The whole sort. shards[i] belongs to team.local[i]. May synchronize (part
  // sizes decided on the GPUs reach the host for the exchange); the parts are
  // final once every local member's stream has finished the work enqueued.
  // Throws CudaError, nccl::Error, or std::runtime_error (a part that would
  // overflow its storage) on failure.
  virtual void run(const Team& team, const std::vector<Shard>& shards) = 0;
  // After run(): the part of each local member, in team.local order.
  virtual std::vector<Part> parts() const = 0;
  // The last run's phases in order ("local_sort", "exchange", ...), each the
  // slowest local GPU's time in milliseconds; empty when not recorded.
  virtual std::vector<std::pair<std::string, double>> phases() const { return {}; }
  // The last run's bytes each local member sent to other GPUs (keys and values).
  virtual std::vector<std::size_t> bytes_sent() const { return {}; }
  // The label of the single-GPU variant that sorts on each GPU, where the
  // design has one (it is chosen per GPU model, so the report records it).
  virtual std::string local_sort() const { return {}; }
};

}  // namespace sortbench
