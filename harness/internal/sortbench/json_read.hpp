// Typed reads of a JSON document that name the file and the JSON path in every
// error, as `FILE: $.results[3].n: expected a non-negative integer, got -5`.
// The one reading layer of reports, cache lines and best.json (host code).
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

namespace sortbench {

class JsonAt {
 public:
  // `where`: the file (or stream) the document came from; `path`: the JSON path of j.
  JsonAt(const nlohmann::json& j, std::string where, std::string path = "$");

  const nlohmann::json& value() const { return j_; }
  const std::string& path() const { return path_; }
  bool has(const std::string& key) const;  // j is an object holding key

  // The member `key` of an object (it must be one and hold the key), the i-th
  // item of an array.
  JsonAt operator[](const std::string& key) const;
  JsonAt operator[](std::size_t i) const;
  std::size_t size() const;  // of an array (it must be one)

  const nlohmann::json& object() const;
  const nlohmann::json& array() const;
  std::string string() const;
  bool boolean() const;
  double number() const;  // finite
  double non_negative() const;
  double non_negative(double max) const;  // from 0 to max
  std::uint64_t unsigned_integer(std::uint64_t max = UINT64_MAX) const;
  std::int64_t integer() const;

  [[noreturn]] void fail(const std::string& expected) const;

 private:
  const nlohmann::json& j_;
  std::string where_, path_;
};

}  // namespace sortbench
