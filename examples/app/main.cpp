// Sorts with sortbench::sort_keys / sort_pairs (CUB's two phases: ask for the
// temporary storage, then sort) and checks every result against
// std::stable_sort: u32 keys, f32 keys descending, u64 keys and u32 keys with
// u32 values, at n = 0, 1, 1000, 2^20 and 2^24 + 7. Exits 1 on a wrong
// result, 0 with "skipped: no CUDA device" where there is no GPU.
#include <sortbench/sort.hpp>

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

namespace {

#define CHECK(call)                                                                              \
  do {                                                                                           \
    const cudaError_t e_ = (call);                                                               \
    if (e_ != cudaSuccess) {                                                                     \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
      std::exit(1);                                                                              \
    }                                                                                            \
  } while (0)

template <class T>
T* to_device(const std::vector<T>& h) {
  T* d = nullptr;
  CHECK(cudaMalloc(reinterpret_cast<void**>(&d), std::max<std::size_t>(1, h.size()) * sizeof(T)));
  if (!h.empty()) CHECK(cudaMemcpy(d, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice));
  return d;
}

template <class T>
std::vector<T> to_host(const T* d, std::size_t n) {
  std::vector<T> h(n);
  if (n) CHECK(cudaMemcpy(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost));
  return h;
}

// Sorts keys (with their indices as values when `pairs`) and compares with
// std::stable_sort; the input must be left as it was.
template <class K>
bool check(const char* what, const std::vector<K>& keys, bool pairs, bool descending) {
  const std::size_t n = keys.size();
  std::vector<std::uint32_t> values(n);
  for (std::size_t i = 0; i < n; ++i) values[i] = std::uint32_t(i);
  K* keys_in = to_device(keys);
  K* keys_out = to_device(std::vector<K>(n));
  std::uint32_t* values_in = to_device(values);
  std::uint32_t* values_out = to_device(std::vector<std::uint32_t>(n));

  std::string chosen;
  sortbench::SortOptions options;
  options.descending = descending;
  options.chosen = &chosen;
  void* temp = nullptr;
  std::size_t temp_bytes = 0;
  auto sort = [&] {
    return pairs ? sortbench::sort_pairs(temp, temp_bytes, keys_in, keys_out, values_in, values_out, n, 0, options)
                 : sortbench::sort_keys(temp, temp_bytes, keys_in, keys_out, n, 0, options);
  };
  CHECK(sort());  // temp == nullptr: the size of the temporary storage
  CHECK(cudaMalloc(&temp, temp_bytes));
  CHECK(sort());
  CHECK(cudaDeviceSynchronize());

  std::vector<std::size_t> order(n);
  for (std::size_t i = 0; i < n; ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return descending ? keys[b] < keys[a] : keys[a] < keys[b];
  });
  const std::vector<K> got_keys = to_host(keys_out, n);
  const std::vector<std::uint32_t> got_values = to_host(values_out, n);
  bool ok = to_host(keys_in, n) == keys;
  for (std::size_t i = 0; ok && i < n; ++i)
    ok = std::memcmp(&got_keys[i], &keys[order[i]], sizeof(K)) == 0 && (!pairs || got_values[i] == order[i]);
  std::printf("%-4s %-13s n = %-9zu %s\n", ok ? "ok" : "FAIL", what, n, chosen.c_str());
  CHECK(cudaFree(temp));
  CHECK(cudaFree(keys_in));
  CHECK(cudaFree(keys_out));
  CHECK(cudaFree(values_in));
  CHECK(cudaFree(values_out));
  return ok;
}

}  // namespace

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("skipped: no CUDA device\n");
    return 0;
  }
  std::mt19937_64 rng(42);
  bool ok = true;
  for (std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(1000), std::size_t(1) << 20,
                        (std::size_t(1) << 24) + 7}) {
    std::vector<std::uint32_t> u32(n);
    std::vector<float> f32(n);
    std::vector<std::uint64_t> u64(n);
    for (std::size_t i = 0; i < n; ++i) {
      u64[i] = rng();
      u32[i] = std::uint32_t(u64[i] >> 40);  // 24 bits: equal keys, so stability shows
      f32[i] = std::uniform_real_distribution<float>(-1e3f, 1e3f)(rng);
    }
    ok &= check("u32 keys", u32, false, false);
    ok &= check("f32 keys desc", f32, false, true);
    ok &= check("u64 keys", u64, false, false);
    ok &= check("u32 pairs", u32, true, false);
  }
  std::printf("%s\n", ok ? "all sorted" : "FAILED");
  return ok ? 0 : 1;
}
