// `gpuport profile --format markdown`: the text report's content as Markdown tables (for a
// pull-request comment or a wiki page). Kernel names are escaped for table cells.
#pragma once

#include <string>

#include "profile/analysis/profile.h"
#include "report/report_options.h"

namespace gpuport {

// options.max_kernels is --top.
std::string render_profile_markdown(const Profile& profile, const ReportOptions& options);

}  // namespace gpuport
