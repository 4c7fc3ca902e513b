// NCCL loaded at run time (sortbench/nccl.hpp): where it is looked for, what the
// reason says when it is not there, and the library tools/setup.sh installs.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "scoped_env.hpp"
#include "sortbench/nccl.hpp"

namespace nccl = sortbench::nccl;
using sortbench::test::ScopedEnv;

TEST(Nccl, DisableMulticastOverwrites) {
  ScopedEnv env("NCCL_NVLS_ENABLE", "1");
  nccl::disable_multicast();
  ASSERT_NE(std::getenv("NCCL_NVLS_ENABLE"), nullptr);
  EXPECT_STREQ(std::getenv("NCCL_NVLS_ENABLE"), "0");
  ::unsetenv("NCCL_NVLS_ENABLE");
  nccl::disable_multicast();
  ASSERT_NE(std::getenv("NCCL_NVLS_ENABLE"), nullptr);
  EXPECT_STREQ(std::getenv("NCCL_NVLS_ENABLE"), "0");
}

#if !defined(SORTBENCH_HAVE_NCCL)

TEST(Nccl, BuiltWithoutNcclSaysWhy) {
  std::string why;
  EXPECT_FALSE(nccl::available(&why));
  EXPECT_NE(why.find("built without NCCL"), std::string::npos) << why;
  EXPECT_NE(why.find("tools/setup.sh"), std::string::npos) << why;
  EXPECT_EQ(nccl::version(), "");
  EXPECT_EQ(nccl::library_path(), "");
}

#else

TEST(Nccl, PlacesInTheHeadersOrder) {
  {
    ScopedEnv env("SORTBENCH_NCCL_LIBRARY", "/opt/x/libnccl.so.2");
    const auto p = nccl::detail::places();
    ASSERT_EQ(p.size(), 4u);
    EXPECT_EQ(p[0].where, "$SORTBENCH_NCCL_LIBRARY");
    EXPECT_EQ(p[0].path, "/opt/x/libnccl.so.2");
    EXPECT_EQ(p[1].path, "libnccl.so.2");
    EXPECT_NE(p[2].where.find("python3"), std::string::npos);
    EXPECT_EQ(p[3].where, "build-tools/nccl");
  }
  ScopedEnv env("SORTBENCH_NCCL_LIBRARY", nullptr);
  const auto p = nccl::detail::places();
  ASSERT_EQ(p.size(), 4u);
  EXPECT_EQ(p[0].path, "");
  EXPECT_EQ(p[0].note, "unset");
}

// Place 3 asks `python3` on $PATH; a stand-in python3 says where its wheel is, or fails.
TEST(Nccl, PythonWheelPlace) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("sortbench_nccl_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  auto fake_python = [&](const std::string& body) {
    std::ofstream(dir / "python3") << "#!/bin/sh\n" << body << "\n";
    ::chmod((dir / "python3").c_str(), 0755);
  };
  const char* old_path = std::getenv("PATH");
  ScopedEnv path("PATH", (dir.string() + ":" + (old_path ? old_path : "/usr/bin:/bin")).c_str());

  fake_python("echo /opt/wheel/nvidia/nccl");
  auto p = nccl::detail::places();
  EXPECT_EQ(p[2].path, "/opt/wheel/nvidia/nccl/lib/libnccl.so.2");

  fake_python("echo 'ModuleNotFoundError: nvidia' >&2; exit 1");
  p = nccl::detail::places();
  EXPECT_EQ(p[2].path, "");
  EXPECT_EQ(p[2].note, "not installed");

  // No python3 at all: $PATH is only the empty folder.
  fs::remove(dir / "python3");
  {
    ScopedEnv only("PATH", dir.c_str());
    p = nccl::detail::places();
  }
  EXPECT_EQ(p[2].path, "");
  EXPECT_EQ(p[2].note, "no python3 on $PATH");
  fs::remove_all(dir);
}

