// Onesweep's host side (common/onesweep.cuh has the design): the instance
// that lays out the temporary storage, sets the kernels' shared memory,
// sizes their grids and launches them for one problem (onesweep_agent.cuh
// holds the kernels).
#pragma once

#include <memory>

#include "common/chained_launch.cuh"
#include "onesweep_agent.cuh"
#include "onesweep_policy.cuh"
#include "pass_chain.hpp"
#include "sortbench/device/mapped_flag.hpp"

namespace sortbench::radix {

// The skip_constant_digits forms' answer from the digit scan, per pass, in
// host memory mapped for the device (bin_scan_kernel writes 2 where one
// digit holds every key, else 1): cleared before the scan, read while the
// first pass runs (pass_chain.hpp).
class ConstantDigitVerdict {
 public:
  ConstantDigitVerdict() = default;
  ConstantDigitVerdict(int passes, const char* what) : words_(std::size_t(passes), what), passes_(passes) {}
  // Before the digit scan: no pass has its answer; where the scan writes them.
  std::uint32_t* clear() {
    for (int pass = 0; pass < passes_; ++pass) reinterpret_cast<volatile std::uint32_t*>(words_.host())[pass] = 0;
    return words_.device();
  }
  // Waits for the answers of passes after `first`: constant[p], pass p's digit
  // is every key's.
  std::vector<bool> constant_passes(int first, cudaStream_t s, const char* what) const {
    std::vector<bool> constant(std::size_t(passes_), false);
    for (int pass = first + 1; pass < passes_; ++pass) {
      wait_for_mapped_flag(&words_.host()[pass], s, what);
      constant[std::size_t(pass)] = words_.host()[pass] == 2;
    }
    return constant;
  }

 private:
  MappedHost<std::uint32_t> words_;
  int passes_ = 0;
};

// The histogram kernel's grid (histogram_kernel): a wave of blocks, or fewer
// where a portion has fewer chunks of kHistThreads x kKeysPerThread keys.
class HistogramGrid {
 public:
  HistogramGrid() = default;
  template <class Kernel>
  HistogramGrid(Kernel kernel, std::size_t smem) {
    int dev = 0, sms = 0, per_sm = 0;
    cuda_check(cudaGetDevice(&dev), "cudaGetDevice");
    cuda_check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev), "multiprocessor count");
    allow_smem(kernel, smem);
    cuda_check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, onesweep_detail::kHistThreads, smem),
               "histogram occupancy");
    wave_ = std::size_t(sms) * std::size_t(std::max(1, per_sm));
  }
  // Blocks for a portion of `keys` keys.
  unsigned blocks(std::size_t keys) const {
    constexpr std::size_t kChunk = std::size_t(onesweep_detail::kHistThreads) * kKeysPerThread;
    return unsigned(std::max<std::size_t>(1, std::min(wave_, (keys + kChunk - 1) / kChunk)));
  }

 private:
  // Keys each thread counts, which sets the grid below a full wave.
  static constexpr unsigned kKeysPerThread = 16;
  std::size_t wave_ = 0;
};

