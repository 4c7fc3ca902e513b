// Validation of every measured result, on the GPU:
//   sorted      - each adjacent pair in the requested order (key_traits.cuh's order);
//   permutation - keys only: equal 128-bit multiset hashes of the raw key bits;
//                 pairs: each output value is an input index whose key is the
//                 output key bit for bit, and the values are a permutation of 0..n-1;
//   stable      - pairs of equal keys keep their original index order.
#include <climits>
#include <vector>

#include "sortbench/device.hpp"
#include "hash.cuh"
#include "sortbench/device/key_traits.cuh"

namespace sortbench {
namespace {

struct Checks {
  unsigned long long first_unsorted;
  unsigned long long first_unstable;
  unsigned long long first_bad_pair;
  unsigned long long in_a, in_b, out_a, out_b;  // multiset hashes (sums mod 2^64)
};

__device__ void block_add(unsigned long long* dst, unsigned long long v) {
  for (int off = 16; off > 0; off /= 2) v += __shfl_down_sync(0xffffffffu, v, off);
  if ((threadIdx.x & 31) == 0 && v) atomicAdd(dst, v);
}

// V: the value type of a stability check (NoValue when there is none).
template <class T, class V>
__global__ void order_kernel(const T* out, const V* vals, std::size_t n, bool desc, Checks* c) {
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x + 1; i < n; i += stride) {
    const auto a = ordered_bits(out[i - 1], desc), b = ordered_bits(out[i], desc);
    if (a > b) atomicMin(&c->first_unsorted, (unsigned long long)i);
    else if constexpr (kHasValues<V>) {
      if (a == b && vals[i - 1] > vals[i]) atomicMin(&c->first_unstable, (unsigned long long)i);
    }
  }
}

template <class T>
__global__ void keys_hash_kernel(const T* in, const T* out, std::size_t n, Checks* c) {
  unsigned long long ia = 0, ib = 0, oa = 0, ob = 0;
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  // Every lane runs the same trip count so the warp shuffles stay converged.
  const std::size_t start = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  for (std::size_t i = start; i < n; i += stride) {
    const std::uint64_t x = KeyTraits<T>::to_bits(in[i]), y = KeyTraits<T>::to_bits(out[i]);
    ia += mix64(x);
    ib += murmur_mix64(x);
    oa += mix64(y);
    ob += murmur_mix64(y);
  }
  block_add(&c->in_a, ia);
  block_add(&c->in_b, ib);
  block_add(&c->out_a, oa);
  block_add(&c->out_b, ob);
}

template <class T, class V>
__global__ void pairs_kernel(const T* in, const T* out, const V* vals, std::size_t n, Checks* c) {
  unsigned long long sa = 0, sb = 0;
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    const std::uint64_t v = vals[i];
    if (v >= n || KeyTraits<T>::to_bits(in[v]) != KeyTraits<T>::to_bits(out[i])) {
      atomicMin(&c->first_bad_pair, (unsigned long long)i);
    }
    // Values are a permutation of 0..n-1 iff these sums vanish (with
    // overwhelming probability for any other multiset).
    sa += mix64(v) - mix64(i);
    sb += murmur_mix64(v) - murmur_mix64(i);
  }
  block_add(&c->in_a, sa);
  block_add(&c->in_b, sb);
}

template <class T>
__global__ void first_difference_kernel(const T* a, const T* b, std::size_t n, bool raw, Checks* c) {
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    const bool differ = raw ? KeyTraits<T>::to_bits(a[i]) != KeyTraits<T>::to_bits(b[i])
                            : KeyTraits<T>::ordered(a[i]) != KeyTraits<T>::ordered(b[i]);
    if (differ) atomicMin(&c->first_bad_pair, (unsigned long long)i);
  }
}

unsigned grid_for(std::size_t n) {
  const std::size_t blocks = (n + 255) / 256;
  return unsigned(blocks < 4096 ? (blocks ? blocks : 1) : 4096);
}

