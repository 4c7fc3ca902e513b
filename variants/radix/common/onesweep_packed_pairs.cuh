// Onesweep's passes over 32-bit keys with 32-bit values packed into one
// 64-bit word, the key's code in the high half (radix.onesweep_packed_pairs;
// the design is common/onesweep.cuh's): the first pass loads a key and its
// value and ranks the word, the passes between move words as a keys-only
// tile does, and the last pass stores the halves apart. The bytes each pass
// moves are a pairs pass's; a pass of separate pairs also ranks the keys,
// then reorders the values through shared memory a second time with a rank
// array live, and issued 9 % more instructions than CUB's pass on the H100,
// whose pass is bound by latency (variants/radix/PERFORMANCE.md, "The
// H100's u32 pairs"). Sorting such words as 64-bit keys on their top half
// took 7-12 % less time than CUB's pairs sort at 2^26 and 2^28 (run 25 of
// docs/experiments/realistic-data.md). Costs: the words need two buffers of
// n words (16 bytes a pair) of temporary storage, and only integer keys
// (a float's -0.0 and +0.0 would need the code's mark in a word that holds
// no spare bit).
#pragma once

#include "onesweep.cuh"
#include "pass_chain.hpp"

namespace sortbench::radix {

// The tiles' IO (PlainTileIO's interface): PackOnLoad, the first pass's (a
// u32 or i32 key, coded as the passes rank it, and its value); UnpackOnStore,
// the last pass's. A pass between has neither and moves the words as they are.
template <bool PackOnLoad, bool UnpackOnStore>
struct PackedPairsIO {
  static constexpr bool kPacksOnLoad = PackOnLoad, kUnpacksOnStore = UnpackOnStore, kCodedByPass = false;
  const std::uint32_t* keys_in = nullptr;
  const std::uint32_t* values_in = nullptr;
  std::uint32_t* keys_out = nullptr;
  // values_out's address less keys_out's, in bytes: a digit's output
  // address is keys_out's, and each value goes at the same offset from it.
  long long values_from_keys = 0;
  // A key's code: the sign bit flipped for signed keys (PassKeyCode).
  std::uint32_t key_flip = 0;

  __device__ __forceinline__ std::uint64_t load(unsigned i) const {
    return std::uint64_t(keys_in[i] ^ key_flip) << 32 | values_in[i];
  }
  __device__ __forceinline__ unsigned long long out_address(unsigned long long pos) const {
    return reinterpret_cast<unsigned long long>(keys_out) + pos * sizeof(std::uint32_t);
  }
  // address: the digit's out_address of tile position 0; i: the word's
  // position in the tile.
  __device__ __forceinline__ void store(unsigned long long address, unsigned i, std::uint64_t word) const {
    const unsigned long long key_at = address + i * sizeof(std::uint32_t);
    *reinterpret_cast<std::uint32_t*>(key_at) = std::uint32_t(word >> 32) ^ key_flip;
    *reinterpret_cast<std::uint32_t*>(key_at + values_from_keys) = std::uint32_t(word);
  }
};

inline constexpr const char* kPackedPairsMethod = "radix.onesweep_packed_pairs";

// Whether a problem's pairs pack into one word: a 32-bit integer key and a
// u32 value.
inline bool packs_pairs(const Problem& p) {
  return key_bytes(p.key) == 4 && !is_float(p.key) && p.value == ValueType::u32;
}

// The histogram counts the keys' own digits (4 bytes a key read): pass p's
// digit of a key is the word's digit at 32 + p x RadixBits.
struct PackedPairsHistogram {};

// first_pass: the passes of the digits below it are left out, so the pairs
// come out stably sorted on the digits from first_pass up
// (radix.two_digit_msd_local_lsd's top passes). skip_constant_digits: as
// OnesweepInstance's, the passes after the first whose digit every key
// shares are left out (the last pass that runs unpacks).
template <class P>
class OnesweepPackedPairsInstance final : public Instance {
  using Key = std::uint32_t;
  using Word = std::uint64_t;
  using Pack = PackedPairsIO<true, false>;
  using Move = PackedPairsIO<false, false>;
  using Unpack = PackedPairsIO<false, true>;
  static constexpr int kPasses = radix_passes<Key>(P::kRadixBits);
  static constexpr int kWordShift = 32;

