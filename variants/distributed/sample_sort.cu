// Sample sort across GPUs, PMPP 13.8 (seed 000) with one GPU per bucket:
// each GPU sorts its shard with its tuned radix point (LocalSort), draws
// regular samples from it (oversampling), the samples are all-gathered
// (NCCL) and g - 1 splitters picked, each GPU cuts its sorted shard at the
// splitters (binary search), the pieces go to their GPUs in one NCCL
// all-to-all (grouped ncclSend/ncclRecv), and each GPU merges what it
// received with cub::DeviceMerge: two runs at once; g runs pairwise, in
// ceil(log2 g) passes over its part, where a second radix sort of the part
// would read and write it once per digit.
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
#include "splitters.cuh"
#include "merge_runs.cuh"

namespace sortbench::distributed {
namespace {

template <int SamplesPerGpu>
struct SampleSortPolicy {
  static constexpr int kSamplesPerGpu = SamplesPerGpu;
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

template <class P>
class SampleSort final : public TypedDistributedSort<SampleSort<P>> {
  friend class TypedDistributedSort<SampleSort<P>>;
  using Base = TypedDistributedSort<SampleSort<P>>;
  using Base::clock_;
  using Base::p_;
  using Base::parts_;
  using Base::sent_;

 public:
  explicit SampleSort(const Problem& p)
      : Base(p, {"local_sort", "splitters", "exchange", "merge"}), local_(p) {
    g_ = p.gpus;
    kb_ = key_bytes(p.key);
    vb_ = value_bytes(p.value);
    // Regular sampling bounds a part by n/g plus one sampling interval per rank on each side.
    std::size_t largest = 0;
    for (int r = 0; r < g_; ++r) largest = std::max(largest, shard_size(p.n, g_, r));
    cap_ = (p.n + std::size_t(g_) - 1) / std::size_t(g_) +
           2 * std::size_t(g_) * (largest / P::kSamplesPerGpu + 2) + 16;
  }

  std::size_t temp_bytes(int rank) override { return plan(rank).bytes; }

  void run(const Team& team, const std::vector<Shard>& shards) override {
    this->dispatch(team, shards);
  }

 private:
  struct Plan {
    Layout layout;
    std::size_t bytes = 0;
    std::size_t a_keys, a_values, b_keys, b_values, o_keys, o_values, sort_temp, sort_bytes, merge_temp, merge_bytes = 0;
    std::size_t samples, gathered, splitters, split, splits_gathered;
  };

  const Plan& plan(int rank) { return plans_.get(rank, [this](int r) { return make_plan(r); }); }
  PlanPerRank<Plan> plans_;

