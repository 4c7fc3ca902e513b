// Sample sort across GPUs, PMPP 13.8 (seed 000) with one GPU per bucket:
// each GPU sorts its shard with its tuned radix point (LocalSort), draws
// regular samples from it (oversampling), the samples are all-gathered
// (NCCL) and g - 1 splitters picked, each GPU cuts its sorted shard at the
// splitters (binary search), the pieces go to their GPUs over NCCL (grouped
// ncclSend/ncclRecv), and each GPU merges what it received with
// cub::DeviceMerge: two runs at once; g runs pairwise, in ceil(log2 g)
// passes over its part, where a second radix sort of the part would read and
// write it once per digit.
//
// In pieces (`pieces` > 1): g * pieces - 1 splitters cut each GPU's part into
// sub-buckets, and the exchange moves one sub-bucket of every part per round
// on a stream of its own, while the GPU merges the runs of the rounds that
// have arrived; only the last piece's merge is left when the last round
// lands (piece_schedule.hpp). With a taper below 100 % the rounds shrink,
// so that last merge is a smaller one.
//
// By copy engines (`peer_copy_*`): where this process drives every GPU and
// each pair has peer access, every piece is one cudaMemcpyPeerAsync, so the
// exchange takes no SMs from the merges behind it (NCCL's all-to-all takes
// SMs, and shares the GPU with them at 0.85-0.9 of the link on four GPUs).
// `concurrent`: a stream per (sender, receiver) pair, every peer at once;
// `shifted`: one stream per sender, which sends to rank r + 1, r + 2, ...
// (mod g) in turn, so while the GPUs keep pace each receives from one
// sender at a time. Between processes the rounds go over NCCL as above.
//
// Splitters are (key, rank, position) triples, compared in that order, so
// equal keys are cut between GPUs too: all-equal keys still spread evenly,
// and a key's global index order survives (stable with the merge by key and
// then index).
#include <algorithm>
#include <cstring>

#include "local_sort.cuh"
#include "distributed_sort.cuh"
#include "exchange.cuh"
#include "piece_schedule.hpp"
#include "splitters.cuh"
#include "merge_runs.cuh"

namespace sortbench::distributed {
namespace {

struct SampleSortPolicy {
  int samples_per_gpu;
  int pieces;         // sub-buckets per GPU's part: rounds of the exchange
  int taper_percent;  // each round's share of the part against the round before's (round_weights)
  enum class Exchange { nccl, peer_copy_concurrent, peer_copy_shifted } exchange;
};

// split[b] = how many of the rank's sorted keys come before splitter b.
template <class T>
__global__ void cut_kernel(const T* sorted, std::size_t n, std::uint32_t rank, bool desc, const Sample* splitters,
                           int count, std::uint64_t* split) {
  const int b = blockIdx.x * blockDim.x + threadIdx.x;
  if (b > count + 1) return;
  if (b == 0) split[0] = 0;
  if (b == count + 1) split[count + 1] = n;
  if (b == 0 || b == count + 1) return;
  const Sample sp = splitters[b - 1];
  std::size_t lo = 0, hi = n;
  while (lo < hi) {
    const std::size_t mid = lo + (hi - lo) / 2;
    const Sample e{std::uint64_t(ordered_bits(sorted[mid], desc)), mid, rank, 1};
    if (sample_less(e, sp)) lo = mid + 1;
    else hi = mid;
  }
  split[b] = lo;
}

// A stream and events per local GPU for the rounds of the exchange, made on
// the first run. The stream has the highest priority, so NCCL's kernels are
// not left waiting behind the merges' blocks.
class RoundStreams {
 public:
  ~RoundStreams() {
    for (std::size_t m = 0; m < devices_.size(); ++m) {
      cudaSetDevice(devices_[m]);
      for (cudaEvent_t e : arrived_[m]) cudaEventDestroy(e);
      cudaEventDestroy(ready_[m]);
      cudaStreamDestroy(streams_[m]);
    }
  }
  void ensure(const Team& t, int rounds) {
    if (!devices_.empty()) return;
    for (const auto& member : t.local) {
      cuda_check(cudaSetDevice(member.device), "cudaSetDevice");
      int least = 0, greatest = 0;
      cuda_check(cudaDeviceGetStreamPriorityRange(&least, &greatest), "stream priorities");
      cudaStream_t s = nullptr;
      cuda_check(cudaStreamCreateWithPriority(&s, cudaStreamNonBlocking, greatest), "exchange stream");
      devices_.push_back(member.device);
      streams_.push_back(s);
      ready_.emplace_back();
      cuda_check(cudaEventCreateWithFlags(&ready_.back(), cudaEventDisableTiming), "exchange event");
      arrived_.emplace_back(std::size_t(rounds));
      for (auto& e : arrived_.back()) cuda_check(cudaEventCreateWithFlags(&e, cudaEventDisableTiming), "exchange event");
    }
  }
  cudaStream_t stream(std::size_t m) const { return streams_[m]; }
  cudaEvent_t ready(std::size_t m) const { return ready_[m]; }
  cudaEvent_t arrived(std::size_t m, int round) const { return arrived_[m][std::size_t(round)]; }

