// Reading best.json for the dispatch (harness/src/tune/dispatch_select.cpp;
// host code, CPU-tested): where the file is, which pick it names for a
// problem. What applications call is sortbench/sort.hpp.
#pragma once

#include <cstddef>
#include <functional>
#include <string>

#include "sortbench/input_class.hpp"
#include "sortbench/types.hpp"

namespace sortbench::detail {

// Where best.json is read from (SortOptions::best_json's rules).
std::string best_json_path(const std::string& explicit_path, const std::string& gpu_model);
// Throws ConfigError (sortbench/config.hpp) naming the file where `path` is
// there but is not a readable sortbench best.json; a missing file is fine.
// Checked once per version of the file.
void check_best_json(const std::string& path);
// The variant best.json at `path` names for this problem, or empty when the
// file is missing, is for another GPU model, or has no entry for this key
// and value type. With entries per input class (best.json version 3), the
// class's entry.
// With `usable`, the nearest entry whose variant it accepts (tune::select_best).
std::string tuned_label(const std::string& path, const std::string& gpu_model, KeyType key, ValueType value,
                        std::size_t n, InputClass input = InputClass::spread, Order order = Order::ascending,
                        const std::function<bool(const std::string&)>& usable = {});
// The best point of ours for that entry ("ours"), even where a library call
// won it: what a sort built from ours (the distributed family's local sort)
// runs. Empty where tuned_label is.
std::string tuned_ours_label(const std::string& path, const std::string& gpu_model, KeyType key, ValueType value,
                             std::size_t n);

}  // namespace sortbench::detail
