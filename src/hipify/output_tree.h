// Where hipify's results go, decided and checked before anything is written: a mirrored tree
// (-o DIR), the input files themselves with FILE.cuda.orig backups (--in-place), or nowhere.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <tl/expected.hpp>

#include "hipify/hipify_tree.h"
#include "source/file_system.h"

namespace gpuport {

enum class OutputMode : std::uint8_t { Directory, InPlace, Stdout, DryRun };

struct OutputOptions {
  OutputMode mode = OutputMode::DryRun;
  std::string directory;  // OutputMode::Directory
  bool rename = false;    // translated .cu files become .hip
  bool force = false;     // write into a non-empty DIR, or rewrite files already backed up;
                          // replace .hip files
};

inline constexpr std::string_view k_backup_suffix = ".cuda.orig";

struct OutputPlan {
  OutputMode mode = OutputMode::DryRun;
  std::string directory;
  bool staged = false;  // built in a hidden sibling of `directory`, renamed into place at the end
  // Per HipifyRun::files index: the path the file is written to ("" when it is not written).
  std::vector<std::string> destinations;
  // --in-place, per file index: the file rewritten (a link named as an input file resolved to
  // the file it names) and where its original is kept ("" when an earlier backup holds the same
  // bytes). A backup is never replaced: under --force a new one is FILE.cuda.orig.2, .3, ...
  std::vector<std::string> originals;
  std::vector<std::string> backups;
};

// `relative` as the output names it: ".cu" -> ".hip" for translated files under --rename.
std::string renamed_path(const FileOutcome& file, bool rename);

// Decides every destination and refuses, before any write, what must not happen: -o DIR inside
// or around an input, a non-empty DIR without --force, two inputs landing on one path, an
// existing backup or .hip file under --in-place without --force, an in-place write through a
// link to a file outside every input, --rename of a link. A file reached twice through links
// (--follow-symlinks) is written once. The error names the path.
tl::expected<OutputPlan, IoError> plan_output(const HipifyRun& run, const OutputOptions& options);

// Writes the plan. Every file is written atomically; a staged tree appears all at once or not
// at all. The error names the file that failed.
tl::expected<void, IoError> write_output(const HipifyRun& run, const OutputPlan& plan);

}  // namespace gpuport
