// `gpuport profile` as text for a terminal: the header, the kernel table (top N), the class
// table, communication, steps and the p95 mix.
#pragma once

#include <string>

#include "profile/analysis/profile.h"
#include "report/report_options.h"

namespace gpuport {

// options.max_kernels is --top; options.width the columns to fit; options.color ANSI colour.
std::string render_profile_text(const Profile& profile, const ReportOptions& options);

}  // namespace gpuport
