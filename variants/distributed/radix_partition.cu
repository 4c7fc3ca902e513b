// Radix partitioning across GPUs, after RMG sort (Ilic, Tolovski, Rabl,
// BTW 2023): the most significant digits decide which GPU a key goes to, the
// keys move in one NCCL all-to-all, and each GPU then sorts what it received
// with its tuned radix point (LocalSort). One pass over the data before the
// exchange instead of a whole local sort (sample sort), at the price of a
// full sort after it.
//
// Boundaries: the GPUs' 8-bit digit histograms of the top digit are
// all-gathered; a GPU boundary whose digit bucket holds more than 1/64 of a
// GPU's share is refined on the next digit (a histogram of the keys with
// that prefix), down to a single key value, whose copies are then split
// between the two GPUs by rank and input order. So every part holds at most
// n/g + 2 * slack keys, for any input (all-equal keys included), and the
// partition and the stable local sort keep equal keys in global index order.
//
// Schedules: exchange_then_sort is RMG's. sort_during_exchange (two GPUs)
// sorts the piece a GPU keeps on a second stream while NCCL moves the other
// piece, then the received piece, and merges the two runs by (key, index):
// the exchange hides behind a sort of a quarter of the keys.
// sample_partition is the same partition-then-sort with sample sort's
// splitters (PMPP 13.8: regular samples of the unsorted shards, cut as
// (key, rank, index) triples), which need no histogram pass.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "local_sort.cuh"
#include "distributed_sort.cuh"
#include "exchange.cuh"
#include "splitters.cuh"
#include "merge_runs.cuh"
#include "class_partition.cuh"

namespace sortbench::distributed {
namespace {

// SortDuringExchange: two GPUs; each sorts the piece it keeps while the
// other piece is on the link, then the piece it received, then merges the
// two (RMG sorts everything after the exchange).
template <int RadixBits, bool SortDuringExchange>
struct RadixPartitionPolicy {
  static constexpr int kRadixBits = RadixBits;
  static constexpr bool kSortDuringExchange = SortDuringExchange;
  static constexpr int kSamplesPerGpu = 0;
  static constexpr const char* kName = "radix_partition";
  static constexpr int kDigits = 1 << RadixBits;
  static constexpr int kSlackDivisor = 64;  // a part may exceed n/g by 2 * n/(64 g)
};

// The same partition-then-sort, with sample sort's splitters (regular
// samples of the unsorted shards) instead of the digit histograms.
template <int SamplesPerGpu, bool SortDuringExchange>
struct SamplePartitionPolicy {
  static constexpr int kRadixBits = 8;
  static constexpr int kDigits = 256;
  static constexpr int kSlackDivisor = 64;
  static constexpr bool kSortDuringExchange = SortDuringExchange;
  static constexpr int kSamplesPerGpu = SamplesPerGpu;
  static constexpr const char* kName = "sample_partition";
};

inline constexpr int kMaxGpus = 8;

// A histogram of one digit over the keys whose higher digits equal `prefix`.
struct DigitQuery {
  std::uint64_t prefix;
  int shift;      // the digit's lowest bit
  int match_all;  // the top digit: no prefix
};

template <int Bits, class T>
__global__ void prefix_histogram_kernel(const T* keys, std::size_t n, bool desc, int queries, const DigitQuery* q,
                                        unsigned long long* hist) {
  constexpr int Digits = 1 << Bits;
  __shared__ unsigned h[kMaxGpus * Digits];
  for (int i = threadIdx.x; i < queries * Digits; i += blockDim.x) h[i] = 0;
  __syncthreads();
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    const std::uint64_t ob = ordered_bits(keys[i], desc);
    for (int k = 0; k < queries; ++k) {
      const DigitQuery d = q[k];
      if (d.match_all || (ob >> (d.shift + Bits)) == d.prefix)
        atomicAdd(&h[k * Digits + int((ob >> d.shift) & (Digits - 1))], 1u);
    }
  }
  __syncthreads();
  for (int i = threadIdx.x; i < queries * Digits; i += blockDim.x)
    if (h[i]) atomicAdd(&hist[i], (unsigned long long)h[i]);
}

// How a GPU boundary cuts the keys: below a threshold, or at one key value
// whose first `take` copies on this rank stay left.
enum BoundaryKind : int { kBelow = 0, kSplitKey = 1, kEverything = 2 };

template <class T>
struct BoundaryClassify {
  int g;
  bool desc;
  int kind[kMaxGpus - 1];
  std::uint64_t value[kMaxGpus - 1];
  __host__ __device__ int classes() const { return 2 * g - 1; }
  // 2b: left of boundary b and right of those before it; 2b + 1: the key boundary b splits.
  __device__ int operator()(const T& k, std::size_t) const {
    const std::uint64_t ob = ordered_bits(k, desc);
    for (int b = 0; b < g - 1; ++b) {
      if (kind[b] == kEverything || ob < value[b]) return 2 * b;
      if (kind[b] == kSplitKey && ob == value[b]) return 2 * b + 1;
    }
    return 2 * (g - 1);
  }
};

struct Boundary {
  std::size_t target = 0;  // keys left of it, globally
  int level = 0;
  std::uint64_t prefix = 0;
  std::size_t below = 0;  // keys under the prefix's range, globally
  bool resolved = false;
  int kind = kBelow;
  std::uint64_t value = 0;
  std::vector<std::size_t> take;  // kSplitKey: per rank, its copies of the key left of the boundary
};

template <class P>
class RadixPartition final : public TypedDistributedSort<RadixPartition<P>> {
  friend class TypedDistributedSort<RadixPartition<P>>;
  using Base = TypedDistributedSort<RadixPartition<P>>;
  using Base::clock_;
  using Base::p_;
  using Base::parts_;
  using Base::sent_;

