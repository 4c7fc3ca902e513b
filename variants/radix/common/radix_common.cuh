// Building blocks shared by the radix family (seeds 000 PMPP ch. 13 and 001):
// the digit of a key through the order-preserving map of key_traits.cuh, the
// carving of temp storage, the buffer chain of an LSD sort's passes, block-wide
// exclusive scans (Hillis-Steele and Blelloch, the comparison of 001, and a
// warp-shuffle scan for the tuned kernels) and the status words of a chained
// scan with decoupled look-back.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>

#include <cuda_runtime.h>

#include "sortbench/device/key_traits.cuh"
#include "sortbench/variant.hpp"

namespace sortbench::radix {

// ---------------------------------------------------------------- keys ----

// Kernels are instantiated per key width only (u8, u16, u32, u64 bits);
// which of the three maps of key_traits.cuh applies is a run-time,
// block-uniform choice (f16 and bf16 share the sign-magnitude map of every
// float). That keeps the instantiations (and the build) at a third.
enum class KeyKind : int { unsigned_int, signed_int, floating };

inline KeyKind key_kind(KeyType k) {
  if (is_float(k)) return KeyKind::floating;
  return is_signed_integer(k) ? KeyKind::signed_int : KeyKind::unsigned_int;
}

// The descending complement of the digit at `shift`: the digit's bits of ~0,
// only those inside the key (the top digit of 11-bit digits on 32-bit keys
// has 10).
template <class Bits>
__device__ __forceinline__ unsigned descending_digit_flip(bool descending, int shift, unsigned mask) {
  return descending ? unsigned(Bits(~Bits(0)) >> shift) & mask : 0u;
}

template <class Bits>
struct KeyMap {
  KeyKind kind;
  bool descending;
  // The digits of a key are taken from ordered_bits(key, descending); the
  // original bits are what the sort moves (so -0.0 keeps its sign bit).
  __device__ __forceinline__ Bits ordered(Bits b) const {
    const Bits o = ascending(b);
    return descending ? Bits(~o) : o;
  }
  // unsigned(ordered(b) >> shift) & mask, with the descending complement
  // applied to the digit rather than the key: one three-input logic op
  // (mask, flip) after the shift instead of a complement and a select per
  // key.
  __device__ __forceinline__ unsigned digit(Bits b, int shift, unsigned mask) const {
    return (unsigned(ascending(b) >> shift) & mask) ^ descending_digit_flip<Bits>(descending, shift, mask);
  }

 private:
  __device__ __forceinline__ Bits ascending(Bits b) const {
    if (kind == KeyKind::signed_int) return ascending<KeyKind::signed_int>(b);
    if (kind == KeyKind::floating) return ascending<KeyKind::floating>(b);
    return b;
  }
  template <KeyKind K>
  __device__ __forceinline__ static Bits ascending(Bits b) {
    if constexpr (K == KeyKind::signed_int) return signed_ordered_bits(b);
    else if constexpr (K == KeyKind::floating) return float_ordered_bits(b);
    else return b;
  }
};

template <class Bits>
KeyMap<Bits> key_map(const Problem& p) {
  return KeyMap<Bits>{key_kind(p.key), p.order == Order::descending};
}

// Keys between the passes of an LSD sort (the Onesweep passes): the first
// pass encodes each key it loads into bits whose unsigned order is the key
// order, the last decodes each key it stores, and every pass between ranks
// and moves plain unsigned words. KeyMap instead maps a key each time it
// takes a digit, three times a key a pass, which made f32 keys 18-25 % slower
// than u32 keys through the same kernel at 2^28 on an H200
// (results/h200/goals-keys-2e28.json, build 8131df2). With the code, f32 keys
// take 9-13 % less time, f64 7-10 %, i32 1-2 %, u32 keys up to 1 % more
// (docs/experiments/issue15-steps.md).
// Signed: the sign bit flipped. Floats: a negative x becomes -x (two's
// complement of its bits) and a positive one x | sign, so -0.0 would meet
// +0.0 at `sign`; -0.0 takes 0, the one code nothing else takes. The two
// codes differ only in the top digit (the one holding the sign bit): the last
// pass takes that digit of 0 as of `sign`, so -0.0 and +0.0 stay equal keys
// in input order, as KeyMap sorts them.
template <class Bits>
struct PassKeyCode {
  KeyKind encode;  // kind of the keys the pass loads; unsigned_int: already encoded (or unsigned)
  KeyKind decode;  // kind of the keys the pass stores; unsigned_int: they stay encoded
  bool descending;

