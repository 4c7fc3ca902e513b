// An example sortbench plugin: a one-launch sort for small n, where one thread
// block holds the whole input in registers and sorts it with
// cub::BlockRadixSort. A multi-pass device-wide sort pays a launch and a trip
// through global memory per pass; here the keys are read once and written
// once, so the capacity of one block (threads x items per thread) is the
// variant's size cap.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>

#include <cub/block/block_load.cuh>
#include <cub/block/block_radix_sort.cuh>

#include "common/instance.cuh"  // installed under include/sortbench-variants
#include "sortbench/device/key_traits.cuh"
#include "sortbench/variant.hpp"

namespace example_sorts {
namespace {

using sortbench::KeyTraits;
using sortbench::kHasValues;

template <int BlockThreads, int ItemsPerThread>
struct BlockPoint {
  static constexpr int kBlockThreads = BlockThreads;
  static constexpr int kItemsPerThread = ItemsPerThread;
  static constexpr int kCapacity = BlockThreads * ItemsPerThread;
};

// CUB's block sort orders keys exactly as the harness does
// (sortbench/device/key_traits.cuh: signed integers by their sign-flipped
// bits, floats with -0.0 equal to +0.0) and moves the original bits, so each
// key type sorts as itself and the validator's order holds.
template <class Point, class Key, class Value, bool Descending>
struct OneBlockSort {
  static constexpr int T = Point::kBlockThreads, kItems = Point::kItemsPerThread;
  static constexpr bool kPairs = kHasValues<Value>, kDescending = Descending;
  using SortValue = std::conditional_t<kPairs, Value, cub::NullType>;
  using BlockSort = cub::BlockRadixSort<Key, T, kItems, SortValue>;
  // Coalesced loads, then an exchange into the blocked arrangement: a stable
  // block sort keeps equal keys in the order the arrangement lists them, so
  // thread t must hold input positions t*kItems .. t*kItems + kItems-1.
  using LoadKeys = cub::BlockLoad<Key, T, kItems, cub::BLOCK_LOAD_WARP_TRANSPOSE>;
  using LoadValues = cub::BlockLoad<std::conditional_t<kPairs, Value, Key>, T, kItems, cub::BLOCK_LOAD_WARP_TRANSPOSE>;
  union Storage {
    typename BlockSort::TempStorage sort;
    typename LoadKeys::TempStorage load_keys;
    typename LoadValues::TempStorage load_values;
  };
  // Dynamic: 512 x 16 pairs with u64 values exchange 64 KiB, above the 48 KiB
  // of static shared memory.
  static constexpr std::size_t kSmem = sizeof(Storage);

  // The tail past n is filled with the key that sorts last in this order; the
  // sort is stable, so it stays behind real keys equal to it.
  __device__ static Key padding() {
    using Bits = typename KeyTraits<Key>::UnsignedBits;
    return KeyTraits<Key>::from_ordered(Descending ? Bits(0) : Bits(~Bits(0)));
  }
};

template <class Sort, class Key, class Value>
__global__ void __launch_bounds__(Sort::T)
    one_block_sort_kernel(const Key* keys_in, Key* keys_out, const Value* values_in, Value* values_out, int n) {
  extern __shared__ __align__(16) unsigned char smem[];
  auto& storage = *reinterpret_cast<typename Sort::Storage*>(smem);
  Key keys[Sort::kItems];
  typename Sort::SortValue values[Sort::kItems];
  typename Sort::LoadKeys(storage.load_keys).Load(keys_in, keys, n, Sort::padding());
  if constexpr (Sort::kPairs) {
    __syncthreads();
    typename Sort::LoadValues(storage.load_values).Load(values_in, values, n);
  }
  __syncthreads();
  typename Sort::BlockSort sorter(storage.sort);
  // Striped output: item i of thread t is rank i*T + t, so consecutive
  // threads store consecutive addresses without another exchange.
  if constexpr (Sort::kPairs) {
    if constexpr (Sort::kDescending) sorter.SortDescendingBlockedToStriped(keys, values);
    else sorter.SortBlockedToStriped(keys, values);
  } else {
    if constexpr (Sort::kDescending) sorter.SortDescendingBlockedToStriped(keys);
    else sorter.SortBlockedToStriped(keys);
  }
#pragma unroll
  for (int i = 0; i < Sort::kItems; ++i) {
    const int rank = i * Sort::T + int(threadIdx.x);
    if (rank < n) {
      keys_out[rank] = keys[i];
      if constexpr (Sort::kPairs) values_out[rank] = values[i];
    }
  }
}

template <class Point, class Key, class Value, bool Descending>
class OneBlockInstance final : public sortbench::Instance {
  using Sort = OneBlockSort<Point, Key, Value, Descending>;
  // Keys only: the value pointers are null and never dereferenced.
  using ValuePtr = std::conditional_t<kHasValues<Value>, Value, Key>;
  static constexpr auto kKernel = one_block_sort_kernel<Sort, Key, ValuePtr>;

