// `gpuport compare` as text: the two platforms, totals with B/A, classes side by side, matched
// kernels and, per class, the kernels only one side ran.
#pragma once

#include <string>

#include "profile/analysis/compare.h"
#include "report/report_options.h"

namespace gpuport {

// options.max_kernels caps the matched kernels listed and the unmatched ones per class and side
// (a quarter of it, at least 3).
std::string render_compare_text(const Comparison& comparison, const ReportOptions& options);

// How many unmatched kernels per class and side the text and Markdown views list.
std::size_t unmatched_listed(const ReportOptions& options);

}  // namespace gpuport
