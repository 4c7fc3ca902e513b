// Moving keys between GPUs over NCCL: gathers to the host, the variable
// all-to-all (grouped ncclSend/ncclRecv), and its counts. Collectives are
// NCCL's; nothing here reimplements one.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "sortbench/device.hpp"
#include "sortbench/distributed.hpp"
#include "sortbench/nccl.hpp"

namespace sortbench::distributed {

#if defined(SORTBENCH_HAVE_NCCL)
// Every rank's `bytes` (device, on each local member) gathered into `out`
// (g * bytes on each member), then member 0's copy on the host.
inline std::vector<char> allgather_to_host(const Team& t, const std::vector<const void*>& in,
                                           const std::vector<void*>& out, std::size_t bytes) {
  const auto& api = nccl::api();
  nccl::check(api.GroupStart(), "ncclGroupStart");
  for (std::size_t m = 0; m < t.local.size(); ++m)
    nccl::check(api.AllGather(in[m], out[m], bytes, ncclUint8, t.local[m].comm, t.local[m].stream), "ncclAllGather",
                t.local[m].comm);
  nccl::check(api.GroupEnd(), "ncclGroupEnd");
  std::vector<char> host(bytes * std::size_t(t.world));
  cuda_check(cudaSetDevice(t.local[0].device), "cudaSetDevice");
  cuda_check(cudaMemcpyAsync(host.data(), out[0], host.size(), cudaMemcpyDeviceToHost, t.local[0].stream), "gather");
  for (std::size_t m = 0; m < t.local.size(); ++m) {
    cuda_check(cudaSetDevice(t.local[m].device), "cudaSetDevice");
    cuda_check(cudaStreamSynchronize(t.local[m].stream), "gather");
  }
  return host;
}

// Where each piece of a variable all-to-all goes. counts[i][j]: elements
// rank i sends rank j, taken from rank i's buffer in rank order of j. On the
// receiver the pieces follow in rank order of their senders, contiguous; or,
// `aligned`, each in a slot that starts on 256 bytes and keeps the sender's
// alignment phase: the sender then sends from the 256-byte boundary at or
// before its piece (the few elements before it come along and are ignored),
// so NCCL copies between aligned addresses whatever the split positions
// (the unaligned copies ran at about half the link's rate on two H200s).
struct ExchangePlan {
  std::vector<std::vector<std::size_t>> counts;
  bool aligned = false;
  std::size_t send_start(int i, int j) const {
    std::size_t s = 0;
    for (int k = 0; k < j; ++k) s += counts[std::size_t(i)][std::size_t(k)];
    return s;
  }
  // Bytes before the piece within its 256-byte boundary (0 when not aligned).
  std::size_t phase(int i, int j, std::size_t elem) const { return aligned ? send_start(i, j) * elem % 256 : 0; }
  // Byte offset of the slot on rank r for the piece from rank j.
  std::size_t slot(int r, int j, std::size_t elem) const {
    std::size_t off = 0;
    for (int k = 0; k < j; ++k) {
      off += phase(k, r, elem) + counts[std::size_t(k)][std::size_t(r)] * elem;
      if (aligned) off = (off + 255) / 256 * 256;
    }
    return off;
  }
  // Element index on rank r where the piece from rank j begins.
  std::size_t run_start(int r, int j, std::size_t elem) const { return (slot(r, j, elem) + phase(j, r, elem)) / elem; }
  // Receive buffer bytes a rank needs for `cap` elements.
  static std::size_t recv_bytes(std::size_t cap, std::size_t elem, int g, bool aligned) {
    return cap * elem + (aligned ? std::size_t(g) * 512 : 0);
  }
};

// One buffer pair per local member and its element size: keys, then values.
struct Plane {
  std::vector<const void*> send;
  std::vector<void*> recv;
  std::size_t elem = 0;
};

// The all-to-all: every plane's pieces to other ranks in one NCCL group
// (grouped ncclSend/ncclRecv), the piece a rank keeps by a device copy.
// keep_in_place: the kept piece is not copied (the caller reads it where it is).
inline void exchange(const Team& t, const ExchangePlan& plan, const std::vector<Plane>& planes, bool keep_in_place) {
  const auto& api = nccl::api();
  for (std::size_t m = 0; m < t.local.size() && !keep_in_place; ++m) {
    const int r = t.local[m].rank;
    cuda_check(cudaSetDevice(t.local[m].device), "cudaSetDevice");
    for (const Plane& pl : planes) {
      const std::size_t c = plan.counts[std::size_t(r)][std::size_t(r)] * pl.elem;
      if (c)
        cuda_check(cudaMemcpyAsync(static_cast<char*>(pl.recv[m]) + plan.run_start(r, r, pl.elem) * pl.elem,
                                   static_cast<const char*>(pl.send[m]) + plan.send_start(r, r) * pl.elem, c,
                                   cudaMemcpyDeviceToDevice, t.local[m].stream), "the kept piece");
    }
  }
  nccl::check(api.GroupStart(), "ncclGroupStart");
  for (std::size_t m = 0; m < t.local.size(); ++m) {
    const int r = t.local[m].rank;
    for (const Plane& pl : planes)
      for (int j = 0; j < t.world; ++j) {
        if (j == r) continue;
        const std::size_t sc = plan.counts[std::size_t(r)][std::size_t(j)], rc = plan.counts[std::size_t(j)][std::size_t(r)];
        if (sc) {
          const std::size_t ph = plan.phase(r, j, pl.elem);
          nccl::check(api.Send(static_cast<const char*>(pl.send[m]) + plan.send_start(r, j) * pl.elem - ph,
                               ph + sc * pl.elem, ncclUint8, j, t.local[m].comm, t.local[m].stream), "ncclSend",
                      t.local[m].comm);
        }
        if (rc)
          nccl::check(api.Recv(static_cast<char*>(pl.recv[m]) + plan.slot(r, j, pl.elem),
                               plan.phase(j, r, pl.elem) + rc * pl.elem, ncclUint8, j, t.local[m].comm,
                               t.local[m].stream), "ncclRecv", t.local[m].comm);
      }
  }
  nccl::check(api.GroupEnd(), "ncclGroupEnd");
}
#endif

// counts[i][j]: elements rank i sends rank j, from every rank's split
// positions (g + 1 each: 0, the boundaries, n_i).
inline std::vector<std::vector<std::size_t>> counts_from_splits(const std::vector<std::uint64_t>& splits, int g) {
  std::vector<std::vector<std::size_t>> c(std::size_t(g), std::vector<std::size_t>(std::size_t(g), 0));
  for (int i = 0; i < g; ++i)
    for (int j = 0; j < g; ++j)
      c[std::size_t(i)][std::size_t(j)] = std::size_t(splits[std::size_t(i) * std::size_t(g + 1) + std::size_t(j) + 1] -
                                                      splits[std::size_t(i) * std::size_t(g + 1) + std::size_t(j)]);
  return c;
}

inline std::size_t received(const std::vector<std::vector<std::size_t>>& c, int rank) {
  std::size_t s = 0;
  for (const auto& row : c) s += row[std::size_t(rank)];
  return s;
}

inline std::size_t sent_to_others(const std::vector<std::vector<std::size_t>>& c, int rank) {
  std::size_t s = 0;
  for (std::size_t j = 0; j < c.size(); ++j)
    if (int(j) != rank) s += c[std::size_t(rank)][j];
  return s;
}

}  // namespace sortbench::distributed
