// An environment variable set (or unset, for null) for one scope, its old
// value put back however the scope ends. CPU and GPU tests.
#pragma once

#include <cstdlib>
#include <optional>
#include <string>

namespace sortbench::test {

struct ScopedEnv {
  std::string name;
  std::optional<std::string> old;
  ScopedEnv(const std::string& n, const char* value) : name(n) {
    if (const char* v = std::getenv(n.c_str())) old = v;
    if (value)
      ::setenv(n.c_str(), value, 1);
    else
      ::unsetenv(n.c_str());
  }
  ~ScopedEnv() {
    if (old)
      ::setenv(name.c_str(), old->c_str(), 1);
    else
      ::unsetenv(name.c_str());
  }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;
};

}  // namespace sortbench::test
