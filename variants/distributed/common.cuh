// Building blocks of the distributed family (issue 16): the local radix sort
// (this GPU's tuned radix point, through the registry), NCCL exchanges,
// per-phase events, and a stable class partition. Collectives are NCCL's;
// nothing here reimplements one.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/device/device_merge.cuh>
#include <cub/device/device_scan.cuh>
#include <thrust/iterator/zip_iterator.h>

#include "sortbench/device.hpp"
#include "sortbench/device/key_traits.cuh"
#include "sortbench/distributed.hpp"
#include "sortbench/nccl.hpp"
#include "sortbench/best_json.hpp"
#include "sortbench/traffic.hpp"
#include "radix/common/radix_common.cuh"

namespace sortbench::distributed {

// The current GPU's model; empty without a GPU (a dry run plans without one:
// the local sort is the default point).
inline std::string current_gpu_model() {
  int dev = 0;
  cudaDeviceProp prop{};
  if (cudaGetDevice(&dev) == cudaSuccess && cudaGetDeviceProperties(&prop, dev) == cudaSuccess)
    return device_model_slug(prop.name);
  cudaGetLastError();
  return {};
}

// What each GPU sorts its keys with (sortbench/distributed.hpp).
inline const VariantInfo* local_sort_variant(const Problem& p) {
  return sortbench::local_sort_variant(p, current_gpu_model());
}

// Why the family cannot run here (NCCL missing, no local radix sort for the
// problem); empty when it can.
inline std::string unavailable(const Problem& p) {
  std::string why;
  if (!nccl::available(&why)) return why;
  return local_sort_unavailable(p, current_gpu_model());
}

// Keys moved through device memory per key, end to end, for GB/s: each pass
// of the local sort, the partition or merge, and the bytes sent.
inline double key_value_bytes(const Problem& p) { return double(key_bytes(p.key) + value_bytes(p.value)); }

using Layout = radix::TempLayout;  // offsets into one temp allocation, 256-byte aligned


// local_sort_variant(p) sorting `n` keys on one GPU, one instance per size
// (the sizes of a run repeat in every sample). Chosen once for the problem, so
// every GPU of a process and every size sorts with the same point.
class LocalSort {
 public:
  explicit LocalSort(const Problem& p) : base_(p) {
    base_.gpus = 1;
    v_ = local_sort_variant(p);
    if (!v_) throw std::runtime_error("no radix family default point (the local sort)");
  }
  std::size_t temp_bytes(std::size_t n) { return n ? instance(n).temp_bytes(Buffers{}, nullptr) : 0; }
  void run(std::size_t n, void* kin, void* kout, void* vin, void* vout, void* temp, std::size_t temp_bytes,
           cudaStream_t s) {
    if (!n) return;
    instance(n).run(Buffers{kin, kout, vin, vout}, temp, temp_bytes, s);
  }
  const std::string& label() const { return v_->label; }