 public:
  explicit RadixPartition(const Problem& p)
      : Base(p, P::kSortDuringExchange ? std::vector<std::string>{"splitters", "partition", "exchange", "sort", "merge"}
                                       : std::vector<std::string>{"splitters", "partition", "exchange", "local_sort"}),
        local_(p) {
    g_ = p.gpus;
    kb_ = key_bytes(p.key);
    vb_ = value_bytes(p.value);
    slack_ = std::max<std::size_t>(1, p.n / (std::size_t(g_) * P::kSlackDivisor));
    // Scattered samples: a splitter's rank among the n keys has a standard
    // deviation of about n / (2 sqrt(g S)); eight of them either side, and the
    // run fails with the counts (never overflows) past that.
    if constexpr (P::kSamplesPerGpu > 0)
      slack_ = std::size_t(4.0 * double(p.n) / std::sqrt(double(g_) * P::kSamplesPerGpu)) + 64 * std::size_t(g_);
    cap_ = (p.n + std::size_t(g_) - 1) / std::size_t(g_) + 2 * slack_ + 1;
  }

  ~RadixPartition() override {
    for (std::size_t m = 0; m < side_.size(); ++m) {
      cudaSetDevice(side_devices_[m]);
      cudaEventDestroy(side_done_[m]);
      cudaEventDestroy(partitioned_[m]);
      cudaStreamDestroy(side_[m]);
    }
  }

  std::size_t temp_bytes(int rank) override { return plan(rank).bytes; }

  void run(const Team& team, const std::vector<Shard>& shards) override {
    if (P::kSortDuringExchange && g_ != 2) throw std::runtime_error("radix partition: sort_during_exchange is for two GPUs");
    if (g_ > kMaxGpus) throw std::runtime_error("radix partition: at most " + std::to_string(kMaxGpus) + " GPUs");
    this->dispatch(team, shards);
  }

