// `gpuport compare --format json` (schema_version "1", documented in docs/profile-json.md).
#pragma once

#include <string>

#include "profile/analysis/compare.h"

namespace gpuport {

std::string render_compare_json(const Comparison& comparison);

}  // namespace gpuport
