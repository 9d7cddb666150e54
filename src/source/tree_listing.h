// A tree walked once and read afterwards. A scan must know the whole tree (its paths, its build
// files) before it analyses any source, so it lists the tree first and then reads the sources
// from the list rather than walking the tree a second time.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include <tl/expected.hpp>

#include "source/file_system.h"
#include "source/walker.h"

namespace gpuport {

struct TreeListing {
  std::vector<DiscoveredFile> files;  // directory_fd -1; a folder's files together, by name
  std::vector<SkippedEntry> skips;
  std::vector<IoError> warnings;  // unreadable directories
  WalkSummary summary;
};

// Walks `root` like walk_tree and records what it finds. `on_file`, when set, also sees each
// file, on the walk's threads (concurrently). Fails only when the root cannot be read.
tl::expected<TreeListing, IoError> list_tree(
    const FileSystem& fs, const std::string& root, const WalkOptions& options,
    const std::function<void(const DiscoveredFile&)>& on_file = {});

// Hands the listing to `callbacks` as walk_tree would: each file to on_file from `jobs` threads,
// with its folder open (DiscoveredFile::directory_fd, set in the listing for the call) where the
// file system allows; then the skips and warnings, on the calling thread. An exception from a
// callback stops the workers and is rethrown here.
void replay_listing(const FileSystem& fs, TreeListing& listing, unsigned jobs,
                    const WalkCallbacks& callbacks);

}  // namespace gpuport