 private:
  struct Plan {
    std::size_t bytes = 0;
    std::size_t s_keys, s_values, b_keys, b_values, o_keys, o_values, sort_temp, sort_bytes, merge_temp, merge_bytes = 0;
    std::size_t queries, hist, gathered, samples, samples_gathered, split, splits_gathered, part_temp;
    ClassPartitionTemp partition;
  };

  const Plan& plan(int rank) { return plans_.get(rank, [this](int r) { return make_plan(r); }); }
  PlanPerRank<Plan> plans_;

  Plan make_plan(int rank) {
    Plan t;
    Layout l;
    const std::size_t n = shard_size(p_.n, g_, rank);
    t.s_keys = l.add(n * kb_);
    t.s_values = l.add(n * vb_);
    // Sorting during the exchange: B takes the peer's piece in an aligned
    // slot, O both sorted pieces, and the merge writes B again.
    const bool aligned = P::kSortDuringExchange;
    t.b_keys = l.add(ExchangePlan::recv_bytes(cap_, kb_, g_, aligned));
    t.b_values = l.add(vb_ ? ExchangePlan::recv_bytes(cap_, vb_, g_, aligned) : 0);
    t.o_keys = l.add(cap_ * kb_);
    t.o_values = l.add(cap_ * vb_);
    t.sort_bytes = local_.temp_bytes(cap_);
    t.sort_temp = l.add(t.sort_bytes);
    if (P::kSortDuringExchange) t.merge_bytes = merge_temp_bytes(p_, cap_);
    t.merge_temp = l.add(t.merge_bytes);
    t.queries = l.add(kMaxGpus * sizeof(DigitQuery));
    t.hist = l.add(std::size_t(kMaxGpus) * P::kDigits * 8);
    t.gathered = l.add(std::size_t(g_) * kMaxGpus * P::kDigits * 8);
    t.samples = l.add(std::size_t(std::max(P::kSamplesPerGpu, 1)) * sizeof(Sample));
    t.samples_gathered = l.add(std::size_t(g_) * std::size_t(std::max(P::kSamplesPerGpu, 1)) * sizeof(Sample));
    t.split = l.add(std::size_t(g_ + 1) * 8);
    t.splits_gathered = l.add(std::size_t(g_) * std::size_t(g_ + 1) * 8);
    t.partition = ClassPartitionTemp::plan(l, n, 2 * g_ - 1);
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

    std::vector<const void*> in(L);
    std::vector<void*> out(L);
    if constexpr (P::kSamplesPerGpu > 0) sampled_cuts<T, V>(team, shards, plans, in, out);
    else radix_cuts<T, V>(team, shards, plans, in, out);
    const std::vector<char> split_raw = allgather_to_host(team, in, out, std::size_t(g_ + 1) * 8);
    std::vector<std::uint64_t> splits(split_raw.size() / 8);
    std::memcpy(splits.data(), split_raw.data(), split_raw.size());
    const auto counts = counts_from_splits(splits, g_);
    for (std::size_t m = 0; m < L; ++m)
      if (received(counts, team.local[m].rank) > cap_)
        throw std::runtime_error(std::string(P::kName) + ": rank " + std::to_string(team.local[m].rank) + " would receive " +
                                 std::to_string(received(counts, team.local[m].rank)) + " keys, more than its " +
                                 std::to_string(cap_));
    clock_.mark_all(team, 2);

    if constexpr (P::kSortDuringExchange) {
      sort_during_exchange<T, V>(team, shards, plans, counts, desc);
      return;
    }
    // 3. The exchange, S's pieces into B in rank order (contiguous: the local sort reads one range).
    const ExchangePlan xp{counts, false};
    exchange(team, xp, planes_of(team, plans, &Plan::s_keys, &Plan::s_values, &Plan::b_keys, &Plan::b_values, shards), false);
    clock_.mark_all(team, 3);

    // 4. The local sort of what arrived.
    parts_.assign(L, Part{});
    sent_.assign(L, 0);
    for (std::size_t m = 0; m < L; ++m) {
      set(m);
      const auto& t = plans[m];
      const int r = team.local[m].rank;
      const std::size_t total = received(counts, r);
      local_.run(total, at(m, t.b_keys), at(m, t.o_keys), vb_ ? at(m, t.b_values) : nullptr,
                 vb_ ? at(m, t.o_values) : nullptr, at(m, t.sort_temp), t.sort_bytes, team.local[m].stream);
      clock_.mark(team, m, 4);
      parts_[m] = {at(m, t.o_keys), vb_ ? at(m, t.o_values) : nullptr, total};
      sent_[m] = sent_to_others(counts, r) * (kb_ + vb_);
    }
  }