 private:
  std::vector<int> devices_;
  std::vector<cudaStream_t> streams_;
  std::vector<cudaEvent_t> ready_;
  std::vector<std::vector<cudaEvent_t>> arrived_;
};

// A stream per (sender, receiver) pair of local GPUs, on the sender (the
// pair (a, a): a's one stream to every peer), and an event per pair and
// round, made on the first run. ensure() is false where some GPU of the
// team is in another process or a pair lacks peer access.
class PeerCopies {
 public:
  ~PeerCopies() {
    for (std::size_t a = 0; a < streams_.size(); ++a) {
      cudaSetDevice(devices_[a]);
      for (std::size_t b = 0; b < streams_[a].size(); ++b) {
        for (cudaEvent_t e : copied_[a][b]) cudaEventDestroy(e);
        if (streams_[a][b]) cudaStreamDestroy(streams_[a][b]);
      }
    }
  }
  bool ensure(const Team& t, int rounds) {
    if (checked_) return usable_;
    checked_ = true;
    const std::size_t L = t.local.size();
    if (int(L) != t.world) return usable_ = false;
    for (std::size_t a = 0; a < L; ++a)
      for (std::size_t b = 0; b < L; ++b) {
        int can = 0;
        if (a != b && (cudaDeviceCanAccessPeer(&can, t.local[a].device, t.local[b].device) != cudaSuccess || !can))
          return usable_ = false;
      }
    for (std::size_t a = 0; a < L; ++a) {
      cuda_check(cudaSetDevice(t.local[a].device), "cudaSetDevice");
      devices_.push_back(t.local[a].device);
      streams_.emplace_back(L, nullptr);
      copied_.emplace_back(L);
      for (std::size_t b = 0; b < L; ++b) {
        cuda_check(cudaStreamCreateWithFlags(&streams_[a][b], cudaStreamNonBlocking), "peer copy stream");
        if (a == b) continue;
        const cudaError_t e = cudaDeviceEnablePeerAccess(t.local[b].device, 0);
        if (e == cudaErrorPeerAccessAlreadyEnabled) cudaGetLastError();
        else cuda_check(e, "cudaDeviceEnablePeerAccess");
        copied_[a][b].resize(std::size_t(rounds));
        for (auto& ev : copied_[a][b]) cuda_check(cudaEventCreateWithFlags(&ev, cudaEventDisableTiming), "peer copy event");
      }
    }
    return usable_ = true;
  }
  // Local members a (sender) and b (receiver).
  cudaStream_t stream(std::size_t a, std::size_t b) const { return streams_[a][b]; }
  cudaEvent_t copied(std::size_t a, std::size_t b, int round) const { return copied_[a][b][std::size_t(round)]; }

 private:
  bool checked_ = false, usable_ = false;
  std::vector<int> devices_;
  std::vector<std::vector<cudaStream_t>> streams_;
  std::vector<std::vector<std::vector<cudaEvent_t>>> copied_;
};

class SampleSort final : public TypedDistributedSort<SampleSort> {
  friend class TypedDistributedSort<SampleSort>;
  using Base = TypedDistributedSort<SampleSort>;
  using Base::clock_;
  using Base::p_;
  using Base::parts_;
  using Base::sent_;

