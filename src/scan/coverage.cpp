#include "scan/coverage.h"

#include "scan/project/scope.h"
#include "source/language.h"

namespace gpuport {

ScanCoverage scan_coverage(const ScanResult& result) {
  ScanCoverage coverage;
  coverage.files_read = result.files_scanned;
  coverage.files_skipped = result.skipped.size();
  for (const SkippedEntry& entry : result.skipped) {
    if (!left_unread(entry.reason) || detect_language(entry.path) == Language::Other ||
        scope_of_path(entry.path, {}) != Scope::Product) {
      continue;
    }
    coverage.unread.push_back(entry);
    ++(entry.reason == SkipReason::Unreadable ? coverage.unread_unreadable
                                              : coverage.unread_too_large);
  }
  return coverage;
}

std::string coverage_gap(const ScanCoverage& coverage) {
  if (coverage.complete()) {
    return {};
  }
  const std::size_t count = coverage.unread.size();
  std::string parts;
  if (coverage.unread_unreadable > 0) {
    parts += std::to_string(coverage.unread_unreadable) + " unreadable";
  }
  if (coverage.unread_too_large > 0) {
    parts += parts.empty() ? "" : ", ";
    parts += std::to_string(coverage.unread_too_large) + " over --max-filesize";
  }
  return std::to_string(count) + (count == 1 ? " product file was" : " product files were") +
         " not read (" + parts + ")";
}

}  // namespace gpuport
