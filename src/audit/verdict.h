// The verdict: config change, validation pass, bounded project, major project, or not worth it
// at these prices, with the three reasons that weigh most. Rules: docs/estimate-model.md.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "audit/audit_result.h"
#include "audit/config.h"

namespace gpuport {

struct VerdictInputs {
  const std::vector<EffortItem>& items;
  const EffortSummary& effort;
  const std::vector<AuditKernel>& kernels;
  const CostSummary& cost;
  bool traced = false;
  // Folder features the AMD build cannot compile (FeatureGap::port_days set): named in the
  // reasons, since they are not in the total. May be null.
  const std::vector<FeatureGap>* feature_gaps = nullptr;
};

VerdictSummary decide_verdict(const VerdictInputs& inputs, const VerdictConfig& config);

// "config change", "validation pass", "bounded project", "major project", "not worth it".
std::string_view verdict_name(VerdictKind kind);
// Stable lower-case ids for JSON: "config-change", ..., "not-worth-it".
std::string_view verdict_id(VerdictKind kind);

// A whole number with thousands separators ("6,516"), rounded half away from zero; "-" when not
// finite.
std::string format_whole(double value);

// Money as every report shows it: cents under $1,000 ("$921.30"), whole grouped dollars above
// ("$27,352"), "-" when not finite.
std::string format_money(double dollars);

// Days as the verdict shows them: one decimal under 10 ("0.5", "7.3", "2"), whole days above.
std::string format_days(double days);

}  // namespace gpuport
