// What to measure before committing: the library and framework work on the hot path, which the
// estimate prices at zero (AMD's counterparts are tuned by their maintainers), each with its AMD
// counterpart and the step that settles it; and the largest such risk, named.
#pragma once

#include <vector>

#include "audit/audit_result.h"

namespace gpuport {

// `class_time` and `kernels` as run_audit made them; `threshold` is the hot share of GPU time.
MeasurePlan plan_measurements(const std::vector<TraceClassTime>& class_time,
                              const std::vector<AuditKernel>& kernels, double threshold);

}  // namespace gpuport