  static constexpr Bits kSign = sign_bit<Bits>();
  // Pass `pass` of a chain of passes from `first` to `last` over keys of
  // map's kind and order.
  __host__ __device__ static PassKeyCode of_pass(KeyMap<Bits> map, int pass, int first, int last) {
    return {pass == first ? map.kind : KeyKind::unsigned_int, pass == last ? map.kind : KeyKind::unsigned_int,
            map.descending};
  }
  template <KeyKind K>
  __device__ __forceinline__ static Bits encoded(Bits b) {
    if constexpr (K == KeyKind::signed_int) return Bits(b ^ kSign);
    else if constexpr (K == KeyKind::floating)
      return (b & kSign) ? Bits(Bits(Bits(0) - b) & Bits(~kSign)) : Bits(b | kSign);
    else return b;
  }
  template <KeyKind K>
  __device__ __forceinline__ static Bits decoded(Bits x) {
    if constexpr (K == KeyKind::signed_int) return Bits(x ^ kSign);
    else if constexpr (K == KeyKind::floating)
      return (x & kSign) ? Bits(x & Bits(~kSign)) : Bits(Bits(Bits(0) - x) | kSign);
    else return x;
  }
  // A float's code with -0.0's (0) read as +0.0's (`sign`): equal keys rank
  // as one.
  __device__ __forceinline__ static Bits zero_as_positive(Bits x) { return x ? x : kSign; }
  // The bits whose digits the passes rank, for a key as the first pass loads
  // it: its code, -0.0 taken as +0.0, complemented when descending. The
  // histogram counts these digits (a negative float's code is not KeyMap's
  // ordered bits: -x, not ~x).
  __device__ __forceinline__ static Bits ranked_bits(KeyMap<Bits> map, Bits b) {
    Bits x = b;
    with_kind(map.kind, [&](auto kind) {
      constexpr KeyKind K = decltype(kind)::value;
      x = encoded<K>(b);
      if constexpr (K == KeyKind::floating) x = zero_as_positive(x);
    });
    return map.descending ? Bits(~x) : x;
  }
  // The loaded keys of a tile, encoded in place: one branch for the tile.
  template <int N>
  __device__ __forceinline__ void encode_loaded(Bits (&key)[N]) const {
    with_static_encode([&](auto kind) {
#pragma unroll
      for (int j = 0; j < N; ++j) key[j] = encoded<decltype(kind)::value>(key[j]);
    });
  }
  // The digit at `shift` of an encoded key in a pass that stores keys of
  // kind K, with the descending complement applied to the digit (see
  // KeyMap::digit).
  template <KeyKind K>
  struct Digit {
    int shift;
    unsigned mask, flip;
    __device__ __forceinline__ unsigned operator()(Bits x) const {
      if constexpr (K == KeyKind::floating) x = zero_as_positive(x);
      return (unsigned(x >> shift) & mask) ^ flip;
    }
    // The same digit computed another way (the flip before the shift), one
    // instruction more. A loop that takes each key's digit again after a
    // barrier (the counts, then the ranking) uses one form each: the compiler
    // then cannot hold every digit in a register from the first loop to the
    // second, which spilled.
    __device__ __forceinline__ unsigned flipped_first(Bits x) const {
      const unsigned d = unsigned((x ^ Bits(Bits(flip) << shift)) >> shift) & mask;
      if constexpr (K == KeyKind::floating) return x ? d : d ^ (unsigned(kSign >> shift) & mask);
      else return d;
    }
  };
  template <KeyKind K>
  __device__ __forceinline__ Digit<K> digit(int shift, unsigned mask) const {
    return {shift, mask, descending_digit_flip<Bits>(descending, shift, mask)};
  }
  // f(std::integral_constant<KeyKind, K>{}) for the digit<K> of this pass:
  // floating in a float's last pass where a key may be -0.0, else
  // unsigned_int. Only -0.0 has the code 0, so with none among the keys the
  // plain digit is the same, without its test in every count, rank and
  // scatter: that test made an f32 sort's last pass 20 % longer than a u32
  // one's (variants/radix/PERFORMANCE.md, "f32 keys: the last pass").
  template <class F>
  __device__ __forceinline__ void with_digit_kind(bool negative_zero_possible, F&& f) const {
    if (decode == KeyKind::floating && negative_zero_possible) f(std::integral_constant<KeyKind, KeyKind::floating>{});
    else f(std::integral_constant<KeyKind, KeyKind::unsigned_int>{});
  }
  // Whether the key b (a key's own bits, before encoding) is -0.0 of a float
  // key type: the one key whose code (0) needs the floating digit.
  __device__ __forceinline__ static bool is_negative_zero(KeyMap<Bits> map, Bits b) {
    return map.kind == KeyKind::floating && b == kSign;
  }
  // f(std::integral_constant<KeyKind, encode>{}): one branch for a loop that
  // loads keys (encoded<K>).
  template <class F>
  __device__ __forceinline__ void with_static_encode(F&& f) const {
    with_kind(encode, f);
  }
  // f(std::integral_constant<KeyKind, decode>{}): one branch for a loop that
  // stores keys (decoded<K>).
  template <class F>
  __device__ __forceinline__ void with_static_decode(F&& f) const {
    with_kind(decode, f);
  }

