// sortbench: subcommands registered from harness/src/cli/cmd_*.cpp.
// Exit codes: 0 success; 1 a runtime failure (no GPU, CUDA error, a point that
// failed validation); 2 bad input (nothing is written).
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <iostream>

#include "cli.hpp"
#include "sortbench/config.hpp"

using namespace sortbench;

namespace {
void usage(std::ostream& os) {
  os << "usage: sortbench <command> [options]\n";
  for (const auto& c : cli::commands()) os << "  " << c.name << std::string(10 - std::string(c.name).size(), ' ') << c.summary << "\n";
  os << "  --version the build: version, commit, build type, CUDA architectures, CCCL (--json)\n";
  os << "sortbench <command> --help for its options\n";
}

int run_command(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  std::string command_line;
  for (int i = 0; i < argc; ++i) command_line += (i ? " " : "") + std::string(argv[i]);
  try {
    std::string names;
    for (const auto& c : cli::commands()) names += (names.empty() ? "" : ", ") + std::string(c.name);
    if (args.empty()) {
      std::cerr << "sortbench: expected a command: one of " << names << " (sortbench --help)\n";
      return 2;
    }
    const std::string cmd = args.front();
    args.erase(args.begin());
    if (cmd == "help" || cmd == "--help" || cmd == "-h") {
      usage(std::cout);
      return 0;
    }
    if (cmd == "--version") return cli::print_version(args);
    for (const auto& c : cli::commands())
      if (cmd == c.name) return c.run(args, command_line);
    std::cerr << "sortbench: unknown command '" << cmd << "'; expected one of " << names << "\n";
    return 2;
  } catch (const ConfigError& e) {
    std::cerr << "sortbench: " << e.what() << "\n";
    return 2;
  } catch (const cli::UsageError& e) {
    std::cerr << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "sortbench: " << e.what() << "\n";
    return 1;
  }
}
}  // namespace

// Output that never arrived (a full disk, a closed pipe) is a failure, not a success.
int main(int argc, char** argv) {
  const int rc = run_command(argc, argv);
  errno = 0;
  if (!std::cout.flush()) {
    const int e = errno;
    // A reader that stopped reading (`| head`) wanted no more: not a failure.
    struct stat st {};
    if (e == EPIPE || (::fstat(STDOUT_FILENO, &st) == 0 && (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode)))) return rc;
    std::cerr << "sortbench: cannot write to standard output" << (e ? std::string(": ") + std::strerror(e) : std::string())
              << "\n";
    return rc ? rc : 1;
  }
  return rc;
}
