// The link between the GPUs of a group (link_measurement.hpp): NCCL's
// all-to-all at the size a distributed point sends, aligned and not, and peer
// copies one way and both ways, each the median of ten group-clocked runs.
#include "link_measurement.hpp"

#include "sortbench/device_buffer.hpp"
#include "sortbench/nccl.hpp"
#include "sortbench/stats.hpp"
#include "sortbench/worker.hpp"

namespace sortbench {

LinkMeasurement time_link(GpuGroup& s, std::size_t bytes, const std::string& unavailable) {
  LinkMeasurement L;
  L.devices = s.devices;
  L.bytes = bytes;
  L.topology = worker::command_output("nvidia-smi topo -m 2>/dev/null");
  if (!unavailable.empty()) {
    L.error = unavailable;
    return L;
  }
  const int g = s.g();
  const std::size_t local = s.local();
  if (g < 2 || bytes == 0) return L;
  if (s.one_per_process) L.devices = s.gather_values(s.devices);
  std::vector<DeviceBuffer> send(local), recv(local);
  std::string why;
  for (std::size_t i = 0; i < local; ++i)
    if (!send[i].alloc(s.devices[i], bytes) || !recv[i].alloc(s.devices[i], bytes))
      why = "out of device memory for 2 x " + gib(double(bytes)) + " GiB per GPU";
  if (s.max_over_ranks(why.empty() ? 0 : 1) > 0) {
    L.error = why.empty() ? "another rank is out of device memory" : why;
    return L;
  }
  auto median_of = [&](auto&& once) {
    std::vector<double> t;
    once();  // warm-up
    s.sync_all();
    for (int k = 0; k < 10; ++k) {
      s.record_start();
      once();
      t.push_back(double(s.record_stop_and_wait()));
    }
    return summarize(t).median;
  };
  try {
#if defined(SORTBENCH_HAVE_NCCL)
    // All-to-all first: NCCL enables peer access as it connects the GPUs (at
    // its first exchange), and until then a peer copy is staged through the
    // host (38 GB/s against 395 on NV18, in the first workload of a run).
    // All-to-all: each GPU sends a g-th of its buffer to every GPU (itself
    // included); then the same from and to addresses 4 bytes past 256-byte
    // boundaries, as arbitrary split positions of 32-bit keys leave them.
    const std::size_t chunk = bytes / std::size_t(g) / 256 * 256;
    auto alltoall = [&](std::size_t skew) {
      return median_of([&] {
        nccl::check(nccl::api().GroupStart(), "ncclGroupStart");
        for (std::size_t i = 0; i < local; ++i) {
          const auto& mbr = s.team.local[i];
          for (int j = 0; j < g; ++j) {
            nccl::check(nccl::api().Send(static_cast<char*>(send[i].p) + std::size_t(j) * chunk + skew, chunk - skew,
                                         ncclInt8, j, mbr.comm, mbr.stream), "ncclSend", mbr.comm);
            nccl::check(nccl::api().Recv(static_cast<char*>(recv[i].p) + std::size_t(j) * chunk + skew, chunk - skew,
                                         ncclInt8, j, mbr.comm, mbr.stream), "ncclRecv", mbr.comm);
          }
        }
        nccl::check(nccl::api().GroupEnd(), "ncclGroupEnd");
      });
    };
    if (chunk > 256) {
      L.alltoall_ms = alltoall(0);
      L.alltoall_gb_per_s = double(chunk) * double(g - 1) / (L.alltoall_ms * 1e-3) / 1e9;
      L.alltoall_unaligned_gb_per_s = double(chunk - 4) * double(g - 1) / (alltoall(4) * 1e-3) / 1e9;
    }
#endif
    // Peer copies, first to second, then both ways at once: GPUs of one process only.
    if (local >= 2) {
      int can = 0;
      cudaDeviceCanAccessPeer(&can, s.devices[0], s.devices[1]);
      L.peer_access = can != 0;
      L.peer_copy_ms = median_of([&] {
        s.set(0);
        cuda_check(cudaMemcpyPeerAsync(recv[1].p, s.devices[1], send[0].p, s.devices[0], bytes, s.team.local[0].stream),
                   "peer copy");
      });
      L.peer_copy_gb_per_s = double(bytes) / (L.peer_copy_ms * 1e-3) / 1e9;
      const double both = median_of([&] {
        s.set(0);
        cuda_check(cudaMemcpyPeerAsync(recv[1].p, s.devices[1], send[0].p, s.devices[0], bytes, s.team.local[0].stream),
                   "peer copy");
        s.set(1);
        cuda_check(cudaMemcpyPeerAsync(recv[0].p, s.devices[0], send[1].p, s.devices[1], bytes, s.team.local[1].stream),
                   "peer copy");
      });
      L.bidir_peer_copy_gb_per_s = double(bytes) / (both * 1e-3) / 1e9;
    }
  } catch (const std::exception& e) {
    L.error = e.what();
  }
  return L;
}

}  // namespace sortbench
