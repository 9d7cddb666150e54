// The Markdown scan report, sized for a pull-request comment.
#pragma once

#include <string>

#include "report/report_options.h"
#include "scan/scan_result.h"

namespace gpuport {

std::string render_markdown(const ScanResult& result, const ReportOptions& options);

}  // namespace gpuport