 public:
  SampleSort(const Problem& p, SampleSortPolicy policy)
      : Base(p, {"local_sort", "splitters", "exchange", "merge"}), policy_(policy), local_(p) {
    g_ = p.gpus;
    kb_ = key_bytes(p.key);
    vb_ = value_bytes(p.value);
    // Regular sampling bounds the keys between two splitters by the samples
    // between them plus one sampling interval per rank on each side: a part
    // by n/g, a sub-bucket by n/(g * pieces), each plus 2g intervals.
    std::size_t largest = 0;
    for (int r = 0; r < g_; ++r) largest = std::max(largest, shard_size(p.n, g_, r));
    // The first round's sub-bucket is the largest (round_weights).
    const std::size_t s = std::size_t(policy.samples_per_gpu), interval = largest / s + 2;
    cap_ = (p.n + std::size_t(g_) - 1) / std::size_t(g_) + 2 * std::size_t(g_) * interval + 16;
    std::uint64_t all = 0;
    for (auto w : weights_) all += w;
    const std::size_t first = std::size_t((std::uint64_t(s) * weights_[0] + all - 1) / all);
    piece_cap_ = std::min(cap_, (first + 2 * std::size_t(g_)) * interval + 16);
  }

  std::size_t temp_bytes(int rank) override { return plan(rank).bytes; }

  void run(const Team& team, const std::vector<Shard>& shards) override {
    this->dispatch(team, shards);
  }

 private:
  struct Plan {
    Layout layout;
    std::size_t bytes = 0;
    std::size_t a_keys, a_values, b_keys, b_values, o_keys, o_values, x_keys, x_values, sort_temp, sort_bytes,
        merge_temp, merge_bytes = 0;
    std::size_t samples, gathered, splitters, split, splits_gathered;
  };

  int buckets() const { return g_ * policy_.pieces; }

  const Plan& plan(int rank) { return plans_.get(rank, [this](int r) { return make_plan(r); }); }
  PlanPerRank<Plan> plans_;

  Plan make_plan(int rank) {
    Plan t;
    Layout& l = t.layout;
    const std::size_t n = shard_size(p_.n, g_, rank);
    const int pieces = policy_.pieces;
    // A: the sorted shard (the kept pieces are merged from there); B: the
    // received pieces in their slots; O: the part; X: between the merge
    // passes of more than two runs.
    t.a_keys = l.add(cap_ * kb_);
    t.a_values = l.add(cap_ * vb_);
    t.b_keys = l.add(PieceSchedule::recv_bytes(cap_, kb_, g_, pieces));
    t.b_values = l.add(vb_ ? PieceSchedule::recv_bytes(cap_, vb_, g_, pieces) : 0);
    t.o_keys = l.add(cap_ * kb_);
    t.o_values = l.add(cap_ * vb_);
    t.x_keys = l.add(g_ > 2 ? piece_cap_ * kb_ : 0);
    t.x_values = l.add(g_ > 2 ? piece_cap_ * vb_ : 0);
    t.sort_bytes = local_.temp_bytes(n);
    t.sort_temp = l.add(t.sort_bytes);
    t.merge_bytes = merge_temp_bytes(p_, cap_);
    t.merge_temp = l.add(t.merge_bytes);
    t.samples = l.add(std::size_t(policy_.samples_per_gpu) * sizeof(Sample));
    t.gathered = l.add(std::size_t(g_) * std::size_t(policy_.samples_per_gpu) * sizeof(Sample));
    t.splitters = l.add(std::size_t(buckets()) * sizeof(Sample));
    t.split = l.add(std::size_t(buckets() + 1) * 8);
    t.splits_gathered = l.add(std::size_t(g_) * std::size_t(buckets() + 1) * 8);
    t.bytes = l.bytes;
    return t;
  }

#if defined(SORTBENCH_HAVE_NCCL)
  // Round k of the exchange on every local GPU's round stream: from each
  // rank's A the piece of sub-bucket (j, k) to rank j, into B's slots.
  template <class T, class V>
  void send_round(const Team& team, const std::vector<Plan>& plans, const std::vector<Shard>& shards,
                  const PieceSchedule& ps, int k) {
    auto at = [&](std::size_t m, std::size_t off) { return static_cast<char*>(shards[m].temp) + off; };
    const auto& api = nccl::api();
    nccl::check(api.GroupStart(), "ncclGroupStart");
    for (std::size_t m = 0; m < team.local.size(); ++m) {
      const int r = team.local[m].rank;
      const cudaStream_t c = rounds_.stream(m);
      const std::pair<std::size_t, std::size_t> planes[2] = {{kb_, plans[m].a_keys}, {vb_, plans[m].a_values}};
      const std::size_t recv[2] = {plans[m].b_keys, plans[m].b_values};
      for (int pl = 0; pl < (vb_ ? 2 : 1); ++pl) {
        const std::size_t elem = planes[pl].first;
        for (int j = 0; j < g_; ++j) {
          if (j == r) continue;
          const int out_b = ps.bucket(j, k), in_b = ps.bucket(r, k);
          if (const std::size_t sc = ps.count(r, out_b)) {
            const std::size_t ph = ps.phase(r, out_b, elem);
            nccl::check(api.Send(at(m, planes[pl].second) + ps.start(r, out_b) * elem - ph, ph + sc * elem, ncclUint8, j,
                                 team.local[m].comm, c), "ncclSend", team.local[m].comm);
          }
          if (const std::size_t rc = ps.count(j, in_b))
            nccl::check(api.Recv(at(m, recv[pl]) + ps.slot(r, k, j, elem), ps.phase(j, in_b, elem) + rc * elem, ncclUint8,
                                 j, team.local[m].comm, c), "ncclRecv", team.local[m].comm);
        }
      }
    }
    nccl::check(api.GroupEnd(), "ncclGroupEnd");
    for (std::size_t m = 0; m < team.local.size(); ++m) {
      cuda_check(cudaSetDevice(team.local[m].device), "cudaSetDevice");
      cuda_check(cudaEventRecord(rounds_.arrived(m, k), rounds_.stream(m)), "exchange round");
    }
  }

