// The scan's findings as the audit report lists them, each with the anchor that line items and
// reasons link to.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "audit/audit_result.h"
#include "scan/scan_result.h"

namespace gpuport {

// "finding-GP-ASM-001-csrc/x.cu-42"; a repeat of the same rule on the same line gets "-2", "-3".
std::vector<AuditFinding> audit_findings(const ScanResult& scan);

// Adds the findings to the summary's port_work / handled_for_amd / cuda_only / outside_product.
void count_port_work(const std::vector<AuditFinding>& findings, AuditInputSummary& summary);

// The CUDA-only features the AMD build does without (mechanical, retune and rewrite findings of
// product code it leaves out with no alternative), one per component.
std::vector<FeatureGap> feature_gaps(const std::vector<AuditFinding>& findings,
                                     const std::vector<Component>& components);

// What the AMD side offers for a component, from its portability row ("" when it has none).
std::string amd_equivalent_of(const std::vector<Component>& components, std::string_view name);

}  // namespace gpuport
