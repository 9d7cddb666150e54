// FindingTotals: the counts every report shows, taken in one pass.
#include "scan/rules/catalog.h"
#include "scan/scan_result.h"

namespace gpuport {

void FindingTotals::add(const Finding& finding) {
  ++by_scope[static_cast<std::size_t>(finding.scope)];
  amd.add(finding.amd());
  if (finding.scope != Scope::Product) {
    return;
  }
  if (finding.amd_state == AmdBuildState::Excluded) {
    ++product_excluded;
    product_excluded_with_alternative += finding.amd_alternative ? 1 : 0;
    return;
  }
  ++product_open;
  const auto catalog = rule_catalog();
  if (finding.rule >= catalog.size()) {
    return;  // a rule this build does not know has no tier to compare
  }
  const Tier tier = catalog[finding.rule].tier;
  if (!product_open_highest || tier > *product_open_highest) {
    product_open_highest = tier;
  }
}

void FindingTotals::add(const FindingTotals& other) {
  for (std::size_t i = 0; i < by_scope.size(); ++i) {
    by_scope[i] += other.by_scope[i];
  }
  amd.compiled += other.amd.compiled;
  amd.excluded += other.amd.excluded;
  amd.excluded_with_alternative += other.amd.excluded_with_alternative;
  amd.unknown += other.amd.unknown;
  product_open += other.product_open;
  if (other.product_open_highest &&
      (!product_open_highest || *other.product_open_highest > *product_open_highest)) {
    product_open_highest = other.product_open_highest;
  }
  product_excluded += other.product_excluded;
  product_excluded_with_alternative += other.product_excluded_with_alternative;
}

FindingTotals finding_totals(const ScanResult& result) {
  if (result.totals) {
    return *result.totals;
  }
  FindingTotals totals;
  for (const Finding& finding : result.findings) {
    totals.add(finding);
  }
  return totals;
}

}  // namespace gpuport
