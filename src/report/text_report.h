// The human-readable scan report for a terminal (fits ReportOptions::width columns).
#pragma once

#include <string>

#include "report/report_options.h"
#include "scan/scan_result.h"

namespace gpuport {

std::string render_text(const ScanResult& result, const ReportOptions& options);

}  // namespace gpuport