// TopDigitFirst: for designs that sort the top digit's buckets themselves
// (radix.msd_local_lsd). When every top digit holds at most bucket_limit keys
// (decided on the device, after the histogram), only the top digit's pass
// runs, from keys_in to keys_out: a stable MSD partition into buckets. Else
// the other passes run first, ending in keys_in, and the sort is complete
// after the top digit's pass, as without the mode. Either way the histogram
// and the passes are one persistent launch (top_digit_first_kernel), so the
// path not taken costs no launches, and that launch scans the digit counts
// itself: the sort is a memset and one launch. buckets_fit() tells the
// kernels after it which happened. Keys of at least three digits; one portion.
// first_pass (without TopDigitFirst): the passes of the digits below it are
// left out, so the keys come out stably sorted on the digits from first_pass
// up, grouped by them, and keys_in is left as it was when two passes run
// (radix.two_digit_msd_local_lsd's partition).
template <class P, class Bits, bool TopDigitFirst = false>
class OnesweepInstance final : public Instance {
 public:
  explicit OnesweepInstance(const Problem& p, unsigned long long bucket_limit = 0, int first_pass = 0,
                            bool skip_constant_digits = false)
      : p_(p), first_pass_(first_pass), bucket_limit_(bucket_limit), skip_constant_digits_(skip_constant_digits) {
    passes_ = radix_passes<Bits>(P::kRadixBits);
    tiles_ = unsigned((p_.n + P::kTile - 1) / P::kTile);
    portions_ = unsigned((p_.n + kPortionKeys - 1) / kPortionKeys);
    if (TopDigitFirst && (passes_ < 3 || portions_ > 1))
      throw std::invalid_argument("radix.onesweep: the top digit first needs three digits and one portion");
    if (first_pass < 0 || first_pass >= passes_ || (TopDigitFirst && first_pass))
      throw std::invalid_argument("radix.onesweep: first_pass must name a digit, and only without TopDigitFirst");
    if (skip_constant_digits_ && TopDigitFirst)
      throw std::invalid_argument("radix.onesweep: skipping constant digits needs the histogram kernel");
    if (p_.const_input && (TopDigitFirst || first_pass))
      throw std::invalid_argument("radix.onesweep: a const input needs every pass of the plain chain");
    // Skipped passes change the chain's length, and with it whether it needs
    // the third buffer; a const input always needs it.
    const bool alt =
        TopDigitFirst || skip_constant_digits_ || p_.const_input || pass_chain_needs_alt(passes_ - first_pass_);
    alt_keys_ = layout_.add(alt ? p_.n * sizeof(Bits) : 0);
    alt_values_ = layout_.add(alt ? p_.n * value_bytes(p_.value) : 0);
    // The third buffer a skip_constant_digits_ chain may take where the
    // input stays as it was (pass_chain.hpp).
    const bool spare = skip_constant_digits_ && p_.const_input;
    spare_keys_ = layout_.add(spare ? p_.n * sizeof(Bits) : 0);
    spare_values_ = layout_.add(spare ? p_.n * value_bytes(p_.value) : 0);
    fits_off_ = layout_.add(TopDigitFirst ? sizeof(unsigned) : 0);
    // One block that a single memset clears: per pass the digit counts, which
    // become the first output positions of portion 0, and those of the
    // portions after it (64-bit); a tile counter per pass and portion; the
    // look-back words of every tile of every pass.
    // (TopDigitFirst: a ticket counter and a count of finished tiles per pass.)
    // The histogram's flag of a -0.0 among float keys.
    cleared_ = std::size_t(passes_) * starts_stride() * 8 + counter_words() * 4 +
               std::size_t(passes_) * tiles_ * P::kBins * 4;
    cleared_off_ = layout_.add(cleared_);
    with_value_type(p_.value, [&](auto value_tag) {
      using V = typename decltype(value_tag)::type;
      const auto pass = pass_kernel_for<V>();
      allow_smem(pass, pass_smem<V>());
      if constexpr (TopDigitFirst) {
        int dev = 0, sms = 0, blocks = 0;
        cuda_check(cudaGetDevice(&dev), "cudaGetDevice");
        cuda_check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev), "multiprocessor count");
        cuda_check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, pass, P::kBlockThreads, pass_smem<V>()),
                   "pass occupancy");
        persistent_blocks_ = unsigned(std::max(1, blocks) * sms);
      }
    });
    if constexpr (!TopDigitFirst)
      hist_grid_ = HistogramGrid(onesweep_detail::histogram_kernel<P::kRadixBits, Bits>, hist_smem());
    chained_ = common::chained_launch_supported();
    if (skip_constant_digits_) verdict_ = ConstantDigitVerdict(passes_, "radix.onesweep: mapped verdict");
  }
  OnesweepInstance(const OnesweepInstance&) = delete;
  OnesweepInstance& operator=(const OnesweepInstance&) = delete;
  std::size_t temp_bytes(const Buffers&, cudaStream_t) override { return layout_.bytes; }
  std::vector<KernelLaunch> kernels() const override {
    using namespace onesweep_detail;
    return with_value_type(p_.value, [&](auto value_tag) -> std::vector<KernelLaunch> {
      using V = typename decltype(value_tag)::type;
      if constexpr (TopDigitFirst)
        return {kernel_launch("histogram and passes", pass_kernel_for<V>(), P::kBlockThreads, pass_smem<V>())};
      else
        return {kernel_launch("histogram", histogram_kernel<P::kRadixBits, Bits>, kHistThreads, hist_smem()),
                kernel_launch("digit scan", bin_scan_kernel<P::kRadixBits>, kBinScanThreads, 0),
                kernel_launch("pass", pass_kernel_for<V>(), P::kBlockThreads, pass_smem<V>())};
    });
  }
  void run(const Buffers& b, void* temp, std::size_t bytes, cudaStream_t s) override {
    if (p_.n <= 1) return copy_trivial(p_, b, s);
    if (bytes < layout_.bytes) throw std::invalid_argument("radix.onesweep: temp storage too small");
    with_value_type(p_.value, [&](auto value_tag) { sort<typename decltype(value_tag)::type>(b, temp, s); });
  }
  // TopDigitFirst, after run(): nonzero when only the top digit's pass ran;
  // top digit d's keys are then keys_out[d ? end[d - 1] : 0, end[d]).
  const unsigned* buckets_fit(void* temp) const { return temp_at<unsigned>(temp, fits_off_); }
  const unsigned long long* digit_ends(void* temp) const {
    return temp_at<unsigned long long>(temp, cleared_off_) + std::size_t(passes_ - 1) * starts_stride() + P::kBins;
  }
  // The policy whose kernels sort keys with values of type V: tiles with
  // values are never padded (OnesweepPolicy::slot), so a `.pad0` point
  // shares its padded sibling's.
  template <class V>
  using KernelPolicy = std::conditional_t<kHasValues<V>, typename P::Padded, P>;
  // Dynamic shared memory of the pass kernel, for a variant's check that a
  // point fits before it is built.
  template <class V>
  static constexpr std::size_t pass_smem() {
    if constexpr (TopDigitFirst) return sizeof(onesweep_detail::TopDigitFirstSmem<KernelPolicy<V>, Bits, V>);
    else return KernelPolicy<V>::template smem_bytes<Bits, V>();
  }

 private:
  std::size_t hist_smem() const { return std::size_t(passes_) * P::kBins * 4; }
  // Portions hold whole tiles, fewer than 2^30 keys (30-bit look-back counts).
  static constexpr std::size_t kPortionKeys = ((std::size_t(1) << 30) - 1) / P::kTile * P::kTile;
  unsigned starts_stride() const { return (portions_ + 1) * unsigned(P::kBins); }
  // The last word: the negative-zero flag.
  std::size_t counter_words() const { return (TopDigitFirst ? 3 + passes_ : std::size_t(passes_) * portions_) + 1; }
  template <class V>
  static auto pass_kernel_for() {
    if constexpr (TopDigitFirst) return onesweep_detail::top_digit_first_kernel<KernelPolicy<V>, Bits, V>;
    else return onesweep_detail::pass_kernel<KernelPolicy<V>, Bits, V>;
  }

  template <class V>
  void sort(const Buffers& b, void* temp, cudaStream_t s) {
    using namespace onesweep_detail;
    const KeyMap<Bits> map = key_map<Bits>(p_);
    auto* kin = static_cast<Bits*>(b.keys_in);
    auto* kout = static_cast<Bits*>(b.keys_out);
    auto* kalt = temp_at<Bits>(temp, alt_keys_);
    auto* vin = static_cast<V*>(b.values_in);
    auto* vout = static_cast<V*>(b.values_out);
    auto* valt = temp_at<V>(temp, alt_values_);
    auto* starts = temp_at<unsigned long long>(temp, cleared_off_);
    auto* counters = reinterpret_cast<unsigned*>(starts + std::size_t(passes_) * starts_stride());
    unsigned* negative_zero = counters + counter_words() - 1;
    unsigned* status = counters + counter_words();
    cuda_check(cudaMemsetAsync(starts, 0, cleared_, s), "radix.onesweep: clear counters");
    if constexpr (TopDigitFirst) {
      // A block per histogram chunk or per tile of a pass, whichever are
      // more, up to as many as fit at once: the tickets they take are the
      // chunks, then the tiles of the top digit alone, or of every pass when
      // a bucket is too large.
      constexpr unsigned kChunk = unsigned(P::kBlockThreads * kTopHistItems);
      const unsigned chunks = unsigned((p_.n + kChunk - 1) / kChunk);
      const unsigned grid = std::min(persistent_blocks_, std::max(chunks, tiles_));
      cuda_check(common::launch_chained(chained_, top_digit_first_kernel<KernelPolicy<V>, Bits, V>, grid,
                                        P::kBlockThreads, pass_smem<V>(), s, kin, kout, kalt, vin, vout, valt,
                                        unsigned(p_.n), map, chunks, starts, starts_stride(), status, counters,
                                        bucket_limit_, temp_at<unsigned>(temp, fits_off_)),
                 "radix.onesweep: histogram and passes");
      return;
    }
    const unsigned hist_blocks = hist_grid_.blocks(std::min(p_.n, kPortionKeys));
    for (unsigned q = 0; q < portions_; ++q) {
      cuda_check(common::launch_chained(chained_, histogram_kernel<P::kRadixBits, Bits>, hist_blocks, kHistThreads,
                                        hist_smem(), s, kin + q * kPortionKeys, portion_keys(q), map, starts,
                                        starts_stride(), first_pass_, negative_zero),
                 "radix.onesweep: histogram");
    }
    // skip_constant_digits_ (one portion, two passes or more): the digit
    // scan also says which digits every key shares, in mapped host memory,
    // and the passes after the first are those whose digit is not the same
    // for every key (a pass whose digit has one value for all n keys would
    // leave them in place). The first pass runs while the host waits for
    // that answer (pass_chain.hpp has the buffers).
    const bool skip = skip_constant_digits_ && portions_ == 1 && passes_ - first_pass_ > 1;
    cuda_check(common::launch_chained(chained_, bin_scan_kernel<P::kRadixBits>, passes_, kBinScanThreads, 0, s, starts,
                                      starts_stride(), skip ? verdict_.clear() : nullptr, (unsigned long long)p_.n),
               "radix.onesweep: digit scan");
    const unsigned tiles_per_portion = unsigned(kPortionKeys / P::kTile);
    auto launch_pass = [&](int pass, PassIO<Bits> k, PassIO<V> v, PassKeyCode<Bits> code) {
      unsigned long long* pass_starts = starts + std::size_t(pass) * starts_stride();
      for (unsigned q = 0; q < portions_; ++q) {
        const std::size_t first = q * kPortionKeys;
        const unsigned nq = portion_keys(q);
        const unsigned tiles = (nq + P::kTile - 1) / P::kTile;
        cuda_check(
            common::launch_chained(
                chained_, pass_kernel<KernelPolicy<V>, Bits, V>, tiles, P::kBlockThreads, pass_smem<V>(), s,
                k.src + first, k.dst, v.src ? v.src + first : nullptr, v.dst, nq, code, pass * P::kRadixBits,
                pass_starts + std::size_t(q) * P::kBins, pass_starts + std::size_t(q + 1) * P::kBins,
                status + (std::size_t(pass) * tiles_ + std::size_t(q) * tiles_per_portion) * P::kBins,
                counters + std::size_t(pass) * portions_ + q, negative_zero, PlainTileIO{}),
            "radix.onesweep: pass");
      }
    };
    if (!skip) {
      const int chain = passes_ - first_pass_;
      for (int j = 0; j < chain; ++j) {
        const int pass = first_pass_ + j;
        launch_pass(pass,
                    p_.const_input ? kept_input_io(j, chain, kin, kout, kalt) : pass_io(j, chain, kin, kout, kalt),
                    p_.const_input ? kept_input_io(j, chain, vin, vout, valt) : pass_io(j, chain, vin, vout, valt),
                    PassKeyCode<Bits>::of_pass(map, pass, first_pass_, passes_ - 1));
      }
      return;
    }
    // At least one pass follows the first (passes_after_first), so the first
    // encodes and does not decode.
    launch_pass(first_pass_, PassIO<Bits>{kin, kalt}, PassIO<V>{vin, valt},
                PassKeyCode<Bits>::of_pass(map, first_pass_, first_pass_, passes_ - 1));
    const std::vector<ChainStep> steps = passes_after_first(
        first_pass_, passes_, verdict_.constant_passes(first_pass_, s, "radix.onesweep: constant digits"),
        p_.const_input);
    auto* kspare = temp_at<Bits>(temp, spare_keys_);
    auto* vspare = temp_at<V>(temp, spare_values_);
    auto buffer = [](ChainBuffer c, auto* in, auto* out, auto* alt, auto* spare) {
      return c == ChainBuffer::in ? in : c == ChainBuffer::out ? out : c == ChainBuffer::alt ? alt : spare;
    };
    for (const ChainStep& step : steps)
      launch_pass(step.pass,
                  PassIO<Bits>{buffer(step.src, kin, kout, kalt, kspare), buffer(step.dst, kin, kout, kalt, kspare)},
                  PassIO<V>{buffer(step.src, vin, vout, valt, vspare), buffer(step.dst, vin, vout, valt, vspare)},
                  PassKeyCode<Bits>::of_pass(map, step.pass, first_pass_, steps.back().pass));
  }
  unsigned portion_keys(unsigned q) const { return unsigned(std::min(kPortionKeys, p_.n - q * kPortionKeys)); }

  Problem p_;
  TempLayout layout_;
  int passes_ = 0, first_pass_ = 0;
  HistogramGrid hist_grid_;
  unsigned long long bucket_limit_ = 0;
  // The histogram, the digit scan and every pass are chained behind the
  // kernel before them (common/chained_launch.cuh; the memset that starts the
  // sort is not chained): it took 2^20 u32 keys from 63.3 to 56.0 us on the
  // H100 (variants/radix/PERFORMANCE.md).
  bool chained_ = false;
  bool skip_constant_digits_ = false;
  ConstantDigitVerdict verdict_;  // skip_constant_digits_
  unsigned tiles_ = 0, portions_ = 0, persistent_blocks_ = 0;
  std::size_t alt_keys_ = 0, alt_values_ = 0, spare_keys_ = 0, spare_values_ = 0, fits_off_ = 0, cleared_ = 0,
              cleared_off_ = 0;
};

// Defined and instantiated per key width in onesweep_keys{8,16,32,64}.cu, so
// a parallel build compiles the widths side by side. Other designs that run
// Onesweep's passes at a grid point build them here too (first_pass: see
// OnesweepInstance): a kernel template instantiated in two files of one
// program (without relocatable device code) failed to launch from one of
// them, cudaErrorInvalidValue at the pass's launch (H100, CUDA 13.0).
template <class P, class Bits>
std::unique_ptr<Instance> make_onesweep(const Problem& p, int first_pass = 0, bool skip_constant_digits = false);

}  // namespace sortbench::radix
