// `gpuport compare --format csv`: one table with a `section` column (total, class, matched,
// only_a, only_b); times in integer nanoseconds, ratios B/A with six decimals.
#pragma once

#include <string>

#include "profile/analysis/compare.h"

namespace gpuport {

std::string render_compare_csv(const Comparison& comparison);

}  // namespace gpuport
