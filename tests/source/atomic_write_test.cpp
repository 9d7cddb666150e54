// Tests for write_file_atomically() and AtomicFile: complete files on success, nothing left behind
// on failure.
#include "source/atomic_write.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

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
  EXPECT_EQ(result.error().message, "its directory '" + dir.str() + "/no/such/dir' does not exist");
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

// -o through a link writes the file the link names; the link stays a link (a plain rename put a
// regular file in its place).
TEST(OutputPath, ASymlinkIsFollowedAndStaysALink) {
  TempDir dir;
  dir.write("reports/latest.json", "old");
  const std::filesystem::path link = dir.path() / "current.json";
  std::filesystem::create_symlink("reports/latest.json", link);
  ASSERT_TRUE(write_file_atomically(link.string(), "new").has_value());
  EXPECT_TRUE(std::filesystem::is_symlink(link));
  EXPECT_EQ(std::filesystem::read_symlink(link), "reports/latest.json");
  EXPECT_EQ(slurp(dir.path() / "reports/latest.json"), "new");
  EXPECT_EQ(entry_count(dir.path() / "reports"), 1u);  // no temporary left beside the target
}

TEST(OutputPath, ADanglingLinkCreatesTheFileItNames) {
  TempDir dir;
  std::filesystem::create_directories(dir.path() / "out");
  const std::filesystem::path link = dir.path() / "report.md";
  std::filesystem::create_symlink(dir.path() / "out/report.md", link);
  ASSERT_TRUE(write_file_atomically(link.string(), "# report\n").has_value());
  EXPECT_TRUE(std::filesystem::is_symlink(link));
  EXPECT_EQ(slurp(dir.path() / "out/report.md"), "# report\n");
}

// -o FIFO (a process substitution, `-o >(gzip > r.gz)`) streams into the pipe; before, the FIFO
// was replaced by a regular file and the reader waited for ever.
TEST(OutputPath, AFifoIsWrittenDirectlyAndStaysAFifo) {
  TempDir dir;
  const std::string fifo = dir.str() + "/pipe";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::string received;
  std::thread reader([&] { received = slurp(fifo); });
  const auto written = write_file_atomically(fifo, "streamed report\n");
  reader.join();
  ASSERT_TRUE(written.has_value()) << written.error().message;
  EXPECT_EQ(received, "streamed report\n");
  struct stat st {};
  ASSERT_EQ(::lstat(fifo.c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode));
  EXPECT_EQ(entry_count(dir.path()), 1u);
}

// -o /dev/null as root turned the machine's /dev/null into a regular file. A private node with
// /dev/null's numbers stands in for it (making one needs CAP_MKNOD, which CI's root has).
TEST(OutputPath, ACharacterDeviceIsWrittenDirectlyAndStaysADevice) {
  TempDir dir;
  const std::string node = dir.str() + "/null";
  if (::mknod(node.c_str(), S_IFCHR | 0666, ::makedev(1, 3)) != 0) {
    GTEST_SKIP() << "cannot make a private device node here (mknod: " << std::strerror(errno)
                 << "); the FIFO test covers the direct-write path";
  }
  ASSERT_TRUE(write_file_atomically(node, "discarded").has_value());
  struct stat st {};
  ASSERT_EQ(::lstat(node.c_str(), &st), 0);
  EXPECT_TRUE(S_ISCHR(st.st_mode));
  EXPECT_EQ(st.st_rdev, ::makedev(1, 3));
  EXPECT_EQ(entry_count(dir.path()), 1u);
}

TEST(OutputPath, DirectoriesSocketsAndLinkLoopsAreRefusedBeforeAnyWrite) {
  TempDir dir;
  std::filesystem::create_directories(dir.path() / "reports");
  auto directory = resolve_output_path(dir.str() + "/reports");
  ASSERT_FALSE(directory.has_value());
  EXPECT_EQ(directory.error().message, "is a directory");
  std::filesystem::create_symlink("b", dir.path() / "a");
  std::filesystem::create_symlink("a", dir.path() / "b");
  auto loop = resolve_output_path(dir.str() + "/a");
  ASSERT_FALSE(loop.has_value());
  EXPECT_EQ(loop.error().path, dir.str() + "/a");
  EXPECT_EQ(loop.error().message, std::strerror(ELOOP));
  auto fine = resolve_output_path(dir.str() + "/reports/new.json");
  ASSERT_TRUE(fine.has_value());
  EXPECT_FALSE(fine->direct);
  EXPECT_EQ(fine->path, dir.str() + "/reports/new.json");
}

}  // namespace
}  // namespace gpuport
