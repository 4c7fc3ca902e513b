// The look at the keys a dispatch takes before it sorts
// (sortbench/input_class.hpp): kSampleBlocks blocks count one sampled pair a
// thread into tables in device memory; the last block to finish writes the
// counts straight into host memory mapped for the device
// (sortbench/device/mapped_flag.hpp) and clears the tables for the next
// sample. Blocks on many SMs compute their places and wait on their loads
// side by side, where one block of 1024 threads took them in turn
// (docs/experiments/sample-cost.md).
#include "sortbench/device.hpp"
#include "sortbench/device/key_traits.cuh"
#include "sortbench/device/mapped_flag.hpp"

namespace sortbench {
namespace {

constexpr unsigned kSampleThreads = 128;
constexpr unsigned kSampleBlocks = unsigned(kClassSamplePairs / kSampleThreads);
static_assert(kClassSamplePairs % kSampleThreads == 0, "one pair a thread");
constexpr int kFirstSlotBits = 13;
constexpr unsigned kFirstSlots = 1u << kFirstSlotBits;

// Zero between samples: the last block of each sample clears what it used.
struct SampleTables {
  unsigned seen[(1u << 16) / 32];  // the top-16-bit values the sample has met
  unsigned seen_keys[(1u << kKeySlotBits) / 32];  // the whole keys' slots it has met (key_slot)
  // Per hashed top-16-bit value, the first keys that had it so far: their
  // pairs with a repeated value (hash collisions add about 2^-13 of them).
  unsigned first_count[kFirstSlots];
  unsigned up, down, distinct, distinct_keys, first_same, same_top, blocks_done;
  unsigned long long all_nand, all_or;  // NOT of the AND, so that zero starts it
};

template <class T>
__global__ void __launch_bounds__(kSampleThreads)
    count_sample_kernel(const T* __restrict__ keys, std::size_t n, SampleTables* t, SampleCounts* out) {
  constexpr int kBits = int(sizeof(T) * 8), kTopBits = kBits < 16 ? kBits : 16;
  const std::size_t i = sample_position(blockIdx.x * kSampleThreads + threadIdx.x, n);
  const auto a = KeyTraits<T>::ordered(keys[i]), b = KeyTraits<T>::ordered(keys[i + 1]);
  auto top_of = [](std::uint64_t ordered) { return unsigned(ordered >> (kBits - kTopBits)); };
  const unsigned ta = top_of(a), tb = top_of(b);
  // Whether a top-16-bit value is new to the sample.
  auto fresh = [&](unsigned* seen, unsigned slot) {
    const unsigned bit = 1u << (slot & 31);
    return unsigned((atomicOr(&seen[slot >> 5], bit) & bit) == 0);
  };
  // Places in strides are evenly spread, so the first keys of a monotone
  // input (timestamps) fall in values of their own however few values it
  // fills; their neighbours do not. The repeats among first keys: a slot's m
  // keys give m (m - 1) / 2 in any order.
  unsigned same_first = atomicAdd(&t->first_count[(ta * 2654435761u) >> (32 - kFirstSlotBits)], 1u);
  unsigned fresh_tops = fresh(t->seen, ta) + fresh(t->seen, tb);
  unsigned fresh_keys = fresh(t->seen_keys, key_slot(a)) + fresh(t->seen_keys, key_slot(b));
  unsigned up = a < b, down = b < a, same = ta == tb;
  const std::uint64_t nand = ~std::uint64_t(a), any = std::uint64_t(a);
  // One global atomic a warp for the totals.
  up = __reduce_add_sync(~0u, up);
  down = __reduce_add_sync(~0u, down);
  same = __reduce_add_sync(~0u, same);
  same_first = __reduce_add_sync(~0u, same_first);
  fresh_tops = __reduce_add_sync(~0u, fresh_tops);
  fresh_keys = __reduce_add_sync(~0u, fresh_keys);
  const unsigned nand_lo = __reduce_or_sync(~0u, unsigned(nand)), nand_hi = __reduce_or_sync(~0u, unsigned(nand >> 32));
  const unsigned or_lo = __reduce_or_sync(~0u, unsigned(any)), or_hi = __reduce_or_sync(~0u, unsigned(any >> 32));
  if (threadIdx.x % 32 == 0) {
    atomicAdd(&t->up, up);
    atomicAdd(&t->down, down);
    atomicAdd(&t->same_top, same);
    atomicAdd(&t->first_same, same_first);
    atomicAdd(&t->distinct, fresh_tops);
    atomicAdd(&t->distinct_keys, fresh_keys);
    atomicOr(&t->all_nand, (static_cast<unsigned long long>(nand_hi) << 32) | nand_lo);
    atomicOr(&t->all_or, (static_cast<unsigned long long>(or_hi) << 32) | or_lo);
  }
  // The last block to finish (its atomics, and every other block's, done)
  // answers and clears.
  __shared__ bool last;
  __threadfence();
  __syncthreads();
  if (threadIdx.x == 0) last = atomicAdd(&t->blocks_done, 1u) == kSampleBlocks - 1;
  __syncthreads();
  if (!last) return;
  __threadfence();
  if (threadIdx.x == 0) {
    const volatile SampleTables* v = t;
    out->ascending = v->up;
    out->descending = v->down;
    out->distinct_tops = v->distinct;
    out->first_same_pairs = v->first_same;
    out->same_top_pairs = v->same_top;
    out->distinct_keys = v->distinct_keys;
    out->shared_top_bits = shared_leading_bits(~v->all_nand, v->all_or, kBits);
    __threadfence_system();  // the counts reach the host before the flag
    *reinterpret_cast<volatile std::uint32_t*>(&out->done) = 1;
  }
  __syncthreads();
  // Then the tables, while the host reads: the next sample on this stream
  // starts after this kernel ends.
  auto* words = reinterpret_cast<unsigned*>(t);
  for (unsigned w = threadIdx.x; w < sizeof(SampleTables) / 4; w += kSampleThreads) words[w] = 0;
}

}  // namespace

void count_sample(KeyType key, const void* keys, std::size_t n, const MappedSampleCounts& counts, cudaStream_t s) {
  reinterpret_cast<volatile SampleCounts*>(counts.mapped.host())->done = 0;
  if (n < 2) return;
  with_key_type(key, [&](auto tag) {
    using T = typename decltype(tag)::type;
    auto* tables = static_cast<SampleTables*>(counts.tables);
    count_sample_kernel<T><<<kSampleBlocks, kSampleThreads, 0, s>>>(static_cast<const T*>(keys), n, tables,
                                                                    counts.mapped.device());
  });
  cuda_check(cudaGetLastError(), "count_sample");
}

InputFeatures wait_for_sample(KeyType key, std::size_t n, const SampleCounts* mapped, cudaStream_t s) {
  const int bits = int(key_bytes(key) * 8);
  if (n < 2) return classify_counts({}, 0, bits);
  const volatile SampleCounts* c = mapped;
  wait_for_mapped_flag(&c->done, s, "the key sample");
  SampleCounts counts;
  counts.ascending = c->ascending;
  counts.descending = c->descending;
  counts.distinct_tops = c->distinct_tops;
  counts.first_same_pairs = c->first_same_pairs;
  counts.same_top_pairs = c->same_top_pairs;
  counts.distinct_keys = c->distinct_keys;
  counts.shared_top_bits = c->shared_top_bits;
  return classify_counts(counts, kClassSamplePairs, bits);
}

MappedSampleCounts::MappedSampleCounts() : mapped(1, "mapped sample counts") {
  cuda_check(cudaMalloc(&tables, sizeof(SampleTables)), "sample tables");
  const cudaError_t e = cudaMemset(tables, 0, sizeof(SampleTables));
  if (e != cudaSuccess) {
    cudaFree(tables);
    cuda_check(e, "sample tables");
  }
}
MappedSampleCounts::~MappedSampleCounts() { cudaFree(tables); }

InputFeatures classify_keys(KeyType key, const void* keys, std::size_t n, cudaStream_t s) {
  MappedSampleCounts counts;
  count_sample(key, keys, n, counts, s);
  return wait_for_sample(key, n, counts.mapped.host(), s);
}

}  // namespace sortbench
