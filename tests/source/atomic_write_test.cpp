// Tests for write_file_atomically() and AtomicFile: complete files on success, nothing left behind
// on failure.
#include "source/atomic_write.h"

#include <sys/stat.h>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "temp_dir.h"

namespace gpuport {
namespace {

using gpuport::testing::TempDir;

std::string slurp(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

std::size_t entry_count(const std::filesystem::path& directory) {
  std::size_t count = 0;
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator(directory)) {
    ++count;
  }
  return count;
}

TEST(AtomicWrite, CreatesAndReplacesFiles) {
  TempDir dir;
  const std::string path = dir.str() + "/report.json";
  ASSERT_TRUE(write_file_atomically(path, "{\"first\": 1}\n").has_value());
  EXPECT_EQ(slurp(path), "{\"first\": 1}\n");
  ASSERT_TRUE(write_file_atomically(path, "second").has_value());
  EXPECT_EQ(slurp(path), "second");
  EXPECT_EQ(entry_count(dir.path()), 1u);  // no temporary file left beside it
}

TEST(AtomicWrite, WritesLargeAndEmptyContents) {
  TempDir dir;
  const std::string big(3 * 1024 * 1024 + 17, 'z');
  ASSERT_TRUE(write_file_atomically(dir.str() + "/big", big).has_value());
  EXPECT_EQ(slurp(dir.path() / "big"), big);
  ASSERT_TRUE(write_file_atomically(dir.str() + "/empty", "").has_value());
  EXPECT_TRUE(std::filesystem::exists(dir.path() / "empty"));
  EXPECT_EQ(std::filesystem::file_size(dir.path() / "empty"), 0u);
}

// A regenerable file skips only the wait for the disk: written in pieces past the write-back
// chunk, it replaces the old file whole, abandoning one leaves the old file, and no temporary
// file stays behind.
TEST(AtomicWrite, RegenerableFilesAreReplacedWholeAndAbandonedCleanly) {
  TempDir dir;
  const std::string path = dir.str() + "/scan.json";
  dir.write("scan.json", "old report");
  const std::string piece(3 * 1024 * 1024, 'r');
  {
    auto abandoned = AtomicFile::create(path, Durability::Regenerable);
    ASSERT_TRUE(abandoned.has_value());
    ASSERT_TRUE(abandoned->write(piece).has_value());
  }
  EXPECT_EQ(slurp(path), "old report");
  EXPECT_EQ(entry_count(dir.path()), 1u);

  auto file = AtomicFile::create(path, Durability::Regenerable);
  ASSERT_TRUE(file.has_value());
  for (int i = 0; i < 4; ++i) {
    ASSERT_TRUE(file->write(piece).has_value());
  }
  ASSERT_TRUE(file->write("end").has_value());
  ASSERT_TRUE(file->commit().has_value());
  const std::string written = slurp(path);
  EXPECT_EQ(written.size(), 4 * piece.size() + 3);
  EXPECT_TRUE(written.ends_with("rrend"));
  EXPECT_EQ(entry_count(dir.path()), 1u);
}

TEST(AtomicWrite, KeepsPermissionsOfAnExistingFile) {
  TempDir dir;
  const std::string path = dir.str() + "/out.md";
  dir.write("out.md", "old");
  ASSERT_EQ(::chmod(path.c_str(), 0640), 0);
  ASSERT_TRUE(write_file_atomically(path, "new").has_value());
  struct stat st {};
  ASSERT_EQ(::stat(path.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0640u);
}

TEST(AtomicWrite, MissingDirectoryIsAnError) {
  TempDir dir;
  const std::string path = dir.str() + "/no/such/dir/out.json";
  const auto result = write_file_atomically(path, "x");
  ASSERT_FALSE(result.has_value());
  EXPECT_EQ(result.error().path, path);
  EXPECT_EQ(result.error().message, "No such file or directory");
}

TEST(AtomicWrite, FailedRenameRemovesTheTemporaryFile) {
  TempDir dir;
  // A non-empty directory cannot be replaced by a file.
  dir.write("target/inside.txt", "keep me");
  const std::string path = dir.str() + "/target";
  const auto result = write_file_atomically(path, "x");
  ASSERT_FALSE(result.has_value());
  EXPECT_EQ(result.error().path, path);
  EXPECT_FALSE(result.error().message.empty());
  EXPECT_EQ(entry_count(dir.path()), 1u);  // only "target": the temporary file is gone
  EXPECT_EQ(slurp(dir.path() / "target/inside.txt"), "keep me");
}

}  // namespace
}  // namespace gpuport
