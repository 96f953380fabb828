// --trace / --summary / --json write through to FIFOs, character devices and "-" (standard
// output), and follow symbolic links to the file they name, replaced atomically there
// (docs/inputs.md#outputs): a FIFO or a link is never replaced by a regular file.
#include <gtest/gtest.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <future>
#include <string>

#include "core/file_io.hpp"
#include "tests/test_util.hpp"

namespace fs = std::filesystem;
using plab::test_util::TempDir;

namespace {
const std::string kRun = "run --algo perceptron --data synthetic:separable:n=40,seed=3 --quiet";
}

TEST(Outputs, FifoIsWrittenThroughNotReplaced) {
  TempDir dir("out_fifo");
  const std::string fifo = (dir.p / "pipe").string();
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  // Held open for writing too, so the reader's open never blocks and its read ends (EOF) once
  // plab and this fd have closed, even where plab wrote elsewhere (the test cannot hang).
  const int hold = ::open(fifo.c_str(), O_RDWR);
  ASSERT_GE(hold, 0);
  const int rfd = ::open(fifo.c_str(), O_RDONLY);
  ASSERT_GE(rfd, 0);
  auto reader = std::async(std::launch::async, [rfd] {
    std::string text;
    char buf[4096];
    for (ssize_t n; (n = ::read(rfd, buf, sizeof buf)) > 0;) text.append(buf, static_cast<std::size_t>(n));
    ::close(rfd);
    return text;
  });
  const auto r = plab::test_util::run_cli(kRun + " --summary " + fifo);
  EXPECT_EQ(r.status, 0) << r.output;
  ::close(hold);
  const std::string got = reader.get();
  EXPECT_EQ(got.rfind("{\n", 0), 0u) << got.substr(0, 80);
  EXPECT_NE(got.find("\"bounds\""), std::string::npos);
  EXPECT_TRUE(fs::is_fifo(fifo));  // still a FIFO, not a regular file
}

TEST(Outputs, SymlinkIsFollowedAndItsTargetReplaced) {
  TempDir dir("out_link");
  const fs::path target = dir.p / "real.csv", link = dir.p / "link.csv", link2 = dir.p / "link2.csv";
  std::ofstream(target) << "stale\n";
  fs::create_symlink("real.csv", link);   // relative, as `ln -s real.csv link.csv`
  fs::create_symlink(link, link2);         // a chain of two
  const auto r = plab::test_util::run_cli(kRun + " --trace " + link2.string());
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_TRUE(fs::is_symlink(link));
  EXPECT_TRUE(fs::is_symlink(link2));
  const std::string text = plab::test_util::read_text(target);
  EXPECT_EQ(text.rfind("# {", 0), 0u) << text.substr(0, 40);  // the trace, written at the target
  for (const auto& e : fs::directory_iterator(dir.p))  // no temporary left behind
    EXPECT_EQ(e.path().filename().string().find(".tmp."), std::string::npos) << e.path();
}

TEST(Outputs, DanglingSymlinkCreatesItsTarget) {
  TempDir dir("out_dangling");
  const fs::path link = dir.p / "s.json";
  fs::create_symlink(dir.p / "made.json", link);
  const auto r = plab::test_util::run_cli(kRun + " --summary " + link.string());
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_TRUE(fs::is_symlink(link));
  EXPECT_TRUE(fs::is_regular_file(dir.p / "made.json"));
}

TEST(Outputs, DashIsStandardOutput) {
  TempDir dir("out_dash");
  const auto r = plab::test_util::run_cli(kRun + " --summary -");
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("\"bounds\""), std::string::npos) << r.output.substr(0, 200);
  EXPECT_FALSE(fs::exists("-"));
}

TEST(Outputs, CharacterDevicesAreWrittenNotReplaced) {
  plab::write_file_atomic("/dev/null", "x\n");  // as root this replaced /dev/null before
  struct stat st {};
  ASSERT_EQ(::stat("/dev/null", &st), 0);
  EXPECT_TRUE(S_ISCHR(st.st_mode));
  try {
    plab::write_file_atomic("/dev/full", "x\n");
    ADD_FAILURE() << "a write to /dev/full succeeded";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()), "/dev/full: write failed: No space left on device");
  }
  const auto r = plab::test_util::run_cli(kRun + " --summary /dev/full");
  EXPECT_NE(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("/dev/full: write failed"), std::string::npos) << r.output;
}
