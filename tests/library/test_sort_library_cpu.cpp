// The library sortbench::sort as an application links it (only
// <sortbench/sort.hpp>), on a machine without a GPU: bad input is refused
// before any GPU work, with CUB's error code or the documented exception.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include <sortbench/sort.hpp>

namespace {

std::string write_file(const std::string& name, const std::string& text) {
  const std::string path = (std::filesystem::temp_directory_path() / name).string();
  std::ofstream(path) << text;
  return path;
}

// Never dereferenced: every call below returns or throws first.
template <class T>
T* fake_pointer() {
  return reinterpret_cast<T*>(std::uintptr_t(0x1000));
}

}  // namespace

TEST(SortLibraryInput, NullPointersWithKeysAreInvalidValue) {
  std::size_t bytes = 7;
  auto* k = fake_pointer<std::uint32_t>();
  auto* v = fake_pointer<std::uint64_t>();
  EXPECT_EQ(sortbench::sort_keys<std::uint32_t>(nullptr, bytes, nullptr, k, 5), cudaErrorInvalidValue);
  EXPECT_EQ(sortbench::sort_keys<std::uint32_t>(nullptr, bytes, k, nullptr, 5), cudaErrorInvalidValue);
  EXPECT_EQ((sortbench::sort_pairs<std::uint32_t, std::uint64_t>(nullptr, bytes, k, k, nullptr, v, 5)),
            cudaErrorInvalidValue);
  EXPECT_EQ((sortbench::sort_pairs<std::uint32_t, std::uint64_t>(nullptr, bytes, k, k, v, nullptr, 5)),
            cudaErrorInvalidValue);
  EXPECT_EQ(bytes, 7u) << "a refused call sets nothing";
}

TEST(SortLibraryInput, UnreadableBestJsonThrowsNamingTheFile) {
  const std::string broken = write_file("sortbench_library_broken_best.json", "{\"schema\": \"sortbench-best\", ");
  const std::string other = write_file("sortbench_library_other.json", "{\"schema\": \"sortbench-report\"}");
  sortbench::SortOptions o;
  std::size_t bytes = 0;
  auto* k = fake_pointer<float>();
  for (const std::string& path : {broken, other}) {
    o.best_json = path;
    try {
      (void)sortbench::sort_keys<float>(nullptr, bytes, k, k, 100, 0, o);
      ADD_FAILURE() << "no BestJsonError for " << path;
    } catch (const sortbench::BestJsonError& e) {
      EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
    }
    EXPECT_THROW((void)(sortbench::sort_choice<float, std::uint32_t>(100, o)), sortbench::BestJsonError);
  }
  // $SORTBENCH_BEST_JSON is read the same way.
  setenv("SORTBENCH_BEST_JSON", broken.c_str(), 1);
  EXPECT_THROW((void)sortbench::sort_keys<double>(nullptr, bytes, fake_pointer<double>(), fake_pointer<double>(), 3),
               sortbench::BestJsonError);
  unsetenv("SORTBENCH_BEST_JSON");
  std::remove(broken.c_str());
  std::remove(other.c_str());
}

TEST(SortLibraryInput, WithoutAGpuTheCudaErrorIsReturned) {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) == cudaSuccess && devices > 0) GTEST_SKIP() << "a GPU is here";
  std::size_t bytes = 0;
  auto* k = fake_pointer<std::uint64_t>();
  EXPECT_NE(sortbench::sort_keys<std::uint64_t>(nullptr, bytes, k, k, 10), cudaSuccess);
  EXPECT_EQ(bytes, 0u);
}
