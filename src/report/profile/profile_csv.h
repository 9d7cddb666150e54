// `gpuport profile --format csv`: the whole kernel table, one row per kernel (RFC 4180; times
// in integer nanoseconds, shares as fractions).
#pragma once

#include <string>

#include "profile/analysis/profile.h"

namespace gpuport {

std::string render_profile_csv(const Profile& profile);

}  // namespace gpuport
