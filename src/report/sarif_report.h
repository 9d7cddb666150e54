// The SARIF 2.1.0 scan report: every catalog rule as driver metadata, every finding a result.
#pragma once

#include <string>
#include <string_view>

#include "report/output_sink.h"
#include "report/report_options.h"
#include "scan/scan_result.h"
#include "scan/tier.h"

namespace gpuport {

// Streams the report into `sink`; render_sarif() returns the same bytes as one string.
void write_sarif(const ScanResult& result, const ReportOptions& options, OutputSink& sink);
std::string render_sarif(const ScanResult& result, const ReportOptions& options);

// "error" for rewrite-tier or high-severity rules, "warning" for retune and mechanical,
// "note" otherwise.
std::string_view sarif_level(Tier tier, Severity severity);

// "file:///abs/dir/" for an absolute directory path (percent-encoded); empty for "".
std::string directory_uri(std::string_view absolute_directory);
// A relative path as a URI reference: '/' kept, anything outside RFC 3986 unreserved escaped.
std::string relative_uri(std::string_view path);

}  // namespace gpuport