 private:
  template <class F>
  __device__ __forceinline__ static void with_kind(KeyKind k, F&& f) {
    if (k == KeyKind::signed_int) f(std::integral_constant<KeyKind, KeyKind::signed_int>{});
    else if (k == KeyKind::floating) f(std::integral_constant<KeyKind, KeyKind::floating>{});
    else f(std::integral_constant<KeyKind, KeyKind::unsigned_int>{});
  }
};


// Passes of an LSD radix sort of Bits keys in base 2^radix_bits.
template <class Bits>
constexpr int radix_passes(int radix_bits) {
  return (int(sizeof(Bits) * 8) + radix_bits - 1) / radix_bits;
}

// Digit `shift / bits` of a key in base 2^bits.
template <class Bits>
struct RadixDigit {
  KeyMap<Bits> map;
  int shift;
  unsigned mask;
  __device__ __forceinline__ unsigned operator()(Bits b) const {
    return unsigned(map.ordered(b) >> shift) & mask;
  }
};

// ------------------------------------------------------------ host side ----

// Offsets into the one temp allocation, each 256-byte aligned.
struct TempLayout {
  std::size_t bytes = 0;
  std::size_t add(std::size_t b) {
    const std::size_t off = bytes;
    bytes += (b + 255) / 256 * 256;
    return off;
  }
};

template <class T>
T* temp_at(void* base, std::size_t off) {
  return reinterpret_cast<T*>(static_cast<char*>(base) + off);
}

// Source and destination of pass `pass` of `passes`: the last pass writes
// `out`; keys_in is scratch. An even pass count needs a third buffer.
template <class T>
struct PassIO {
  const T* src;
  T* dst;
};
inline bool pass_chain_needs_alt(int passes) { return passes % 2 == 0; }
template <class T>
PassIO<T> pass_io(int pass, int passes, T* in, T* out, T* alt) {
  if (passes % 2 == 1) return pass % 2 == 0 ? PassIO<T>{in, out} : PassIO<T>{out, in};
  if (pass == 0) return {in, alt};
  if (pass == 1) return {alt, out};
  return pass % 2 == 0 ? PassIO<T>{out, in} : PassIO<T>{in, out};
}
// The same chain without writing `in` (Problem::const_input): pass 0 reads
// in, the others alternate between out and alt so that the last writes out.
template <class T>
PassIO<T> kept_input_io(int pass, int passes, T* in, T* out, T* alt) {
  T* dst = (passes - 1 - pass) % 2 == 0 ? out : alt;
  T* src = pass == 0 ? in : ((passes - pass) % 2 == 0 ? out : alt);
  return {src, dst};
}

// n <= 1 is sorted already: copy it to the output.
inline void copy_trivial(const Problem& p, const Buffers& b, cudaStream_t s) {
  if (p.n == 0) return;
  cuda_check(cudaMemcpyAsync(b.keys_out, b.keys_in, p.n * key_bytes(p.key), cudaMemcpyDeviceToDevice, s),
             "radix: copy of a trivial input");
  if (p.value != ValueType::none)
    cuda_check(cudaMemcpyAsync(b.values_out, b.values_in, p.n * value_bytes(p.value), cudaMemcpyDeviceToDevice, s),
               "radix: copy of trivial values");
}

// The radix family takes every key type and value type: kernels are
// instantiated per key width (Bits) and value type (V: NoValue, u32, u64).
inline void take_every_type(VariantInfo& v) {
  v.key_types = {std::begin(kAllKeyTypes), std::end(kAllKeyTypes)};
  v.value_types = {std::begin(kAllValueTypes), std::end(kAllValueTypes)};
}

// Calls f(TypeTag<Bits>{}, TypeTag<V>{}) for the problem's key width and value type.
template <class F>
decltype(auto) with_bits_and_value(const Problem& p, F&& f) {
  return with_key_bits(p.key, [&](auto bits_tag) -> decltype(auto) {
    return with_value_type(p.value, [&](auto value_tag) -> decltype(auto) { return f(bits_tag, value_tag); });
  });
}

inline void check_launch(const char* what) { cuda_check(cudaGetLastError(), what); }

inline int max_dynamic_smem() {
  int dev = 0, v = 0;
  cuda_check(cudaGetDevice(&dev), "cudaGetDevice");
  cuda_check(cudaDeviceGetAttribute(&v, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev),
             "cudaDeviceGetAttribute(shared memory opt-in)");
  return v;
}

inline std::string smem_reason(std::size_t need) {
  const int have = max_dynamic_smem();
  if (need <= std::size_t(have)) return {};
  return "needs " + std::to_string(need) + " B of shared memory per block, the device has " +
         std::to_string(have);
}

template <class Kernel>
void allow_smem(Kernel k, std::size_t bytes) {
  if (bytes > 48 * 1024)
    cuda_check(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, int(bytes)),
               "cudaFuncSetAttribute(max dynamic shared memory)");
}

