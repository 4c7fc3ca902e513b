// Helpers for the GPU tests: skip without a GPU, device buffers, one run of a variant.
#pragma once

#include <gtest/gtest.h>

#include <cctype>
#include <cstring>
#include <vector>

#include "sortbench/device.hpp"
#include "sortbench/device/key_traits.cuh"

namespace sortbench::test {

#define SORTBENCH_REQUIRE_GPU()                                     \
  do {                                                              \
    std::string why_no_gpu;                                         \
    if (!::sortbench::gpu_available(&why_no_gpu)) GTEST_SKIP() << why_no_gpu; \
  } while (0)

struct DevMem {
  void* p = nullptr;
  explicit DevMem(std::size_t bytes) {
    if (bytes) cuda_check(cudaMalloc(&p, bytes), "test buffer");
  }
  ~DevMem() { cudaFree(p); }
  DevMem(DevMem&& o) noexcept : p(o.p) { o.p = nullptr; }
  DevMem(const DevMem&) = delete;
  DevMem& operator=(const DevMem&) = delete;
};

template <class T>
std::vector<T> to_host(const void* d, std::size_t n) {
  std::vector<T> h(n);
  if (n) cuda_check(cudaMemcpy(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost), "to host");
  return h;
}

// The first index where two device arrays of n keys differ: in their bits, or
// (bitwise false) in their order, so that -0.0 and +0.0 are the same; n if
// none.
template <class T>
std::size_t first_mismatch(const void* a, const void* b, std::size_t n, bool bitwise) {
  const auto x = to_host<T>(a, n), y = to_host<T>(b, n);
  for (std::size_t i = 0; i < n; ++i) {
    const bool same = bitwise ? KeyTraits<T>::to_bits(x[i]) == KeyTraits<T>::to_bits(y[i])
                              : KeyTraits<T>::ordered(x[i]) == KeyTraits<T>::ordered(y[i]);
    if (!same) return i;
  }
  return n;
}

// Runs v once on the pristine input (device buffers) and leaves the result in
// out_keys / out_values, exactly as the runner does (untimed); what the
// instance says it ran (Instance::dispatched). Values are p.value's type (u32
// or u64).
inline std::string run_once(const VariantInfo& v, const Problem& p, const void* pristine_keys, const void* pristine_values,
                     void* in_keys, void* out_keys, void* in_values, void* out_values, cudaStream_t s) {
  const std::size_t kb = p.n * key_bytes(p.key), vb = p.n * value_bytes(p.value);
  const bool pairs = p.value != ValueType::none;
  auto inst = v.make(p);
  if (v.host) {
    std::vector<char> hk_in(kb), hk_out(kb), hv_in(vb), hv_out(vb);
    std::vector<char>& kdst = v.in_place ? hk_out : hk_in;
    std::vector<char>& vdst = v.in_place ? hv_out : hv_in;
    if (kb) cuda_check(cudaMemcpy(kdst.data(), pristine_keys, kb, cudaMemcpyDeviceToHost), "host input");
    if (vb) cuda_check(cudaMemcpy(vdst.data(), pristine_values, vb, cudaMemcpyDeviceToHost), "host input");
    Buffers b{hk_in.data(), hk_out.data(), pairs ? hv_in.data() : nullptr, pairs ? hv_out.data() : nullptr};
    inst->run(b, nullptr, inst->temp_bytes(b, s), s);
    if (kb) cuda_check(cudaMemcpy(out_keys, hk_out.data(), kb, cudaMemcpyHostToDevice), "host result");
    if (vb) cuda_check(cudaMemcpy(out_values, hv_out.data(), vb, cudaMemcpyHostToDevice), "host result");
    return inst->dispatched();
  }
  void* kdst = v.in_place ? out_keys : in_keys;
  void* vdst = v.in_place ? out_values : in_values;
  Buffers b{in_keys, out_keys, pairs ? in_values : nullptr, pairs ? out_values : nullptr};
  auto restore = [&] {
    if (kb) cuda_check(cudaMemcpyAsync(kdst, pristine_keys, kb, cudaMemcpyDeviceToDevice, s), "restore");
    if (vb) cuda_check(cudaMemcpyAsync(vdst, pristine_values, vb, cudaMemcpyDeviceToDevice, s), "restore");
  };
  restore();
  const std::size_t tb = inst->temp_bytes(b, s);
  cuda_check(cudaStreamSynchronize(s), "temp query");
  DevMem temp(tb);
  restore();
  inst->run(b, temp.p, tb, s);
  cuda_check(cudaStreamSynchronize(s), "run");
  return inst->dispatched();
}

// The registered labels whose variant `keep` accepts, in registry order: a
// parameterised suite's values.
template <class Keep>
std::vector<std::string> labels_where(Keep keep) {
  std::vector<std::string> out;
  for (const auto& v : Registry::instance().all())
    if (keep(v)) out.push_back(v.label);
  return out;
}

// A gtest name from a variant label (parameterised suites): '.' and other
// non-alphanumerics become '_'.
inline std::string label_test_name(const ::testing::TestParamInfo<std::string>& info) {
  std::string s = info.param;
  for (char& c : s)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return s;
}

}  // namespace sortbench::test