 public:
  explicit OneBlockInstance(const sortbench::Problem& p) : n_(int(p.n)) {}

  std::size_t temp_bytes(const sortbench::Buffers&, cudaStream_t) override {
    // Untimed: the opt-in above 48 KiB belongs here, not in run().
    sortbench::common::allow_smem(kKernel, Sort::kSmem);
    return 0;
  }

  void run(const sortbench::Buffers& b, void*, std::size_t, cudaStream_t stream) override {
    if (n_ == 0) return;
    kKernel<<<1, Sort::T, Sort::kSmem, stream>>>(static_cast<const Key*>(b.keys_in), static_cast<Key*>(b.keys_out),
                                                  static_cast<const ValuePtr*>(b.values_in),
                                                  static_cast<ValuePtr*>(b.values_out), n_);
    sortbench::cuda_check(cudaGetLastError(), "example.block_radix: launch");
  }

  std::vector<sortbench::KernelLaunch> kernels() const override {
    return {sortbench::kernel_launch("block sort", kKernel, Sort::T, Sort::kSmem)};
  }

 private:
  int n_;
};

using KeyTypes = sortbench::KeyTypeSet<sortbench::KeyType::u32, sortbench::KeyType::i32, sortbench::KeyType::f32>;

template <class Point>
std::unique_ptr<sortbench::Instance> make_instance(const sortbench::Problem& p) {
  return sortbench::with_key_type_in<KeyTypes>(p.key, [&](auto key_tag) {
    using Key = typename decltype(key_tag)::type;
    return sortbench::with_value_type(p.value, [&](auto value_tag) -> std::unique_ptr<sortbench::Instance> {
      using Value = typename decltype(value_tag)::type;
      if (p.order == sortbench::Order::descending)
        return std::make_unique<OneBlockInstance<Point, Key, Value, true>>(p);
      return std::make_unique<OneBlockInstance<Point, Key, Value, false>>(p);
    });
  });
}

template <int BlockThreads, int ItemsPerThread>
sortbench::VariantInfo block_radix_info() {
  using Point = BlockPoint<BlockThreads, ItemsPerThread>;
  sortbench::VariantInfo v;
  v.params = {{"block_threads", "tpb", std::to_string(BlockThreads)},
              {"items_per_thread", "ipt", std::to_string(ItemsPerThread)}};
  v.label = "example.block_radix." + sortbench::param_label(v.params);
  v.family = "example";
  v.description = "one thread block sorts the whole input in registers with cub::BlockRadixSort; one launch";
  v.seed = "examples/plugin (sortbench plugin example)";
  v.key_types = {sortbench::KeyType::u32, sortbench::KeyType::i32, sortbench::KeyType::f32};
  v.value_types = {sortbench::ValueType::none, sortbench::ValueType::u32, sortbench::ValueType::u64};
  v.descending = true;
  v.stable = true;
  v.tile_keys = Point::kCapacity;
  v.max_n = Point::kCapacity;
  v.max_n_why = "one block of " + std::to_string(BlockThreads) + " threads x " + std::to_string(ItemsPerThread) +
                " keys in registers";
  // Every key and value is read once and written once.
  v.bytes_per_key = [](const sortbench::Problem& p) {
    return 2.0 * double(sortbench::key_bytes(p.key) + sortbench::value_bytes(p.value));
  };
  v.make = make_instance<Point>;
  return v;
}

}  // namespace

// 2048, 4096 and 8192 keys: a sweep over 2^10..2^13 shows where each point
// stops (skipped above its cap) and how the block's width trades against
// the work per thread.
SORTBENCH_REGISTER_VARIANT(block_radix_info<256, 8>());
SORTBENCH_REGISTER_VARIANT(block_radix_info<256, 16>());
SORTBENCH_REGISTER_VARIANT(block_radix_info<512, 16>());

}  // namespace example_sorts