  Plan make_plan(int rank) {
    Plan t;
    Layout& l = t.layout;
    const std::size_t n = shard_size(p_.n, g_, rank);
    t.a_keys = l.add(cap_ * kb_);
    t.a_values = l.add(cap_ * vb_);
    // Two GPUs: B takes the peer's run in an aligned slot, the merge writes O.
    // More: B takes every run, the merge passes alternate between O and A.
    const bool two = g_ == 2;
    t.b_keys = l.add(ExchangePlan::recv_bytes(cap_, kb_, g_, two));
    t.b_values = l.add(vb_ ? ExchangePlan::recv_bytes(cap_, vb_, g_, two) : 0);
    t.o_keys = l.add(cap_ * kb_);
    t.o_values = l.add(cap_ * vb_);
    t.sort_bytes = local_.temp_bytes(n);
    t.sort_temp = l.add(t.sort_bytes);
    t.merge_bytes = merge_temp_bytes(p_, cap_);
    t.merge_temp = l.add(t.merge_bytes);
    t.samples = l.add(P::kSamplesPerGpu * sizeof(Sample));
    t.gathered = l.add(std::size_t(g_) * P::kSamplesPerGpu * sizeof(Sample));
    t.splitters = l.add(std::size_t(g_) * sizeof(Sample));
    t.split = l.add(std::size_t(g_ + 1) * 8);
    t.splits_gathered = l.add(std::size_t(g_) * std::size_t(g_ + 1) * 8);
    t.bytes = l.bytes;
    return t;
  }

#if defined(SORTBENCH_HAVE_NCCL)
  template <class T, class V>
  void run_typed(const Team& team, const std::vector<Shard>& shards) {
    const bool desc = p_.order == Order::descending;
    const std::size_t L = team.local.size();
    std::vector<Plan> plans;
    for (std::size_t m = 0; m < L; ++m) plans.push_back(plan(team.local[m].rank));
    auto at = [&](std::size_t m, std::size_t off) { return static_cast<char*>(shards[m].temp) + off; };
    auto set = [&](std::size_t m) { cuda_check(cudaSetDevice(team.local[m].device), "cudaSetDevice"); };
    clock_.mark_all(team, 0);
    // 1. Sort each shard into A; draw its samples.
    for (std::size_t m = 0; m < L; ++m) {
      set(m);
      const auto& t = plans[m];
      const cudaStream_t s = team.local[m].stream;
      local_.run(shards[m].n, shards[m].keys, at(m, t.a_keys), shards[m].values, vb_ ? at(m, t.a_values) : nullptr,
                 at(m, t.sort_temp), t.sort_bytes, s);
      clock_.mark(team, m, 1);
      draw_samples_kernel<T><<<(P::kSamplesPerGpu + 255) / 256, 256, 0, s>>>(
          reinterpret_cast<const T*>(at(m, t.a_keys)), shards[m].n, P::kSamplesPerGpu, std::uint32_t(team.local[m].rank),
          desc, reinterpret_cast<Sample*>(at(m, t.samples)));
      cuda_check(cudaGetLastError(), "draw samples");
    }
    // 2. Splitters: every g-th of the gathered samples in (key, rank, position) order.
    std::vector<const void*> in(L);
    std::vector<void*> out(L);
    for (std::size_t m = 0; m < L; ++m) in[m] = at(m, plans[m].samples), out[m] = at(m, plans[m].gathered);
    const std::vector<Sample> splitters = pick_splitters(allgather_to_host(team, in, out, P::kSamplesPerGpu * sizeof(Sample)), g_);
    for (std::size_t m = 0; m < L; ++m) {
      set(m);
      const auto& t = plans[m];
      const cudaStream_t s = team.local[m].stream;
      cuda_check(cudaMemcpyAsync(at(m, t.splitters), splitters.data(), splitters.size() * sizeof(Sample),
                                 cudaMemcpyHostToDevice, s), "splitters");
      cut_kernel<T><<<(g_ + 1 + 63) / 64, 64, 0, s>>>(reinterpret_cast<const T*>(at(m, t.a_keys)), shards[m].n,
                                                      std::uint32_t(team.local[m].rank), desc,
                                                      reinterpret_cast<const Sample*>(at(m, t.splitters)), g_ - 1,
                                                      reinterpret_cast<std::uint64_t*>(at(m, t.split)));
      cuda_check(cudaGetLastError(), "cut at splitters");
      in[m] = at(m, t.split);
      out[m] = at(m, t.splits_gathered);
    }
    const std::vector<char> split_raw = allgather_to_host(team, in, out, std::size_t(g_ + 1) * 8);
    std::vector<std::uint64_t> splits(split_raw.size() / 8);
    std::memcpy(splits.data(), split_raw.data(), split_raw.size());
    const auto counts = counts_from_splits(splits, g_);
    for (std::size_t m = 0; m < L; ++m)
      if (received(counts, team.local[m].rank) > cap_)
        throw std::runtime_error("sample sort: rank " + std::to_string(team.local[m].rank) + " would receive " +
                                 std::to_string(received(counts, team.local[m].rank)) + " keys, more than its " +
                                 std::to_string(cap_));
    clock_.mark_all(team, 2);
    // 3. The exchange: A's pieces into B (two GPUs: only the peer's, in an aligned slot).
    const bool two = g_ == 2;
    const ExchangePlan xp{counts, two};
    std::vector<Plane> planes(1);
    planes[0].elem = kb_;
    for (std::size_t m = 0; m < L; ++m) planes[0].send.push_back(at(m, plans[m].a_keys)), planes[0].recv.push_back(at(m, plans[m].b_keys));
    if (vb_) {
      planes.emplace_back();
      planes[1].elem = vb_;
      for (std::size_t m = 0; m < L; ++m) planes[1].send.push_back(at(m, plans[m].a_values)), planes[1].recv.push_back(at(m, plans[m].b_values));
    }
    exchange(team, xp, planes, two);
    clock_.mark_all(team, 3);
    // 4. Merge the runs in rank order (two GPUs: the kept one from A, the other from B).
    parts_.assign(L, Part{});
    sent_.assign(L, 0);
    for (std::size_t m = 0; m < L; ++m) {
      set(m);
      const auto& t = plans[m];
      const cudaStream_t s = team.local[m].stream;
      const int r = team.local[m].rank;
      const std::size_t total = received(counts, r);
      auto* ak = reinterpret_cast<T*>(at(m, t.a_keys));
      auto* av = reinterpret_cast<V*>(at(m, t.a_values));
      auto* bk = reinterpret_cast<T*>(at(m, t.b_keys));
      auto* bv = reinterpret_cast<V*>(at(m, t.b_values));
      if (two) {
        const int peer = 1 - r;
        const T* run_k[2];
        const V* run_v[2];
        run_k[r] = ak + xp.send_start(r, r);
        run_v[r] = av + (vb_ ? xp.send_start(r, r) : 0);
        run_k[peer] = bk + xp.run_start(r, peer, kb_);
        run_v[peer] = bv + (vb_ ? xp.run_start(r, peer, vb_) : 0);
        auto* ok = reinterpret_cast<T*>(at(m, t.o_keys));
        auto* ov = reinterpret_cast<V*>(at(m, t.o_values));
        std::size_t bytes = t.merge_bytes;
        cuda_check(merge_runs<T, V>(at(m, t.merge_temp), bytes, run_k[0], run_v[0], counts[0][std::size_t(r)], run_k[1],
                                    run_v[1], counts[1][std::size_t(r)], ok, ov, desc, s),
                   "merge");
        parts_[m] = {ok, vb_ ? static_cast<const void*>(ov) : nullptr, total};
      } else {
        // Runs in rank order in B; each pass merges neighbours (the lower
        // rank's run first) into O, then A, then O...; an odd run out is copied.
        struct Run {
          T* k;
          V* v;
          std::size_t n;
        };
        std::vector<Run> runs;
        for (int j = 0; j < g_; ++j)
          runs.push_back({bk + xp.run_start(r, j, kb_), vb_ ? bv + xp.run_start(r, j, vb_) : nullptr,
                          counts[std::size_t(j)][std::size_t(r)]});
        T* const out_k[2] = {reinterpret_cast<T*>(at(m, t.o_keys)), ak};
        V* const out_v[2] = {reinterpret_cast<V*>(at(m, t.o_values)), av};
        for (int pass = 0; runs.size() > 1; ++pass) {
          std::vector<Run> merged;
          std::size_t off = 0;
          for (std::size_t i = 0; i < runs.size(); i += 2) {
            Run o{out_k[pass % 2] + off, vb_ ? out_v[pass % 2] + off : nullptr, runs[i].n};
            if (i + 1 < runs.size()) {
              o.n += runs[i + 1].n;
              std::size_t bytes = t.merge_bytes;
              cuda_check(merge_runs<T, V>(at(m, t.merge_temp), bytes, runs[i].k, runs[i].v, runs[i].n, runs[i + 1].k,
                                          runs[i + 1].v, runs[i + 1].n, o.k, o.v, desc, s),
                         "merge");
            } else {
              if (o.n) cuda_check(cudaMemcpyAsync(o.k, runs[i].k, o.n * kb_, cudaMemcpyDeviceToDevice, s), "merge: copy");
              if (o.n && vb_)
                cuda_check(cudaMemcpyAsync(o.v, runs[i].v, o.n * vb_, cudaMemcpyDeviceToDevice, s), "merge: copy");
            }
            off += o.n;
            merged.push_back(o);
          }
          runs = std::move(merged);
        }
        parts_[m] = {runs[0].k, vb_ ? static_cast<const void*>(runs[0].v) : nullptr, total};
      }
      clock_.mark(team, m, 4);
      sent_[m] = sent_to_others(counts, r) * (kb_ + vb_);
    }
  }
#endif

