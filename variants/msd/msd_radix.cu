// MSD radix sort, PMPP 13.8: partition the keys on their most significant
// digit (radix_bits wide, of the order-preserving bits of key_traits.cuh),
// then sort each bucket independently: in shared memory when it fits a
// tile, else by one block's merge sort (which returns at once on buckets
// already in order, such as all-equal keys). Unlike LSD, every step after
// the first works on an ever more local range. Not stable.
#include <cstddef>
#include <cstdint>

#include "common/bucket_partition.cuh"
#include "common/instance.cuh"
#include "sortbench/traffic.hpp"

namespace sortbench::msd {
namespace {

template <int RadixBits>
struct MsdRadixPolicy {
  static constexpr int kRadixBits = RadixBits;
  using Partition = common::PartitionPolicy<256, 16>;
  using BucketSort = common::MergeSortPolicy<256, 15>;
};

template <class Key, int RadixBits>
struct TopDigitBucketer {
  __host__ __device__ static std::size_t hist_bytes(int num_buckets) { return std::size_t(num_buckets) * 4; }
  __host__ __device__ static std::size_t state_bytes(int) { return 0; }
  __host__ __device__ int num_buckets() const { return 1 << RadixBits; }
  __device__ void load(unsigned char*) {}
  __device__ __forceinline__ int operator()(const Key& k) const {
    return int(KeyTraits<Key>::ordered(k) >> (KeyTraits<Key>::kBits - RadixBits));
  }
};

template <class Policy>
struct MsdRadixEntry {
  template <class Key, class Value, class Less>
  struct Sort {
    using Plan = common::BucketSortPlan<typename Policy::Partition, typename Policy::BucketSort, Key, Value, Less>;
    static cudaError_t sort(void* temp, std::size_t& bytes, Key* kin, Value* vin, Key* kout, Value* vout,
                            long long n, Less less, cudaStream_t s) {
      const Plan plan(n, 1 << Policy::kRadixBits);
      if (temp == nullptr) {
        bytes = plan.bytes();
        return plan.prepare_smem();
      }
      if (n == 0) return cudaSuccess;
      return plan.run(temp, kin, vin, kout, vout, TopDigitBucketer<Key, Policy::kRadixBits>{}, false, less, s);
    }
  };
};

template <int RadixBits>
VariantInfo msd_radix_info() {
  using Policy = MsdRadixPolicy<RadixBits>;
  VariantInfo v;
  v.params = {{"radix_bits", "rb", std::to_string(RadixBits)}};
  v.label = "radix_msd." + param_label(v.params);
  v.family = "radix_msd";
  v.description = "MSD radix: one partition on the top digit, then one block per bucket (shared-memory tile or merge sort)";
  v.seed = "000 PMPP 13.8 (MSD radix sort)";
  v.stable = false;
  v.tile_keys = Policy::BucketSort::kTileItems;
  v.bytes_per_key = [](const Problem& p) {
    const double k = double(key_bytes(p.key)), kv = k + double(value_bytes(p.value));
    Problem bucket = p;
    bucket.n = (p.n >> RadixBits) + 1;
    return k + 2.0 * kv + traffic::merge(bucket, Policy::BucketSort::kTileItems);
  };
  v.make = common::make_entry_instance<MsdRadixEntry<Policy>::template Sort, false>;
  return v;
}

}  // namespace

// The family's default point (configs' best:radix_msd): the only curated one.
SORTBENCH_REGISTER_VARIANT(family_default_point(msd_radix_info<8>()));
#ifdef SORTBENCH_FULL_GRID
SORTBENCH_REGISTER_VARIANT(msd_radix_info<10>());
SORTBENCH_REGISTER_VARIANT(msd_radix_info<12>());
#endif

}  // namespace sortbench::msd