 public:
  explicit OnesweepPackedPairsInstance(const Problem& p, int first_pass = 0, bool skip_constant_digits = false)
      : p_(p), first_pass_(first_pass), skip_constant_digits_(skip_constant_digits) {
    if (!packs_pairs(p)) throw std::invalid_argument("radix.onesweep_packed_pairs: 32-bit integer keys with u32 values");
    if (first_pass < 0 || kPasses - first_pass < 2)
      throw std::invalid_argument("radix.onesweep_packed_pairs: two passes or more (one packs, one unpacks)");
    tiles_ = unsigned((p_.n + P::kTile - 1) / P::kTile);
    portions_ = unsigned((p_.n + kPortionKeys - 1) / kPortionKeys);
    // A chain of two passes needs one word buffer (packed_pass_buffers);
    // skipped passes only shorten a chain.
    words_[0] = layout_.add(p_.n * sizeof(Word));
    words_[1] = layout_.add(kPasses - first_pass > 2 ? p_.n * sizeof(Word) : 0);
    // Cleared by one memset: per pass the digit counts, which become the
    // first output positions of portion 0, and those of the portions after
    // it; a tile counter per pass and portion; the histogram's flag of a
    // -0.0 (never set: integer keys); every tile's look-back words.
    cleared_ = std::size_t(kPasses) * starts_stride() * 8 + counter_words() * 4 +
               std::size_t(kPasses) * tiles_ * P::kBins * 4;
    cleared_off_ = layout_.add(cleared_);
    allow_smem(pass_kernel<Pack>(), pass_smem());
    allow_smem(pass_kernel<Move>(), pass_smem());
    allow_smem(pass_kernel<Unpack>(), pass_smem());
    hist_grid_ = HistogramGrid(histogram(), hist_smem());
    chained_ = common::chained_launch_supported();
    if (skip_constant_digits_) verdict_ = ConstantDigitVerdict(kPasses, "radix.onesweep_packed_pairs: mapped verdict");
  }
  OnesweepPackedPairsInstance(const OnesweepPackedPairsInstance&) = delete;
  OnesweepPackedPairsInstance& operator=(const OnesweepPackedPairsInstance&) = delete;
  std::size_t temp_bytes(const Buffers&, cudaStream_t) override { return layout_.bytes; }
  std::vector<KernelLaunch> kernels() const override {
    using namespace onesweep_detail;
    std::vector<KernelLaunch> k = {kernel_launch("histogram", histogram(), kHistThreads, hist_smem()),
                                   kernel_launch("digit scan", bin_scan_kernel<P::kRadixBits>, kBinScanThreads, 0),
                                   kernel_launch("pass: pack", pass_kernel<Pack>(), P::kBlockThreads, pass_smem())};
    if (kPasses - first_pass_ > 2) k.push_back(kernel_launch("pass", pass_kernel<Move>(), P::kBlockThreads, pass_smem()));
    k.push_back(kernel_launch("pass: unpack", pass_kernel<Unpack>(), P::kBlockThreads, pass_smem()));
    return k;
  }
  void run(const Buffers& b, void* temp, std::size_t bytes, cudaStream_t s) override {
    if (p_.n <= 1) return copy_trivial(p_, b, s);
    if (bytes < layout_.bytes) throw std::invalid_argument("radix.onesweep_packed_pairs: temp storage too small");
    sort(b, temp, s);
  }
  static constexpr std::size_t pass_smem() { return P::template smem_bytes<Word, NoValue>(); }

