// The effort model: line items in four tiers (config, mechanical, retune, rewrite), each with
// low / likely / high engineer-days and the findings or kernels it comes from. Formulas and the
// default of every weight: docs/estimate-model.md.
#pragma once

#include <string_view>
#include <vector>

#include "audit/audit_result.h"
#include "audit/config.h"
#include "audit/dry_run.h"
#include "scan/scan_result.h"

namespace gpuport {

struct EffortInputs {
  const ScanResult& scan;
  const std::vector<AuditFinding>& findings;  // audit_findings(scan): parallel to scan.findings
  const DryRunDigest& dry_run;
  bool traced = false;  // at least one trace: hotness is known
};

struct EffortEstimate {
  std::vector<EffortItem> items;  // by tier, then likely days (largest first), then title
  EffortSummary summary;
  // Kernel families the project's AMD build cannot compile: not in the items or the total.
  std::vector<FeatureGap> feature_gaps;
};

// `kernels` is select_kernels()'s list: each kernel gets its tuning days (zero when cold or not
// the team's code) and the anchors of the retune/rewrite findings inside its definition.
EffortEstimate estimate_effort(const EffortInputs& inputs, std::vector<AuditKernel>& kernels,
                               const AuditConfig& config);

// The config keys that name the two validation items: the one that validates a stack ported to
// AMD, and the one that validates a build the project already has.
inline constexpr std::string_view k_validation_key = "effort.validation.base_days";
inline constexpr std::string_view k_existing_build_key = "effort.existing_build.base_days";
inline bool validates_the_stack(const EffortItem& item) {
  return item.weight_key == k_validation_key;
}
inline bool validates_existing_build(const EffortItem& item) {
  return item.weight_key == k_existing_build_key;
}

// The tier's spread, and the whole range of `likely` days without widening.
DayRange spread_days(double likely, EffortTier tier, const EffortConfig& config);

}  // namespace gpuport
