// Parallel discovery of the files under a root: ignore files, --exclude, symlinks, size limit.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <tl/expected.hpp>

#include "source/file_system.h"
#include "source/language.h"

namespace gpuport {

inline constexpr std::uint64_t k_default_max_file_size = 16ull * 1024 * 1024;

enum class IgnoreFiles : std::uint8_t { Honour, Disregard };
enum class Symlinks : std::uint8_t { Skip, Follow };

struct WalkOptions {
  IgnoreFiles ignore_files = IgnoreFiles::Honour;  // .gitignore (nested), .git/info/exclude
  Symlinks symlinks = Symlinks::Skip;
  std::vector<std::string> excludes;  // gitignore-syntax globs from --exclude
  std::uint64_t max_file_size = k_default_max_file_size;
  unsigned jobs = 1;  // worker threads; callbacks run on them
  // For a caller that opens every file it is given and can learn the size there: a regular file
  // of a language with a reader (not Other, not Artifact) is then reported without a stat of its
  // own (size_known false), and applying max_file_size to it is the caller's job.
  bool sizes_from_reader = false;
};

struct DiscoveredFile {
  std::string path;       // relative to the root, '/'-separated; the file name if root is a file
  std::string disk_path;  // what to pass to FileSystem::read
  std::uint64_t size = 0;
  Language language = Language::Other;
  bool size_known = true;  // false: see WalkOptions::sizes_from_reader
  // The open directory holding the file, for FileSystem::read_entry; valid only during the
  // on_file call (-1: none).
  int directory_fd = -1;
};

enum class SkipReason : std::uint8_t {
  TooLarge,     // over max_file_size
  Binary,       // NUL byte in the first block (decided by the reader, not the walker)
  Unreadable,   // open/read failed
  SymlinkLoop,  // following symlinks would revisit a directory
  Symlink,      // symlink not followed (default)
  Special,      // socket, fifo, device
};
std::string_view skip_reason_name(SkipReason reason);

// The reasons a file meant to be read was not: it could not be opened or read, or it is over
// the size limit (the others are files no one reads: binaries, links, devices).
constexpr bool left_unread(SkipReason reason) {
  return reason == SkipReason::Unreadable || reason == SkipReason::TooLarge;
}

struct SkippedEntry {
  std::string path;
  SkipReason reason = SkipReason::Unreadable;
  std::uint64_t size = 0;
  std::string detail;  // e.g. "Permission denied"
};

struct WalkCallbacks {
  // Each is called from the worker threads, concurrently; they must be thread-safe.
  std::function<void(const DiscoveredFile&)> on_file;
  std::function<void(const SkippedEntry&)> on_skip;
  std::function<void(const IoError&)> on_warning;  // unreadable directory: the walk goes on
};

struct WalkSummary {
  std::uint64_t directories = 0;
  std::uint64_t ignored = 0;  // entries pruned by ignore files or --exclude (not descended into)
};

// Walks `root` (a directory or a single file) with options.jobs threads. Returns an error only
// when the root itself cannot be read ("No such file or directory").
tl::expected<WalkSummary, IoError> walk_tree(const FileSystem& fs, const std::string& root,
                                             const WalkOptions& options,
                                             const WalkCallbacks& callbacks);

// True when the block (the first bytes of a file) holds a NUL byte.
bool looks_binary(std::string_view first_block);

}  // namespace gpuport