  // Round k by copy engines: each local GPU's piece of sub-bucket (j, k)
  // straight into rank j's slot, on the pair's stream (shifted: the sender's
  // one stream), which first waits for both GPUs to be ready (the sender's
  // shard sorted and cut, the receiver done with the last run's slots).
  template <class T, class V>
  void copy_round(const Team& team, const std::vector<Plan>& plans, const std::vector<Shard>& shards,
                  const PieceSchedule& ps, int k) {
    auto at = [&](std::size_t m, std::size_t off) { return static_cast<char*>(shards[m].temp) + off; };
    const std::size_t L = team.local.size();
    const bool shifted = policy_.exchange == SampleSortPolicy::Exchange::peer_copy_shifted;
    std::vector<std::size_t> of_rank(L);
    for (std::size_t m = 0; m < L; ++m) of_rank[std::size_t(team.local[m].rank)] = m;
    for (std::size_t m = 0; m < L; ++m) {
      cuda_check(cudaSetDevice(team.local[m].device), "cudaSetDevice");
      const int r = team.local[m].rank;
      for (int shift = 1; shift < g_; ++shift) {
        const std::size_t mj = of_rank[std::size_t((r + shift) % g_)];
        const int j = team.local[mj].rank, b = ps.bucket(j, k);
        const cudaStream_t c = peers_.stream(m, shifted ? m : mj);
        if (k == 0) {
          cuda_check(cudaStreamWaitEvent(c, rounds_.ready(m), 0), "peer copy: ready");
          cuda_check(cudaStreamWaitEvent(c, rounds_.ready(mj), 0), "peer copy: ready");
        }
        const std::size_t src[2] = {plans[m].a_keys, plans[m].a_values}, dst[2] = {plans[mj].b_keys, plans[mj].b_values};
        const std::size_t elems[2] = {kb_, vb_};
        if (const std::size_t sc = ps.count(r, b))
          for (int pl = 0; pl < (vb_ ? 2 : 1); ++pl) {
            const std::size_t elem = elems[pl], ph = ps.phase(r, b, elem);
            cuda_check(cudaMemcpyPeerAsync(at(mj, dst[pl]) + ps.slot(j, k, r, elem), team.local[mj].device,
                                           at(m, src[pl]) + ps.start(r, b) * elem - ph, team.local[m].device,
                                           ph + sc * elem, c),
                       "peer copy");
          }
        cuda_check(cudaEventRecord(peers_.copied(m, mj, k), c), "peer copy");
      }
    }
  }

