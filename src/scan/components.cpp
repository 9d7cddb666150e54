// Groups findings by the component their rule names; adds a row for the kernels a repo owns.
#include "scan/components.h"

#include <algorithm>
#include <map>
#include <vector>

#include "scan/rules/catalog.h"

namespace gpuport {

namespace {

constexpr std::size_t k_max_evidence = 5;

Component& row_for(std::map<std::string, Component, std::less<>>& rows, std::string_view name) {
  auto it = rows.find(name);
  if (it != rows.end()) {
    return it->second;
  }
  Component component;
  component.name = std::string(name);
  if (const ComponentInfo* info = find_component(name)) {
    component.amd_status = std::string(info->amd_status);
    component.amd_equivalent = std::string(info->amd_equivalent);
    component.cost = std::string(info->cost);
  }
  return rows.emplace(component.name, std::move(component)).first->second;
}

void add_evidence(Component& component, const std::string& file, std::uint32_t line) {
  // Findings arrive sorted by file and line, so the first few are the earliest in the tree.
  if (component.evidence.size() < k_max_evidence) {
    component.evidence.push_back({file, line});
  }
}

}  // namespace

std::vector<Component> build_components(const ScanResult& result) {
  std::map<std::string, Component, std::less<>> rows;
  std::span<const RuleInfo> catalog = rule_catalog();
  // Each rule's row, found by name once: a scan has ~100 rules and can have ~200,000 findings.
  std::vector<Component*> row_of_rule(catalog.size(), nullptr);
  // Findings outside the product are tallied on their row only when the row has product
  // findings too; a row made of them alone is not port work and is left out of the table.
  std::vector<std::uint32_t> outside(catalog.size(), 0);
  for (const Finding& finding : result.findings) {
    if (finding.scope != Scope::Product) {
      ++outside[finding.rule];
      continue;
    }
    const RuleInfo& rule = catalog[finding.rule];
    Component*& row = row_of_rule[finding.rule];
    if (row == nullptr) {
      row = &row_for(rows, rule.component);  // map nodes stay put as rows are added
    }
    Component& component = *row;
    component.layer = std::max(component.layer, rule.tier);
    component.findings += 1;
    component.effort_hours += rule.effort_hours;
    component.amd.add(finding.amd());
    add_evidence(component, finding.file, finding.line);
  }
  for (std::size_t rule = 0; rule < catalog.size(); ++rule) {
    if (outside[rule] > 0 && row_of_rule[rule] != nullptr) {
      row_of_rule[rule]->findings_outside_product += outside[rule];
    }
  }
  std::uint32_t kernels_outside = 0;
  Component* kernels = nullptr;
  for (const Kernel& kernel : result.kernels) {
    if (kernel.scope != Scope::Product) {
      ++kernels_outside;
      continue;
    }
    if (kernels == nullptr) {
      kernels = &row_for(rows, k_custom_kernels_component);
      kernels->layer = std::max(kernels->layer, Tier::Mechanical);
    }
    kernels->findings += 1;
    kernels->amd.add(kernel.amd);
    add_evidence(*kernels, kernel.file, kernel.line);
  }
  if (kernels != nullptr) {
    kernels->findings_outside_product = kernels_outside;
  }
  std::vector<Component> table;
  table.reserve(rows.size());
  for (auto& [name, component] : rows) {
    table.push_back(std::move(component));
  }
  std::stable_sort(table.begin(), table.end(), [](const Component& a, const Component& b) {
    if (a.layer != b.layer) {
      return a.layer > b.layer;
    }
    if (a.effort_hours != b.effort_hours) {
      return a.effort_hours > b.effort_hours;
    }
    return a.name < b.name;
  });
  return table;
}

}  // namespace gpuport