  // Splitters from the GPUs' 8-bit digit histograms, refined digit by digit
  // (file comment); each shard partitioned by them; in/out: the cut positions to gather.
  template <class T, class V>
  void radix_cuts(const Team& team, const std::vector<Shard>& shards, const std::vector<Plan>& plans,
                  std::vector<const void*>& in, std::vector<void*>& out) {
    constexpr int kKeyBits = int(sizeof(T)) * 8;
    constexpr int kLevels = kKeyBits / P::kRadixBits;
    const bool desc = p_.order == Order::descending;
    const std::size_t L = team.local.size();
    auto at = [&](std::size_t m, std::size_t off) { return static_cast<char*>(shards[m].temp) + off; };
    auto set = [&](std::size_t m) { cuda_check(cudaSetDevice(team.local[m].device), "cudaSetDevice"); };
    // 1. Boundaries, one digit level at a time.
    std::vector<Boundary> bounds(std::size_t(g_ - 1));
    for (int b = 0; b < g_ - 1; ++b) bounds[std::size_t(b)].target = shard_first(p_.n, g_, b + 1);
    for (int level = 0; level < kLevels; ++level) {
      std::vector<DigitQuery> queries;
      std::vector<int> query_of(bounds.size(), -1);
      const int shift = kKeyBits - P::kRadixBits * (level + 1);
      for (std::size_t b = 0; b < bounds.size(); ++b) {
        if (bounds[b].resolved) continue;
        const DigitQuery q{bounds[b].prefix, shift, level == 0};
        int found = -1;
        for (std::size_t k = 0; k < queries.size(); ++k)
          if (queries[k].prefix == q.prefix) found = int(k);
        if (found < 0) {
          found = int(queries.size());
          queries.push_back(q);
        }
        query_of[b] = found;
      }
      if (queries.empty()) break;
      const std::size_t hist_bytes = queries.size() * P::kDigits * 8;
      for (std::size_t m = 0; m < L; ++m) {
        set(m);
        const auto& t = plans[m];
        const cudaStream_t s = team.local[m].stream;
        cuda_check(cudaMemcpyAsync(at(m, t.queries), queries.data(), queries.size() * sizeof(DigitQuery),
                                   cudaMemcpyHostToDevice, s), "digit queries");
        cuda_check(cudaMemsetAsync(at(m, t.hist), 0, hist_bytes, s), "histogram");
        const std::size_t n = shards[m].n;
        if (n) {
          const unsigned blocks = unsigned(std::min<std::size_t>((n + 4095) / 4096, 1024));
          prefix_histogram_kernel<P::kRadixBits, T><<<blocks, 256, 0, s>>>(
              static_cast<const T*>(shards[m].keys), n, desc, int(queries.size()),
              reinterpret_cast<const DigitQuery*>(at(m, t.queries)), reinterpret_cast<unsigned long long*>(at(m, t.hist)));
          cuda_check(cudaGetLastError(), "digit histogram");
        }
        in[m] = at(m, t.hist);
        out[m] = at(m, t.gathered);
      }
      const std::vector<char> raw = allgather_to_host(team, in, out, hist_bytes);
      auto count = [&](int rank, std::size_t query, int digit) {
        std::uint64_t c = 0;
        std::memcpy(&c, raw.data() + std::size_t(rank) * hist_bytes + (query * P::kDigits + std::size_t(digit)) * 8, 8);
        return std::size_t(c);
      };
      for (std::size_t b = 0; b < bounds.size(); ++b) {
        Boundary& bd = bounds[b];
        if (bd.resolved) continue;
        const std::size_t q = std::size_t(query_of[b]);
        std::size_t start = bd.below;
        int digit = 0;
        std::size_t in_digit = 0;
        for (; digit < P::kDigits; ++digit) {
          in_digit = 0;
          for (int r = 0; r < g_; ++r) in_digit += count(r, q, digit);
          if (bd.target < start + in_digit) break;
          start += in_digit;
        }
        // The bucket [start, start + in_digit) holds the target (the top digit past every key: all left).
        const std::uint64_t code = (bd.prefix << P::kRadixBits) | std::uint64_t(digit < P::kDigits ? digit : 0);
        // Keys below the bucket's start (or past its end) go left; past the
        // end of the top code of a 64-bit key means every key.
        auto threshold = [&](bool after) {
          const std::uint64_t c = code + (after ? 1 : 0);
          const int used = P::kRadixBits * (level + 1);
          const bool past_all = kKeyBits == 64 && (used == 64 ? c == 0 : c == (std::uint64_t(1) << used));
          bd.kind = past_all ? kEverything : kBelow;
          bd.value = past_all ? 0 : c << shift;
          bd.resolved = true;
        };
        if (digit == P::kDigits) {
          bd.kind = kEverything;
          bd.resolved = true;
        } else if (bd.target == start) {
          threshold(false);
        } else if (in_digit <= slack_) {
          threshold(bd.target - start > start + in_digit - bd.target);
        } else if (level + 1 == kLevels) {
          bd.kind = kSplitKey;
          bd.value = code;
          bd.take.assign(std::size_t(g_), 0);
          std::size_t left = bd.target - start;
          for (int r = 0; r < g_; ++r) {
            const std::size_t c = count(r, q, digit);
            bd.take[std::size_t(r)] = std::min(left, c);
            left -= bd.take[std::size_t(r)];
          }
          bd.resolved = true;
        } else {
          bd.prefix = code;
          bd.below = start;
          bd.level = level + 1;
        }
      }
    }
    clock_.mark_all(team, 1);

    // 2. Each shard partitioned by boundary into S, stably; the cut positions all-gathered.
    BoundaryClassify<T> classify{};
    classify.g = g_;
    classify.desc = desc;
    for (std::size_t b = 0; b < bounds.size(); ++b) {
      classify.kind[b] = bounds[b].kind;
      classify.value[b] = bounds[b].value;
    }
    for (std::size_t m = 0; m < L; ++m) {
      set(m);
      const auto& t = plans[m];
      class_partition<T, V>(static_cast<const T*>(shards[m].keys), static_cast<const V*>(shards[m].values),
                            reinterpret_cast<T*>(at(m, t.s_keys)), reinterpret_cast<V*>(at(m, t.s_values)), shards[m].n,
                            classify, at(m, 0), t.partition, team.local[m].stream);
    }
    for (std::size_t m = 0; m < L; ++m) {
      set(m);
      const auto& t = plans[m];
      const cudaStream_t s = team.local[m].stream;
      const int r = team.local[m].rank;
      const std::vector<std::uint64_t> start = class_starts(at(m, 0), t.partition, classify.classes(), shards[m].n, s);
      std::vector<std::uint64_t> split(std::size_t(g_ + 1), 0);
      split[std::size_t(g_)] = shards[m].n;
      for (int b = 0; b < g_ - 1; ++b) {
        const Boundary& bd = bounds[std::size_t(b)];
        if (bd.kind == kSplitKey) {
          int first = b;  // the first boundary splitting this key holds its copies
          while (first > 0 && bounds[std::size_t(first - 1)].kind == kSplitKey && bounds[std::size_t(first - 1)].value == bd.value)
            --first;
          split[std::size_t(b + 1)] = start[std::size_t(2 * first + 1)] + bd.take[std::size_t(r)];
        } else {
          split[std::size_t(b + 1)] = start[std::size_t(2 * b + 1)];
        }
      }
      cuda_check(cudaMemcpyAsync(at(m, t.split), split.data(), split.size() * 8, cudaMemcpyHostToDevice, s), "cuts");
      in[m] = at(m, t.split);
      out[m] = at(m, t.splits_gathered);
    }
  }

