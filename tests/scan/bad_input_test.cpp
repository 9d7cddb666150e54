// Hostile inputs from the scan issue: each has defined behaviour, a clear message, and no crash.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "../unprivileged.h"
#include "scan/rules/catalog.h"
#include "scan/scanner.h"

namespace gpuport {
namespace {

ScanResult scan_memory(const MemoryFileSystem& fs, const std::string& root,
                       std::uint64_t max_file_size = k_default_max_file_size) {
  ScanOptions options;
  options.walk.jobs = 2;
  options.walk.max_file_size = max_file_size;
  auto result = scan(fs, root, options);
  EXPECT_TRUE(result.has_value());
  return result ? std::move(*result) : ScanResult{};
}

bool has_warning(const ScanResult& result, const std::string& file, std::uint32_t line,
                 const std::string& text) {
  return std::any_of(result.warnings.begin(), result.warnings.end(), [&](const FileWarning& w) {
    return w.file == file && w.line == line && w.message.find(text) != std::string::npos;
  });
}

TEST(BadInput, NonexistentRootIsAnErrorNamingThePath) {
  MemoryFileSystem fs;
  auto result = scan(fs, "no/such/dir", ScanOptions{});
  ASSERT_FALSE(result.has_value());
  EXPECT_EQ(result.error().path, "no/such/dir");
  EXPECT_EQ(result.error().message, "No such file or directory");
}

TEST(BadInput, EmptyRepositoryScansNothing) {
  MemoryFileSystem fs;
  fs.add_directory("repo");
  ScanResult result = scan_memory(fs, "repo");
  EXPECT_EQ(result.files_scanned, 0u);
  EXPECT_TRUE(result.findings.empty());
  EXPECT_TRUE(result.components.empty());
  EXPECT_TRUE(result.warnings.empty());
}

TEST(BadInput, HundredMegabyteSingleLineIsSkippedBySizeByDefault) {
  MemoryFileSystem fs;
  std::string line(100u * 1024 * 1024, 'a');
  fs.add_file("repo/huge.cu", line);
  ScanResult result = scan_memory(fs, "repo");
  ASSERT_EQ(result.skipped.size(), 1u);
  EXPECT_EQ(result.skipped[0].path, "huge.cu");
  EXPECT_EQ(result.skipped[0].reason, SkipReason::TooLarge);
  EXPECT_EQ(result.skipped[0].size, line.size());
}

TEST(BadInput, HundredMegabyteSingleLineIsLexedWhenTheLimitAllowsIt) {
  MemoryFileSystem fs;
  std::string line(100u * 1024 * 1024, ' ');
  std::string kernel = "__global__ void k(float* x) { x[0] = 1; }";
  line.replace(line.size() - kernel.size(), kernel.size(), kernel);
  fs.add_file("repo/huge.cu", line);
  ScanResult result = scan_memory(fs, "repo", 200u * 1024 * 1024);
  EXPECT_TRUE(result.skipped.empty());
  ASSERT_EQ(result.kernels.size(), 1u);
  EXPECT_EQ(result.kernels[0].name, "k");
  EXPECT_EQ(result.kernels[0].line, 1u);
  EXPECT_EQ(result.bytes_scanned, line.size());
}

TEST(BadInput, InvalidUtf8IsScannedAndKernelsStillFound) {
  MemoryFileSystem fs;
  fs.add_file("repo/k.cu", "// \xff\xfe\xc3 bad bytes \x80\n__global__ void k2() {}\n");
  ScanResult result = scan_memory(fs, "repo");
  ASSERT_EQ(result.kernels.size(), 1u);
  EXPECT_EQ(result.kernels[0].name, "k2");
  EXPECT_EQ(result.kernels[0].line, 2u);
}

TEST(BadInput, NulLadenCuFileIsSkippedAsBinary) {
  MemoryFileSystem fs;
  fs.add_file("repo/weights.cu", std::string("\x7f"
                                             "ELF\0\0\0\x01__global__",
                                             16));
  ScanResult result = scan_memory(fs, "repo");
  ASSERT_EQ(result.skipped.size(), 1u);
  EXPECT_EQ(result.skipped[0].path, "weights.cu");
  EXPECT_EQ(result.skipped[0].reason, SkipReason::Binary);
  EXPECT_TRUE(result.kernels.empty());
}

TEST(BadInput, UnterminatedCommentStringAndRawStringAreWarningsWithPositions) {
  MemoryFileSystem fs;
  fs.add_file("repo/a.cu", "int a;\n/* never closed\n__global__ void hidden() {}\n");
  fs.add_file("repo/b.cu", "int b;\nconst char* s = \"open\n__global__ void seen() {}\n");
  fs.add_file("repo/c.cu", "int c;\nauto r = R\"x(never closed\n__global__ void hidden() {}\n");
  ScanResult result = scan_memory(fs, "repo");
  EXPECT_TRUE(has_warning(result, "a.cu", 2, "unterminated"));
  EXPECT_TRUE(has_warning(result, "b.cu", 2, "unterminated"));
  EXPECT_TRUE(has_warning(result, "c.cu", 2, "unterminated raw string"));
  // Inside the comment and the raw string nothing is code; after the broken string it is.
  ASSERT_EQ(result.kernels.size(), 1u);
  EXPECT_EQ(result.kernels[0].name, "seen");
  EXPECT_EQ(result.kernels[0].file, "b.cu");
}

TEST(BadInput, TwoHundredDeepIfNestingKeepsTheHipContext) {
  std::string source = "#ifdef __HIP_PLATFORM_AMD__\n";
  for (int i = 0; i < 200; ++i) {
    source += "#if LEVEL" + std::to_string(i) + "\n";
  }
  source += "__global__ void deep() {}\n";
  for (int i = 0; i < 200; ++i) {
    source += "#endif\n";
  }
  source += "#endif\n";
  MemoryFileSystem fs;
  fs.add_file("repo/deep.cu", source);
  ScanResult result = scan_memory(fs, "repo");
  ASSERT_EQ(result.kernels.size(), 1u);
  EXPECT_EQ(result.kernels[0].line, 202u);
  EXPECT_EQ(result.kernels[0].context, BranchContext::Hip);
  EXPECT_TRUE(result.warnings.empty());
}

TEST(BadInput, UnbalancedEndifIsAWarningAndTheScanGoesOn) {
  MemoryFileSystem fs;
  fs.add_file("repo/e.cu", "#endif\n__global__ void after() {}\n");
  ScanResult result = scan_memory(fs, "repo");
  EXPECT_TRUE(has_warning(result, "e.cu", 1, "#endif without #if"));
  ASSERT_EQ(result.kernels.size(), 1u);
  EXPECT_EQ(result.kernels[0].name, "after");
}

TEST(BadInput, MalformedNotebookIsAWarningWithPosition) {
  MemoryFileSystem fs;
  fs.add_file("repo/nb.ipynb", "{\"cells\": [\n  {\"cell_type\": \"code\", \"source\": [\"x\"\n");
  ScanResult result = scan_memory(fs, "repo");
  ASSERT_EQ(result.warnings.size(), 1u);
  EXPECT_EQ(result.warnings[0].file, "nb.ipynb");
  EXPECT_GE(result.warnings[0].line, 2u);
  EXPECT_NE(result.warnings[0].message.find("not a readable notebook"), std::string::npos);
}

class DiskTree : public ::testing::Test {
 protected:
  void SetUp() override {
    m_root = std::filesystem::temp_directory_path() /
             ("gpuport-bad-input-" + std::to_string(::getpid()) + "-" +
              ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(m_root);
    std::filesystem::create_directories(m_root / "src");
    std::ofstream(m_root / "src/k.cu") << "__global__ void k() {}\n";
  }
  void TearDown() override {
    std::error_code ignored;
    std::filesystem::permissions(m_root / "locked", std::filesystem::perms::owner_all,
                                 std::filesystem::perm_options::replace, ignored);
    std::filesystem::remove_all(m_root, ignored);
  }
  std::filesystem::path m_root;
};

TEST_F(DiskTree, SymlinkLoopTerminatesWhenFollowing) {
  std::filesystem::create_directory_symlink("..", m_root / "src/loop");
  DiskFileSystem fs;
  ScanOptions options;
  options.walk.symlinks = Symlinks::Follow;
  auto result = scan(fs, m_root.string(), options);
  ASSERT_TRUE(result.has_value());
  EXPECT_EQ(result->kernels.size(), 1u);
  bool loop_reported =
      std::any_of(result->skipped.begin(), result->skipped.end(), [](const SkippedEntry& s) {
        return s.reason == SkipReason::SymlinkLoop && s.path == "src/loop";
      });
  EXPECT_TRUE(loop_reported);
}

TEST_F(DiskTree, UnreadableDirectoryIsAWarningAndTheScanGoesOn) {
  std::filesystem::create_directory(m_root / "locked");
  std::ofstream(m_root / "locked/x.cu") << "__global__ void x() {}\n";
  testing::open_to_everyone(m_root);
  std::filesystem::permissions(m_root / "locked", std::filesystem::perms::none);
  // As root the scan runs in a child that has dropped privileges; the summary says what it saw.
  const std::string seen = testing::run_unprivileged([&] {
    DiskFileSystem fs;
    auto result = scan(fs, m_root.string(), ScanOptions{});
    if (!result) {
      return std::string("scan failed");
    }
    std::string summary = "kernels=" + std::to_string(result->kernels.size());
    for (const FileWarning& warning : result->warnings) {
      summary += " warning=" + warning.message;
    }
    return summary;
  });
  EXPECT_EQ(seen.substr(0, 10), "kernels=1 ") << seen;
  EXPECT_NE(seen.find("warning="), std::string::npos) << seen;
  EXPECT_NE(seen.find("Permission denied"), std::string::npos) << seen;
  EXPECT_EQ(seen.find("warning=", seen.find("warning=") + 1), std::string::npos) << seen;
}

// The walker does not stat files the scan reads; a file that cannot be opened is still listed
// with its size.
TEST(BadInput, UnreadableFileIsSkippedWithItsSizeAndTheReason) {
  MemoryFileSystem fs;
  fs.add_file("repo/ok.cu", "__global__ void ok() {}\n");
  fs.add_file("repo/secret.cu", std::string(1234, 'x'));
  fs.make_unreadable("repo/secret.cu");
  ScanResult result = scan_memory(fs, "repo");
  EXPECT_EQ(result.kernels.size(), 1u);
  ASSERT_EQ(result.skipped.size(), 1u);
  EXPECT_EQ(result.skipped[0].path, "secret.cu");
  EXPECT_EQ(result.skipped[0].reason, SkipReason::Unreadable);
  EXPECT_EQ(result.skipped[0].size, 1234u);
  EXPECT_EQ(result.skipped[0].detail, "Permission denied");
}

TEST(BadInput, UnreadableDirectoryInMemoryIsAWarningAndTheScanGoesOn) {
  MemoryFileSystem fs;
  fs.add_file("repo/ok.cu", "__global__ void ok() {}\n");
  fs.add_file("repo/locked/x.cu", "__global__ void x() {}\n");
  fs.make_unreadable("repo/locked");
  ScanResult result = scan_memory(fs, "repo");
  ASSERT_EQ(result.kernels.size(), 1u);
  EXPECT_EQ(result.kernels[0].name, "ok");
  ASSERT_EQ(result.warnings.size(), 1u);
  EXPECT_NE(result.warnings[0].message.find("Permission denied"), std::string::npos);
}

}  // namespace
}  // namespace gpuport
