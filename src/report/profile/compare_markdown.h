// `gpuport compare --format markdown`: the comparison as Markdown tables.
#pragma once

#include <string>

#include "profile/analysis/compare.h"
#include "report/report_options.h"

namespace gpuport {

std::string render_compare_markdown(const Comparison& comparison, const ReportOptions& options);

}  // namespace gpuport
