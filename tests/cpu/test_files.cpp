// The files a command reads and writes: checked before any work, written all
// or nothing (sortbench/files.hpp).
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>

#include "sortbench/config.hpp"
#include "sortbench/files.hpp"
#include "sortbench/best_json.hpp"
#include "scoped_env.hpp"

using namespace sortbench;
namespace fs = std::filesystem;

namespace {

struct FilesScratch {
  fs::path dir = fs::temp_directory_path() / ("sortbench_files_" + std::to_string(::getpid()));
  FilesScratch() {
    fs::remove_all(dir);
    fs::create_directories(dir);
  }
  ~FilesScratch() { fs::remove_all(dir); }
  std::string file(const std::string& name, const std::string& text = "x") const {
    const fs::path p = dir / name;
    fs::create_directories(p.parent_path());
    std::ofstream(p) << text;
    return p.string();
  }
  std::string path(const std::string& name) const { return (dir / name).string(); }
  // Every entry below the folder with its content: what a failed command must leave as it was.
  std::string listing() const {
    std::ostringstream os;
    for (const auto& e : fs::recursive_directory_iterator(dir)) {
      os << e.path().string();
      if (e.is_regular_file()) os << "=" << std::ifstream(e.path()).rdbuf();
      os << "\n";
    }
    return os.str();
  }
};

std::string file_error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

TEST(Files, InputsExistAndAreFiles) {
  FilesScratch s;
  const std::string in = s.file("in.json");
  EXPECT_EQ(file_error_of([&] { files::check_input(in, "--config", "config file"); }), "no error");
  EXPECT_NE(file_error_of([&] { files::check_input(s.path("none.json"), "--config", "config file"); })
                .find("--config: " + s.path("none.json") + ": cannot open the config file: No such file or directory"),
            std::string::npos);
  EXPECT_NE(file_error_of([&] { files::check_input(s.dir.string(), "--config", "config file"); })
                .find("is a folder; expected a config file"),
            std::string::npos);
  EXPECT_NE(file_error_of([&] { files::check_input("", "--config", "config file"); }).find("--config: empty path"),
            std::string::npos);
}

TEST(Files, OutputsNeverOverwriteAnInput) {
  FilesScratch s;
  const std::string in = s.file("base.json");
  const std::vector<files::Input> inputs = {{in, "BASE"}};
  // The same file under another spelling and through a link.
  EXPECT_NE(file_error_of([&] { files::check_output(in, "--out", inputs); }).find("is the input"), std::string::npos);
  const std::string dotted = (s.dir / "." / "base.json").string();
  EXPECT_NE(file_error_of([&] { files::check_output(dotted, "--out", inputs); }).find("writing it would destroy it"),
            std::string::npos);
  fs::create_symlink(in, s.path("link.json"));
  EXPECT_NE(file_error_of([&] { files::check_output(s.path("link.json"), "--out", inputs); }).find("is the input"),
            std::string::npos);
  // Two outputs of one command on one file.
  EXPECT_NE(file_error_of([&] { files::check_output(s.path("a.json"), "--best", inputs, {{s.path("a.json"), "--out"}}); })
                .find("is also the output --out: " + s.path("a.json")),
            std::string::npos);
  // A new file in a new folder is fine; "-" is standard output only where the command takes it.
  EXPECT_EQ(file_error_of([&] { files::check_output(s.path("new/deeper/out.json"), "--out", inputs); }), "no error");
  EXPECT_EQ(file_error_of([&] { files::check_output("-", "--out", inputs, {}, true); }), "no error");
  EXPECT_NE(file_error_of([&] { files::check_output("-", "--out", inputs); }).find("standard output"), std::string::npos);
  // A path that names a folder, existing or not, is no file to write.
  for (const std::string p : {s.path("new/"), s.path("."), s.path("x/..")})
    EXPECT_NE(file_error_of([&] { files::check_output(p, "--out", inputs); }).find("names a folder"), std::string::npos) << p;
  // The probe that tries the folder leaves nothing behind.
  for (const auto& e : fs::directory_iterator(s.dir))
    EXPECT_EQ(e.path().filename().string().rfind(".sortbench-probe", 0), std::string::npos) << e.path();
}

TEST(Files, UnusableOutputsAreFoundBeforeAnyWork) {
  FilesScratch s;
  const std::string file = s.file("plain.txt");
  EXPECT_NE(file_error_of([&] { files::check_output(s.dir.string(), "--out", {}); }).find("is a folder; expected a file to write"),
            std::string::npos);
  EXPECT_NE(file_error_of([&] { files::check_output(file + "/x.json", "--out", {}); }).find("goes through " + file + ", which is a file"),
            std::string::npos);
  EXPECT_NE(file_error_of([&] { files::check_output(file + "/deeper/x.json", "--out", {}); }).find("which is a file, not a folder"),
            std::string::npos);
  EXPECT_NE(file_error_of([&] { files::check_output(s.path(std::string(300, 'n') + ".json"), "--out", {}); })
                .find("is longer than the file system takes"),
            std::string::npos);
  EXPECT_NE(file_error_of([&] { files::check_output("", "--markdown", {}); }).find("--markdown: empty path"), std::string::npos);
  EXPECT_NE(file_error_of([&] { files::check_output("/dev/null", "--out", {}); }).find("is not a regular file"), std::string::npos);
}

TEST(Files, OutputsAreWrittenAllOrNothing) {
  FilesScratch s;
  const std::string report = s.file("report.json", "old report");
  {
    files::Outputs o;
    o.add(report, "--out", "new report");
    o.add(s.path("sub/best.json"), "--best", "best");
    o.commit();
  }
  EXPECT_EQ((std::ostringstream() << std::ifstream(report).rdbuf()).str(), "new report");
  EXPECT_TRUE(fs::exists(s.path("sub/best.json")));
  // The second output cannot be written (a folder is in its way): the first
  // keeps its old content, and no temporary or new folder is left.
  fs::create_directories(s.path("blocked"));
  const std::string before = s.listing();
  files::Outputs o;
  o.add(report, "--out", "newer report");
  o.add(s.path("fresh/dir/x.json"), "--cache-out", "x");
  o.add(s.path("blocked"), "--best", "best");
  EXPECT_NE(file_error_of([&] { o.commit(); }).find("--best: " + s.path("blocked") + ": cannot replace"), std::string::npos);
  EXPECT_EQ(s.listing(), before);
}

// Outputs nobody named go below sortbench-out/, never into results/ (committed
// reports); best:FAMILY still reads results/<gpu-model>/best.json.
TEST(Files, DefaultOutputsAreBelowSortbenchOutPerGpuModel) {
  EXPECT_EQ(files::default_run_report("h100-80gb-hbm3", "quick"), "sortbench-out/h100-80gb-hbm3/quick.json");
  EXPECT_EQ(files::default_tune_report("h200", "radix", "halving"), "sortbench-out/h200/radix-halving.json");
  EXPECT_EQ(files::default_best("h200"), "sortbench-out/h200/best.json");
  EXPECT_EQ(files::default_cache("h200", "radix"), "sortbench-out/h200/cache/radix.jsonl");
  EXPECT_EQ(files::default_devices_report("radix", "exhaustive"), "sortbench-out/shards/radix-exhaustive.json");
  const sortbench::test::ScopedEnv best("SORTBENCH_BEST_JSON", nullptr), dir("SORTBENCH_RESULTS_DIR", nullptr);
  EXPECT_EQ(sortbench::detail::best_json_path("", "h200"), "results/h200/best.json");
}
