#include "sortbench/json_read.hpp"

#include <cmath>
#include <sstream>

#include "sortbench/config.hpp"

namespace sortbench {

namespace {
// What was there, short: "-5", "\"x\"", "an object", "an array".
std::string got(const nlohmann::json& j) {
  if (j.is_object()) return "an object";
  if (j.is_array()) return "an array";
  std::string s = j.dump();
  return s.size() > 40 ? s.substr(0, 37) + "..." : s;
}
}  // namespace

JsonAt::JsonAt(const nlohmann::json& j, std::string where, std::string path)
    : j_(j), where_(std::move(where)), path_(std::move(path)) {}

void JsonAt::fail(const std::string& expected) const {
  throw ConfigError(where_ + ": " + path_ + ": expected " + expected + ", got " + got(j_));
}

bool JsonAt::has(const std::string& key) const { return j_.is_object() && j_.contains(key); }

JsonAt JsonAt::operator[](const std::string& key) const {
  object();
  const auto it = j_.find(key);
  if (it == j_.end()) throw ConfigError(where_ + ": " + path_ + "." + key + ": missing");
  return JsonAt(*it, where_, path_ + "." + key);
}

JsonAt JsonAt::operator[](std::size_t i) const {
  array();
  if (i >= j_.size()) throw ConfigError(where_ + ": " + path_ + "[" + std::to_string(i) + "]: missing");
  return JsonAt(j_[i], where_, path_ + "[" + std::to_string(i) + "]");
}

std::size_t JsonAt::size() const { return array().size(); }

const nlohmann::json& JsonAt::object() const {
  if (!j_.is_object()) fail("an object");
  return j_;
}

const nlohmann::json& JsonAt::array() const {
  if (!j_.is_array()) fail("an array");
  return j_;
}

std::string JsonAt::string() const {
  if (!j_.is_string()) fail("a string");
  return j_.get<std::string>();
}

bool JsonAt::boolean() const {
  if (!j_.is_boolean()) fail("true or false");
  return j_.get<bool>();
}

double JsonAt::number() const {
  if (!j_.is_number()) fail("a number");
  const double d = j_.get<double>();
  if (!std::isfinite(d)) fail("a finite number");
  return d;
}

double JsonAt::non_negative() const {
  const double d = number();
  if (d < 0) fail("a number of at least 0");
  return d;
}

double JsonAt::non_negative(double max) const {
  const double d = number();
  if (d < 0 || d > max) {
    std::ostringstream os;
    os << "a number from 0 to " << max;
    fail(os.str());
  }
  return d;
}

std::uint64_t JsonAt::unsigned_integer(std::uint64_t max) const {
  // Parsed text holds non-negative integers as unsigned; values built in
  // memory from signed types are signed integers.
  const bool whole = j_.is_number_unsigned() || (j_.is_number_integer() && j_.get<std::int64_t>() >= 0);
  if (!whole || j_.get<std::uint64_t>() > max) fail("a whole number from 0 to " + std::to_string(max));
  return j_.get<std::uint64_t>();
}

std::int64_t JsonAt::integer() const {
  if (!j_.is_number_integer()) fail("a whole number");
  return j_.get<std::int64_t>();
}

}  // namespace sortbench