// The largest n the table designs accept: look-back words hold 30-bit counts.
// Onesweep has no cap: it sorts in portions of fewer keys (onesweep.cuh).
inline constexpr std::size_t kMaxKeys = (std::size_t(1) << 30) - 1;

// ----------------------------------------------------------- block scans ----

enum class BlockScanAlgo { hillis_steele, blelloch };
inline const char* to_string(BlockScanAlgo a) { return a == BlockScanAlgo::hillis_steele ? "hs" : "blelloch"; }

template <int T, BlockScanAlgo A>
struct BlockScan;

// Hillis-Steele: log2(T) steps, each thread adds the value `offset` to its
// left; T log T additions (step-efficient), double-buffered to avoid a race.
template <int T>
struct BlockScan<T, BlockScanAlgo::hillis_steele> {
  struct Storage {
    unsigned buf[2][T];
  };
  __device__ static unsigned exclusive(unsigned v, unsigned& total, Storage& s) {
    const int t = threadIdx.x;
    s.buf[0][t] = v;
    __syncthreads();
    int p = 0;
#pragma unroll
    for (int off = 1; off < T; off <<= 1) {
      unsigned x = s.buf[p][t];
      if (t >= off) x += s.buf[p][t - off];
      s.buf[p ^ 1][t] = x;
      p ^= 1;
      __syncthreads();
    }
    const unsigned incl = s.buf[p][t];
    total = s.buf[p][T - 1];
    __syncthreads();
    return incl - v;
  }
};

// Blelloch: an up-sweep reduction tree and a down-sweep; 2(T-1) additions
// (work-efficient), twice the steps of Hillis-Steele.
template <int T>
struct BlockScan<T, BlockScanAlgo::blelloch> {
  static_assert((T & (T - 1)) == 0, "Blelloch scan needs a power-of-two block");
  struct Storage {
    unsigned a[T];
    unsigned total;
  };
  __device__ static unsigned exclusive(unsigned v, unsigned& total, Storage& s) {
    const int t = threadIdx.x;
    s.a[t] = v;
    __syncthreads();
#pragma unroll
    for (int d = 1; d < T; d <<= 1) {
      const int i = (t + 1) * 2 * d - 1;
      if (i < T) s.a[i] += s.a[i - d];
      __syncthreads();
    }
    if (t == 0) {
      s.total = s.a[T - 1];
      s.a[T - 1] = 0;
    }
    __syncthreads();
#pragma unroll
    for (int d = T / 2; d >= 1; d >>= 1) {
      const int i = (t + 1) * 2 * d - 1;
      if (i < T) {
        const unsigned x = s.a[i - d];
        s.a[i - d] = s.a[i];
        s.a[i] += x;
      }
      __syncthreads();
    }
    const unsigned r = s.a[t];
    total = s.total;
    __syncthreads();
    return r;
  }
};