  // Rank r's runs of round k, in rank order (its own from A, the others from
  // B), merged into `out` (merge_pairwise, X between the passes).
  template <class T, class V>
  void merge_piece(const Plan& t, char* base, const PieceSchedule& ps, int r, int k, T* out_k, V* out_v,
                   cudaStream_t s) {
    const int b = ps.bucket(r, k);
    std::vector<SortedRun<T, V>> runs;
    for (int j = 0; j < g_; ++j) {
      const std::size_t at_k = j == r ? t.a_keys + ps.start(r, b) * kb_ : t.b_keys + ps.run_start(r, k, j, kb_) * kb_;
      const std::size_t at_v = !vb_ ? 0 : j == r ? t.a_values + ps.start(r, b) * vb_ : t.b_values + ps.run_start(r, k, j, vb_) * vb_;
      runs.push_back({reinterpret_cast<const T*>(base + at_k), vb_ ? reinterpret_cast<const V*>(base + at_v) : nullptr,
                      ps.count(j, b)});
    }
    const bool desc = p_.order == Order::descending;
    auto merge = [&](const SortedRun<T, V>& x, const SortedRun<T, V>& y, T* ok, V* ov) {
      std::size_t bytes = t.merge_bytes;
      cuda_check(merge_runs<T, V>(base + t.merge_temp, bytes, x.k, x.v, x.n, y.k, y.v, y.n, ok, ov, desc, s), "merge");
    };
    auto copy = [&](const SortedRun<T, V>& x, T* ok, V* ov) {
      cuda_check(cudaMemcpyAsync(ok, x.k, x.n * kb_, cudaMemcpyDeviceToDevice, s), "merge: copy");
      if (vb_) cuda_check(cudaMemcpyAsync(ov, x.v, x.n * vb_, cudaMemcpyDeviceToDevice, s), "merge: copy");
    };
    merge_pairwise<T, V>(std::move(runs), out_k, out_v, reinterpret_cast<T*>(base + t.x_keys),
                         vb_ ? reinterpret_cast<V*>(base + t.x_values) : nullptr, merge, copy);
  }

