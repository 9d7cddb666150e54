// The pre-streaming JSON and SARIF writers (an nlohmann document, dumped), kept as a reference.
#pragma once

#include <string>

#include "report/report_options.h"
#include "scan/scan_result.h"

namespace gpuport::testing {

std::string dom_json(const ScanResult& result, const ReportOptions& options);
std::string dom_sarif(const ScanResult& result, const ReportOptions& options);

}  // namespace gpuport::testing