  // Splitters from regular samples of the unsorted shards, as (key, rank,
  // index) triples so equal keys are cut too (sample sort's rule); each shard
  // partitioned by them.
  template <class T, class V>
  void sampled_cuts(const Team& team, const std::vector<Shard>& shards, const std::vector<Plan>& plans,
                    std::vector<const void*>& in, std::vector<void*>& out) {
    const bool desc = p_.order == Order::descending;
    const std::size_t L = team.local.size();
    auto at = [&](std::size_t m, std::size_t off) { return static_cast<char*>(shards[m].temp) + off; };
    constexpr int S = P::kSamplesPerGpu > 0 ? P::kSamplesPerGpu : 1;
    for (std::size_t m = 0; m < L; ++m) {
      cuda_check(cudaSetDevice(team.local[m].device), "cudaSetDevice");
      draw_samples_kernel<T><<<(S + 255) / 256, 256, 0, team.local[m].stream>>>(
          static_cast<const T*>(shards[m].keys), shards[m].n, S, std::uint32_t(team.local[m].rank), desc,
          reinterpret_cast<Sample*>(at(m, plans[m].samples)), true);
      cuda_check(cudaGetLastError(), "draw samples");
      in[m] = at(m, plans[m].samples);
      out[m] = at(m, plans[m].samples_gathered);
    }
    const std::vector<Sample> splitters = pick_splitters(allgather_to_host(team, in, out, S * sizeof(Sample)), g_);
    clock_.mark_all(team, 1);
    for (std::size_t m = 0; m < L; ++m) {
      cuda_check(cudaSetDevice(team.local[m].device), "cudaSetDevice");
      class_partition<T, V>(static_cast<const T*>(shards[m].keys), static_cast<const V*>(shards[m].values),
                            reinterpret_cast<T*>(at(m, plans[m].s_keys)), reinterpret_cast<V*>(at(m, plans[m].s_values)),
                            shards[m].n, SplitterClassify<T>::make(splitters, team.local[m].rank, g_, desc), at(m, 0),
                            plans[m].partition, team.local[m].stream);
    }
    for (std::size_t m = 0; m < L; ++m) {
      cuda_check(cudaSetDevice(team.local[m].device), "cudaSetDevice");
      const cudaStream_t s = team.local[m].stream;
      const std::vector<std::uint64_t> start = class_starts(at(m, 0), plans[m].partition, g_, shards[m].n, s);
      cuda_check(cudaMemcpyAsync(at(m, plans[m].split), start.data(), start.size() * 8, cudaMemcpyHostToDevice, s), "cuts");
      cuda_check(cudaStreamSynchronize(s), "cuts");
      in[m] = at(m, plans[m].split);
      out[m] = at(m, plans[m].splits_gathered);
    }
  }