 private:
  // One instance per GPU and size: an instance sets its kernels' shared
  // memory limits on the GPU that is current when it is made, and a GPU of
  // the process may get a size no other does. A size past the pick's cap (a
  // shard after an uneven exchange) sorts with the family's default point,
  // which takes every size.
  Instance& instance(std::size_t n) {
    int dev = 0;
    cuda_check(cudaGetDevice(&dev), "local sort: cudaGetDevice");
    auto& slot = by_n_[{dev, n}];
    if (!slot) {
      Problem p = base_;
      p.n = n;
      const VariantInfo* v = v_;
      if (!v->skip_reason(p).empty())
        if (const VariantInfo* d = Registry::instance().family_default("radix"); d && d->skip_reason(p).empty()) v = d;
      slot = v->make(p);
    }
    return *slot;
  }
  Problem base_;
  const VariantInfo* v_ = nullptr;
  std::map<std::pair<int, std::size_t>, std::unique_ptr<Instance>> by_n_;
};

// Events between phases on every local GPU; a phase's time is the slowest GPU's.
class PhaseClock {
 public:
  explicit PhaseClock(std::vector<std::string> names) : names_(std::move(names)) {}
  ~PhaseClock() {
    for (std::size_t m = 0; m < events_.size(); ++m) {
      cudaSetDevice(devices_[m]);
      for (cudaEvent_t e : events_[m]) cudaEventDestroy(e);
    }
  }
  void mark(const Team& t, std::size_t member, std::size_t boundary) {
    if (events_.empty()) {
      events_.resize(t.local.size());
      for (std::size_t m = 0; m < t.local.size(); ++m) {
        devices_.push_back(t.local[m].device);
        cuda_check(cudaSetDevice(t.local[m].device), "cudaSetDevice");
        events_[m].resize(names_.size() + 1);
        for (auto& e : events_[m]) cuda_check(cudaEventCreate(&e), "phase event");
      }
    }
    cuda_check(cudaSetDevice(t.local[member].device), "cudaSetDevice");
    cuda_check(cudaEventRecord(events_[member][boundary], t.local[member].stream), "phase event");
  }
  void mark_all(const Team& t, std::size_t boundary) {
    for (std::size_t m = 0; m < t.local.size(); ++m) mark(t, m, boundary);
  }
  std::vector<std::pair<std::string, double>> read() const {
    std::vector<std::pair<std::string, double>> out;
    if (events_.empty()) return out;
    for (std::size_t k = 0; k < names_.size(); ++k) {
      double slowest = 0;
      for (std::size_t m = 0; m < events_.size(); ++m) {
        cudaSetDevice(devices_[m]);
        float ms = 0;
        if (cudaEventElapsedTime(&ms, events_[m][k], events_[m][k + 1]) != cudaSuccess) {
          cudaGetLastError();
          return {};
        }
        slowest = std::max(slowest, double(ms));
      }
      out.emplace_back(names_[k], slowest);
    }
    return out;
  }

 private:
  std::vector<std::string> names_;
  std::vector<int> devices_;
  std::vector<std::vector<cudaEvent_t>> events_;
};

// What every design shares: the run dispatched on the key and value types to
// Derived::run_typed<T, V>, and the parts, phases and bytes sent it records.
template <class Derived>
class TypedDistributedSort : public DistributedInstance {
 public:
  TypedDistributedSort(const Problem& p, std::vector<std::string> phases) : p_(p), clock_(std::move(phases)) {}
  std::vector<Part> parts() const override { return parts_; }
  std::vector<std::pair<std::string, double>> phases() const override { return clock_.read(); }
  std::vector<std::size_t> bytes_sent() const override { return sent_; }
  std::string local_sort() const override { return static_cast<const Derived*>(this)->local_.label(); }

 protected:
  void dispatch(const Team& team, const std::vector<Shard>& shards) {
#if defined(SORTBENCH_HAVE_NCCL)
    with_key_type_in<WordKeyTypes>(p_.key, [&](auto tag) {
      using T = typename decltype(tag)::type;
      with_value_type(p_.value, [&](auto vtag) {
        using V = typename decltype(vtag)::type;
        static_cast<Derived*>(this)->template run_typed<T, V>(team, shards);
      });
    });
#else
    (void)team;
    (void)shards;
    throw std::runtime_error("built without NCCL");
#endif
  }
  Problem p_;
  PhaseClock clock_;
  std::vector<Part> parts_;
  std::vector<std::size_t> sent_;
};

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

struct Sample {
  std::uint64_t bits;  // ordered key bits (ordered_bits: ascending in the requested order)
  std::uint64_t pos;   // position in the rank's sorted shard
  std::uint32_t rank;
  std::uint32_t valid;
};

__host__ __device__ inline bool sample_less(const Sample& a, const Sample& b) {
  if (a.bits != b.bits) return a.bits < b.bits;
  if (a.rank != b.rank) return a.rank < b.rank;
  return a.pos < b.pos;
}

template <class T>
// Regular positions (a sorted shard: its quantiles) or, `scattered`,
// positions drawn by a fixed hash of (rank, j): an unsorted shard's samples
// then do not depend on how the input is laid out.
__global__ void draw_samples_kernel(const T* keys, std::size_t n, int s, std::uint32_t rank, bool desc, Sample* out,
                                    bool scattered = false) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= s) return;
  if (n == 0) {
    out[j] = {0, 0, rank, 0};
    return;
  }
  std::size_t pos = std::size_t((2 * (unsigned __int128)j + 1) * n / (2 * unsigned(s)));
  if (scattered) {
    std::uint64_t z = (std::uint64_t(rank) << 32 | std::uint32_t(j)) + 0x9E3779B97F4A7C15ull;  // splitmix64
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    pos = std::size_t((z ^ (z >> 31)) % n);
  }
  const T* sorted = keys;
  out[j] = {std::uint64_t(ordered_bits(sorted[pos], desc)), pos, rank, 1};
}