 private:
  static constexpr std::size_t kPortionKeys = ((std::size_t(1) << 30) - 1) / P::kTile * P::kTile;
  static auto histogram() { return onesweep_detail::histogram_kernel<P::kRadixBits, Key, PackedPairsHistogram>; }
  template <class IO>
  static auto pass_kernel() {
    return onesweep_detail::pass_kernel<P, Word, NoValue, IO>;
  }
  static std::size_t hist_smem() { return std::size_t(kPasses) * P::kBins * 4; }
  unsigned starts_stride() const { return (portions_ + 1) * unsigned(P::kBins); }
  std::size_t counter_words() const { return std::size_t(kPasses) * portions_ + 1; }
  unsigned portion_keys(unsigned q) const { return unsigned(std::min(kPortionKeys, p_.n - q * kPortionKeys)); }

  void sort(const Buffers& b, void* temp, cudaStream_t s) {
    using namespace onesweep_detail;
    const KeyMap<Key> map = key_map<Key>(p_);
    const auto* kin = static_cast<const Key*>(b.keys_in);
    const auto* vin = static_cast<const std::uint32_t*>(b.values_in);
    auto* kout = static_cast<Key*>(b.keys_out);
    auto* vout = static_cast<std::uint32_t*>(b.values_out);
    Word* words[2] = {temp_at<Word>(temp, words_[0]), temp_at<Word>(temp, words_[1])};
    auto* starts = temp_at<unsigned long long>(temp, cleared_off_);
    auto* counters = reinterpret_cast<unsigned*>(starts + std::size_t(kPasses) * starts_stride());
    unsigned* negative_zero = counters + counter_words() - 1;
    unsigned* status = counters + counter_words();
    cuda_check(cudaMemsetAsync(starts, 0, cleared_, s), "radix.onesweep_packed_pairs: clear counters");
    const unsigned hist_blocks = hist_grid_.blocks(std::min(p_.n, kPortionKeys));
    for (unsigned q = 0; q < portions_; ++q)
      cuda_check(common::launch_chained(chained_, histogram(), hist_blocks, kHistThreads, hist_smem(), s,
                                        kin + std::size_t(q) * kPortionKeys, portion_keys(q), map, starts,
                                        starts_stride(), first_pass_, negative_zero),
                 "radix.onesweep_packed_pairs: histogram");
    // skip_constant_digits_ (one portion): the digit scan's verdict per pass,
    // read while the first pass runs (OnesweepInstance's).
    const bool skip = skip_constant_digits_ && portions_ == 1;
    cuda_check(common::launch_chained(chained_, bin_scan_kernel<P::kRadixBits>, kPasses, kBinScanThreads, 0, s,
                                      starts, starts_stride(), skip ? verdict_.clear() : nullptr,
                                      (unsigned long long)p_.n),
               "radix.onesweep_packed_pairs: digit scan");
    // The words are unsigned codes: the key's own code is made on packing.
    const PassKeyCode<Word> code{KeyKind::unsigned_int, KeyKind::unsigned_int, map.descending};
    const std::uint32_t key_flip = map.kind == KeyKind::signed_int ? sign_bit<Key>() : 0u;
    const unsigned tiles_per_portion = unsigned(kPortionKeys / P::kTile);
    // Step `step` of `steps`, the pass of digit `pass`.
    auto launch_pass = [&](int pass, int step, int steps) {
      const PackedPassBuffers io = packed_pass_buffers(step, steps);
      unsigned long long* pass_starts = starts + std::size_t(pass) * starts_stride();
      for (unsigned q = 0; q < portions_; ++q) {
        const std::size_t first = std::size_t(q) * kPortionKeys;
        const unsigned nq = portion_keys(q);
        const unsigned tiles = (nq + P::kTile - 1) / P::kTile;
        auto launch = [&](auto kernel, const Word* src, Word* dst, auto tile_io) {
          cuda_check(common::launch_chained(
                         chained_, kernel, tiles, P::kBlockThreads, pass_smem(), s, src, dst,
                         static_cast<const NoValue*>(nullptr), static_cast<NoValue*>(nullptr), nq, code,
                         kWordShift + pass * P::kRadixBits, pass_starts + std::size_t(q) * P::kBins,
                         pass_starts + std::size_t(q + 1) * P::kBins,
                         status + (std::size_t(pass) * tiles_ + std::size_t(q) * tiles_per_portion) * P::kBins,
                         counters + std::size_t(pass) * portions_ + q, negative_zero, tile_io),
                     "radix.onesweep_packed_pairs: pass");
        };
        if (io.src < 0) {
          Pack pack;
          pack.keys_in = kin + first;
          pack.values_in = vin + first;
          pack.key_flip = key_flip;
          launch(pass_kernel<Pack>(), nullptr, words[io.dst], pack);
        } else if (io.dst >= 0) {
          launch(pass_kernel<Move>(), words[io.src] + first, words[io.dst], Move{});
        } else {
          Unpack unpack;
          unpack.keys_out = kout;
          unpack.values_from_keys =
              static_cast<long long>(reinterpret_cast<std::uintptr_t>(vout) - reinterpret_cast<std::uintptr_t>(kout));
          unpack.key_flip = key_flip;
          launch(pass_kernel<Unpack>(), words[io.src] + first, nullptr, unpack);
        }
      }
    };
    if (!skip) {
      for (int pass = first_pass_; pass < kPasses; ++pass) launch_pass(pass, pass - first_pass_, kPasses - first_pass_);
      return;
    }
    // The passes after the first whose digit is not every key's; where there
    // is none, the top digit's runs, to unpack (passes_after_first).
    launch_pass(first_pass_, 0, 2);  // packs into words[0] whatever follows
    const std::vector<ChainStep> after = passes_after_first(
        first_pass_, kPasses,
        verdict_.constant_passes(first_pass_, s, "radix.onesweep_packed_pairs: constant digits"), true);
    const int steps = 1 + int(after.size());
    for (int j = 0; j < int(after.size()); ++j) launch_pass(after[std::size_t(j)].pass, j + 1, steps);
  }

