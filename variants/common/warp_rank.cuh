// Warp-aggregated counter increment for partitioning kernels (sample sort,
// MSD radix, quicksort): lanes of a warp that hit the same counter add once
// (match-any), and each lane gets its rank among them, so a skewed input
// does not serialize on one shared-memory atomic.
#pragma once

namespace sortbench::common {

// `active`: the lanes taking part (all of them must call with the same mask).
__device__ __forceinline__ unsigned aggregated_add(unsigned* counters, int bucket, unsigned active) {
  const unsigned peers = __match_any_sync(active, bucket);
  const int lane = threadIdx.x & 31;
  const int leader = __ffs(peers) - 1;
  const unsigned rank = __popc(peers & ((1u << lane) - 1));
  unsigned base = 0;
  if (lane == leader) base = atomicAdd(&counters[bucket], unsigned(__popc(peers)));
  base = __shfl_sync(peers, base, leader);
  return base + rank;
}

}  // namespace sortbench::common