// Every g-th of the gathered samples in (key, rank, position) order: g - 1
// splitters (all past every key when there are no samples: no keys).
inline std::vector<Sample> pick_splitters(const std::vector<char>& raw, int g) {
  std::vector<Sample> all(raw.size() / sizeof(Sample)), valid;
  std::memcpy(all.data(), raw.data(), all.size() * sizeof(Sample));
  for (const auto& x : all)
    if (x.valid) valid.push_back(x);
  std::sort(valid.begin(), valid.end(), [](const Sample& a, const Sample& b) { return sample_less(a, b); });
  std::vector<Sample> splitters(std::size_t(g - 1), Sample{~0ull, ~0ull, ~0u, 1});
  for (int b = 1; b < g && !valid.empty(); ++b)
    splitters[std::size_t(b - 1)] = valid[valid.size() * std::size_t(b) / std::size_t(g)];
  return splitters;
}

// The class (destination GPU) of key k at index i of rank r's shard among
// splitters (key, rank, position): those of ranks below r take equal keys
// to the left, those above to the right, r's own by position.
inline constexpr int kMaxSplitters = 7;
template <class T>
struct SplitterClassify {
  int g;
  bool desc;
  int mode[kMaxSplitters];  // 0: left when ob <= bits; 1: ob < bits; 2: ob < bits, or equal and i < pos
  std::uint64_t bits[kMaxSplitters], pos[kMaxSplitters];
  static SplitterClassify make(const std::vector<Sample>& sp, int rank, int g, bool desc) {
    SplitterClassify c{};
    c.g = g;
    c.desc = desc;
    for (std::size_t b = 0; b < sp.size(); ++b) {
      c.mode[b] = int(sp[b].rank) > rank ? 0 : int(sp[b].rank) < rank ? 1 : 2;
      c.bits[b] = sp[b].bits;
      c.pos[b] = sp[b].pos;
    }
    return c;
  }
  __host__ __device__ int classes() const { return g; }
  __device__ int operator()(const T& k, std::size_t i) const {
    const std::uint64_t ob = ordered_bits(k, desc);
    for (int b = 0; b < g - 1; ++b) {
      const bool left = mode[b] == 0 ? ob <= bits[b] : mode[b] == 1 ? ob < bits[b] : (ob < bits[b] || (ob == bits[b] && i < pos[b]));
      if (left) return b;
    }
    return g - 1;
  }
};

// Two sorted runs merged by (ordered key, value): values are global indices,
// so the merge is stable (cub::DeviceMerge alone is not).
template <class T>
struct KeyOrder {
  bool desc;
  __host__ __device__ bool operator()(const T& a, const T& b) const { return ordered_bits(a, desc) < ordered_bits(b, desc); }
};
template <class T, class V>
struct KeyThenValue {
  bool desc;
  template <class Tuple>
  __host__ __device__ bool operator()(const Tuple& a, const Tuple& b) const {
    const auto ka = ordered_bits(T(thrust::get<0>(a)), desc), kb = ordered_bits(T(thrust::get<0>(b)), desc);
    return ka != kb ? ka < kb : V(thrust::get<1>(a)) < V(thrust::get<1>(b));
  }
};

