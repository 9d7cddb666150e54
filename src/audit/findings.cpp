// Anchors and catalog text for each finding.
#include "audit/findings.h"

#include <algorithm>
#include <map>

#include "scan/rules/catalog.h"

namespace gpuport {

std::vector<AuditFinding> audit_findings(const ScanResult& scan) {
  std::vector<AuditFinding> out;
  out.reserve(scan.findings.size());
  std::map<std::string, int> seen;
  const auto catalog = rule_catalog();
  for (const Finding& finding : scan.findings) {
    const RuleInfo& rule = catalog[finding.rule];
    AuditFinding item;
    item.rule = std::string(rule.id);
    item.anchor = "finding-" + item.rule + "-" + finding.file + "-" + std::to_string(finding.line);
    if (const int repeat = ++seen[item.anchor]; repeat > 1) {
      item.anchor += "-" + std::to_string(repeat);
    }
    item.tier = rule.tier;
    item.component = std::string(rule.component);
    item.summary = std::string(rule.summary);
    item.file = finding.file;
    item.line = finding.line;
    item.excerpt = finding.excerpt;
    item.detail = finding.detail;
    item.scope = finding.scope;
    item.amd = finding.amd();
    out.push_back(std::move(item));
  }
  return out;
}

void count_port_work(const std::vector<AuditFinding>& findings, AuditInputSummary& summary) {
  for (const AuditFinding& finding : findings) {
    if (finding.scope != Scope::Product) {
      ++summary.outside_product_findings;
    } else if (finding.is_port_work()) {
      ++summary.port_work_findings;
    } else if (finding.amd.alternative) {
      ++summary.handled_for_amd_findings;
    } else {
      ++summary.cuda_only_findings;
    }
  }
}

std::string amd_equivalent_of(const std::vector<Component>& components, std::string_view name) {
  for (const Component& component : components) {
    if (component.name == name) {
      return component.amd_equivalent;
    }
  }
  return {};
}

std::vector<FeatureGap> feature_gaps(const std::vector<AuditFinding>& findings,
                                     const std::vector<Component>& components) {
  std::map<std::string, FeatureGap> by_component;
  for (const AuditFinding& finding : findings) {
    if (finding.scope != Scope::Product || finding.is_port_work() || finding.amd.alternative ||
        finding.tier == Tier::Framework || finding.tier == Tier::Config) {
      continue;
    }
    FeatureGap& gap = by_component[finding.component];
    if (gap.findings++ == 0) {
      gap.component = finding.component;
      gap.first_anchor = finding.anchor;
      gap.file = finding.file;
      gap.line = finding.line;
    }
  }
  std::vector<FeatureGap> out;
  for (auto& [name, gap] : by_component) {
    gap.amd_equivalent = amd_equivalent_of(components, name);
    out.push_back(std::move(gap));
  }
  std::stable_sort(out.begin(), out.end(), [](const FeatureGap& a, const FeatureGap& b) {
    return a.findings > b.findings;
  });
  return out;
}

}  // namespace gpuport