struct DeviceChecks {
  Checks* d = nullptr;
  DeviceChecks() { cuda_check(cudaMalloc(&d, sizeof(Checks)), "validation scratch"); }
  ~DeviceChecks() { cudaFree(d); }
  void reset(cudaStream_t s) {
    Checks h{ULLONG_MAX, ULLONG_MAX, ULLONG_MAX, 0, 0, 0, 0};
    cuda_check(cudaMemcpyAsync(d, &h, sizeof h, cudaMemcpyHostToDevice, s), "validation reset");
    cuda_check(cudaStreamSynchronize(s), "validation reset");
  }
  Checks read(cudaStream_t s) {
    Checks h{};
    cuda_check(cudaMemcpyAsync(&h, d, sizeof h, cudaMemcpyDeviceToHost, s), "validation read");
    cuda_check(cudaStreamSynchronize(s), "validation");
    return h;
  }
};

// For a keys-only permutation failure: sorts the pristine input with the
// reference variant (a CUB call) and returns the first index whose key differs.
template <class T>
std::int64_t locate_with_reference(const Problem& p, const T* pristine, const T* out, DeviceChecks& chk,
                                   cudaStream_t s) {
  const VariantInfo* ref = Registry::instance().find(kReferenceVariant);
  if (!ref) return -1;
  T *in = nullptr, *sorted = nullptr;
  void* temp = nullptr;
  std::int64_t first = -1;
  try {
    cuda_check(cudaMalloc(&in, p.n * sizeof(T)), "reference sort");
    cuda_check(cudaMalloc(&sorted, p.n * sizeof(T)), "reference sort");
    cuda_check(cudaMemcpyAsync(in, pristine, p.n * sizeof(T), cudaMemcpyDeviceToDevice, s), "reference sort");
    Problem kp = p;
    kp.value = ValueType::none;
    auto inst = ref->make(kp);
    Buffers b{in, sorted, nullptr, nullptr};
    const std::size_t bytes = inst->temp_bytes(b, s);
    cuda_check(cudaMalloc(&temp, bytes ? bytes : 1), "reference sort");
    inst->run(b, temp, bytes, s);
    for (bool raw : {false, true}) {
      chk.reset(s);
      first_difference_kernel<T><<<grid_for(p.n), 256, 0, s>>>(sorted, out, p.n, raw, chk.d);
      const Checks h = chk.read(s);
      if (h.first_bad_pair != ULLONG_MAX) {
        first = std::int64_t(h.first_bad_pair);
        break;
      }
    }
  } catch (const CudaError&) {
    first = -1;
  }
  cudaFree(in);
  cudaFree(sorted);
  cudaFree(temp);
  return first;
}

// Multiset hashes of one array (sums mod 2^64, so they add over GPUs):
// keys alone; or (key, value) pairs and the values alone.
struct Sums {
  unsigned long long a, b, c, d;
};

template <class T, class V>
__global__ void multiset_kernel(const T* keys, const V* vals, std::size_t n, Sums* out) {
  unsigned long long a = 0, b = 0, c = 0, d = 0;
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    const std::uint64_t x = KeyTraits<T>::to_bits(keys[i]);
    if constexpr (kHasValues<V>) {
      const std::uint64_t v = vals[i];
      a += mix64(x + mix64(v));
      b += murmur_mix64(x ^ murmur_mix64(v + 0x9E3779B97F4A7C15ull));
      c += mix64(v);
      d += murmur_mix64(v);
    } else {
      a += mix64(x);
      b += murmur_mix64(x);
    }
  }
  block_add(&out->a, a);
  block_add(&out->b, b);
  block_add(&out->c, c);
  block_add(&out->d, d);
}

}  // namespace

