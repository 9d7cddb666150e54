// Drives a scan: walks the tree, reads and lexes each file on the worker that found it, runs the
// analyzers, and merges the per-file results into one sorted ScanResult.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>

#include <tl/expected.hpp>

#include "lex/preprocessor_view.h"
#include "scan/file_analysis.h"
#include "scan/project/project_index.h"
#include "scan/scan_result.h"
#include "source/file_system.h"
#include "source/tree_listing.h"
#include "source/walker.h"

namespace gpuport {

struct ScanOptions {
  WalkOptions walk;
  // Map heap pages ahead of each worker's allocations (HeapPrefault). Only worth it where
  // malloc keeps freed memory: the CLI sets it when tune_malloc_for_one_shot_command succeeds.
  bool prefault_heap = false;
  // Findings carry their trimmed source line (Finding::excerpt). A caller whose report shows
  // no excerpt (the text report) turns this off: a scan can hold 200,000 findings, and their
  // excerpts are as many allocations and copies.
  bool excerpts = true;
  // When set, the scan leaves its listing of the tree here: a caller that reads the same tree
  // again (the audit's translation dry run) replays it instead of walking a second time.
  TreeListing* keep_listing = nullptr;
};

// Counters the CLI polls to draw a progress line; updated by the workers.
struct ScanProgress {
  std::atomic<std::uint64_t> files{0};
  std::atomic<std::uint64_t> bytes{0};
};

// Fails only when the root cannot be read; everything below it becomes warnings or skips.
tl::expected<ScanResult, IoError> scan(const FileSystem& fs, const std::string& root,
                                       const ScanOptions& options,
                                       ScanProgress* progress = nullptr);

// What the analysis of one file may know of the whole project (scan() builds it first).
struct ProjectContext {
  const ProjectIndex* index = nullptr;  // build model, packages, submodules
  IncludeSource* headers = nullptr;     // the project's headers, for the preprocessor view
};

// Runs the analyzer for one file's bytes (used by scan(), the tests and the fuzzers).
// `path` decides the language. Applies gpuport-ignore suppressions. Without a project the file
// is seen alone: its own #defines and the platform's macros, no build, no headers.
void analyze_file(const std::string& path, std::string_view bytes, FileAnalysis& out,
                  const ProjectContext* project = nullptr);

// The AMD build as one fact, from a finished scan's items and the build model.
AmdBuildPath summarize_amd_build(const ScanResult& result, const BuildModel& model);

}  // namespace gpuport
