// What `gpuport hipify` prints: compiler-style warnings, the statistics (text), the --verify
// results, the JSON report (docs/hipify-json.md) and the one-line summary.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cli/hipify_command.h"

namespace gpuport {

inline constexpr std::string_view k_hipify_json_schema_version = "1";

struct HipifyReport {
  const HipifyConfig& config;
  const HipifyRun& run;
  const OutputPlan& plan;
  std::optional<std::vector<VerifyResult>> verify;
};

// Totals both the text and the JSON report show.
struct HipifyCounts {
  std::size_t files = 0;
  std::size_t translated = 0;      // C/C++/CUDA sources run through the translator
  std::size_t changed = 0;         // of those, changed
  std::size_t hip_shims = 0;       // of those, the project's HIP shim headers, kept as they are
  std::size_t other_backends = 0;  // of those, SYCL/MUSA/... sources, kept as they are
  std::size_t build_files = 0;
  std::size_t build_files_rewritten = 0;
  std::size_t copied = 0;          // copied unchanged (not sources, binary, too large)
  std::size_t not_translated = 0;  // sources copied untranslated (binary, too large, errors)
  std::size_t symlinks = 0;
  std::size_t skipped = 0;  // unreadable or special: not mirrored
  std::size_t warnings = 0;
  std::size_t resolved = 0;  // findings the translation fixed, not counted in `warnings`
  std::size_t build_items = 0;
  std::size_t build_manual = 0;
  // Rule index into rule_catalog() and count; by tier (highest first), count, then id.
  std::vector<std::pair<std::uint16_t, std::size_t>> warnings_by_rule;
  std::vector<std::pair<std::uint16_t, std::size_t>> resolved_by_rule;  // by rule index
};
HipifyCounts count_results(const HipifyRun& run);

// stderr lines in file order: "FILE:LINE:COL: warning: [GP-WARP-001] ...", unsupported APIs,
// lexer diagnostics, files not translated, and the build-file items.
std::vector<std::string> diagnostic_lines(const HipifyReport& report);

std::string stats_text(const HipifyReport& report);
std::string verify_text(const HipifyReport& report);
std::string report_json(const HipifyReport& report);
// "gpuport hipify: 12 files, 5 changed, ... written to out/".
std::string summary_line(const HipifyReport& report);

// Translated sources --verify found not to compile.
std::size_t verify_failures(const HipifyReport& report);

}  // namespace gpuport
