// `gpuport audit --format markdown`: the HTML report's values as a pull-request comment:
// verdict and reasons, the figures, effort by tier, cost per platform, the line items, the hot
// kernels, the portability table, GPU time by class and (folded) the findings.
#pragma once

#include <string>

#include "audit/audit_result.h"

namespace gpuport {

std::string render_audit_markdown(const AuditResult& result);

}  // namespace gpuport
