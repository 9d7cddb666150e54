// The JSON scan report (schema_version "1", documented in docs/json-schema.md).
#pragma once

#include <string>

#include "report/output_sink.h"
#include "report/report_options.h"
#include "scan/scan_result.h"

namespace gpuport {

inline constexpr std::string_view k_json_schema_version = "1";

// Streams the report into `sink`; memory stays small however many findings there are.
void write_json(const ScanResult& result, const ReportOptions& options, OutputSink& sink);
// The same bytes as one string.
std::string render_json(const ScanResult& result, const ReportOptions& options);

}  // namespace gpuport
