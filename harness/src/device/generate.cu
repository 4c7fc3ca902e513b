// Workload generation on the GPU from a seed. Every key is a pure function of
// (seed, index), so a workload is reproducible and independent of launch shape.
#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>
#include <stdexcept>
#include <vector>

#include "sortbench/device.hpp"
#include "dist_values.hpp"
#include "hash.cuh"
#include "sortbench/device/key_traits.cuh"

namespace sortbench {
namespace {

using dist::unit;

struct GenParams {
  DistKind kind;
  int and_count;
  std::uint64_t unique;
  std::uint64_t seed;
  std::size_t n;      // the workload's keys (sorted, reverse and nearly_sorted depend on it)
  std::size_t first;  // global index of keys[0]
  std::size_t count;  // keys written
  dist::Params d;     // range, low_bits, timestamps, hot_buckets, runs
};

template <class T>
__device__ T key_from_word(std::uint64_t w) {
  using Bits = typename KeyTraits<T>::UnsignedBits;
  return KeyTraits<T>::from_bits(Bits(w));
}

// The raw bits of the largest finite value of a float key type.
template <class T>
__device__ typename KeyTraits<T>::UnsignedBits max_finite_bits() {
  if constexpr (std::is_same_v<T, __half>) return 0x7BFFu;
  else if constexpr (std::is_same_v<T, __nv_bfloat16>) return 0x7F7Fu;
  else return KeyTraits<T>::to_bits(std::numeric_limits<T>::max());
}

// A key of a float type from a double, rounded to nearest (values past the
// type's range become infinities, as a conversion does).
template <class T>
__device__ T float_key(double x) {
  if constexpr (std::is_same_v<T, __half>) return __double2half(x);
  else if constexpr (std::is_same_v<T, __nv_bfloat16>) return __double2bfloat16(x);
  else return T(x);
}

// The i-th of n evenly spaced keys over the finite ordered range of T.
template <class T>
__device__ T spaced_key(std::size_t i, std::size_t n) {
  using Tr = KeyTraits<T>;
  using Bits = typename Tr::UnsignedBits;
  Bits lo = 0, hi = Bits(~Bits(0));
  if constexpr (Tr::kFloat) {
    const Bits max_bits = max_finite_bits<T>();
    lo = Tr::ordered(Tr::from_bits(Bits(max_bits | sign_bit<Bits>())));
    hi = Tr::ordered(Tr::from_bits(max_bits));
  }
  const double frac = n > 1 ? double(i) / double(n - 1) : 0.0;
  // Monotone in i, so the sequence is non-decreasing in key order.
  double off = double(hi - lo) * frac;
  Bits step = off >= double(Bits(hi - lo)) ? Bits(hi - lo) : Bits(off);
  return Tr::from_ordered(Bits(lo + step));
}

template <class T>
__global__ void generate_kernel(T* keys, GenParams p) {
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  for (std::size_t local = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; local < p.count; local += stride) {
    const std::size_t i = p.first + local;
    T k{};
    switch (p.kind) {
      case DistKind::uniform: k = key_from_word<T>(word(p.seed, 0, i)); break;
      case DistKind::entropy: {
        if (p.and_count < 0) {
          k = key_from_word<T>(word(p.seed, 99, 0));  // entropy 0: all keys equal
        } else {
          std::uint64_t w = word(p.seed, 0, i);
          for (int j = 1; j <= p.and_count; ++j) w &= word(p.seed, std::uint64_t(j), i);
          k = key_from_word<T>(w);
        }
        break;
      }
      case DistKind::sorted: k = spaced_key<T>(i, p.n); break;
      case DistKind::reverse: k = spaced_key<T>(p.n - 1 - i, p.n); break;
      case DistKind::nearly_sorted: {
        // Sorted, then in each window of 200 keys one key of the first half
        // swaps with one of the second half: 1 % of keys out of place.
        const std::size_t w = i / 200, base = w * 200;
        const std::size_t a = base + word(p.seed, 20, w) % 100;
        const std::size_t b = base + 100 + word(p.seed, 21, w) % 100;
        std::size_t src = i;
        if (b < p.n) src = i == a ? b : (i == b ? a : i);
        k = spaced_key<T>(src, p.n);
        break;
      }
      case DistKind::few_unique: k = key_from_word<T>(word(p.seed, 5, word(p.seed, 6, i) % p.unique)); break;
      case DistKind::zipf: {
        // Zipf with exponent 1 over ranks 1..2^20: rank = floor(2^(20u)) has
        // P(rank = r) proportional to ln((r+1)/r), about 1/r.
        const double r = floor(exp2(20.0 * unit(word(p.seed, 7, i))));
        if constexpr (KeyTraits<T>::kFloat) {
          k = float_key<T>(r);  // f16: ranks above 65504 round to +inf
        } else {
          // A bijective mix spreads the ranks over all key bits, so radix
          // sorts see the skew and not a narrow bit range (8- and 16-bit keys
          // keep the low bits of the 32-bit mix).
          k = key_from_word<T>(sizeof(T) <= 4 ? std::uint64_t(fmix32(std::uint32_t(r))) : mix64(std::uint64_t(r)));
        }
        break;
      }
      case DistKind::normal: {
        if constexpr (KeyTraits<T>::kFloat) {
          const double u1 = 1.0 - unit(word(p.seed, 8, i));  // (0, 1]
          const double u2 = unit(word(p.seed, 9, i));
          k = float_key<T>(sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2));
        }
        break;
      }
      case DistKind::range:
        if constexpr (KeyTraits<T>::kFloat) k = float_key<T>(dist::range_real(p.d, i));
        else k = key_from_word<T>(dist::range_integer(p.d, i));
        break;
      case DistKind::low_bits: k = key_from_word<T>(dist::low_bits(p.d, i)); break;
      case DistKind::timestamps:
        if constexpr (KeyTraits<T>::kFloat) k = float_key<T>(double(dist::timestamp(p.d, i)));
        else k = key_from_word<T>(dist::timestamp(p.d, i));
        break;
      case DistKind::hot_buckets:
        k = KeyTraits<T>::from_ordered(typename KeyTraits<T>::UnsignedBits(dist::hot_bucket_bits(p.d, i)));
        break;
      case DistKind::runs: {
        const dist::RunPlace at = dist::run_place(p.d, i);
        k = spaced_key<T>(at.item, at.length);
        break;
      }
      case DistKind::file: break;
    }
    keys[local] = k;
  }
}

template <class V>
__global__ void iota_kernel(V* v, std::size_t n, std::size_t first) {
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) v[i] = V(first + i);
}

