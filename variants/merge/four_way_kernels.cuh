// The four-way merge sort's kernels (four_way_merge_sort.cuh): the sampled
// splits, the merge blocks' layout, and the merge.
#pragma once

#include <cstdint>
#include "../common/chained_launch.cuh"
#include "four_way_agent.cuh"
#include "four_way_policy.cuh"

namespace sortbench::merge {

// Keys of s0[lo0, hi0) and of s1[lo1, hi1) that go before x, plus lo0 and
// lo1: strictly less (lower bounds) or, with kInclusive, also equal (upper
// bounds); [lo, hi] holds each answer. The two searches step together, so
// each step's two loads are in flight together and the chain of dependent
// loads is as long as the longer search, not the sum of both.
template <bool kInclusive, class Key, class Less>
__device__ __forceinline__ void count_before_both(const Key* s0, long long lo0, long long hi0, const Key* s1,
                                                  long long lo1, long long hi1, const Key& x, Less less,
                                                  long long& at0, long long& at1) {
  while (lo0 < hi0 || lo1 < hi1) {
    const bool step0 = lo0 < hi0, step1 = lo1 < hi1;
    const long long mid0 = (lo0 + hi0) >> 1, mid1 = (lo1 + hi1) >> 1;
    Key k0{}, k1{};
    if (step0) k0 = s0[mid0];
    if (step1) k1 = s1[mid1];
    if (step0) {
      if (kInclusive ? !less(x, k0) : less(k0, x)) {
        lo0 = mid0 + 1;
      } else {
        hi0 = mid0;
      }
    }
    if (step1) {
      if (kInclusive ? !less(x, k1) : less(k1, x)) {
        lo1 = mid1 + 1;
      } else {
        hi1 = mid1;
      }
    }
  }
  at0 = lo0;
  at1 = lo1;
}

// The exact split at the diag-th key x of merge(p, q): the pair's co-rank,
// then how many keys of the other pair (o0, o1) go before x. kFirstPair: the
// sampled pair is (A, B), whose keys go first among equal keys. Each count
// lies between the same count of the splits lo and hi.
template <bool kFirstPair, class Key, class Less>
__device__ FourWaySplit split_at_pair_sample(const Key* const (&run)[4], const FourRuns& r, long long diag,
                                             const FourWaySplit& lo, const FourWaySplit& hi, Less less) {
  constexpr int P = kFirstPair ? 0 : 2, O = kFirstPair ? 2 : 0;
  const long long plo = kFirstPair ? lo.a : lo.c, phi = kFirstPair ? hi.a : hi.c;
  const long long pi = common::co_rank_between<long long>(run[P], run[P + 1], diag, max(plo, diag - r.len[P + 1]),
                                                          min(phi, min(diag, r.len[P])), less);
  const long long qi = diag - pi;
  const bool take_q = qi < r.len[P + 1] && (pi >= r.len[P] || less(run[P + 1][qi], run[P][pi]));
  const Key x = take_q ? run[P + 1][qi] : run[P][pi];
  // Keys of (A, B) equal to a key of (C, D) go before it; not the other way.
  long long oi0, oi1;
  count_before_both<!kFirstPair>(run[O], kFirstPair ? lo.c : lo.a, kFirstPair ? hi.c : hi.a, run[O + 1],
                                 kFirstPair ? lo.d : lo.b, kFirstPair ? hi.d : hi.b, x, less, oi0, oi1);
  return kFirstPair ? FourWaySplit{pi, qi, oi0, oi1} : FourWaySplit{oi0, oi1, pi, qi};
}

__device__ __forceinline__ FourWaySplit shfl_split(const FourWaySplit& s, int lane) {
  return FourWaySplit{__shfl_sync(0xffffffffu, s.a, lane), __shfl_sync(0xffffffffu, s.b, lane),
                      __shfl_sync(0xffffffffu, s.c, lane), __shfl_sync(0xffffffffu, s.d, lane)};
}

// F = kSamplesPerTile threads per tile-long interval J of one pair's merge
// in one group: threads 0 and 1 search the splits at J and J + 1 (a tile
// apart) across the whole runs, then thread i finds the sample J * F + i
// between them. Slot (g, pair, J * F + i) of the list is this thread's index.
template <class Policy, class Key, class Less>
__global__ void four_way_partition_kernel(const Key* keys, long long n, long long w, long long coarse_per_pair,
                                          long long groups, FourWaySplit* splits, Less less) {
  constexpr int F = Policy::kSamplesPerTile;
  constexpr long long S = Policy::kSampleStride, SC = S * F;
  common::chain_wait();
  common::chain_release();
  const long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  const int i = int(t % F);
  // Threads past the last interval still take part in the shuffles.
  const bool valid = t / F < groups * 2 * coarse_per_pair;
  const long long interval = valid ? t / F : 0;
  const long long g = interval / (2 * coarse_per_pair);
  const bool second_pair = interval % (2 * coarse_per_pair) >= coarse_per_pair;
  const long long J = interval % coarse_per_pair;
  const long long gs = g * 4 * w;
  const FourRuns r(n, gs, w);
  const Key* const run[4] = {keys + gs, keys + gs + w, keys + gs + 2 * w, keys + gs + 3 * w};
  const long long pair_len = second_pair ? r.len[2] + r.len[3] : r.len[0] + r.len[1];
  const FourWaySplit none{0, 0, 0, 0}, all = r.end();
  auto split_at = [&](long long diag, const FourWaySplit& lo, const FourWaySplit& hi) {
    return second_pair ? split_at_pair_sample<false>(run, r, diag, lo, hi, less)
                       : split_at_pair_sample<true>(run, r, diag, lo, hi, less);
  };
  FourWaySplit coarse = all;
  if (valid && i < 2 && (J + i) * SC < pair_len) coarse = split_at((J + i) * SC, none, all);
  const int first_lane = int(threadIdx.x & 31) & ~(F - 1);
  const FourWaySplit lo = shfl_split(coarse, first_lane), hi = shfl_split(coarse, first_lane + 1);
  const long long diag = J * SC + i * S;
  if (valid && diag < pair_len) splits[t] = i == 0 ? lo : split_at(diag, lo, hi);
}

// The first sampled split of one pair's list (or the group's end) with at
// least q outputs before it.
__device__ __forceinline__ FourWaySplit first_split_at_or_after(const FourWaySplit* list, long long count,
                                                                long long q, const FourWaySplit& end) {
  long long lo = 0, hi = count;
  while (lo < hi) {
    const long long mid = (lo + hi) >> 1;
    if (list[mid].outputs() < q) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo < count ? list[lo] : end;
}

// Merge blocks a warp of the block-starts kernel lays out.
constexpr int kPlansPerWarp = 15;

// Where merge block b starts: the first sampled split of its group at or
// after b's share (j * R). Two lanes per block, one per pair's list, so the
// two searches' dependent loads overlap; the earlier split wins. A warp
// finds 16 consecutive starts and lays out the first 15 of its blocks (the
// 16th start is where the 15th block ends; the next warp lays it out). Done
// here rather than at the start of each merge block, where the searches
// held all of its threads for about 20 dependent loads.
template <class Policy, class Tile, class Key>
__global__ void four_way_block_starts_kernel(const Key* keys, long long n, long long w, long long slots_per_pair,
                                             long long blocks_per_group, long long blocks,
                                             const FourWaySplit* splits, FourWayBlock* plans) {
  constexpr long long S = Policy::kSampleStride, R = Policy::kOutputPerBlock;
  common::chain_wait();
  common::chain_release();
  const int lane = int(threadIdx.x & 31);
  const long long mine_b = (blockIdx.x * (long long)blockDim.x + threadIdx.x) / 32 * kPlansPerWarp + lane / 2;
  // Lanes past the last block still take part in the shuffles.
  const long long b = min(mine_b, blocks - 1);
  const bool second_pair = lane & 1;
  const long long g = b / blocks_per_group;
  const long long gs = g * 4 * w;
  const FourRuns r(n, gs, w);
  const long long q0 = (b % blocks_per_group) * R;
  const long long q = min(q0, r.total());
  const FourWaySplit end = r.end();
  const long long pair_len = second_pair ? r.len[2] + r.len[3] : r.len[0] + r.len[1];
  const FourWaySplit* list = splits + g * 2 * slots_per_pair + (second_pair ? slots_per_pair : 0);
  const FourWaySplit mine = q == 0 ? FourWaySplit{0, 0, 0, 0} : first_split_at_or_after(list, (pair_len + S - 1) / S, q, end);
  const FourWaySplit theirs = shfl_split(mine, lane ^ 1);
  const bool mine_first = mine.outputs() < theirs.outputs() || (mine.outputs() == theirs.outputs() && !second_pair);
  const FourWaySplit start = mine_first ? mine : theirs;
  const FourWaySplit next_start = shfl_split(start, min(lane + 2, 31));
  if (second_pair || lane / 2 >= kPlansPerWarp || mine_b >= blocks) return;
  if (q0 >= r.total()) {
    plans[b] = FourWayBlock{};  // past the group's keys: no windows, no outputs
  } else {
    plans[b] = Tile::plan(keys, n, gs, w, r, start, q0 + R >= r.total() ? end : next_start);
  }
}



// Blocks an SM the block sort and the merge kernel ask registers for
// (__launch_bounds__): six for 4-byte keys alone (40 registers; 30 KB of
// shared memory a block at 29 keys a thread), three for 8-byte keys alone.
// Left to themselves nvcc gives the merge kernel 48 registers for u32 keys
// (five blocks an SM) and 100 for u64 keys (two), the block sort 64 (four),
// and the driver then sizes shared memory for those (ncu, H200). Pairs
// keep nvcc's choice (0).
template <class Key, class Value>
constexpr int kFourWayMinBlocks = kHasValues<Value> ? 0 : sizeof(Key) == 4 ? 6 : sizeof(Key) == 8 ? 3 : 0;

// Block b = (g, j) of a pass writes the group g outputs from its start
// (the sampled split at or after j * R) to the next block's start, as laid
// out in plans[b].
template <class Policy, class Key, class Value, class Less>
__global__ void __launch_bounds__(Policy::kBlockThreads, kFourWayMinBlocks<Key, Value>)
    four_way_merge_kernel(const Key* kin, const Value* vin, Key* kout, Value* vout, const FourWayBlock* plans,
                          Less less) {
  extern __shared__ __align__(16) unsigned char smem[];
  common::chain_wait();
  common::chain_release();
  const FourWayBlock p = plans[blockIdx.x];
  if (p.len[0] + p.len[1] + p.len[2] + p.len[3] == 0) return;
  BlockFourWayMergeTile<Policy, Key, Value, Less> agent(smem, less);
  agent.merge(kin, vin, p, kout + p.out, vout + p.out);
}

}  // namespace sortbench::merge