template <class T, class V>
cudaError_t merge_runs(void* temp, std::size_t& bytes, const T* k0, const V* v0, std::size_t n0, const T* k1,
                       const V* v1, std::size_t n1, T* kout, V* vout, bool desc, cudaStream_t s) {
  if constexpr (kHasValues<V>) {
    auto in0 = thrust::make_zip_iterator(k0, v0);
    auto in1 = thrust::make_zip_iterator(k1, v1);
    auto out = thrust::make_zip_iterator(kout, vout);
    return cub::DeviceMerge::MergeKeys(temp, bytes, in0, std::int64_t(n0), in1, std::int64_t(n1), out,
                                       KeyThenValue<T, V>{desc}, s);
  } else {
    return cub::DeviceMerge::MergeKeys(temp, bytes, k0, std::int64_t(n0), k1, std::int64_t(n1), kout, KeyOrder<T>{desc}, s);
  }
}

// merge_runs's temporary bytes for two runs of `cap` elements in all, of the problem's types.
inline std::size_t merge_temp_bytes(const Problem& p, std::size_t cap) {
  std::size_t bytes = 0;
  with_key_type_in<WordKeyTypes>(p.key, [&](auto tag) {
    using T = typename decltype(tag)::type;
    with_value_type(p.value, [&](auto vtag) {
      using V = typename decltype(vtag)::type;
      const T* k = nullptr;
      const V* v = nullptr;
      cuda_check(merge_runs<T, V>(nullptr, bytes, k, v, cap / 2, k, v, cap - cap / 2, static_cast<T*>(nullptr),
                                  static_cast<V*>(nullptr), false, nullptr),
                 "merge temp");
    });
  });
  return bytes;
}

// Each rank's plan of its temporary storage, made once (the first temp_bytes
// query or warm-up run), so no timed run spends host time on CUB's size queries.
template <class Plan>
class PlanPerRank {
 public:
  template <class Make>
  const Plan& get(int rank, Make&& make) {
    auto it = plans_.find(rank);
    if (it == plans_.end()) it = plans_.emplace(rank, make(rank)).first;
    return it->second;
  }

 private:
  std::map<int, Plan> plans_;
};

// --- stable class partition ----------------------------------------------
// Each key gets a class 0..C-1 (a functor of its key); the keys of class c
// end up contiguous, in class order, each class in input order. Per tile of
// 4096 keys (256 threads x 16 consecutive keys each): a count per class, an
// exclusive scan over the class-major tile table, then a scatter that ranks
// the tile's keys per class with one block scan of per-thread class counts,
// stages them in shared memory in their output order, and writes each class's
// run out coalesced.
inline constexpr int kPartitionThreads = 256;
inline constexpr int kPartitionItems = 16;
inline constexpr int kPartitionTile = kPartitionThreads * kPartitionItems;
inline constexpr int kMaxClasses = 16;

inline std::size_t partition_tiles(std::size_t n) { return (n + kPartitionTile - 1) / kPartitionTile; }

// Per-class counts of up to 2^16 - 1 keys, 16 bits each, four to a word: what one block scan adds.
template <int W>
struct ClassCounts {
  unsigned long long w[W];
  __device__ void clear() {
    for (auto& x : w) x = 0;
  }
  __device__ void add(int c) { w[c >> 2] += 1ull << (16 * (c & 3)); }
  __device__ unsigned get(int c) const { return unsigned(w[c >> 2] >> (16 * (c & 3))) & 0xffffu; }
  __device__ ClassCounts operator+(const ClassCounts& o) const {
    ClassCounts r;
    for (int i = 0; i < W; ++i) r.w[i] = w[i] + o.w[i];
    return r;
  }
};
struct ClassCountsSum {
  template <class Counts>
  __device__ Counts operator()(const Counts& a, const Counts& b) const { return a + b; }
};

