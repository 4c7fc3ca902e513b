// Sample sort, PMPP 13.8 (Frazer & McKellar 1970; oversampling after
// Blelloch et al. 1991): draw oversampling x buckets keys, sort them, keep
// every oversampling-th as one of buckets - 1 splitters, scatter the keys to
// their buckets, and sort the buckets independently. Keys equal to a
// splitter get a bucket of their own (odd bucket ids), which needs no sort,
// so heavy duplicates cannot pile up in one bucket. Not stable.
#include <cstddef>
#include <cstdint>

#include "common/bucket_partition.cuh"
#include "common/instance.cuh"
#include "sortbench/traffic.hpp"

namespace sortbench::sample {
namespace {

using common::NoValue;

template <int Oversampling, int Buckets>
struct SampleSortPolicy {
  static constexpr int kOversampling = Oversampling;
  static constexpr int kBuckets = Buckets;
  static constexpr int kSamples = Oversampling * Buckets;
  using Partition = common::PartitionPolicy<256, 16>;
  using BucketSort = common::MergeSortPolicy<256, 15>;
};

// Bucket of a key among sorted splitters s[0, m): 2j for keys between
// s[j-1] and s[j], 2j + 1 for keys equal to s[j] (j = first splitter not
// less than the key).
template <class Key, class Less>
struct SplitterBucketer {
  const Key* splitters;  // global
  int num_splitters;
  Less less;
  Key* shared = nullptr;

  __host__ __device__ static std::size_t hist_bytes(int num_buckets) { return (std::size_t(num_buckets) * 4 + 15) / 16 * 16; }
  __host__ __device__ static std::size_t state_bytes(int num_buckets) { return std::size_t(num_buckets / 2) * sizeof(Key); }
  __host__ __device__ int num_buckets() const { return 2 * num_splitters + 1; }
  __device__ void load(unsigned char* smem) {
    shared = reinterpret_cast<Key*>(smem);
    for (int i = threadIdx.x; i < num_splitters; i += blockDim.x) shared[i] = splitters[i];
  }
  __device__ __forceinline__ int operator()(const Key& k) const {
    int lo = 0, hi = num_splitters;
    while (lo < hi) {
      const int mid = (lo + hi) >> 1;
      if (less(shared[mid], k)) lo = mid + 1; else hi = mid;
    }
    return (lo < num_splitters && !less(k, shared[lo])) ? 2 * lo + 1 : 2 * lo;
  }
};

__device__ __forceinline__ unsigned long long mix(unsigned long long x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ULL;
  return x ^ (x >> 33);
}

// One block: gather the samples (one pseudo-random key from each of
// kSamples equal strides, so sorted inputs are sampled evenly too), sort
// them, keep the splitters.
template <class Policy, class SortPolicy, class Key, class Less>
__global__ void __launch_bounds__(SortPolicy::kBlockThreads)
    splitter_kernel(const Key* keys, long long n, Key* samples, Key* scratch, Key* splitters, Less less) {
  extern __shared__ __align__(16) unsigned char smem[];
  constexpr int S = Policy::kSamples;
  for (int i = threadIdx.x; i < S; i += SortPolicy::kBlockThreads) {
    const long long lo = (long long)i * n / S, hi = (long long)(i + 1) * n / S;
    const long long span = hi > lo ? hi - lo : 1;
    samples[i] = keys[min(n - 1, lo + (long long)(mix(i + 1) % (unsigned long long)span))];
  }
  __syncthreads();
  common::block_merge_sort_global<SortPolicy, Key, NoValue, Less>(samples, nullptr, scratch, nullptr, S, false, smem,
                                                                   less);
  __syncthreads();
  for (int j = threadIdx.x; j < Policy::kBuckets - 1; j += SortPolicy::kBlockThreads)
    splitters[j] = samples[(j + 1) * Policy::kOversampling];
}

template <class Policy>
struct SampleSortEntry {
  template <class Key, class Value, class Less>
  struct Sort {
    using Plan = common::BucketSortPlan<typename Policy::Partition, typename Policy::BucketSort, Key, Value, Less>;
    static constexpr std::size_t kSplitterSmem =
        common::GlobalSortSmem<typename Policy::BucketSort, Key, NoValue>::kBytes;