PartSummary summarize_part(const Problem& p, const DeviceSpan& shard, const DeviceSpan& part, bool check_stable) {
  PartSummary out{};
  out.n = part.n;
  out.first_unsorted = out.first_unstable = ULLONG_MAX;
  const bool stability = check_stable && p.value != ValueType::none;
  const bool desc = p.order == Order::descending;
  int previous = 0;
  cuda_check(cudaGetDevice(&previous), "cudaGetDevice");
  cuda_check(cudaSetDevice(part.device), "cudaSetDevice");
  cudaStream_t s = nullptr;
  Checks* chk = nullptr;
  Sums* sums = nullptr;
  auto cleanup = [&] {
    if (chk) cudaFree(chk);
    if (sums) cudaFree(sums);
    if (s) cudaStreamDestroy(s);
    cudaSetDevice(previous);
  };
  try {
    cuda_check(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "validation stream");
    cuda_check(cudaMalloc(&chk, sizeof(Checks)), "validation scratch");
    cuda_check(cudaMalloc(&sums, 2 * sizeof(Sums)), "validation scratch");
    const Checks h0{ULLONG_MAX, ULLONG_MAX, ULLONG_MAX, 0, 0, 0, 0};
    cuda_check(cudaMemcpyAsync(chk, &h0, sizeof h0, cudaMemcpyHostToDevice, s), "validation reset");
    cuda_check(cudaMemsetAsync(sums, 0, 2 * sizeof(Sums), s), "validation reset");
    with_key_type(p.key, [&](auto tag) {
      using T = typename decltype(tag)::type;
      with_value_type(p.value, [&](auto value_tag) {
        using V = typename decltype(value_tag)::type;
        auto* keys = static_cast<const T*>(part.keys);
        const std::size_t m = part.n;
        if (m > 1) {
          if constexpr (kHasValues<V>) {
            if (stability)
              order_kernel<T, V><<<grid_for(m), 256, 0, s>>>(keys, static_cast<const V*>(part.values), m, desc, chk);
            else
              order_kernel<T, NoValue><<<grid_for(m), 256, 0, s>>>(keys, nullptr, m, desc, chk);
          } else {
            order_kernel<T, NoValue><<<grid_for(m), 256, 0, s>>>(keys, nullptr, m, desc, chk);
          }
        }
        if (shard.n)
          multiset_kernel<T, V><<<grid_for(shard.n), 256, 0, s>>>(static_cast<const T*>(shard.keys),
                                                                   static_cast<const V*>(shard.values), shard.n, sums);
        if (m) multiset_kernel<T, V><<<grid_for(m), 256, 0, s>>>(keys, static_cast<const V*>(part.values), m, sums + 1);
        cuda_check(cudaGetLastError(), "validation kernels");
        Checks h{};
        Sums sm[2]{};
        cuda_check(cudaMemcpyAsync(&h, chk, sizeof h, cudaMemcpyDeviceToHost, s), "validation read");
        cuda_check(cudaMemcpyAsync(sm, sums, sizeof sm, cudaMemcpyDeviceToHost, s), "validation read");
        // The part's ends, as ordered bits (and values), for the checks across parts.
        T ends[2]{};
        V vends[2]{};
        if (m) {
          cuda_check(cudaMemcpyAsync(&ends[0], keys, sizeof(T), cudaMemcpyDeviceToHost, s), "validation read");
          cuda_check(cudaMemcpyAsync(&ends[1], keys + (m - 1), sizeof(T), cudaMemcpyDeviceToHost, s), "validation read");
          if constexpr (kHasValues<V>) {
            auto* vals = static_cast<const V*>(part.values);
            cuda_check(cudaMemcpyAsync(&vends[0], vals, sizeof(V), cudaMemcpyDeviceToHost, s), "validation read");
            cuda_check(cudaMemcpyAsync(&vends[1], vals + (m - 1), sizeof(V), cudaMemcpyDeviceToHost, s), "validation read");
          }
        }
        cuda_check(cudaStreamSynchronize(s), "validation");
        out.first_unsorted = h.first_unsorted;
        out.first_unstable = h.first_unstable;
        out.in[0] = sm[0].a, out.in[1] = sm[0].b, out.in[2] = sm[0].c, out.in[3] = sm[0].d;
        out.out[0] = sm[1].a, out.out[1] = sm[1].b, out.out[2] = sm[1].c, out.out[3] = sm[1].d;
        if (m) {
          out.first_bits = std::uint64_t(ordered_bits(ends[0], desc));
          out.last_bits = std::uint64_t(ordered_bits(ends[1], desc));
          if constexpr (kHasValues<V>) {
            out.first_value = std::uint64_t(vends[0]);
            out.last_value = std::uint64_t(vends[1]);
          }
        }
      });
    });
  } catch (...) {
    cleanup();
    throw;
  }
  cleanup();
  return out;
}