unsigned grid_for(std::size_t n) {
  const std::size_t blocks = (n + 255) / 256;
  return unsigned(blocks < 65536 ? (blocks ? blocks : 1) : 65536);
}

}  // namespace

void generate_keys(const Workload& w, void* d_keys, cudaStream_t s) { generate_key_range(w, 0, w.n, d_keys, s); }

void generate_key_range(const Workload& w, std::size_t first, std::size_t count, void* d_keys, cudaStream_t s) {
  if (count == 0) return;
  if (w.dist.kind == DistKind::file) {
    std::ifstream in(w.dist.path, std::ios::binary | std::ios::ate);
    if (!in) throw std::runtime_error(w.dist.path + ": cannot open the key file");
    const auto bytes = std::size_t(in.tellg());
    const std::size_t have = bytes / key_bytes(w.key);
    if (have < w.n)
      throw std::runtime_error(w.dist.path + ": holds " + std::to_string(have) + " " + to_string(w.key) +
                               " keys, the point needs " + std::to_string(w.n));
    std::vector<char> buf(count * key_bytes(w.key));
    in.seekg(std::streamoff(first * key_bytes(w.key)));
    in.read(buf.data(), std::streamsize(buf.size()));
    cuda_check(cudaMemcpyAsync(d_keys, buf.data(), buf.size(), cudaMemcpyHostToDevice, s), "copy key file");
    cuda_check(cudaStreamSynchronize(s), "copy key file");
    return;
  }
  const GenParams p{w.dist.kind, w.dist.and_count, w.dist.unique, w.seed, w.n, first, count,
                   dist::params_for(w.dist, w.key, w.seed, w.n)};
  with_key_type(w.key, [&](auto tag) {
    using T = typename decltype(tag)::type;
    generate_kernel<T><<<grid_for(count), 256, 0, s>>>(static_cast<T*>(d_keys), p);
  });
  cuda_check(cudaGetLastError(), "generate_keys");
}

void fill_index_values(void* d_values, ValueType v, std::size_t n, cudaStream_t s, std::size_t first) {
  if (n == 0 || v == ValueType::none) return;
  if (v == ValueType::u64)
    iota_kernel<<<grid_for(n), 256, 0, s>>>(static_cast<std::uint64_t*>(d_values), n, first);
  else
    iota_kernel<<<grid_for(n), 256, 0, s>>>(static_cast<std::uint32_t*>(d_values), n, first);
  cuda_check(cudaGetLastError(), "fill_index_values");
}

InputFeatures classify_workload(const Workload& w) {
  if (w.n < 2) return classify_counts({}, 0, int(8 * key_bytes(w.key)));  // as wait_for_sample
  const std::size_t kb = key_bytes(w.key), keys = 2 * kClassSamplePairs;
  void* d = nullptr;
  cuda_check(cudaMalloc(&d, keys * kb), "the sampled pairs of a workload");
  std::vector<unsigned char> raw(keys * kb);
  try {
    for (std::size_t j = 0; j < kClassSamplePairs; ++j)
      generate_key_range(w, sample_position(j, w.n), 2, static_cast<unsigned char*>(d) + 2 * j * kb, nullptr);
    cuda_check(cudaMemcpy(raw.data(), d, raw.size(), cudaMemcpyDeviceToHost), "the sampled pairs of a workload");
  } catch (...) {
    cudaFree(d);
    throw;
  }
  cudaFree(d);
  std::vector<std::uint64_t> pairs(keys);
  with_key_type(w.key, [&](auto tag) {
    using T = typename decltype(tag)::type;
    for (std::size_t i = 0; i < keys; ++i) {
      T k;
      std::memcpy(&k, raw.data() + i * kb, kb);
      pairs[i] = std::uint64_t(KeyTraits<T>::ordered(k));
    }
  });
  return input_features(pairs.data(), kClassSamplePairs, int(8 * kb));
}

}  // namespace sortbench
