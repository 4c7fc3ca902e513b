// One MSD pass, then LSD inside each bucket (issue 15's 2^20 goal; the
// bucket-then-local plan of PMPP 13.8, seed 000, with Onesweep's pass as the
// partition):
//   top digit: Onesweep's histogram and one pass on the most significant
//              digit, in one launch (common/onesweep.cuh, TopDigitFirst),
//              which is stable and leaves digit d's keys in
//              keys_out[begin[d], end[d]);
//   buckets:   one block per digit loads its bucket into shared memory once,
//              runs the remaining digits' passes there (Onesweep's match
//              ranking of the whole slab) and writes the bucket back once.
// At 2^20 u32 keys an Onesweep sort is four one-wave passes, each paying a
// look-back over L2 and a round trip of the keys through device memory
// (variants/radix/PERFORMANCE.md); here three of them become shared-memory
// passes with no look-back.
// A bucket larger than a slab (skewed keys) cannot be sorted this way. The
// histogram says so before any pass, and then the sort is Onesweep's: the
// lower digits' passes run first, in the same launch as the top digit's, and
// the bucket kernel returns at once. One block merge sorting its large bucket
// instead took 0.7 to 6 ms at 2^20 on skewed keys, against 0.05 ms for
// Onesweep; the lower passes as kernels of their own that return at once
// while buckets fit cost 3.5 us each (docs/experiments/issue15-steps.md).
#include <algorithm>

#include "common/bucket_local_sort.cuh"
#include "common/onesweep.cuh"
#ifdef SORTBENCH_LEAN_BUILD
#include "sortbench_lean_points.h"
#endif

namespace sortbench::radix {
namespace {

// The bucket kernel's slab and passes (common/bucket_local_sort.cuh).
// TopItems x TopThreads: the top digit's Onesweep tile. 4096 keys is the
// Onesweep point best.json picked at 2^20 before this design; at 2^16 that is
// 16 tiles, and the top pass ran on 16 SMs at about one instruction per cycle
// (docs/experiments/issue15-steps.md), so the small slabs also come with
// smaller top tiles. Its minimum blocks per SM keep 1024 threads per SM (64
// registers), as the default point does.
template <int RadixBits, int LocalItems, int LocalThreads, bool UnrolledPasses = false, int TopItems = 8,
          int TopThreads = 512>
struct MsdLocalPolicy : BucketSortPolicy<1, RadixBits, LocalItems, LocalThreads, UnrolledPasses> {
  using TopPass = OnesweepPolicy<RadixBits, TopItems, TopThreads, 1024 / TopThreads>;

  // Points with the passes as a loop and the 4096-key top tile keep their
  // labels.
  static Params params() {
    Params p = {{"radix_bits", "rb", std::to_string(RadixBits)},
                {"items_per_thread", "ipt", std::to_string(LocalItems)},
                {"block_threads", "tpb", std::to_string(LocalThreads)}};
    if (UnrolledPasses) p.push_back({"passes", "", "unrolled_passes"});
    if (TopItems != 8 || TopThreads != 512) {
      p.push_back({"top_items_per_thread", "top_ipt", std::to_string(TopItems)});
      p.push_back({"top_block_threads", "top_tpb", std::to_string(TopThreads)});
    }
    return p;
  }
};

template <class P, class Bits>
class MsdLocalInstance final : public Instance {
 public:
  explicit MsdLocalInstance(const Problem& p) : p_(p), top_(p, P::kSlab) {
    with_value_type(p_.value, [](auto tag) {
      using V = typename decltype(tag)::type;
      allow_smem(bucket_sort_kernel<P, Bits, V>, P::template smem_bytes<Bits, V>());
    });
    chained_ = common::chained_launch_supported();
  }
  std::size_t temp_bytes(const Buffers& b, cudaStream_t s) override { return top_.temp_bytes(b, s); }
  std::vector<KernelLaunch> kernels() const override {
    std::vector<KernelLaunch> k = top_.kernels();
    with_value_type(p_.value, [&](auto tag) {
      using V = typename decltype(tag)::type;
      k.push_back(kernel_launch("bucket sort", bucket_sort_kernel<P, Bits, V>, P::kBlockThreads,
                                P::template smem_bytes<Bits, V>()));
    });
    return k;
  }
  void run(const Buffers& b, void* temp, std::size_t bytes, cudaStream_t s) override {
    if (p_.n <= 1) return copy_trivial(p_, b, s);
    top_.run(b, temp, bytes, s);
    with_value_type(p_.value, [&](auto tag) {
      using V = typename decltype(tag)::type;
      cuda_check(common::launch_chained(chained_, bucket_sort_kernel<P, Bits, V>, unsigned(P::kBins),
                                        unsigned(P::kBlockThreads), P::template smem_bytes<Bits, V>(), s,
                                        static_cast<Bits*>(b.keys_out), static_cast<V*>(b.values_out),
                                        top_.buckets_fit(temp), top_.digit_ends(temp),
                                        key_map<Bits>(p_)),
                 "radix.msd_local_lsd: bucket sort");
    });
  }

