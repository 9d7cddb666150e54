// Tests for DiskFileSystem, MemoryFileSystem and FileContents.
#include "source/file_system.h"

#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "temp_dir.h"

namespace gpuport {
namespace {

using gpuport::testing::TempDir;

std::vector<std::string> names(const std::vector<DirEntry>& entries) {
  std::vector<std::string> out;
  for (const DirEntry& entry : entries) {
    out.push_back(entry.name);
  }
  std::sort(out.begin(), out.end());
  return out;
}

TEST(FileContents, SmallStringSurvivesMoves) {
  FileContents first = FileContents::from_string("tiny");
  FileContents second = std::move(first);
  EXPECT_EQ(second.bytes(), "tiny");
  EXPECT_TRUE(first.bytes().empty());  // NOLINT(bugprone-use-after-move): defined as empty
  FileContents third;
  third = std::move(second);
  EXPECT_EQ(third.bytes(), "tiny");
}

TEST(DiskFileSystem, ReadsSmallAndLargeFiles) {
  TempDir dir;
  const std::string small = "__global__ void k() {}\n";
  std::string large(200 * 1024, 'x');
  large[123456] = 'Y';
  dir.write("small.cu", small);
  dir.write("large.cu", large);
  dir.write("empty.cu", "");
  DiskFileSystem fs;
  auto read_small = fs.read(dir.str() + "/small.cu");
  ASSERT_TRUE(read_small.has_value());
  EXPECT_EQ(read_small->bytes(), small);
  auto read_large = fs.read(dir.str() + "/large.cu");
  ASSERT_TRUE(read_large.has_value());
  EXPECT_EQ(read_large->bytes().size(), large.size());
  EXPECT_EQ(read_large->bytes()[123456], 'Y');
  FileContents moved = std::move(*read_large);
  EXPECT_EQ(moved.bytes(), large);
  auto read_empty = fs.read(dir.str() + "/empty.cu");
  ASSERT_TRUE(read_empty.has_value());
  EXPECT_TRUE(read_empty->bytes().empty());
}

// Files of 64 KiB or more were memory-mapped: truncated by another process while hipify or
// the audit's dry run held them, reading the bytes raised SIGBUS and killed the run (issue 27,
// item 9). The bytes read stay readable whatever happens to the file afterwards.
TEST(DiskFileSystem, AFileTruncatedAfterItWasReadKeepsItsBytes) {
  TempDir dir;
  const std::string large(1024 * 1024, 'k');
  dir.write("kernel.cu", large);
  DiskFileSystem fs;
  auto contents = fs.read(dir.str() + "/kernel.cu");
  ASSERT_TRUE(contents.has_value());
  ASSERT_EQ(::truncate((dir.str() + "/kernel.cu").c_str(), 0), 0);
  EXPECT_EQ(std::count(contents->bytes().begin(), contents->bytes().end(), 'k'), 1024 * 1024);
}

// read_head reads the first bytes of a file of any size (an engine of gigabytes is not read
// whole), all of a shorter one, and names the file when it cannot.
TEST(DiskFileSystem, ReadHeadReadsOnlyTheFirstBytes) {
  TempDir dir;
  std::string engine = "ftrt";
  engine += std::string(300 * 1024, '\x01');
  dir.write("model.engine", engine);
  dir.write("short.plan", "ftrt");
  DiskFileSystem fs;
  auto head = fs.read_head(-1, dir.str() + "/model.engine", 16);
  ASSERT_TRUE(head.has_value());
  EXPECT_EQ(*head, engine.substr(0, 16));
  auto whole = fs.read_head(-1, dir.str() + "/short.plan", 64 * 1024);
  ASSERT_TRUE(whole.has_value());
  EXPECT_EQ(*whole, "ftrt");
  auto missing = fs.read_head(-1, dir.str() + "/none.trt", 16);
  ASSERT_FALSE(missing.has_value());
  EXPECT_EQ(missing.error().path, dir.str() + "/none.trt");
  MemoryFileSystem memory;
  memory.add_file("repo/a.plan", "ftrt and more");
  auto from_memory = memory.read_head(-1, "repo/a.plan", 4);
  ASSERT_TRUE(from_memory.has_value());
  EXPECT_EQ(*from_memory, "ftrt");
}

// Reading into one ReadBuffer: each result holds exactly its file's bytes, a larger file grows
// the buffer, a smaller one reuses it (same address), and a moved result still sees its bytes.
TEST(DiskFileSystem, ReadsFileAfterFileIntoOneReusedBuffer) {
  TempDir dir;
  std::string large(300 * 1024, 'x');
  large[200000] = 'Y';
  dir.write("first.cu", "first file\n");
  dir.write("large.cu", large);
  dir.write("small.cu", "k<<<1, 1>>>();\n");
  dir.write("empty.cu", "");
  DiskFileSystem fs;
  ReadBuffer buffer;
  auto first = fs.read(dir.str() + "/first.cu", k_no_size_limit, buffer);
  ASSERT_TRUE(first.has_value());
  EXPECT_EQ(first->bytes(), "first file\n");
  EXPECT_EQ(first->bytes().data(), buffer.data());
  auto read_large = fs.read(dir.str() + "/large.cu", k_no_size_limit, buffer);
  ASSERT_TRUE(read_large.has_value());
  EXPECT_EQ(read_large->bytes(), large);
  EXPECT_GT(buffer.capacity(), large.size());
  const char* grown = buffer.data();
  const FileContents moved = std::move(*read_large);
  EXPECT_EQ(moved.bytes().size(), large.size());
  EXPECT_EQ(moved.bytes()[200000], 'Y');
  auto small = fs.read(dir.str() + "/small.cu", k_no_size_limit, buffer);
  ASSERT_TRUE(small.has_value());
  EXPECT_EQ(small->bytes(), "k<<<1, 1>>>();\n");
  EXPECT_EQ(buffer.data(), grown);
  auto empty = fs.read(dir.str() + "/empty.cu", k_no_size_limit, buffer);
  ASSERT_TRUE(empty.has_value());
  EXPECT_TRUE(empty->bytes().empty());
  auto over = fs.read(dir.str() + "/large.cu", 1000, buffer);
  ASSERT_TRUE(over.has_value());
  EXPECT_TRUE(over->is_over_limit());
  EXPECT_EQ(over->size_over_limit(), large.size());
  auto missing = fs.read(dir.str() + "/missing.cu", k_no_size_limit, buffer);
  ASSERT_FALSE(missing.has_value());
  EXPECT_EQ(missing.error().message, "No such file or directory");
}

// A file system without its own buffered read (the one in memory) returns bytes of their own.
TEST(MemoryFileSystem, ReadWithABufferReturnsTheSameBytes) {
  MemoryFileSystem fs;
  fs.add_file("a.cu", "__global__ void k() {}\n");
  ReadBuffer buffer;
  auto read = fs.read("a.cu", k_no_size_limit, buffer);
  ASSERT_TRUE(read.has_value());
  EXPECT_EQ(read->bytes(), "__global__ void k() {}\n");
  EXPECT_EQ(buffer.capacity(), 0u);
}

// A size limit given to read() stops at the file's size, before any byte is read or mapped; a
// file at the limit is read whole. Both file systems agree.
TEST(FileSystems, ReadWithALimitReportsOversizeFilesWithoutReadingThem) {
  TempDir dir;
  dir.write("at.cu", std::string(100, 'a'));
  dir.write("over.cu", std::string(101, 'b'));
  MemoryFileSystem memory;
  memory.add_file("at.cu", std::string(100, 'a'));
  memory.add_file("over.cu", std::string(101, 'b'));
  DiskFileSystem disk;
  for (const auto& [fs, root] : {std::pair<const FileSystem*, std::string>{&disk, dir.str() + "/"},
                                 std::pair<const FileSystem*, std::string>{&memory, ""}}) {
    auto at = fs->read(root + "at.cu", 100);
    ASSERT_TRUE(at.has_value());
    EXPECT_FALSE(at->is_over_limit());
    EXPECT_EQ(at->bytes(), std::string(100, 'a'));
    auto over = fs->read(root + "over.cu", 100);
    ASSERT_TRUE(over.has_value());
    EXPECT_TRUE(over->is_over_limit());
    EXPECT_EQ(over->size_over_limit(), 101u);
    EXPECT_TRUE(over->bytes().empty());
    const FileContents moved = std::move(*over);
    EXPECT_TRUE(moved.is_over_limit());
    EXPECT_EQ(moved.size_over_limit(), 101u);
    auto unlimited = fs->read(root + "over.cu");
    ASSERT_TRUE(unlimited.has_value());
    EXPECT_EQ(unlimited->bytes().size(), 101u);
  }
}

TEST(DiskFileSystem, ErrorsCarryPathAndStrerrorText) {
  TempDir dir;
  DiskFileSystem fs;
  const std::string missing = dir.str() + "/missing.cu";
  auto read = fs.read(missing);
  ASSERT_FALSE(read.has_value());
  EXPECT_EQ(read.error().path, missing);
  EXPECT_EQ(read.error().message, "No such file or directory");
  auto listed = fs.list_directory(missing);
  ASSERT_FALSE(listed.has_value());
  EXPECT_EQ(listed.error().message, "No such file or directory");
  auto status = fs.status(missing, false);
  ASSERT_FALSE(status.has_value());
  EXPECT_EQ(status.error().message, "No such file or directory");
  auto directory = fs.read(dir.str());
  ASSERT_FALSE(directory.has_value());
  EXPECT_EQ(directory.error().message, "Is a directory");
}

TEST(DiskFileSystem, ListsAndStatsEntries) {
  TempDir dir;
  dir.write("a.cu", "abc");
  dir.write("sub/b.py", "");
  std::filesystem::create_symlink("a.cu", dir.path() / "link");
  DiskFileSystem fs;
  auto entries = fs.list_directory(dir.str());
  ASSERT_TRUE(entries.has_value());
  EXPECT_EQ(names(*entries), (std::vector<std::string>{"a.cu", "link", "sub"}));
  for (const DirEntry& entry : *entries) {
    if (entry.name == "a.cu") {
      EXPECT_EQ(entry.type, EntryType::File);
    } else if (entry.name == "link") {
      EXPECT_EQ(entry.type, EntryType::Symlink);
    } else {
      EXPECT_EQ(entry.type, EntryType::Directory);
    }
  }
  auto link = fs.status(dir.str() + "/link", false);
  ASSERT_TRUE(link.has_value());
  EXPECT_EQ(link->type, EntryType::Symlink);
  auto target = fs.status(dir.str() + "/link", true);
  ASSERT_TRUE(target.has_value());
  EXPECT_EQ(target->type, EntryType::File);
  EXPECT_EQ(target->size, 3u);
}

// The walker lists a directory through an open descriptor and reads its files by name there.
TEST(DiskFileSystem, ReadsEntriesByNameThroughTheOpenDirectory) {
  TempDir dir;
  dir.write("sub/a.cu", "alpha");
  // More entries than one 32 KiB getdents64 call returns.
  for (int i = 0; i < 700; ++i) {
    dir.write("sub/a_file_name_long_enough_to_fill_the_buffer_" + std::to_string(i) + ".py", "");
  }
  DiskFileSystem fs;
  const std::string sub = dir.str() + "/sub";
  auto listing = fs.list_directory_open(sub);
  ASSERT_TRUE(listing.has_value());
  EXPECT_EQ(listing->entries.size(), 701u);
  EXPECT_EQ(std::count_if(listing->entries.begin(), listing->entries.end(),
                          [](const DirEntry& e) { return e.type == EntryType::File; }),
            701);
  const int fd = listing->handle.fd();
  ASSERT_GE(fd, 0);
  // Renamed after the listing: the old path is gone, the open directory still finds the name.
  std::filesystem::rename(sub, dir.path() / "moved");
  EXPECT_FALSE(fs.read(sub + "/a.cu").has_value());
  ReadBuffer buffer;
  auto read = fs.read_entry(fd, sub + "/a.cu", k_no_size_limit, buffer);
  ASSERT_TRUE(read.has_value()) << read.error().message;
  EXPECT_EQ(read->bytes(), "alpha");
  auto limited = fs.read_entry(fd, sub + "/a.cu", 2, buffer);
  ASSERT_TRUE(limited.has_value());
  EXPECT_TRUE(limited->is_over_limit());
  EXPECT_EQ(limited->size_over_limit(), 5u);
  auto missing = fs.read_entry(fd, sub + "/missing.cu", k_no_size_limit, buffer);
  ASSERT_FALSE(missing.has_value());
  EXPECT_EQ(missing.error().path, sub + "/missing.cu");
  EXPECT_EQ(missing.error().message, "No such file or directory");
  auto not_a_directory = fs.list_directory_open(dir.str() + "/moved/a.cu");
  ASSERT_FALSE(not_a_directory.has_value());
  EXPECT_EQ(not_a_directory.error().message, "Not a directory");
}

TEST(MemoryFileSystem, ListsWithoutAHandleAndReadsEntriesByPath) {
  MemoryFileSystem fs;
  fs.add_file("repo/a.cu", "alpha");
  auto listing = fs.list_directory_open("repo");
  ASSERT_TRUE(listing.has_value());
  EXPECT_EQ(names(listing->entries), (std::vector<std::string>{"a.cu"}));
  EXPECT_EQ(listing->handle.fd(), -1);
  ReadBuffer buffer;
  auto read = fs.read_entry(-1, "repo/a.cu", k_no_size_limit, buffer);
  ASSERT_TRUE(read.has_value());
  EXPECT_EQ(read->bytes(), "alpha");
}

TEST(MemoryFileSystem, ParentsAreCreatedImplicitly) {
  MemoryFileSystem fs;
  fs.add_file("repo/src/a.cu", "k");
  fs.add_directory("repo/empty");
  auto root = fs.list_directory("repo");
  ASSERT_TRUE(root.has_value());
  EXPECT_EQ(names(*root), (std::vector<std::string>{"empty", "src"}));
  auto src = fs.status("repo/src", false);
  ASSERT_TRUE(src.has_value());
  EXPECT_EQ(src->type, EntryType::Directory);
  auto file = fs.status("repo/src/a.cu", false);
  ASSERT_TRUE(file.has_value());
  EXPECT_EQ(file->size, 1u);
  EXPECT_NE(file->inode, src->inode);
  auto missing = fs.read("repo/nope");
  ASSERT_FALSE(missing.has_value());
  EXPECT_EQ(missing.error().message, "No such file or directory");
  auto not_dir = fs.list_directory("repo/src/a.cu");
  ASSERT_FALSE(not_dir.has_value());
  EXPECT_EQ(not_dir.error().message, "Not a directory");
}

TEST(MemoryFileSystem, SymlinksResolveRelativeAndAbsolute) {
  MemoryFileSystem fs;
  fs.add_file("repo/src/a.cu", "kernel");
  fs.add_symlink("repo/rel", "src/a.cu");
  fs.add_symlink("repo/up/dir_link", "../src");
  fs.add_symlink("repo/abs", "/repo/src/a.cu");
  auto rel = fs.read("repo/rel");
  ASSERT_TRUE(rel.has_value());
  EXPECT_EQ(rel->bytes(), "kernel");
  auto abs = fs.read("repo/abs");
  ASSERT_TRUE(abs.has_value());
  EXPECT_EQ(abs->bytes(), "kernel");
  auto through_dir = fs.read("repo/up/dir_link/a.cu");
  ASSERT_TRUE(through_dir.has_value());
  EXPECT_EQ(through_dir->bytes(), "kernel");
  auto listed = fs.list_directory("repo/up/dir_link");
  ASSERT_TRUE(listed.has_value());
  EXPECT_EQ(names(*listed), (std::vector<std::string>{"a.cu"}));
  auto lstat = fs.status("repo/rel", false);
  ASSERT_TRUE(lstat.has_value());
  EXPECT_EQ(lstat->type, EntryType::Symlink);
  auto stat = fs.status("repo/rel", true);
  ASSERT_TRUE(stat.has_value());
  EXPECT_EQ(stat->type, EntryType::File);
  EXPECT_EQ(stat->size, 6u);
}

TEST(MemoryFileSystem, SymlinkCyclesEndWithLoopError) {
  MemoryFileSystem fs;
  fs.add_symlink("repo/a", "b");
  fs.add_symlink("repo/b", "a");
  auto status = fs.status("repo/a", true);
  ASSERT_FALSE(status.has_value());
  EXPECT_EQ(status.error().message, "Too many levels of symbolic links");
  auto read = fs.read("repo/a");
  ASSERT_FALSE(read.has_value());
  EXPECT_EQ(read.error().message, "Too many levels of symbolic links");
}

TEST(MemoryFileSystem, UnreadableMarksGivePermissionDenied) {
  MemoryFileSystem fs;
  fs.add_file("repo/locked/a.cu", "x");
  fs.add_file("repo/secret.cu", "y");
  fs.make_unreadable("repo/locked");
  fs.make_unreadable("repo/secret.cu");
  auto listed = fs.list_directory("repo/locked");
  ASSERT_FALSE(listed.has_value());
  EXPECT_EQ(listed.error().message, "Permission denied");
  auto read = fs.read("repo/secret.cu");
  ASSERT_FALSE(read.has_value());
  EXPECT_EQ(read.error().message, "Permission denied");
  EXPECT_TRUE(fs.status("repo/locked", false).has_value());
}

}  // namespace
}  // namespace gpuport
