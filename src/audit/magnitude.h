// The magnitude check: the estimate's port work against the size of the kernel code it prices,
// so that an implausible estimate is flagged instead of printed as fact.
#pragma once

#include <vector>

#include "audit/audit_result.h"
#include "audit/config.h"
#include "scan/scan_result.h"

namespace gpuport {

// Port work is the total's likely days less config items and the validation item (a fixed cost
// per stack, whatever the code's size). Kernels in scope are the scan's port-work kernels.
MagnitudeCheck check_magnitude(const ScanResult& scan, const std::vector<EffortItem>& items,
                               const EffortSummary& effort, const MagnitudeConfig& config);

}  // namespace gpuport