template <int W, class T, class Classify>
__global__ void __launch_bounds__(kPartitionThreads)
    class_count_kernel(const T* keys, std::size_t n, Classify classify, std::size_t tiles,
                       unsigned long long* counts) {
  using ClassCounts = distributed::ClassCounts<W>;
  using Reduce = cub::BlockReduce<ClassCounts, kPartitionThreads>;
  __shared__ typename Reduce::TempStorage tmp;
  const int C = classify.classes();
  const std::size_t first = std::size_t(blockIdx.x) * kPartitionTile + std::size_t(threadIdx.x) * kPartitionItems;
  ClassCounts mine;
  mine.clear();
#pragma unroll
  for (int i = 0; i < kPartitionItems; ++i)
    if (first + i < n) mine.add(classify(keys[first + i], first + i));
  const ClassCounts tile = Reduce(tmp).Reduce(mine, ClassCountsSum{});
  if (threadIdx.x == 0)
    for (int c = 0; c < C; ++c) counts[std::size_t(c) * tiles + blockIdx.x] = tile.get(c);
}

// Where each class begins in the output: the scan at the class's first tile.
static __global__ void class_starts_kernel(const unsigned long long* offsets, std::size_t tiles, int classes,
                                    unsigned long long* starts) {
  if (threadIdx.x < classes) starts[threadIdx.x] = offsets[std::size_t(threadIdx.x) * tiles];
}

template <int W, class T, class V, class Classify>
__global__ void __launch_bounds__(kPartitionThreads)
    class_scatter_kernel(const T* kin, const V* vin, T* kout, V* vout, std::size_t n, Classify classify,
                         std::size_t tiles, const unsigned long long* offsets) {
  using ClassCounts = distributed::ClassCounts<W>;
  using Scan = cub::BlockScan<ClassCounts, kPartitionThreads>;
  constexpr std::size_t kStageBytes = kPartitionTile * (sizeof(T) > sizeof(V) ? sizeof(T) : sizeof(V));
  __shared__ typename Scan::TempStorage tmp;
  __shared__ __align__(16) unsigned char stage[kStageBytes];
  __shared__ unsigned tile_start[kMaxClasses + 1];
  __shared__ unsigned long long base[kMaxClasses];
  const int C = classify.classes();
  const std::size_t tile_first = std::size_t(blockIdx.x) * kPartitionTile;
  const std::size_t first = tile_first + std::size_t(threadIdx.x) * kPartitionItems;
  const unsigned tile_n = unsigned(n - tile_first < std::size_t(kPartitionTile) ? n - tile_first : kPartitionTile);
  T k[kPartitionItems];
  int c[kPartitionItems];
  ClassCounts mine;
  mine.clear();
#pragma unroll
  for (int i = 0; i < kPartitionItems; ++i) {
    c[i] = -1;
    if (first + i < n) {
      k[i] = kin[first + i];
      c[i] = classify(k[i], first + i);
      mine.add(c[i]);
    }
  }
  ClassCounts before, total;
  Scan(tmp).ExclusiveScan(mine, before, ClassCounts{}, ClassCountsSum{}, total);
  if (threadIdx.x == 0) {
    unsigned run = 0;
    for (int cls = 0; cls < C; ++cls) {
      tile_start[cls] = run;
      run += total.get(cls);
    }
    tile_start[C] = run;
  }
  if (threadIdx.x < C) base[threadIdx.x] = offsets[std::size_t(threadIdx.x) * tiles + blockIdx.x];
  __syncthreads();
  unsigned short at[kPartitionItems];
  T* sk = reinterpret_cast<T*>(stage);
#pragma unroll
  for (int i = 0; i < kPartitionItems; ++i)
    if (c[i] >= 0) {
      at[i] = (unsigned short)(tile_start[c[i]] + before.get(c[i]));
      before.add(c[i]);
      sk[at[i]] = k[i];
    }
  __syncthreads();
  // Out in staged order: position q belongs to the class whose range holds it.
  auto out_index = [&](unsigned q) {
    int cls = 0;
    while (tile_start[cls + 1] <= q) ++cls;
    return base[cls] + (q - tile_start[cls]);
  };
  for (unsigned q = threadIdx.x; q < tile_n; q += kPartitionThreads) kout[out_index(q)] = sk[q];
  if constexpr (kHasValues<V>) {
    __syncthreads();
    V* sv = reinterpret_cast<V*>(stage);
#pragma unroll
    for (int i = 0; i < kPartitionItems; ++i)
      if (c[i] >= 0) sv[at[i]] = vin[first + i];
    __syncthreads();
    for (unsigned q = threadIdx.x; q < tile_n; q += kPartitionThreads) vout[out_index(q)] = sv[q];
  }
}