  Problem p_;
  int first_pass_ = 0;
  bool skip_constant_digits_ = false;
  TempLayout layout_;
  std::size_t words_[2] = {0, 0};
  std::size_t cleared_ = 0, cleared_off_ = 0;
  unsigned tiles_ = 0, portions_ = 0;
  HistogramGrid hist_grid_;
  // Each kernel chained behind the one before (OnesweepInstance's reason).
  bool chained_ = false;
  ConstantDigitVerdict verdict_;  // skip_constant_digits_
};

// The variant of policy P (onesweep_packed_pairs.cu registers its points,
// and an on-demand point's translation unit its own). SkipConstantDigits:
// the form that leaves out the passes of digits every key shares
// (OnesweepInstance's).
template <class P, bool SkipConstantDigits>
VariantInfo onesweep_packed_pairs_info() {
  using Sort = OnesweepPackedPairsInstance<P>;
  VariantInfo v;
  onesweep_point_info<P>(v, SkipConstantDigits);
  v.label = std::string(kPackedPairsMethod) + "." + param_label(v.params);
  v.description = "Onesweep-class LSD radix over each 32-bit key and its u32 value packed into one 64-bit word: "
                  "the first pass packs, the passes move words as keys-only tiles, the last unpacks";
  v.value_types = {ValueType::u32};
  v.key_types.clear();  // VariantInfo starts with every word-sized key type
  for (KeyType k : kAllKeyTypes)
    if (packs_pairs(Problem{k, ValueType::u32, Order::ascending, 0})) v.key_types.push_back(k);
  v.unsupported = [](const Problem&) { return smem_reason(Sort::pass_smem()); };
  v.make = [](const Problem& p) -> std::unique_ptr<Instance> {
    return std::make_unique<Sort>(p, 0, SkipConstantDigits);
  };
  return v;
}

// Defined and instantiated at its points in onesweep_packed_pairs.cu (other
// designs run these passes too: radix.two_digit_msd_local_lsd's top digits).
template <class P>
std::unique_ptr<Instance> make_onesweep_packed_pairs(const Problem& p, int first_pass = 0,
                                                     bool skip_constant_digits = false);

}  // namespace sortbench::radix