  int g_ = 2;
  std::size_t kb_ = 4, vb_ = 0, cap_ = 0;
  LocalSort local_;
};

template <class P>
VariantInfo sample_sort_info() {
  VariantInfo v;
  v.family = "distributed";
  v.params = {{"samples_per_gpu", "s", std::to_string(P::kSamplesPerGpu)}};
  v.label = "distributed.sample_sort." + param_label(v.params);
  v.description = "sample sort across GPUs: local radix sort, regular samples, NCCL all-to-all, merge";
  v.seed = "000 PMPP 13.8 (sample sort), one GPU per bucket";
  v.value_types = {ValueType::none, ValueType::u32, ValueType::u64};
  v.descending = true;
  v.stable = true;
  v.opt_in = true;
  v.min_gpus = 2;
  // The local sort's passes, the exchange (read and write) and the merge (read and write).
  v.bytes_per_key = [](const Problem& p) { return key_value_bytes(p) * (2.0 * double(key_bytes(p.key)) + 2 + 2); };
  v.unsupported = [](const Problem& p) { return unavailable(p); };
  v.make_distributed = [](const Problem& p) { return std::make_unique<SampleSort<P>>(p); };
  return v;
}

SORTBENCH_REGISTER_VARIANT(sample_sort_info<SampleSortPolicy<1024>>());

}  // namespace
}  // namespace sortbench::distributed