// The partition's temp: the tile x class table twice (counts, offsets), the
// class starts, and the scan's own storage.
struct ClassPartitionTemp {
  std::size_t counts = 0, offsets = 0, starts = 0, scan = 0, scan_bytes = 0;
  static ClassPartitionTemp plan(Layout& layout, std::size_t n, int classes) {
    ClassPartitionTemp t;
    const std::size_t cells = std::max<std::size_t>(1, partition_tiles(n) * std::size_t(classes));
    t.counts = layout.add(cells * 8);
    t.offsets = layout.add(cells * 8);
    t.starts = layout.add(kMaxClasses * 8);
    cub::DeviceScan::ExclusiveSum(nullptr, t.scan_bytes, static_cast<unsigned long long*>(nullptr),
                                  static_cast<unsigned long long*>(nullptr), cells);
    t.scan = layout.add(t.scan_bytes);
    return t;
  }
};

// Enqueues the partition of n keys (and values) of kin into kout by class on
// s; class_starts() then reads where each class begins (it waits for s), so
// several GPUs partition at once.
template <class T, class V, class Classify>
void class_partition(const T* kin, const V* vin, T* kout, V* vout, std::size_t n, const Classify& classify,
                     char* temp, const ClassPartitionTemp& at, cudaStream_t s) {
  const int C = classify.classes();
  if (n == 0) return;
  const std::size_t tiles = partition_tiles(n);
  auto* counts = reinterpret_cast<unsigned long long*>(temp + at.counts);
  auto* offsets = reinterpret_cast<unsigned long long*>(temp + at.offsets);
  // One word of counts for up to four classes (two GPUs), four words for more.
  auto launch = [&](auto words) {
    constexpr int W = decltype(words)::value;
    class_count_kernel<W, T><<<unsigned(tiles), kPartitionThreads, 0, s>>>(kin, n, classify, tiles, counts);
    cuda_check(cudaGetLastError(), "class count");
    std::size_t scan_bytes = at.scan_bytes;
    cuda_check(cub::DeviceScan::ExclusiveSum(temp + at.scan, scan_bytes, counts, offsets, tiles * std::size_t(C), s),
               "class offsets");
    class_scatter_kernel<W, T, V><<<unsigned(tiles), kPartitionThreads, 0, s>>>(kin, vin, kout, vout, n, classify,
                                                                                tiles, offsets);
    cuda_check(cudaGetLastError(), "class scatter");
  };
  if (C <= 4) launch(std::integral_constant<int, 1>{});
  else launch(std::integral_constant<int, kMaxClasses / 4>{});
  class_starts_kernel<<<1, 32, 0, s>>>(offsets, tiles, C, reinterpret_cast<unsigned long long*>(temp + at.starts));
  cuda_check(cudaGetLastError(), "class starts");
}

// start[c] for c = 0..C (start[C] = n), after class_partition on s.
inline std::vector<std::uint64_t> class_starts(const char* temp, const ClassPartitionTemp& at, int classes, std::size_t n,
                                               cudaStream_t s) {
  std::vector<std::uint64_t> start(std::size_t(classes) + 1, 0);
  if (n) {
    cuda_check(cudaMemcpyAsync(start.data(), temp + at.starts, std::size_t(classes) * 8, cudaMemcpyDeviceToHost, s),
               "class starts");
    cuda_check(cudaStreamSynchronize(s), "class starts");
  }
  start[std::size_t(classes)] = n;
  return start;
}

}  // namespace sortbench::distributed
