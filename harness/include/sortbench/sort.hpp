// sortbench::sort: sorts with the tuned pick for the current GPU
// (results/<gpu-model>/best.json written by sortbench tune): a variant of
// ours, or the library call where nothing of ours beat it beyond noise; with
// no tuning for this GPU, key type or size, cub::DeviceRadixSort with 64-bit
// num_items (cub.radix_sort.off64).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include <cuda_runtime_api.h>

#include "sortbench/input_class.hpp"
#include "sortbench/types.hpp"

namespace sortbench {

struct SortOptions {
  // Where best.json is read from. Empty: $SORTBENCH_BEST_JSON, else
  // $SORTBENCH_RESULTS_DIR/<gpu-model>/best.json, else results/<gpu-model>/best.json
  // where the working folder has one, else the installed one
  // (<prefix>/share/sortbench/results/<gpu-model>/best.json beside <prefix>/bin/sortbench).
  std::string best_json;
};

// Sorts keys[0..n) ascending, in place, in the order of cub::DeviceRadixSort;
// values (may be null) move with their keys. Device pointers. Enqueued on
// `stream` with stream-ordered allocation of scratch space (about 2n keys and
// values plus the variant's temporary storage). Returns the label of the
// variant that sorted. Throws CudaError on a CUDA failure.
const std::string& sort(std::uint32_t* keys, std::size_t n, cudaStream_t stream = 0, const SortOptions& o = {});
const std::string& sort(std::uint32_t* keys, std::uint32_t* values, std::size_t n, cudaStream_t stream = 0,
                        const SortOptions& o = {});
const std::string& sort(std::uint64_t* keys, std::size_t n, cudaStream_t stream = 0, const SortOptions& o = {});
const std::string& sort(std::uint64_t* keys, std::uint32_t* values, std::size_t n, cudaStream_t stream = 0,
                        const SortOptions& o = {});
const std::string& sort(std::int32_t* keys, std::uint32_t* values, std::size_t n, cudaStream_t stream = 0,
                        const SortOptions& o = {});
const std::string& sort(float* keys, std::uint32_t* values, std::size_t n, cudaStream_t stream = 0,
                        const SortOptions& o = {});

// The label sort() would use (no GPU work beyond reading the device name).
std::string sort_choice(KeyType key, ValueType value, std::size_t n, const SortOptions& o = {});

namespace detail {
// Where best.json is read from (SortOptions::best_json's rules).
std::string best_json_path(const std::string& explicit_path, const std::string& gpu_model);
// Host side (harness/src/tune/dispatch_select.cpp): the variant best.json at
// `path` names for this problem, or empty when the file is missing, is for
// another GPU model, or has no entry for this key and value type.
// With entries per input class (best.json version 3), the class's entry.
std::string tuned_label(const std::string& path, const std::string& gpu_model, KeyType key, ValueType value,
                        std::size_t n, InputClass input = InputClass::spread, Order order = Order::ascending);
// The best point of ours for that entry ("ours"), even where a library call
// won it: what a sort built from ours (the distributed family's local sort)
// runs. Empty where tuned_label is.
std::string tuned_ours_label(const std::string& path, const std::string& gpu_model, KeyType key, ValueType value,
                             std::size_t n);
}  // namespace detail

}  // namespace sortbench
