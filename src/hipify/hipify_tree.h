// Drives `gpuport hipify` over the input paths: walks them (scan's walker and ignore rules),
// translates C/C++/CUDA sources in parallel, analyses build files, and returns one value per
// file in a deterministic order. Nothing is written here (see output_tree.h).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <tl/expected.hpp>

#include "hipify/build_files.h"
#include "hipify/translator.h"
#include "scan/scanner.h"
#include "source/file_system.h"
#include "source/tree_listing.h"
#include "source/walker.h"

namespace gpuport {

enum class FileAction : std::uint8_t {
  Translate,  // a C/C++/CUDA source (.cu .cuh .hip .c .cc .cpp .h .hpp ...): translated
  BuildFile,  // CMakeLists.txt, *.cmake, setup.py: reported; rewritten with --build-files
  Copy,       // anything else, or a source that could not be translated: copied unchanged
  Symlink,    // a symbolic link (not followed): recreated as a link in an output tree
  Skip,       // unreadable, or a special file: not mirrored
};
std::string_view file_action_name(FileAction action);  // "translate", "build-file", ...

struct HipifyOptions {
  TranslateOptions translate;
  BuildFileOptions build;
  bool rewrite_build_files = false;  // --build-files
  WalkOptions walk;
  // A listing of the one input directory made by an earlier walk with the same walk options
  // (a scan's, see ScanOptions::keep_listing): replayed instead of walking the tree again.
  TreeListing* listing = nullptr;
};

struct InputRoot {
  std::string path;  // as given
  bool directory = false;
};

struct FileOutcome {
  std::size_t root = 0;   // index into HipifyRun::roots
  std::string relative;   // to its root, '/'-separated; the file name when the root is a file
  std::string display;    // how messages name it: "repo/src/k.cu" (root joined, no "./")
  std::string disk_path;  // where the original is read from
  std::uint64_t size = 0;
  FileAction action = FileAction::Copy;
  bool changed = false;                // `output` differs from the original
  KeptAsIs kept_as_is = KeptAsIs::No;  // a source copied untranslated on purpose
  std::string output;                  // the new text, when changed
  TranslationStats stats;
  std::vector<Finding> warnings;
  std::vector<Finding> resolved;  // findings the translation itself fixes (not warnings)
  std::vector<LexDiagnostic> diagnostics;
  std::optional<BuildFileResult> build;
  // Why a file is copied untranslated, or skipped: too_large, binary, unreadable, ...
  std::optional<SkipReason> reason;
  std::string reason_detail;
};

struct HipifyRun {
  std::vector<InputRoot> roots;
  std::vector<FileOutcome> files;  // sorted by root, then relative path
  std::vector<IoError> warnings;   // unreadable directories; files that failed to translate
  TranslationStats totals;
  std::uint64_t ignored_entries = 0;
};

// Fails only when an input path cannot be read (naming it); problems below an input become
// warnings or skipped files.
tl::expected<HipifyRun, IoError> hipify_tree(const FileSystem& fs,
                                             std::span<const std::string> inputs,
                                             const HipifyOptions& options,
                                             const MappingTable& table,
                                             ScanProgress* progress = nullptr);

// How a path is shown in messages: `root` joined with `relative`, normalised, without "./".
std::string display_path(const std::string& root, bool root_is_directory,
                         const std::string& relative);

// True for the files hipify translates: C, C++, CUDA and HIP sources and headers.
bool is_translatable(std::string_view path);

}  // namespace gpuport