template <class U = unsigned>
__device__ __forceinline__ U warp_inclusive_sum(U x) {
  const int lane = threadIdx.x & 31;
#pragma unroll
  for (int off = 1; off < 32; off <<= 1) {
    const U y = __shfl_up_sync(0xffffffffu, x, off);
    if (lane >= off) x += y;
  }
  return x;
}

// Warp shuffles, then one warp scans the warp totals: two barriers. U: the
// counter type (64-bit where sums can pass 2^32 keys).
template <int T, class U = unsigned>
struct BlockScanShfl {
  static_assert(T % 32 == 0 && T <= 1024, "whole warps");
  static constexpr int kWarps = T / 32;
  struct Storage {
    U warp[kWarps];
    U total;
  };
  __device__ static U exclusive(U v, U& total, Storage& s) {
    const int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
    const U incl = warp_inclusive_sum(v);
    if (lane == 31) s.warp[w] = incl;
    __syncthreads();
    if (w == 0) {
      const U x = lane < kWarps ? s.warp[lane] : U(0);
      const U xi = warp_inclusive_sum(x);
      if (lane < kWarps) s.warp[lane] = xi - x;
      if (lane == 31) s.total = xi;
    }
    __syncthreads();
    const U r = s.warp[w] + incl - v;
    total = s.total;
    __syncthreads();
    return r;
  }
};

// Exclusive scan, in place, of a shared array of `len` counters: each thread
// scans a run of consecutive counters serially, the block scans the run sums.
template <class Scan, int T>
__device__ unsigned exclusive_scan_array(unsigned* a, int len, typename Scan::Storage& s) {
  const int per = (len + T - 1) / T;
  const int begin = min(len, int(threadIdx.x) * per), end = min(len, begin + per);
  unsigned sum = 0;
  for (int i = begin; i < end; ++i) sum += a[i];
  unsigned total;
  unsigned run = Scan::exclusive(sum, total, s);
  for (int i = begin; i < end; ++i) {
    const unsigned c = a[i];
    a[i] = run;
    run += c;
  }
  __syncthreads();
  return total;
}

// ------------------------------------------------- decoupled look-back ----

// One 32-bit word per tile (and bin): a 2-bit status and a 30-bit count, so a
// single store publishes both and no fence is needed between them.
namespace lookback {
constexpr unsigned kInvalid = 0u, kAggregate = 1u << 30, kInclusive = 2u << 30;
constexpr unsigned kValue = (1u << 30) - 1, kFlag = ~kValue;

__device__ __forceinline__ void store(unsigned* p, unsigned w) {
  asm volatile("st.relaxed.gpu.global.u32 [%0], %1;" ::"l"(p), "r"(w) : "memory");
}
__device__ __forceinline__ unsigned load(const unsigned* p) {
  unsigned w;
  asm volatile("ld.relaxed.gpu.global.u32 %0, [%1];" : "=r"(w) : "l"(p) : "memory");
  return w;
}
// Spins until the word is published.
__device__ __forceinline__ unsigned wait(const unsigned* p) {
  unsigned w;
  do {
    w = load(p);
  } while ((w & kFlag) == kInvalid);
  return w;
}

// Exclusive prefix of tile `tile` over a chain of words spaced `stride` apart,
// computed by one whole warp that inspects 32 predecessors at a time.
__device__ __forceinline__ unsigned warp_exclusive_prefix(const unsigned* words, int tile, int stride) {
  const int lane = threadIdx.x & 31;
  unsigned prefix = 0;
  int pred = tile - 1 - lane;  // lane 0 looks at the nearest predecessor
  while (true) {
    const unsigned w = pred >= 0 ? wait(words + std::size_t(pred) * stride) : kInclusive;
    const unsigned incl = __ballot_sync(0xffffffffu, (w & kFlag) == kInclusive);
    const int stop = incl ? __ffs(incl) - 1 : 31;
    unsigned c = lane <= stop ? (w & kValue) : 0u;
#pragma unroll
    for (int off = 16; off >= 1; off >>= 1) c += __shfl_xor_sync(0xffffffffu, c, off);
    prefix += c;
    if (incl) break;
    pred -= 32;
  }
  return prefix;
}
}  // namespace lookback

}  // namespace sortbench::radix
