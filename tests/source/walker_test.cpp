// Tests for walk_tree(): ignore files, --exclude, symlinks, size limit, errors, parallel walks.
#include "source/walker.h"

#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "../unprivileged.h"
#include "temp_dir.h"

namespace gpuport {
namespace {

using gpuport::testing::TempDir;

struct WalkRecord {
  std::map<std::string, DiscoveredFile> files;
  std::map<std::string, SkippedEntry> skipped;
  std::vector<IoError> warnings;
  WalkSummary summary;
  IoError error;
  bool ok = false;

  std::vector<std::string> paths() const {
    std::vector<std::string> out;
    for (const auto& [path, file] : files) {
      out.push_back(path);
    }
    return out;
  }
  std::string skip_reason(const std::string& path) const {
    const auto found = skipped.find(path);
    return found == skipped.end() ? "(not skipped)"
                                  : std::string(skip_reason_name(found->second.reason));
  }
};

WalkRecord walk(const FileSystem& fs, const std::string& root, const WalkOptions& options = {}) {
  WalkRecord record;
  std::mutex mutex;
  WalkCallbacks callbacks;
  callbacks.on_file = [&](const DiscoveredFile& file) {
    std::lock_guard lock(mutex);
    EXPECT_TRUE(record.files.emplace(file.path, file).second) << "twice: " << file.path;
  };
  callbacks.on_skip = [&](const SkippedEntry& entry) {
    std::lock_guard lock(mutex);
    record.skipped.emplace(entry.path, entry);
  };
  callbacks.on_warning = [&](const IoError& error) {
    std::lock_guard lock(mutex);
    record.warnings.push_back(error);
  };
  auto result = walk_tree(fs, root, options, callbacks);
  if (result) {
    record.ok = true;
    record.summary = *result;
  } else {
    record.error = result.error();
  }
  return record;
}

using Paths = std::vector<std::string>;

TEST(Walker, ReportsFilesWithLanguageSizeAndDiskPath) {
  MemoryFileSystem fs;
  fs.add_file("repo/src/k.cu", "__global__ void k() {}");
  fs.add_file("repo/server.py", "import torch\n");
  fs.add_file("repo/README.md", "hi");
  fs.add_directory("repo/empty");
  const WalkRecord record = walk(fs, "repo");
  ASSERT_TRUE(record.ok);
  EXPECT_EQ(record.paths(), (Paths{"README.md", "server.py", "src/k.cu"}));
  const DiscoveredFile& kernel = record.files.at("src/k.cu");
  EXPECT_EQ(kernel.language, Language::Cuda);
  EXPECT_EQ(kernel.size, 22u);
  EXPECT_EQ(kernel.disk_path, "repo/src/k.cu");
  EXPECT_EQ(record.files.at("server.py").language, Language::Python);
  EXPECT_EQ(record.summary.directories, 3u);  // repo, src, empty
  EXPECT_EQ(record.summary.ignored, 0u);
  EXPECT_TRUE(record.skipped.empty());
  EXPECT_TRUE(record.warnings.empty());
}

TEST(Walker, EmptyRepositoryHasNoFiles) {
  MemoryFileSystem fs;
  fs.add_directory("repo");
  const WalkRecord record = walk(fs, "repo");
  ASSERT_TRUE(record.ok);
  EXPECT_TRUE(record.files.empty());
  EXPECT_EQ(record.summary.directories, 1u);
}

TEST(Walker, RootMayBeASingleFile) {
  MemoryFileSystem fs;
  fs.add_file("repo/src/k.cu", "x");
  const WalkRecord record = walk(fs, "repo/src/k.cu");
  ASSERT_TRUE(record.ok);
  EXPECT_EQ(record.paths(), (Paths{"k.cu"}));
  EXPECT_EQ(record.files.at("k.cu").disk_path, "repo/src/k.cu");
}

TEST(Walker, NonexistentRootIsAnError) {
  MemoryFileSystem fs;
  const WalkRecord record = walk(fs, "no/such/repo");
  ASSERT_FALSE(record.ok);
  EXPECT_EQ(record.error.path, "no/such/repo");
  EXPECT_EQ(record.error.message, "No such file or directory");

  TempDir dir;
  DiskFileSystem disk;
  const std::string missing = dir.str() + "/missing";
  const WalkRecord on_disk = walk(disk, missing);
  ASSERT_FALSE(on_disk.ok);
  EXPECT_EQ(on_disk.error.path, missing);
  EXPECT_EQ(on_disk.error.message, "No such file or directory");
}

TEST(Walker, UnreadableRootIsAnError) {
  MemoryFileSystem fs;
  fs.add_file("repo/a.cu", "x");
  fs.make_unreadable("repo");
  const WalkRecord record = walk(fs, "repo");
  ASSERT_FALSE(record.ok);
  EXPECT_EQ(record.error.message, "Permission denied");
}

TEST(Walker, GitDirectoriesAreAlwaysSkipped) {
  MemoryFileSystem fs;
  fs.add_file("repo/.git/config", "[core]");
  fs.add_file("repo/.git/hooks/pre-commit.sh", "#!/bin/sh");
  fs.add_file("repo/sub/.git/HEAD", "ref");
  fs.add_file("repo/a.cu", "x");
  WalkOptions options;
  options.ignore_files = IgnoreFiles::Disregard;
  const WalkRecord record = walk(fs, "repo", options);
  ASSERT_TRUE(record.ok);
  EXPECT_EQ(record.paths(), (Paths{"a.cu"}));
}

TEST(Walker, GitignoreNegationDirectoryOnlyAndAnchoring) {
  MemoryFileSystem fs;
  fs.add_file("repo/.gitignore",
              "# generated\n*.log\n!keep.log\nbuild/\n/top.cu\ndocs/*.cu\ncache\n");
  fs.add_file("repo/a.log", "");
  fs.add_file("repo/keep.log", "");
  fs.add_file("repo/build/out.cu", "");   // directory-only pattern: pruned
  fs.add_file("repo/src/build", "");      // a file named build stays
  fs.add_file("repo/top.cu", "");         // anchored: pruned here...
  fs.add_file("repo/src/top.cu", "");     // ...but not deeper
  fs.add_file("repo/docs/x.cu", "");      // middle slash: relative to the root
  fs.add_file("repo/src/docs/x.cu", "");  // so this one stays
  fs.add_file("repo/cache/blob.py", "");  // no slash: directory or file, any depth
  fs.add_file("repo/src/cache", "");
  const WalkRecord record = walk(fs, "repo");
  ASSERT_TRUE(record.ok);
  EXPECT_EQ(record.paths(),
            (Paths{".gitignore", "keep.log", "src/build", "src/docs/x.cu", "src/top.cu"}));
  // a.log, build/, top.cu, docs/x.cu, cache/, src/cache
  EXPECT_EQ(record.summary.ignored, 6u);
}

TEST(Walker, NestedIgnoreFilesOverrideOuterOnes) {
  MemoryFileSystem fs;
  fs.add_file("repo/.gitignore", "*.gen.cu\nscratch/\n");
  fs.add_file("repo/a.gen.cu", "");
  fs.add_file("repo/ops/.gitignore", "!keep.gen.cu\n/local.cu\n");
  fs.add_file("repo/ops/keep.gen.cu", "");
  fs.add_file("repo/ops/drop.gen.cu", "");
  fs.add_file("repo/ops/local.cu", "");
  fs.add_file("repo/ops/deeper/local.cu", "");
  fs.add_file("repo/ops/deeper/keep.gen.cu", "");  // the negation applies below ops/ too
  fs.add_file("repo/local.cu", "");                // ops/.gitignore does not reach up
  const WalkRecord record = walk(fs, "repo");
  ASSERT_TRUE(record.ok);
  EXPECT_EQ(record.paths(),
            (Paths{".gitignore", "local.cu", "ops/.gitignore", "ops/deeper/keep.gen.cu",
                   "ops/deeper/local.cu", "ops/keep.gen.cu"}));
}

TEST(Walker, FileUnderExcludedDirectoryCannotBeReincluded) {
  MemoryFileSystem fs;
  fs.add_file("repo/.gitignore", "vendor/\n!vendor/keep.cu\n");
  fs.add_file("repo/vendor/keep.cu", "");
  fs.add_file("repo/vendor/.gitignore", "!keep.cu\n");
  fs.add_file("repo/main.cu", "");
  // Excluding the contents (not the directory) lets a negation re-include one file.
  fs.add_file("repo/third/.gitignore", "*\n!.gitignore\n!wanted.cu\n");
  fs.add_file("repo/third/wanted.cu", "");
  fs.add_file("repo/third/other.cu", "");
  const WalkRecord record = walk(fs, "repo");
  ASSERT_TRUE(record.ok);
  EXPECT_EQ(record.paths(),
            (Paths{".gitignore", "main.cu", "third/.gitignore", "third/wanted.cu"}));
}

TEST(Walker, DoubleStarPatternsInIgnoreFiles) {
  MemoryFileSystem fs;
  fs.add_file("repo/.gitignore", "**/gen/\nlogs/**\nsrc/**/tmp_*.cu\n!logs/keep.txt\n");
  fs.add_file("repo/gen/a.cu", "");
  fs.add_file("repo/a/b/gen/c.cu", "");
  fs.add_file("repo/logs/x/y.txt", "");
  fs.add_file("repo/logs/keep.txt", "");
  fs.add_file("repo/src/tmp_1.cu", "");
  fs.add_file("repo/src/p/q/tmp_2.cu", "");
  fs.add_file("repo/src/p/q/real.cu", "");
  const WalkRecord record = walk(fs, "repo");
  ASSERT_TRUE(record.ok);
  EXPECT_EQ(record.paths(), (Paths{".gitignore", "logs/keep.txt", "src/p/q/real.cu"}));
}

TEST(Walker, CharacterClassesAndEscapesInIgnoreFiles) {
  MemoryFileSystem fs;
  fs.add_file("repo/.gitignore", "kernel[0-9].cu\n\\#draft.py\n\\!bang.sh\n");
  fs.add_file("repo/kernel1.cu", "");
  fs.add_file("repo/kernelA.cu", "");
  fs.add_file("repo/#draft.py", "");
  fs.add_file("repo/!bang.sh", "");
  const WalkRecord record = walk(fs, "repo");
  ASSERT_TRUE(record.ok);
  EXPECT_EQ(record.paths(), (Paths{".gitignore", "kernelA.cu"}));
}

TEST(Walker, InfoExcludeAtTheRootIsHonoured) {
  MemoryFileSystem fs;
  fs.add_file("repo/.git/info/exclude", "*.local\n");
  fs.add_file("repo/.gitignore", "!important.local\n");
  fs.add_file("repo/a.local", "");
  fs.add_file("repo/important.local", "");
  const WalkRecord record = walk(fs, "repo");
  ASSERT_TRUE(record.ok);
  // The root .gitignore outranks info/exclude.
  EXPECT_EQ(record.paths(), (Paths{".gitignore", "important.local"}));
}

TEST(Walker, NoIgnoreDisregardsIgnoreFiles) {
  MemoryFileSystem fs;
  fs.add_file("repo/.gitignore", "*.cu\n");
  fs.add_file("repo/a.cu", "");
  WalkOptions options;
  options.ignore_files = IgnoreFiles::Disregard;
  const WalkRecord record = walk(fs, "repo", options);
  ASSERT_TRUE(record.ok);
  EXPECT_EQ(record.paths(), (Paths{".gitignore", "a.cu"}));
  EXPECT_EQ(record.summary.ignored, 0u);
}

TEST(Walker, ExcludeGlobsApplyEvenWithoutIgnoreFiles) {
  MemoryFileSystem fs;
  fs.add_file("repo/third_party/cutlass/gemm.cu", "");
  fs.add_file("repo/src/third_party/keep.cu", "");
  fs.add_file("repo/src/a.cu", "");
  fs.add_file("repo/src/a_test.py", "");
  fs.add_file("repo/tests/b_test.py", "");
  WalkOptions options;
  options.ignore_files = IgnoreFiles::Disregard;
  options.excludes = {"/third_party", "*_test.py"};
  const WalkRecord record = walk(fs, "repo", options);
  ASSERT_TRUE(record.ok);
  EXPECT_EQ(record.paths(), (Paths{"src/a.cu", "src/third_party/keep.cu"}));
  EXPECT_EQ(record.summary.ignored, 3u);
}

TEST(Walker, SizeLimitSkipsLargeFilesButNeverArtifacts) {
  MemoryFileSystem fs;
  fs.add_file("repo/small.cu", std::string(100, 'x'));
  fs.add_file("repo/big.cu", std::string(101, 'x'));
  fs.add_file("repo/model.engine", std::string(5000, '\0'));
  WalkOptions options;
  options.max_file_size = 100;
  const WalkRecord record = walk(fs, "repo", options);
  ASSERT_TRUE(record.ok);
  EXPECT_EQ(record.paths(), (Paths{"model.engine", "small.cu"}));
  EXPECT_EQ(record.files.at("model.engine").language, Language::Artifact);
  EXPECT_EQ(record.files.at("model.engine").size, 5000u);
  ASSERT_EQ(record.skip_reason("big.cu"), "too_large");
  EXPECT_EQ(record.skipped.at("big.cu").size, 101u);
}

// With sizes_from_reader, files the caller reads come without a stat and without the size
// limit (the reader applies it); files it only counts (Other, artifacts) still get their size.
TEST(Walker, SizesFromReaderLeaveReadFilesToTheCaller) {
  MemoryFileSystem fs;
  fs.add_file("repo/big.cu", std::string(101, 'x'));
  fs.add_file("repo/notes.bin", std::string(300, 'x'));
  fs.add_file("repo/model.engine", std::string(5000, '\0'));
  fs.add_symlink("repo/link.cu", "big.cu");
  WalkOptions options;
  options.max_file_size = 100;
  options.sizes_from_reader = true;
  const WalkRecord record = walk(fs, "repo", options);
  ASSERT_TRUE(record.ok);
  EXPECT_EQ(record.paths(), (Paths{"big.cu", "model.engine"}));
  EXPECT_FALSE(record.files.at("big.cu").size_known);
  EXPECT_EQ(record.files.at("big.cu").size, 0u);
  EXPECT_EQ(record.files.at("big.cu").language, Language::Cuda);
  EXPECT_TRUE(record.files.at("model.engine").size_known);
  EXPECT_EQ(record.files.at("model.engine").size, 5000u);
  EXPECT_EQ(record.skip_reason("notes.bin"), "too_large");  // Other: stat-ed, limit applies
  EXPECT_EQ(record.skip_reason("link.cu"), "symlink");
}

TEST(Walker, SymlinksAreSkippedByDefault) {
  MemoryFileSystem fs;
  fs.add_file("repo/src/a.cu", "");
  fs.add_symlink("repo/link.cu", "src/a.cu");
  fs.add_symlink("repo/linkdir", "src");
  const WalkRecord record = walk(fs, "repo");
  ASSERT_TRUE(record.ok);
  EXPECT_EQ(record.paths(), (Paths{"src/a.cu"}));
  EXPECT_EQ(record.skip_reason("link.cu"), "symlink");
  EXPECT_EQ(record.skip_reason("linkdir"), "symlink");
}

TEST(Walker, FollowedSymlinksReachFilesAndDirectories) {
  MemoryFileSystem fs;
  fs.add_file("repo/src/a.cu", "abc");
  fs.add_file("shared/ops/b.cuh", "");
  fs.add_symlink("repo/link.cu", "src/a.cu");
  fs.add_symlink("repo/ops", "../shared/ops");
  fs.add_symlink("repo/dangling.cu", "nowhere.cu");
  WalkOptions options;
  options.symlinks = Symlinks::Follow;
  const WalkRecord record = walk(fs, "repo", options);
  ASSERT_TRUE(record.ok);
  EXPECT_EQ(record.paths(), (Paths{"link.cu", "ops/b.cuh", "src/a.cu"}));
  EXPECT_EQ(record.files.at("link.cu").size, 3u);
  EXPECT_EQ(record.skip_reason("dangling.cu"), "unreadable");
  EXPECT_EQ(record.skipped.at("dangling.cu").detail, "No such file or directory");
}

TEST(Walker, FollowedSymlinkLoopsInMemoryAreReported) {
  MemoryFileSystem fs;
  fs.add_file("repo/a/k.cu", "");
  fs.add_symlink("repo/a/back", "..");  // points at an ancestor
  fs.add_symlink("repo/self", "self");  // resolves to itself
  WalkOptions options;
  options.symlinks = Symlinks::Follow;
  const WalkRecord record = walk(fs, "repo", options);
  ASSERT_TRUE(record.ok);
  EXPECT_EQ(record.paths(), (Paths{"a/k.cu"}));
  EXPECT_EQ(record.skip_reason("a/back"), "symlink_loop");
  EXPECT_EQ(record.skip_reason("self"), "symlink_loop");
}

TEST(Walker, FollowedSymlinkLoopOnDiskTerminates) {
  TempDir dir;
  dir.write("repo/a/b/k.cu", "x");
  std::filesystem::create_directory_symlink("../..", dir.path() / "repo/a/b/up");
  std::filesystem::create_symlink("self", dir.path() / "repo/self");
  DiskFileSystem fs;
  WalkOptions options;
  options.symlinks = Symlinks::Follow;
  options.jobs = 2;
  const WalkRecord record = walk(fs, dir.str() + "/repo", options);
  ASSERT_TRUE(record.ok);
  EXPECT_EQ(record.paths(), (Paths{"a/b/k.cu"}));
  EXPECT_EQ(record.skip_reason("a/b/up"), "symlink_loop");
  EXPECT_EQ(record.skip_reason("self"), "symlink_loop");
  EXPECT_EQ(record.skipped.at("self").detail, "Too many levels of symbolic links");
}

TEST(Walker, UnreadableDirectoryInMemoryGivesAWarning) {
  MemoryFileSystem fs;
  fs.add_file("repo/locked/a.cu", "");
  fs.add_file("repo/open/b.cu", "");
  fs.make_unreadable("repo/locked");
  const WalkRecord record = walk(fs, "repo");
  ASSERT_TRUE(record.ok);
  EXPECT_EQ(record.paths(), (Paths{"open/b.cu"}));
  ASSERT_EQ(record.warnings.size(), 1u);
  EXPECT_EQ(record.warnings[0].path, "repo/locked");
  EXPECT_EQ(record.warnings[0].message, "Permission denied");
}

TEST(Walker, UnreadableDirectoryOnDiskGivesAWarning) {
  TempDir dir;
  dir.write("repo/locked/a.cu", "x");
  dir.write("repo/open/b.cu", "y");
  const std::string locked = dir.str() + "/repo/locked";
  gpuport::testing::open_to_everyone(dir.path());
  ASSERT_EQ(::chmod(locked.c_str(), 0), 0) << std::strerror(errno);
  // As root the walk runs in a child that has dropped privileges; the summary says what it saw.
  const std::string seen = gpuport::testing::run_unprivileged([&] {
    DiskFileSystem fs;
    const WalkRecord record = walk(fs, dir.str() + "/repo");
    std::string summary = record.ok ? "ok" : "failed";
    for (const std::string& path : record.paths()) {
      summary += " file=" + path;
    }
    for (const auto& warning : record.warnings) {
      summary += " warning=" + warning.path + ": " + warning.message;
    }
    return summary;
  });
  ::chmod(locked.c_str(), 0755);
  EXPECT_EQ(seen, "ok file=open/b.cu warning=" + locked + ": Permission denied");
}

TEST(Walker, FifosAreSpecial) {
  TempDir dir;
  dir.write("repo/a.cu", "x");
  const std::string fifo = dir.str() + "/repo/pipe";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0) << std::strerror(errno);
  DiskFileSystem fs;
  const WalkRecord record = walk(fs, dir.str() + "/repo");
  ASSERT_TRUE(record.ok);
  EXPECT_EQ(record.paths(), (Paths{"a.cu"}));
  EXPECT_EQ(record.skip_reason("pipe"), "special");
}

TEST(Walker, ParallelWalkFindsTheSameFiles) {
  MemoryFileSystem fs;
  TempDir dir;
  int count = 0;
  for (int a = 0; a < 5; ++a) {
    for (int b = 0; b < 10; ++b) {
      for (int f = 0; f < 10; ++f) {
        const std::string path = "d" + std::to_string(a) + "/e" + std::to_string(b) + "/f" +
                                 std::to_string(f) + (f % 2 == 0 ? ".cu" : ".py");
        fs.add_file("repo/" + path, "x");
        dir.write("repo/" + path, "x");
        ++count;
      }
    }
  }
  fs.add_file("repo/.gitignore", "d4/e9/\n");
  dir.write("repo/.gitignore", "d4/e9/\n");
  for (const FileSystem* any : std::initializer_list<const FileSystem*>{&fs, nullptr}) {
    DiskFileSystem disk;
    const FileSystem& used = any != nullptr ? *any : disk;
    const std::string root = any != nullptr ? "repo" : dir.str() + "/repo";
    WalkOptions serial;
    const WalkRecord one = walk(used, root, serial);
    WalkOptions parallel;
    parallel.jobs = 4;
    const WalkRecord four = walk(used, root, parallel);
    ASSERT_TRUE(one.ok);
    ASSERT_TRUE(four.ok);
    EXPECT_EQ(one.files.size(), static_cast<std::size_t>(count - 10 + 1));
    EXPECT_EQ(one.paths(), four.paths());
    EXPECT_EQ(one.summary.directories, four.summary.directories);
    EXPECT_EQ(four.summary.directories, 1u + 5u + 49u);
    EXPECT_EQ(four.summary.ignored, 1u);
  }
}

TEST(Walker, ExceptionsFromCallbacksReachTheCaller) {
  MemoryFileSystem fs;
  for (int i = 0; i < 20; ++i) {
    fs.add_file("repo/d" + std::to_string(i) + "/a.cu", "");
  }
  WalkOptions options;
  options.jobs = 3;
  WalkCallbacks callbacks;
  callbacks.on_file = [](const DiscoveredFile&) { throw std::runtime_error("stop"); };
  EXPECT_THROW((void)walk_tree(fs, "repo", options, callbacks), std::runtime_error);
}

TEST(LooksBinary, NulByteMeansBinary) {
  EXPECT_FALSE(looks_binary("int main() {}\n"));
  EXPECT_FALSE(looks_binary(""));
  EXPECT_TRUE(looks_binary(std::string_view("ab\0cd", 5)));
}

TEST(SkipReasonName, NamesEveryReason) {
  EXPECT_EQ(skip_reason_name(SkipReason::TooLarge), "too_large");
  EXPECT_EQ(skip_reason_name(SkipReason::Binary), "binary");
  EXPECT_EQ(skip_reason_name(SkipReason::Unreadable), "unreadable");
  EXPECT_EQ(skip_reason_name(SkipReason::SymlinkLoop), "symlink_loop");
  EXPECT_EQ(skip_reason_name(SkipReason::Symlink), "symlink");
  EXPECT_EQ(skip_reason_name(SkipReason::Special), "special");
}

}  // namespace
}  // namespace gpuport
