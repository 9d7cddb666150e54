// Anchors and catalog text for each finding.
#include "audit/findings.h"

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
    out.push_back(std::move(item));
  }
  return out;
}

}  // namespace gpuport
