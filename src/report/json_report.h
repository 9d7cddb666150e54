// The JSON scan report (schema_version "1", documented in docs/json-schema.md).
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "report/output_sink.h"
#include "report/report_options.h"
#include "scan/scan_result.h"

namespace gpuport {

inline constexpr std::string_view k_json_schema_version = "1";

// Streams the report into `sink`; memory stays small however many findings there are.
void write_json(const ScanResult& result, const ReportOptions& options, OutputSink& sink);
// The same bytes as one string.
std::string render_json(const ScanResult& result, const ReportOptions& options);

class JsonWriter;
// `key`: an array of skipped files as the scan's and the audit's JSON write them:
// {path, reason, size, detail}.
void write_skipped_entries(JsonWriter& w, std::string_view key,
                           std::span<const SkippedEntry> entries);

}  // namespace gpuport