    static cudaError_t sort(void* temp, std::size_t& bytes, Key* kin, Value* vin, Key* kout, Value* vout,
                            long long n, Less less, cudaStream_t s) {
      const Plan plan(n, 2 * Policy::kBuckets - 1);
      const std::size_t sample_bytes = Plan::align(sizeof(Key) * Policy::kSamples);
      const std::size_t splitter_bytes = Plan::align(sizeof(Key) * Policy::kBuckets);
      if (temp == nullptr) {
        bytes = plan.bytes() + 2 * sample_bytes + splitter_bytes;
        cudaError_t e = plan.prepare_smem();
        if (e == cudaSuccess && kSplitterSmem > 48 * 1024)
          e = cudaFuncSetAttribute(splitter_kernel<Policy, typename Policy::BucketSort, Key, Less>,
                                   cudaFuncAttributeMaxDynamicSharedMemorySize, int(kSplitterSmem));
        return e;
      }
      if (n == 0) return cudaSuccess;
      auto* base = static_cast<unsigned char*>(temp) + plan.bytes();
      Key* samples = reinterpret_cast<Key*>(base);
      Key* scratch = reinterpret_cast<Key*>(base + sample_bytes);
      Key* splitters = reinterpret_cast<Key*>(base + 2 * sample_bytes);
      splitter_kernel<Policy, typename Policy::BucketSort, Key, Less>
          <<<1, Policy::BucketSort::kBlockThreads, kSplitterSmem, s>>>(kin, n, samples, scratch, splitters, less);
      cudaError_t e = cudaGetLastError();
      if (e != cudaSuccess) return e;
      const SplitterBucketer<Key, Less> bucketer{splitters, Policy::kBuckets - 1, less};
      return plan.run(temp, kin, vin, kout, vout, bucketer, true, less, s);
    }
  };
};

template <int Oversampling, int Buckets>
VariantInfo sample_sort_info() {
  using Policy = SampleSortPolicy<Oversampling, Buckets>;
  VariantInfo v;
  v.params = {{"oversampling", "ovs", std::to_string(Oversampling)}, {"buckets", "b", std::to_string(Buckets)}};
  v.label = "sample." + param_label(v.params);
  v.family = "sample";
  v.description = "sample sort: oversampled splitters, bucket scatter, one block sorts each bucket (merge sort)";
  v.seed = "000 PMPP 13.8 (sample sort with oversampling)";
  v.stable = false;
  v.tile_keys = Policy::BucketSort::kTileItems;
  // Count read, scatter read + write, then the bucket sorts (a tile sort
  // and log2(bucket / tile) merge passes over an average bucket).
  v.bytes_per_key = [](const Problem& p) {
    const double k = double(key_bytes(p.key)), kv = k + double(value_bytes(p.value));
    Problem bucket = p;
    bucket.n = p.n / Buckets + 1;
    return k + 2.0 * kv + traffic::merge(bucket, Policy::BucketSort::kTileItems);
  };
  v.make = common::make_entry_instance<SampleSortEntry<Policy>::template Sort, false>;
  return v;
}

}  // namespace

// The family's default point (configs' best:sample): the faster of the two
// curated points at 2^26 in results/h200/comparison.json.
SORTBENCH_REGISTER_VARIANT(family_default_point(sample_sort_info<16, 1024>()));
#ifdef SORTBENCH_FULL_GRID
SORTBENCH_REGISTER_VARIANT(sample_sort_info<32, 256>());
SORTBENCH_REGISTER_VARIANT(sample_sort_info<64, 256>());
SORTBENCH_REGISTER_VARIANT(sample_sort_info<32, 1024>());
#endif

}  // namespace sortbench::sample
