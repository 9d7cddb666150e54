// gpuport-ignore comments: the one place suppressions are parsed and applied.
#pragma once

#include <string_view>
#include <vector>

#include "scan/scan_result.h"

namespace gpuport {

// Removes the findings that a suppression comment in `source` covers:
//   gpuport-ignore            every rule, this line
//   gpuport-ignore(ID, ID)    these rules, this line
//   gpuport-ignore-next-line(ID)
//   gpuport-ignore-begin(ID) ... gpuport-ignore-end(ID)   (ID optional: every rule)
// The marker is recognised anywhere on a line, so it works in every comment syntax.
void apply_suppressions(std::string_view source, std::vector<Finding>& findings);

}  // namespace gpuport
