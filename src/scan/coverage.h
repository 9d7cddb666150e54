// What a scan could not read that it should have: product files it analyses (sources, build
// files, engines) that were unreadable or over --max-filesize. Their findings are missing, so
// every report says so and no verdict is given as if they had none.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "scan/scan_result.h"

namespace gpuport {

struct ScanCoverage {
  std::uint64_t files_read = 0;
  std::uint64_t files_skipped = 0;
  std::vector<SkippedEntry> unread;  // product files the scan reads for findings but could not
  std::uint64_t unread_unreadable = 0;
  std::uint64_t unread_too_large = 0;
  bool complete() const { return unread.empty(); }
};

ScanCoverage scan_coverage(const ScanResult& result);

// "2 product files were not read (1 unreadable, 1 over --max-filesize)"; "" when complete.
std::string coverage_gap(const ScanCoverage& coverage);

}  // namespace gpuport