Validation validate_sort(const Problem& p, const void* d_pristine_keys, const void* d_out_keys,
                         const void* d_out_values, bool check_stable, cudaStream_t s) {
  Validation v;
  v.checked = true;
  const bool pairs = p.value != ValueType::none;
  v.stability_checked = pairs && check_stable;
  if (p.n == 0) {
    v.sorted = v.permutation = v.stable = true;
    return v;
  }
  DeviceChecks chk;
  chk.reset(s);
  const bool desc = p.order == Order::descending;
  with_key_type(p.key, [&](auto tag) {
    using T = typename decltype(tag)::type;
    auto* in = static_cast<const T*>(d_pristine_keys);
    auto* out = static_cast<const T*>(d_out_keys);
    with_value_type(p.value, [&](auto value_tag) {
      using V = typename decltype(value_tag)::type;
      if constexpr (kHasValues<V>) {
        auto* vals = static_cast<const V*>(d_out_values);
        if (v.stability_checked)
          order_kernel<T, V><<<grid_for(p.n), 256, 0, s>>>(out, vals, p.n, desc, chk.d);
        else
          order_kernel<T, NoValue><<<grid_for(p.n), 256, 0, s>>>(out, nullptr, p.n, desc, chk.d);
        pairs_kernel<T, V><<<grid_for(p.n), 256, 0, s>>>(in, out, vals, p.n, chk.d);
      } else {
        order_kernel<T, NoValue><<<grid_for(p.n), 256, 0, s>>>(out, nullptr, p.n, desc, chk.d);
        keys_hash_kernel<T><<<grid_for(p.n), 256, 0, s>>>(in, out, p.n, chk.d);
      }
    });
    cuda_check(cudaGetLastError(), "validation kernels");
    const Checks h = chk.read(s);
    v.sorted = h.first_unsorted == ULLONG_MAX;
    v.stable = h.first_unstable == ULLONG_MAX;
    if (pairs) {
      v.permutation = h.first_bad_pair == ULLONG_MAX && h.in_a == 0 && h.in_b == 0;
    } else {
      v.permutation = h.in_a == h.out_a && h.in_b == h.out_b;
    }
    if (!v.sorted) {
      v.first_bad_index = std::int64_t(h.first_unsorted);
      v.message = "not sorted: key " + std::to_string(v.first_bad_index) + " is out of order";
    } else if (!v.permutation) {
      if (pairs && h.first_bad_pair != ULLONG_MAX) {
        v.first_bad_index = std::int64_t(h.first_bad_pair);
        v.message = "not a permutation: output " + std::to_string(v.first_bad_index) +
                    " does not carry its input key with its index";
      } else if (pairs) {
        v.message = "not a permutation: the values are not the indices 0..n-1 each once";
      } else {
        v.first_bad_index = locate_with_reference<T>(p, in, out, chk, s);
        v.message = "not a permutation of the input keys: first differing key " +
                    std::to_string(v.first_bad_index) + " (against " + kReferenceVariant + ")";
      }
    } else if (v.stability_checked && !v.stable) {
      v.first_bad_index = std::int64_t(h.first_unstable);
      v.message = "not stable: equal keys at " + std::to_string(v.first_bad_index - 1) + " and " +
                  std::to_string(v.first_bad_index) + " are out of input order";
    }
  });
  return v;
}

}  // namespace sortbench
