// `gpuport bench compare --format markdown`: the comparison as a GitHub-flavoured Markdown table
// (for a pull request or a design doc), a view of the same BenchComparison as text and JSON.
#pragma once

#include <string>

#include "bench/compare.h"

namespace gpuport {

std::string render_comparison_markdown(const BenchComparison& comparison);

}  // namespace gpuport
