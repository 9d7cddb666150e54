// `gpuport audit --format html`: one self-contained page (inline CSS and SVG, no script, no
// external reference) with the verdict and its reasons linked to their evidence, the
// portability table, GPU time by class, effort by tier, cost and payback, the line items, the
// kernels joined to source and the findings. Every name from the repo or a trace is escaped.
#pragma once

#include <string>

#include "audit/audit_result.h"

namespace gpuport {

std::string render_audit_html(const AuditResult& result);

}  // namespace gpuport