TEST(Nccl, MissingFileIsNamedInTheReason) {
  nccl::Api api{};
  std::string why;
  const std::vector<nccl::detail::Place> places = {
      {"$SORTBENCH_NCCL_LIBRARY", "/nonexistent/sortbench/libnccl.so.2", ""},
      {"python3's nvidia-nccl-cu13", "", "not installed"}};
  EXPECT_EQ(nccl::detail::load(places, &api, &why), nullptr);
  EXPECT_EQ(why.rfind("NCCL not found: ", 0), 0u) << why;
  EXPECT_NE(why.find("$SORTBENCH_NCCL_LIBRARY: /nonexistent/sortbench/libnccl.so.2: cannot open"), std::string::npos)
      << why;
  EXPECT_NE(why.find("python3's nvidia-nccl-cu13: not installed"), std::string::npos) << why;
  EXPECT_NE(why.find("tools/setup.sh"), std::string::npos) << why;
  EXPECT_EQ(why.find('\n'), std::string::npos) << why;
  EXPECT_EQ(api.GetVersion, nullptr);
}

// A library that loads but is not NCCL ends the search, naming the file and the first missing entry point.
TEST(Nccl, MissingSymbolIsNamedInTheReason) {
  nccl::Api api{};
  std::string why;
  const std::vector<nccl::detail::Place> places = {{"the dynamic loader", "libm.so.6", ""},
                                                   {"$SORTBENCH_NCCL_LIBRARY", "/nonexistent/libnccl.so.2", ""}};
  EXPECT_EQ(nccl::detail::load(places, &api, &why), nullptr);
  EXPECT_NE(why.find("libm.so.6"), std::string::npos) << why;
  EXPECT_NE(why.find("has no ncclGetVersion"), std::string::npos) << why;
  EXPECT_EQ(why.find("/nonexistent"), std::string::npos) << why;
}

// tools/setup.sh put the wheel in build-tools/nccl, which the build records (place 4).
TEST(Nccl, TheInstalledLibraryLoads) {
  std::string why;
  ASSERT_TRUE(nccl::available(&why)) << why;
  EXPECT_EQ(nccl::version().rfind("2.", 0), 0u) << nccl::version();
  EXPECT_TRUE(std::filesystem::exists(nccl::library_path())) << nccl::library_path();
  int code = 0;
  EXPECT_NO_THROW(nccl::check(nccl::api().GetVersion(&code), "ncclGetVersion"));
  EXPECT_GE(code, NCCL_VERSION(2, 0, 0));
  // Needs no GPU: the bootstrap's network address only.
  ncclUniqueId id{};
  EXPECT_NO_THROW(nccl::check(nccl::api().GetUniqueId(&id), "ncclGetUniqueId"));
}

// Place 4 on its own (a system NCCL may answer place 2 first): the library the
// headers came with, of the headers' version.
TEST(Nccl, TheBuildsOwnLibraryLoads) {
  const nccl::detail::Place own = nccl::detail::places()[3];
  if (own.path.empty()) GTEST_SKIP() << "build-tools/nccl: " << own.note;
  nccl::Api api{};
  std::string why;
  ASSERT_NE(nccl::detail::load({own}, &api, &why), nullptr) << why;
  int code = 0;
  ASSERT_EQ(api.GetVersion(&code), ncclSuccess);
  EXPECT_EQ(code, NCCL_VERSION_CODE);
}

TEST(Nccl, CheckNamesTheCallAndNcclsMessage) {
  std::string why;
  ASSERT_TRUE(nccl::available(&why)) << why;
  EXPECT_NO_THROW(nccl::check(ncclSuccess, "ncclGroupEnd"));
  try {
    nccl::check(ncclInvalidArgument, "ncclAllGather(keys)");
    FAIL() << "no Error";
  } catch (const nccl::Error& e) {
    EXPECT_EQ(std::string(e.what()).rfind("ncclAllGather(keys): invalid argument", 0), 0u) << e.what();
  }
}

#endif
