// sortbench::sort_keys / sort_pairs: sort with this GPU's tuned pick, in
// CUB's two-phase convention. Link the installed library target
// sortbench::sort (find_package(sortbench CONFIG)); examples/app shows a
// whole program.
//
// The pick is read from best.json (written by `sortbench tune`): per size
// range and input class, a variant of ours or the library call where nothing
// of ours beat it beyond noise. Where the picks of a size's input classes
// differ, the sort first samples the keys on the GPU (about 15-20 us, inside
// the call; the host waits for the sample's counts) and takes its class's
// pick. With no pick for this GPU, key type, order or size, or a pick this
// build does not hold: cub::DeviceRadixSort with 64-bit num_items.
//
// Key types: std::uint8_t, std::int8_t, std::uint16_t, std::int16_t, __half,
// __nv_bfloat16, std::uint32_t, std::int32_t, float, std::uint64_t,
// std::int64_t, double (floats in the order of cub::DeviceRadixSort: -0.0
// before +0.0, NaNs by their bits). Values: std::uint32_t, std::uint64_t.
// Pairs sort stably.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>

#include <cuda_runtime_api.h>

#include "sortbench/types.hpp"

struct __half;
struct __nv_bfloat16;

namespace sortbench {

struct SortOptions {
  bool descending = false;
  // Where best.json is read from. Empty: $SORTBENCH_BEST_JSON, else
  // $SORTBENCH_RESULTS_DIR/<gpu-model>/best.json, else
  // results/<gpu-model>/best.json where the working folder has one, else the
  // installed one (<prefix>/share/sortbench/results/<gpu-model>/best.json).
  std::string best_json;
  // Where non-null, set by a sort to the label of the variant that sorted
  // (after the sample), e.g. "radix.onesweep.rb8.ipt22.tpb384.mb3".
  std::string* chosen = nullptr;
};

// Thrown where the best.json to be read is there but is not a sortbench
// best.json (malformed JSON, another schema): what() names the file and the
// cause. A missing file is no error: nothing is tuned, CUB sorts.
class BestJsonError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The C++ key types of types.hpp's list (SORTBENCH_KEY_TYPES).
#define SORTBENCH_IS_KEY(name, cpp, bytes, kind) || std::is_same_v<K, cpp>
template <class K>
inline constexpr bool is_sort_key_v = false SORTBENCH_KEY_TYPES(SORTBENCH_IS_KEY);
#undef SORTBENCH_IS_KEY
template <class V>
inline constexpr bool is_sort_value_v = std::is_same_v<V, std::uint32_t> || std::is_same_v<V, std::uint64_t>;

namespace detail {
template <class K>
constexpr KeyType key_type_of() {
  static_assert(is_sort_key_v<K>, "sortbench: not a key type it sorts (sortbench/types.hpp lists them)");
#define SORTBENCH_KEY_OF(name, cpp, bytes, kind) \
  if constexpr (std::is_same_v<K, cpp>) return KeyType::name;
  SORTBENCH_KEY_TYPES(SORTBENCH_KEY_OF)
#undef SORTBENCH_KEY_OF
  return KeyType::u32;  // not reached: the static_assert above
}
template <class V>
constexpr ValueType value_type_of() {
  static_assert(std::is_void_v<V> || is_sort_value_v<V>, "sortbench: values are std::uint32_t or std::uint64_t");
  if constexpr (std::is_void_v<V>) return ValueType::none;
  else if constexpr (std::is_same_v<V, std::uint32_t>) return ValueType::u32;
  else return ValueType::u64;
}
// The library's entry points (libsortbench_sort.so): what the templates below call.
cudaError_t sort(KeyType key, ValueType value, void* temp, std::size_t& temp_bytes, const void* keys_in,
                 void* keys_out, const void* values_in, void* values_out, std::size_t n, cudaStream_t stream,
                 const SortOptions& o);
std::string sort_choice(KeyType key, ValueType value, std::size_t n, const SortOptions& o);
}  // namespace detail

// Sorts keys_in[0, n) into keys_out[0, n) on `stream`; keys_in is left as it
// was. Device pointers; keys_in and keys_out must not overlap.
// With temp == nullptr: sets temp_bytes to the temporary storage needed (at
// least 1) and does no work. Else sorts, with temp holding temp_bytes.
// Returns cudaSuccess, cudaErrorInvalidValue for a null keys_in or keys_out
// with n > 0 or a temp_bytes below what the size query gave (nothing is
// written then), or the CUDA error a launch met. Throws BestJsonError (see
// above). Thread-safe; calls are serialised. The picks for a device, size,
// key and value type and order are read at the first call that names them
// (the size query) and kept: a best.json rewritten while the process runs
// may not be read again.
template <class K>
cudaError_t sort_keys(void* temp, std::size_t& temp_bytes, const K* keys_in, K* keys_out, std::size_t n,
                      cudaStream_t stream = 0, const SortOptions& o = {}) {
  return detail::sort(detail::key_type_of<K>(), ValueType::none, temp, temp_bytes, keys_in, keys_out, nullptr,
                      nullptr, n, stream, o);
}

// The same with values: values_out[i] is the value of the key that sorted to
// keys_out[i]; equal keys keep their input order. values_in and values_out
// must be non-null with n > 0 (cudaErrorInvalidValue).
template <class K, class V>
cudaError_t sort_pairs(void* temp, std::size_t& temp_bytes, const K* keys_in, K* keys_out, const V* values_in,
                       V* values_out, std::size_t n, cudaStream_t stream = 0, const SortOptions& o = {}) {
  return detail::sort(detail::key_type_of<K>(), detail::value_type_of<V>(), temp, temp_bytes, keys_in, keys_out,
                      values_in, values_out, n, stream, o);
}

// The label sort_keys (V = void) or sort_pairs would run for n keys whose
// sample says spread (uniform-like keys), ascending or as `o` says, on the
// current GPU; no GPU work beyond reading its name. Throws BestJsonError, or
// std::runtime_error where the GPU cannot be queried.
template <class K, class V = void>
std::string sort_choice(std::size_t n, const SortOptions& o = {}) {
  return detail::sort_choice(detail::key_type_of<K>(), detail::value_type_of<V>(), n, o);
}

}  // namespace sortbench