  std::vector<Plane> planes_of(const Team& team, const std::vector<Plan>& plans, std::size_t Plan::*sk, std::size_t Plan::*sv,
                               std::size_t Plan::*rk, std::size_t Plan::*rv, const std::vector<Shard>& shards) const {
    std::vector<Plane> planes(vb_ ? 2 : 1);
    planes[0].elem = kb_;
    for (std::size_t m = 0; m < team.local.size(); ++m) {
      char* temp = static_cast<char*>(shards[m].temp);
      planes[0].send.push_back(temp + plans[m].*sk);
      planes[0].recv.push_back(temp + plans[m].*rk);
      if (vb_) {
        planes[1].elem = vb_;
        planes[1].send.push_back(temp + plans[m].*sv);
        planes[1].recv.push_back(temp + plans[m].*rv);
      }
    }
    return planes;
  }

  // Two GPUs: the kept piece is sorted on a second stream while NCCL moves the
  // other piece; the received piece is sorted after both; the two sorted runs
  // are merged in rank order by (key, index), so equal keys keep their order.
  template <class T, class V>
  void sort_during_exchange(const Team& team, const std::vector<Shard>& shards, const std::vector<Plan>& plans,
                            const std::vector<std::vector<std::size_t>>& counts, bool desc) {
    const std::size_t L = team.local.size();
    auto at = [&](std::size_t m, std::size_t off) { return static_cast<char*>(shards[m].temp) + off; };
    if (side_.empty())
      for (std::size_t m = 0; m < L; ++m) {
        cuda_check(cudaSetDevice(team.local[m].device), "cudaSetDevice");
        side_devices_.push_back(team.local[m].device);
        side_.emplace_back();
        side_done_.emplace_back();
        partitioned_.emplace_back();
        cuda_check(cudaStreamCreateWithFlags(&side_.back(), cudaStreamNonBlocking), "side stream");
        cuda_check(cudaEventCreateWithFlags(&side_done_.back(), cudaEventDisableTiming), "side event");
        cuda_check(cudaEventCreateWithFlags(&partitioned_.back(), cudaEventDisableTiming), "side event");
      }
    const ExchangePlan xp{counts, true};
    // The kept pieces' sorts start first, on the side streams.
    for (std::size_t m = 0; m < L; ++m) {
      cuda_check(cudaSetDevice(team.local[m].device), "cudaSetDevice");
      const auto& t = plans[m];
      const int r = team.local[m].rank;
      const std::size_t keep = counts[std::size_t(r)][std::size_t(r)], own = xp.send_start(r, r);
      const std::size_t o_own = r == 0 ? 0 : counts[0][std::size_t(r)];
      cuda_check(cudaEventRecord(partitioned_[m], team.local[m].stream), "side event");
      cuda_check(cudaStreamWaitEvent(side_[m], partitioned_[m], 0), "side wait");
      local_.run(keep, at(m, t.s_keys) + own * kb_, at(m, t.o_keys) + o_own * kb_,
                 vb_ ? at(m, t.s_values) + own * vb_ : nullptr, vb_ ? at(m, t.o_values) + o_own * vb_ : nullptr,
                 at(m, t.sort_temp), t.sort_bytes, side_[m]);
      cuda_check(cudaEventRecord(side_done_[m], side_[m]), "side event");
    }
    exchange(team, xp, planes_of(team, plans, &Plan::s_keys, &Plan::s_values, &Plan::b_keys, &Plan::b_values, shards), true);
    clock_.mark_all(team, 3);
    parts_.assign(L, Part{});
    sent_.assign(L, 0);
    for (std::size_t m = 0; m < L; ++m) {
      cuda_check(cudaSetDevice(team.local[m].device), "cudaSetDevice");
      const auto& t = plans[m];
      const cudaStream_t s = team.local[m].stream;
      const int r = team.local[m].rank, peer = 1 - r;
      const std::size_t got = counts[std::size_t(peer)][std::size_t(r)], total = received(counts, r);
      const std::size_t o_peer = peer == 0 ? 0 : counts[0][std::size_t(r)];
      // One sort at a time: the two share the sort's temporary storage.
      cuda_check(cudaStreamWaitEvent(s, side_done_[m], 0), "side join");
      local_.run(got, at(m, t.b_keys) + xp.run_start(r, peer, kb_) * kb_, at(m, t.o_keys) + o_peer * kb_,
                 vb_ ? at(m, t.b_values) + xp.run_start(r, peer, vb_) * vb_ : nullptr,
                 vb_ ? at(m, t.o_values) + o_peer * vb_ : nullptr, at(m, t.sort_temp), t.sort_bytes, s);
      clock_.mark(team, m, 4);
      auto* ok = reinterpret_cast<const T*>(at(m, t.o_keys));
      auto* ov = reinterpret_cast<const V*>(at(m, t.o_values));
      const std::size_t n0 = counts[0][std::size_t(r)];
      std::size_t bytes = t.merge_bytes;
      cuda_check(merge_runs<T, V>(at(m, t.merge_temp), bytes, ok, ov, n0, ok + n0, ov + (vb_ ? n0 : 0), total - n0,
                                  reinterpret_cast<T*>(at(m, t.b_keys)), reinterpret_cast<V*>(at(m, t.b_values)), desc, s),
                 "merge");
      clock_.mark(team, m, 5);
      parts_[m] = {at(m, t.b_keys), vb_ ? at(m, t.b_values) : nullptr, total};
      sent_[m] = sent_to_others(counts, r) * (kb_ + vb_);
    }
  }
#endif