  template <class T, class V>
  void run_typed(const Team& team, const std::vector<Shard>& shards) {
    const bool desc = p_.order == Order::descending;
    const std::size_t L = team.local.size();
    const int S = policy_.samples_per_gpu, pieces = policy_.pieces;
    std::vector<Plan> plans;
    for (std::size_t m = 0; m < L; ++m) plans.push_back(plan(team.local[m].rank));
    auto at = [&](std::size_t m, std::size_t off) { return static_cast<char*>(shards[m].temp) + off; };
    auto set = [&](std::size_t m) { cuda_check(cudaSetDevice(team.local[m].device), "cudaSetDevice"); };
    rounds_.ensure(team, pieces);
    const bool by_copy = policy_.exchange != SampleSortPolicy::Exchange::nccl && peers_.ensure(team, pieces);
    clock_.mark_all(team, 0);
    // 1. Sort each shard into A; draw its samples.
    for (std::size_t m = 0; m < L; ++m) {
      set(m);
      const auto& t = plans[m];
      const cudaStream_t s = team.local[m].stream;
      local_.run(shards[m].n, shards[m].keys, at(m, t.a_keys), shards[m].values, vb_ ? at(m, t.a_values) : nullptr,
                 at(m, t.sort_temp), t.sort_bytes, s);
      clock_.mark(team, m, 1);
      draw_samples_kernel<T><<<(S + 255) / 256, 256, 0, s>>>(reinterpret_cast<const T*>(at(m, t.a_keys)), shards[m].n, S,
                                                           std::uint32_t(team.local[m].rank), desc,
                                                           reinterpret_cast<Sample*>(at(m, t.samples)));
      cuda_check(cudaGetLastError(), "draw samples");
    }
    // 2. Splitters: the gathered samples in (key, rank, position) order, at the rounds' shares.
    std::vector<const void*> in(L);
    std::vector<void*> out(L);
    for (std::size_t m = 0; m < L; ++m) in[m] = at(m, plans[m].samples), out[m] = at(m, plans[m].gathered);
    const std::vector<Sample> splitters =
        pick_splitters(allgather_to_host(team, in, out, std::size_t(S) * sizeof(Sample)), g_, weights_);
    for (std::size_t m = 0; m < L; ++m) {
      set(m);
      const auto& t = plans[m];
      const cudaStream_t s = team.local[m].stream;
      cuda_check(cudaMemcpyAsync(at(m, t.splitters), splitters.data(), splitters.size() * sizeof(Sample),
                                 cudaMemcpyHostToDevice, s), "splitters");
      cut_kernel<T><<<(buckets() + 1 + 63) / 64, 64, 0, s>>>(reinterpret_cast<const T*>(at(m, t.a_keys)), shards[m].n,
                                                            std::uint32_t(team.local[m].rank), desc,
                                                            reinterpret_cast<const Sample*>(at(m, t.splitters)),
                                                            buckets() - 1, reinterpret_cast<std::uint64_t*>(at(m, t.split)));
      cuda_check(cudaGetLastError(), "cut at splitters");
      in[m] = at(m, t.split);
      out[m] = at(m, t.splits_gathered);
    }
    const std::vector<char> split_raw = allgather_to_host(team, in, out, std::size_t(buckets() + 1) * 8);
    std::vector<std::uint64_t> splits(split_raw.size() / 8);
    std::memcpy(splits.data(), split_raw.data(), split_raw.size());
    const PieceSchedule ps(g_, pieces, std::move(splits));
    for (std::size_t m = 0; m < L; ++m) {
      const int r = team.local[m].rank;
      if (ps.part_size(r) > cap_)
        throw std::runtime_error("sample sort: rank " + std::to_string(r) + " would receive " +
                                 std::to_string(ps.part_size(r)) + " keys, more than its " + std::to_string(cap_));
      for (int k = 0; k < pieces && g_ > 2; ++k)
        if (ps.piece_size(r, k) > piece_cap_)
          throw std::runtime_error("sample sort: rank " + std::to_string(r) + "'s piece " + std::to_string(k) + " holds " +
                                   std::to_string(ps.piece_size(r, k)) + " keys, more than its " +
                                   std::to_string(piece_cap_));
    }
    clock_.mark_all(team, 2);
    // 3. The rounds of the exchange, on the round streams once A is sorted and cut.
    for (std::size_t m = 0; m < L; ++m) {
      set(m);
      cuda_check(cudaEventRecord(rounds_.ready(m), team.local[m].stream), "exchange ready");
      cuda_check(cudaStreamWaitEvent(rounds_.stream(m), rounds_.ready(m), 0), "exchange ready");
    }
    for (int k = 0; k < pieces; ++k) {
      if (by_copy) copy_round<T, V>(team, plans, shards, ps, k);
      else send_round<T, V>(team, plans, shards, ps, k);
    }
    // Round k has landed on local GPU m: its event on the round stream (NCCL), or every sender's copy of it.
    auto wait_round = [&](cudaStream_t on, std::size_t m, int k) {
      if (!by_copy) return cuda_check(cudaStreamWaitEvent(on, rounds_.arrived(m, k), 0), "exchange round");
      for (std::size_t mj = 0; mj < L; ++mj)
        if (mj != m) cuda_check(cudaStreamWaitEvent(on, peers_.copied(mj, m, k), 0), "exchange round");
    };
    for (std::size_t m = 0; m < L; ++m) {
      set(m);
      if (by_copy) wait_round(rounds_.stream(m), m, pieces - 1);
      clock_.mark(team, m, 3, rounds_.stream(m));
    }
    // 4. Each round's runs merged into its place in O as soon as the round has landed.
    parts_.assign(L, Part{});
    sent_.assign(L, 0);
    for (std::size_t m = 0; m < L; ++m) {
      set(m);
      const auto& t = plans[m];
      const cudaStream_t s = team.local[m].stream;
      const int r = team.local[m].rank;
      auto* ok = reinterpret_cast<T*>(at(m, t.o_keys));
      auto* ov = reinterpret_cast<V*>(at(m, t.o_values));
      for (int k = 0; k < pieces; ++k) {
        wait_round(s, m, k);
        const std::size_t off = ps.piece_offset(r, k);
        merge_piece<T, V>(t, static_cast<char*>(shards[m].temp), ps, r, k, ok + off, vb_ ? ov + off : nullptr, s);
      }
      // The next run's local sort writes A: not before this GPU's own pieces have left it.
      for (std::size_t mj = 0; mj < L && by_copy; ++mj)
        if (mj != m) cuda_check(cudaStreamWaitEvent(s, peers_.copied(m, mj, pieces - 1), 0), "peer copy: sent");
      clock_.mark(team, m, 4);
      parts_[m] = {ok, vb_ ? static_cast<const void*>(ov) : nullptr, ps.part_size(r)};
      sent_[m] = ps.sent_to_others(r) * (kb_ + vb_);
    }
  }
#endif

