// The scan's findings as the audit report lists them, each with the anchor that line items and
// reasons link to.
#pragma once

#include <string>
#include <vector>

#include "audit/audit_result.h"
#include "scan/scan_result.h"

namespace gpuport {

// "finding-GP-ASM-001-csrc/x.cu-42"; a repeat of the same rule on the same line gets "-2", "-3".
std::vector<AuditFinding> audit_findings(const ScanResult& scan);

}  // namespace gpuport