  int g_ = 2;
  std::size_t kb_ = 4, vb_ = 0, slack_ = 1, cap_ = 0;
  LocalSort local_;
  std::vector<int> side_devices_;
  std::vector<cudaStream_t> side_;
  std::vector<cudaEvent_t> side_done_, partitioned_;
};

template <class P>
VariantInfo radix_partition_info() {
  VariantInfo v;
  v.family = "distributed";
  if (P::kSamplesPerGpu > 0) v.params = {{"samples_per_gpu", "s", std::to_string(P::kSamplesPerGpu)}};
  else v.params = {{"radix_bits", "rb", std::to_string(P::kRadixBits)}};
  v.params.push_back({"schedule", "", P::kSortDuringExchange ? "sort_during_exchange" : "exchange_then_sort"});
  v.label = std::string("distributed.") + P::kName + "." + param_label(v.params);
  v.description = std::string(P::kSamplesPerGpu > 0 ? "partition across GPUs by sampled splitters"
                                                      : "MSD radix partition across GPUs (after RMG sort): digit histograms") +
                  ", NCCL all-to-all, local radix sort" +
                  (P::kSortDuringExchange ? " of the kept piece during the exchange, then of the received one, merge" : "");
  v.seed = P::kSamplesPerGpu > 0 ? "000 PMPP 13.8 (sample sort, oversampling)" : "000 PMPP 13.8 (MSD radix); RMG sort (BTW 2023)";
  v.value_types = {ValueType::none, ValueType::u32, ValueType::u64};
  v.descending = true;
  v.stable = true;
  v.opt_in = true;
  v.min_gpus = 2;
  // The histogram read, the partition (read and write), the exchange (read and write), the local sort's passes.
  v.bytes_per_key = [](const Problem& p) { return key_value_bytes(p) * (1 + 2 + 2 + 2.0 * double(key_bytes(p.key))); };
  v.unsupported = [](const Problem& p) -> std::string {
    if (p.gpus > kMaxGpus) return "at most " + std::to_string(kMaxGpus) + " GPUs";
    if (P::kSortDuringExchange && p.gpus != 2) return "sort_during_exchange is written for two GPUs";
    return unavailable(p);
  };
  v.make_distributed = [](const Problem& p) { return std::make_unique<RadixPartition<P>>(p); };
  return v;
}

// No family default point: best:* stands for single-GPU families, whose points every sweep can run.
SORTBENCH_REGISTER_VARIANT(radix_partition_info<RadixPartitionPolicy<8, false>>());
SORTBENCH_REGISTER_VARIANT(radix_partition_info<RadixPartitionPolicy<8, true>>());
SORTBENCH_REGISTER_VARIANT(radix_partition_info<SamplePartitionPolicy<4096, true>>());

}  // namespace
}  // namespace sortbench::distributed
