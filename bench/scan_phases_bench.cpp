// Times one stage of `gpuport scan` over a tree, to show where a scan's time goes: `read` only
// reads every file the scan reads, `lex` also lexes the C/C++/CUDA and Python ones, `analyze`
// runs the whole per-file analysis (lexers, rules, inventory) but drops each file's results,
// and `scan` is the library's scan(): the analysis plus keeping every result and merging them
// (the CLI's `scan` adds the report). Each stage runs on the walker's threads, with the malloc
// settings of the CLI. bench/scan_phases.sh runs the stages in turn against ripgrep.
//
// Usage: scan_phases_bench STAGE TREE [--jobs N]
// Prints: STAGE seconds files bytes items (items: tokens for lex, findings otherwise).
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "cli/keep_until_exit.h"
#include "cli/malloc_tuning.h"
#include "lex/cuda_lexer.h"
#include "lex/python_lexer.h"
#include "scan/file_analysis.h"
#include "scan/scanner.h"
#include "source/file_system.h"
#include "source/walker.h"

namespace {

enum class Stage { Read, Lex, Analyze, Scan };

struct Totals {
  std::atomic<std::uint64_t> files{0};
  std::atomic<std::uint64_t> bytes{0};
  std::atomic<std::uint64_t> items{0};
};

// What the stage does with one file's bytes; returns its item count.
std::uint64_t process(Stage stage, const gpuport::DiscoveredFile& file, std::string_view bytes) {
  thread_local gpuport::TokenStream tokens;
  thread_local gpuport::FileAnalysis analysis;
  switch (stage) {
    case Stage::Read:
      return 0;
    case Stage::Lex:
      if (file.language == gpuport::Language::Cuda || file.language == gpuport::Language::Cpp) {
        gpuport::lex_cuda(bytes, tokens);
      } else if (file.language == gpuport::Language::Python) {
        gpuport::lex_python(bytes, tokens);
      } else {
        return 0;
      }
      return tokens.tokens.size();
    case Stage::Analyze: {
      analysis.clear();
      gpuport::analyze_file(file.path, bytes, analysis);
      return analysis.findings.size();
    }
    case Stage::Scan:
      break;
  }
  return 0;
}

int walk_stage(Stage stage, const std::string& root, unsigned jobs, Totals& totals) {
  gpuport::DiskFileSystem disk;
  gpuport::WalkOptions walk;
  walk.jobs = jobs;
  walk.sizes_from_reader = true;
  gpuport::WalkCallbacks callbacks;
  callbacks.on_file = [&](const gpuport::DiscoveredFile& file) {
    if (file.language == gpuport::Language::Other || file.language == gpuport::Language::Artifact) {
      return;
    }
    thread_local gpuport::ReadBuffer buffer;
    auto contents = disk.read(file.disk_path, walk.max_file_size, buffer);
    if (!contents || contents->is_over_limit()) {
      return;
    }
    const std::string_view bytes = contents->bytes();
    totals.items.fetch_add(process(stage, file, bytes), std::memory_order_relaxed);
    totals.files.fetch_add(1, std::memory_order_relaxed);
    totals.bytes.fetch_add(bytes.size(), std::memory_order_relaxed);
  };
  auto walked = gpuport::walk_tree(disk, root, walk, callbacks);
  if (!walked) {
    std::fprintf(stderr, "scan_phases_bench: %s: %s\n", root.c_str(),
                 walked.error().message.c_str());
    return 2;
  }
  return 0;
}

int scan_stage(const std::string& root, unsigned jobs, bool prefault, Totals& totals) {
  gpuport::DiskFileSystem disk;
  gpuport::ScanOptions options;
  options.walk.jobs = jobs;
  options.prefault_heap = prefault;
  auto result = gpuport::scan(disk, root, options);
  if (!result) {
    std::fprintf(stderr, "scan_phases_bench: %s: %s\n", root.c_str(),
                 result.error().message.c_str());
    return 2;
  }
  totals.files = result->files_scanned;
  totals.bytes = result->bytes_scanned;
  totals.items = result->findings.size();
  gpuport::keep_until_exit(std::move(*result));  // as the CLI does
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const auto usage = [] {
    std::fprintf(stderr, "usage: scan_phases_bench read|lex|analyze|scan TREE [--jobs N]\n");
    return 2;
  };
  if (argc != 3 && !(argc == 5 && std::string_view(argv[3]) == "--jobs")) {
    return usage();
  }
  const std::string_view name = argv[1];
  Stage stage;
  if (name == "read") {
    stage = Stage::Read;
  } else if (name == "lex") {
    stage = Stage::Lex;
  } else if (name == "analyze") {
    stage = Stage::Analyze;
  } else if (name == "scan") {
    stage = Stage::Scan;
  } else {
    return usage();
  }
  const unsigned jobs = argc == 5 ? static_cast<unsigned>(std::strtoul(argv[4], nullptr, 10)) : 1;
  if (jobs == 0) {
    return usage();
  }
  const bool prefault = gpuport::tune_malloc_for_one_shot_command();
  Totals totals;
  const auto start = std::chrono::steady_clock::now();
  const int status = stage == Stage::Scan ? scan_stage(argv[2], jobs, prefault, totals)
                                          : walk_stage(stage, argv[2], jobs, totals);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (status != 0) {
    return status;
  }
  std::printf("%s %.4f %llu %llu %llu\n", argv[1], seconds,
              static_cast<unsigned long long>(totals.files.load()),
              static_cast<unsigned long long>(totals.bytes.load()),
              static_cast<unsigned long long>(totals.items.load()));
  return 0;
}