 private:
  Problem p_;
  OnesweepInstance<typename P::TopPass, Bits, true> top_;
  bool chained_ = false;
};

template <int RadixBits, int LocalItems, int LocalThreads, bool UnrolledPasses = false, int TopItems = 8,
          int TopThreads = 512>
VariantInfo msd_local_info() {
  using P = MsdLocalPolicy<RadixBits, LocalItems, LocalThreads, UnrolledPasses, TopItems, TopThreads>;
  VariantInfo v;
  v.label = "radix.msd_local_lsd." + param_label(P::params());
  v.family = "radix";
  v.description = "one Onesweep pass on the top digit, then one block per bucket runs the other digits' passes in "
                  "shared memory (Onesweep's passes instead when a bucket is larger than a block's slab)";
  v.seed = "000 PMPP 13.8 (buckets sorted locally); 001 further reading (Onesweep)";
  take_every_type(v);
  // Keys of three digits or more: the lower digits' passes must end where
  // the top digit's pass reads (common/onesweep.cuh, TopDigitFirst).
  v.key_types.erase(std::remove_if(v.key_types.begin(), v.key_types.end(),
                                   [](KeyType k) { return key_bytes(k) * 8 <= 2 * RadixBits; }),
                    v.key_types.end());
  v.descending = true;
  v.stable = true;
  v.params = P::params();
  v.tile_keys = P::kSlab;
  // Past bins x slab keys even uniform buckets overflow the slab, and every
  // sort would be Onesweep's.
  v.max_n = std::size_t(P::kBins) * P::kSlab;
  v.max_n_why = std::to_string(P::kBins) + " buckets of at most " + std::to_string(P::kSlab) +
                " keys (one block's slab) each";
  v.bytes_per_key = [](const Problem& p) { return traffic::msd_then_local(p); };
  v.unsupported = [](const Problem& p) {
    return with_bits_and_value(p, [&](auto bits_tag, auto value_tag) {
      using Bits = typename decltype(bits_tag)::type;
      using V = typename decltype(value_tag)::type;
      std::string why = smem_reason(P::template smem_bytes<Bits, V>());
      using Top = OnesweepInstance<typename P::TopPass, Bits, true>;
      return why.empty() ? smem_reason(Top::template pass_smem<V>()) : why;
    });
  };
  v.make = [](const Problem& p) {
    return with_key_bits(p.key, [&](auto bits_tag) -> std::unique_ptr<Instance> {
      using Bits = typename decltype(bits_tag)::type;
      if constexpr (sizeof(Bits) * 8 > 2 * RadixBits)
        return std::make_unique<MsdLocalInstance<P, Bits>>(p);
      else
        throw std::logic_error("radix.msd_local_lsd: keys of fewer than three digits");
    });
  };
  return v;
}

}  // namespace

// Slabs of 384 to 8704 keys: uniform buckets fill about two thirds of the
// smallest and half of the next at 2^16, and about 90 % of the others at
// 2^18, 2^19, 2^20 and 2^21 keys. The small slabs also come with 2048- and
// 1024-key top tiles. They lost 2^16 while the histogram was a kernel of its
// own (docs/experiments/issue15-steps.md); in one launch with it they are the
// fastest points at 2^14 and 2^16 on the H100
// (docs/experiments/issue15-steps.md).
#ifdef SORTBENCH_LEAN_BUILD
// The lean build: the points a committed best.json names (cmake/lean_points.cmake).
#define SORTBENCH_RADIX_REGISTER_MSD_LOCAL(...) SORTBENCH_REGISTER_VARIANT((msd_local_info<__VA_ARGS__>()));
SORTBENCH_LEAN_MSD_LOCAL(SORTBENCH_RADIX_REGISTER_MSD_LOCAL)
#undef SORTBENCH_RADIX_REGISTER_MSD_LOCAL
#else
SORTBENCH_REGISTER_VARIANT(msd_local_info<8, 3, 128>());
SORTBENCH_REGISTER_VARIANT(msd_local_info<8, 3, 128, false, 4, 512>());
SORTBENCH_REGISTER_VARIANT(msd_local_info<8, 3, 128, false, 4, 256>());
SORTBENCH_REGISTER_VARIANT(msd_local_info<8, 4, 128, false, 4, 256>());
SORTBENCH_REGISTER_VARIANT(msd_local_info<8, 4, 128>());
SORTBENCH_REGISTER_VARIANT(msd_local_info<8, 4, 128, false, 4, 512>());
SORTBENCH_REGISTER_VARIANT(msd_local_info<8, 4, 128, false, 8, 256>());
SORTBENCH_REGISTER_VARIANT(msd_local_info<8, 9, 128>());
SORTBENCH_REGISTER_VARIANT(msd_local_info<8, 9, 128, false, 4, 512>());
SORTBENCH_REGISTER_VARIANT(msd_local_info<8, 9, 256>());
SORTBENCH_REGISTER_VARIANT(msd_local_info<8, 9, 512>());
SORTBENCH_REGISTER_VARIANT(msd_local_info<8, 9, 256, true>());
SORTBENCH_REGISTER_VARIANT(msd_local_info<8, 9, 512, true>());
SORTBENCH_REGISTER_VARIANT(msd_local_info<8, 17, 512>());
#endif

}  // namespace sortbench::radix
