// The JSON scan report (schema_version "1", documented in docs/json-schema.md).
#pragma once

#include <string>

#include "report/report_options.h"
#include "scan/scan_result.h"

namespace gpuport {

inline constexpr std::string_view k_json_schema_version = "1";

std::string render_json(const ScanResult& result, const ReportOptions& options);

}  // namespace gpuport