  SampleSortPolicy policy_;
  std::vector<std::uint64_t> weights_ = round_weights(policy_.pieces, policy_.taper_percent);
  int g_ = 2;
  std::size_t kb_ = 4, vb_ = 0, cap_ = 0, piece_cap_ = 0;
  LocalSort local_;
  RoundStreams rounds_;
  PeerCopies peers_;
};

const char* exchange_name(SampleSortPolicy::Exchange e) {
  switch (e) {
    case SampleSortPolicy::Exchange::peer_copy_concurrent: return "peer_copy_concurrent";
    case SampleSortPolicy::Exchange::peer_copy_shifted: return "peer_copy_shifted";
    default: return "nccl";
  }
}

VariantInfo sample_sort_info(SampleSortPolicy policy) {
  VariantInfo v;
  v.family = "distributed";
  v.params = {{"samples_per_gpu", "s", std::to_string(policy.samples_per_gpu)}};
  if (policy.pieces > 1) v.params.push_back({"pieces", "pieces", std::to_string(policy.pieces)});
  if (policy.taper_percent < 100) v.params.push_back({"taper_percent", "taper", std::to_string(policy.taper_percent)});
  if (policy.exchange != SampleSortPolicy::Exchange::nccl)
    v.params.push_back({"exchange", "", exchange_name(policy.exchange)});
  v.label = "distributed.sample_sort." + param_label(v.params);
  const std::string all_to_all =
      policy.exchange == SampleSortPolicy::Exchange::nccl ? std::string("NCCL all-to-all")
      : policy.exchange == SampleSortPolicy::Exchange::peer_copy_shifted
          ? std::string("all-to-all by copy engines, one peer after another (cudaMemcpyPeerAsync; NCCL between processes)")
          : std::string("all-to-all by copy engines, every peer at once (cudaMemcpyPeerAsync; NCCL between processes)");
  v.description = "sample sort across GPUs: local radix sort, regular samples, " + all_to_all;
  if (policy.pieces > 1)
    v.description += " in " + std::to_string(policy.pieces) + " rounds" +
                     (policy.taper_percent < 100 ? ", each " + std::to_string(policy.taper_percent) + " % of the one before,"
                                                 : std::string()) +
                     " each round's runs merged behind the next";
  else
    v.description += ", merge";
  v.seed = "000 PMPP 13.8 (sample sort), one GPU per bucket";
  v.value_types = {ValueType::none, ValueType::u32, ValueType::u64};
  v.descending = true;
  v.stable = true;
  v.opt_in = true;
  v.min_gpus = 2;
  // The local sort's passes, the exchange (read and write) and the merge (read and write).
  v.bytes_per_key = [](const Problem& p) { return key_value_bytes(p) * (2.0 * double(key_bytes(p.key)) + 2 + 2); };
  v.unsupported = [](const Problem& p) { return unavailable(p); };
  v.make_distributed = [policy](const Problem& p) { return std::make_unique<SampleSort>(p, policy); };
  return v;
}

SORTBENCH_REGISTER_VARIANT(sample_sort_info({1024, 1, 100, SampleSortPolicy::Exchange::nccl}));
SORTBENCH_REGISTER_VARIANT(sample_sort_info({1024, 4, 100, SampleSortPolicy::Exchange::nccl}));
SORTBENCH_REGISTER_VARIANT(sample_sort_info({1024, 8, 100, SampleSortPolicy::Exchange::nccl}));
SORTBENCH_REGISTER_VARIANT(sample_sort_info({1024, 4, 60, SampleSortPolicy::Exchange::nccl}));
SORTBENCH_REGISTER_VARIANT(sample_sort_info({1024, 4, 75, SampleSortPolicy::Exchange::nccl}));
SORTBENCH_REGISTER_VARIANT(sample_sort_info({1024, 6, 70, SampleSortPolicy::Exchange::nccl}));
SORTBENCH_REGISTER_VARIANT(sample_sort_info({1024, 6, 70, SampleSortPolicy::Exchange::peer_copy_concurrent}));
SORTBENCH_REGISTER_VARIANT(sample_sort_info({1024, 1, 100, SampleSortPolicy::Exchange::peer_copy_shifted}));
SORTBENCH_REGISTER_VARIANT(sample_sort_info({1024, 4, 75, SampleSortPolicy::Exchange::peer_copy_shifted}));
SORTBENCH_REGISTER_VARIANT(sample_sort_info({1024, 6, 70, SampleSortPolicy::Exchange::peer_copy_shifted}));

}  // namespace
}  // namespace sortbench::distributed
