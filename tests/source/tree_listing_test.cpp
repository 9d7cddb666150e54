// Tests for list_tree() and replay_listing(): the replay hands over what walk_tree would.
#include "source/tree_listing.h"

#include <gtest/gtest.h>

#include <atomic>
#include <fstream>
#include <map>
#include <mutex>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "temp_dir.h"

namespace gpuport {
namespace {

using gpuport::testing::TempDir;

// What a set of callbacks saw, independent of thread order.
struct Seen {
  std::map<std::string, std::pair<std::uint64_t, Language>> files;  // path -> size, language
  std::map<std::string, std::string> skips;                         // path -> reason
  std::set<std::string> warnings;                                   // path: message
  std::mutex mutex;

  WalkCallbacks callbacks() {
    WalkCallbacks callbacks;
    callbacks.on_file = [this](const DiscoveredFile& file) {
      std::lock_guard lock(mutex);
      EXPECT_TRUE(files.emplace(file.path, std::pair(file.size, file.language)).second)
          << "twice: " << file.path;
    };
    callbacks.on_skip = [this](const SkippedEntry& entry) {
      std::lock_guard lock(mutex);
      skips.emplace(entry.path, std::string(skip_reason_name(entry.reason)));
    };
    callbacks.on_warning = [this](const IoError& error) {
      std::lock_guard lock(mutex);
      warnings.insert(error.path + ": " + error.message);
    };
    return callbacks;
  }
};

MemoryFileSystem sample_tree() {
  MemoryFileSystem fs;
  fs.add_file("repo/.gitignore", "build/\n*.log\n");
  fs.add_file("repo/build/out.cu", "ignored");
  fs.add_file("repo/run.log", "ignored");
  fs.add_file("repo/CMakeLists.txt", "project(x LANGUAGES CUDA)\n");
  fs.add_file("repo/src/k.cu", "__global__ void k() {}");
  fs.add_file("repo/src/util.h", "#pragma once\n");
  fs.add_file("repo/src/big.cu", std::string(200, 'x'));
  fs.add_file("repo/ops/a.py", "import torch\n");
  fs.add_file("repo/ops/deep/b.cuh", "#define B 1\n");
  fs.add_file("repo/locked/secret.cu", "x");
  fs.make_unreadable("repo/locked");
  for (int i = 0; i < 70; ++i) {  // more files than one batch holds
    fs.add_file("repo/many/f" + std::to_string(i) + ".cu", "int x;");
  }
  return fs;
}

WalkOptions sample_options(unsigned jobs) {
  WalkOptions options;
  options.max_file_size = 100;
  options.jobs = jobs;
  return options;
}

TEST(TreeListing, ReplayHandsOverWhatTheWalkFinds) {
  for (unsigned jobs : {1u, 3u}) {
    SCOPED_TRACE("jobs " + std::to_string(jobs));
    MemoryFileSystem fs = sample_tree();
    Seen walked;
    auto summary = walk_tree(fs, "repo", sample_options(jobs), walked.callbacks());
    ASSERT_TRUE(summary);

    std::atomic<int> seen_while_listing{0};
    auto listing = list_tree(fs, "repo", sample_options(jobs),
                             [&](const DiscoveredFile&) { ++seen_while_listing; });
    ASSERT_TRUE(listing);
    EXPECT_EQ(seen_while_listing.load(), static_cast<int>(listing->files.size()));
    EXPECT_EQ(listing->summary.ignored, summary->ignored);
    EXPECT_EQ(listing->summary.directories, summary->directories);

    Seen replayed;
    replay_listing(fs, *listing, jobs, replayed.callbacks());
    EXPECT_EQ(replayed.files, walked.files);
    EXPECT_EQ(replayed.skips, walked.skips);
    EXPECT_EQ(replayed.warnings, walked.warnings);
    EXPECT_EQ(replayed.files.size(), 76u);  // 6 named above (not big.cu) and the 70
    EXPECT_EQ(replayed.skips.at("src/big.cu"), "too_large");
    EXPECT_EQ(replayed.warnings.size(), 1u);
    EXPECT_FALSE(replayed.files.contains("build/out.cu"));
  }
}

TEST(TreeListing, ListsEachFoldersFilesTogetherByName) {
  MemoryFileSystem fs = sample_tree();
  auto listing = list_tree(fs, "repo", sample_options(3));
  ASSERT_TRUE(listing);
  std::set<std::string> finished_folders;
  std::string folder_now;
  std::string previous;
  for (const DiscoveredFile& file : listing->files) {
    EXPECT_EQ(file.directory_fd, -1) << file.path;
    const std::string folder = file.disk_path.substr(0, file.disk_path.rfind('/'));
    if (folder != folder_now) {
      EXPECT_TRUE(finished_folders.insert(folder_now).second) << "split folder: " << folder_now;
      EXPECT_FALSE(finished_folders.contains(folder)) << "folder seen again: " << folder;
      folder_now = folder;
    } else {
      EXPECT_LT(previous, file.disk_path);
    }
    previous = file.disk_path;
  }
}

TEST(TreeListing, AMissingRootIsTheListingsError) {
  MemoryFileSystem fs;
  auto listing = list_tree(fs, "no/such/repo", WalkOptions{});
  ASSERT_FALSE(listing);
  EXPECT_EQ(listing.error().path, "no/such/repo");
  EXPECT_EQ(listing.error().message, "No such file or directory");
}

TEST(TreeListing, AFailingCallbackStopsTheReplayAndIsRethrown) {
  MemoryFileSystem fs = sample_tree();
  auto listing = list_tree(fs, "repo", sample_options(3));
  ASSERT_TRUE(listing);
  std::atomic<int> calls{0};
  bool skips_replayed = false;
  WalkCallbacks callbacks;
  callbacks.on_file = [&](const DiscoveredFile& file) {
    ++calls;
    if (file.path == "src/k.cu") {
      throw std::runtime_error("reader failed on " + file.path);
    }
  };
  callbacks.on_skip = [&](const SkippedEntry&) { skips_replayed = true; };
  try {
    replay_listing(fs, *listing, 3, callbacks);
    FAIL() << "the callback's exception was not rethrown";
  } catch (const std::runtime_error& error) {
    EXPECT_STREQ(error.what(), "reader failed on src/k.cu");
  }
  EXPECT_FALSE(skips_replayed);
  EXPECT_LE(calls.load(), static_cast<int>(listing->files.size()));
}

TEST(TreeListing, OnDiskEachFileIsReadThroughItsOpenFolder) {
  TempDir dir;
  std::filesystem::create_directories(dir.path() / "src");
  std::ofstream(dir.path() / "src" / "k.cu") << "__global__ void k() {}";
  std::ofstream(dir.path() / "top.py") << "import torch\n";
  DiskFileSystem disk;
  auto listing = list_tree(disk, dir.str(), WalkOptions{});
  ASSERT_TRUE(listing);
  std::map<std::string, std::string> contents;
  std::mutex mutex;
  WalkCallbacks callbacks;
  callbacks.on_file = [&](const DiscoveredFile& file) {
    EXPECT_GE(file.directory_fd, 0) << file.path;
    ReadBuffer buffer;
    auto bytes = disk.read_entry(file.directory_fd, file.disk_path, k_no_size_limit, buffer);
    ASSERT_TRUE(bytes) << file.path;
    std::lock_guard lock(mutex);
    contents.emplace(file.path, std::string(bytes->bytes()));
  };
  replay_listing(disk, *listing, 2, callbacks);
  EXPECT_EQ(contents.at("src/k.cu"), "__global__ void k() {}");
  EXPECT_EQ(contents.at("top.py"), "import torch\n");
  for (const DiscoveredFile& file : listing->files) {
    EXPECT_EQ(file.directory_fd, -1) << "left set after the replay: " << file.path;
  }
}

}  // namespace
}  // namespace gpuport
