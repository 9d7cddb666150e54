// Line items priced from the rule catalog (config, mechanical and retune findings) and from the
// translation dry-run (unsupported APIs, uses to review, files changed, kernels by size).
#include <cmath>
#include <map>
#include <set>

#include <fmt/format.h>

#include "audit/effort_detail.h"
#include "scan/project/scope.h"
#include "scan/rules/catalog.h"

namespace gpuport::effort_detail {

namespace {

std::optional<EffortTier> catalog_tier(Tier tier) {
  switch (tier) {
    case Tier::Config:
      return EffortTier::Config;
    case Tier::Mechanical:
      return EffortTier::Mechanical;
    case Tier::Retune:
      return EffortTier::Retune;
    case Tier::Framework:  // already runs on AMD: nothing to price
    case Tier::Rewrite:    // priced by kind, in effort_rewrite.cpp
      break;
  }
  return std::nullopt;
}

double tier_weight(EffortTier tier, const TierWeights& weights) {
  switch (tier) {
    case EffortTier::Config:
      return weights.config;
    case EffortTier::Mechanical:
      return weights.mechanical;
    case EffortTier::Retune:
      return weights.retune;
    case EffortTier::Rewrite:
      break;
  }
  return weights.rewrite;
}

std::string_view tier_key(EffortTier tier) {
  switch (tier) {
    case EffortTier::Config:
      return "config";
    case EffortTier::Mechanical:
      return "mechanical";
    case EffortTier::Retune:
      return "retune";
    case EffortTier::Rewrite:
      break;
  }
  return "rewrite";
}

EvidenceLink api_link(const ApiUse& use) {
  EvidenceLink link;
  link.kind = EvidenceLink::Kind::Api;
  link.label = use.uses > 1 ? fmt::format("{} ({} uses)", use.name, use.uses) : use.name;
  link.file = use.file;
  link.line = use.line;
  return link;
}

// Whether a file of the translation dry run is port work: product code (by the scope the scan
// gave the file's items, else by its path) that the AMD build does not leave out and that no
// component project owns.
class PortWorkFiles {
 public:
  PortWorkFiles(const ScanResult& scan, const ComponentProjects& projects) : m_projects(projects) {
    for (const Finding& finding : scan.findings) {
      m_scope.emplace(std::string(finding.file), finding.scope);
    }
    for (const Kernel& kernel : scan.kernels) {
      m_scope.emplace(std::string(kernel.file), kernel.scope);
    }
    for (const ExcludedSource& source : scan.excluded_sources) {
      m_excluded.insert(source.file);
    }
  }

  bool contains(const std::string& file) const {
    if (m_excluded.contains(file) || m_projects.owner(file)) {
      return false;
    }
    auto it = m_scope.find(file);
    const Scope scope = it != m_scope.end() ? it->second : scope_of_path(file, {});
    return scope == Scope::Product;
  }

 private:
  const ComponentProjects& m_projects;  // their files are priced inside the project
  std::map<std::string, Scope, std::less<>> m_scope;
  std::set<std::string, std::less<>> m_excluded;
};

std::vector<ApiUse> port_work_uses(const std::vector<ApiUse>& uses, const PortWorkFiles& files) {
  std::vector<ApiUse> out;
  for (const ApiUse& use : uses) {
    if (files.contains(use.file)) {
      out.push_back(use);
    }
  }
  return out;
}

}  // namespace

void add_catalog_items(const EffortInputs& inputs, const ComponentProjects& projects,
                       const AuditConfig& config, std::vector<EffortItem>& items) {
  const auto catalog = rule_catalog();
  std::map<std::string_view, std::vector<std::size_t>> by_rule;  // sorted by rule id
  for (std::size_t f = 0; f < inputs.scan.findings.size(); ++f) {
    const Finding& finding = inputs.scan.findings[f];
    const RuleInfo& rule = catalog[finding.rule];
    if (!catalog_tier(rule.tier) || rule.effort_hours <= 0 || !finding.is_port_work()) {
      continue;
    }
    // Mechanical and retune work in a component project's code is part of that project.
    if (rule.tier != Tier::Config && projects.owner(finding.file)) {
      continue;
    }
    // The existing AMD build already compiles this code: the mechanical port is done.
    if (rule.tier == Tier::Mechanical && inputs.scan.amd_build.exists) {
      continue;
    }
    // A finding the translation fixes by itself costs nothing beyond reviewing the file.
    if (rule.tier == Tier::Mechanical &&
        inputs.dry_run.resolved.count({finding.rule, finding.file, finding.line}) > 0) {
      continue;
    }
    by_rule[rule.id].push_back(f);
  }
  for (const auto& [id, findings] : by_rule) {
    const RuleInfo& rule = catalog[inputs.scan.findings[findings.front()].rule];
    const EffortTier tier = *catalog_tier(rule.tier);
    const double weight = tier_weight(tier, config.effort.tier_weight);
    ItemSpec spec;
    spec.tier = tier;
    spec.title = std::string(rule.id) + " " + std::string(rule.component);
    // Identical findings (the same rule matching the same text) repeat one fix: n of them count
    // 1 + log2(n) units, not n.
    std::map<std::string_view, std::size_t> repeats;
    for (std::size_t f : findings) {
      ++repeats[inputs.findings[f].detail];
    }
    double units = 0;
    for (const auto& [detail, count] : repeats) {
      units += 1 + std::log2(static_cast<double>(count));
    }
    units = std::round(units * 10) / 10;
    spec.unit = EffortUnit::Hours;
    spec.per_unit = rule.effort_hours * weight;
    spec.weight_key = "effort.tier_weight." + std::string(tier_key(tier));
    spec.per_unit_note =
        fmt::format("catalog {:g} h × {} {:g}", rule.effort_hours, spec.weight_key, weight);
    if (repeats.size() == findings.size()) {
      spec.quantity = static_cast<double>(findings.size());
      spec.quantity_unit = findings.size() == 1 ? "finding" : "findings";
    } else {
      spec.quantity = units;
      spec.quantity_unit = "units";
      spec.per_unit_note = fmt::format(
                               "{} findings, {} distinct, each repeated n times counts 1 + "
                               "log2 n; ",
                               findings.size(), repeats.size()) +
                           spec.per_unit_note;
    }
    EffortItem item = make_item(spec, config.effort);
    for (std::size_t f : findings) {
      item.evidence.push_back(finding_link(inputs.findings[f]));
    }
    items.push_back(std::move(item));
  }
}

void add_validation_item(const EffortInputs& inputs, const AuditConfig& config,
                         std::vector<EffortItem>& items) {
  if (inputs.scan.amd_build.exists) {
    return;  // validating the existing AMD build is its own item
  }
  const ValidationWeights& weights = config.effort.validation;
  std::vector<const Component*> frameworks;
  for (const Component& component : inputs.scan.components) {
    if (component.layer == Tier::Framework && component.findings > 0) {
      frameworks.push_back(&component);
    }
  }
  ItemSpec spec;
  spec.title = "Validate on AMD: the test suite, numerics and a benchmark run";
  spec.quantity = 1;
  spec.quantity_unit = "stack";
  spec.per_unit =
      weights.base_days + weights.framework_days * static_cast<double>(frameworks.size());
  spec.weight_key = std::string(k_validation_key);
  spec.per_unit_note = fmt::format(
      "{:g} d + {} framework{} in product code × effort.validation.framework_days {:g} d",
      weights.base_days, frameworks.size(), frameworks.size() == 1 ? "" : "s",
      weights.framework_days);
  EffortItem item = make_item(spec, config.effort);
  for (const Component* framework : frameworks) {
    EvidenceLink link;
    link.kind = EvidenceLink::Kind::File;
    link.label = framework->name;
    if (!framework->evidence.empty()) {
      link.file = framework->evidence.front().file;
      link.line = framework->evidence.front().line;
    }
    item.evidence.push_back(std::move(link));
  }
  items.push_back(std::move(item));
}

void add_existing_build_item(const EffortInputs& inputs, const AuditConfig& config,
                             std::vector<EffortItem>& items) {
  const AmdBuildPath& amd = inputs.scan.amd_build;
  const ExistingBuildWeights& weights = config.effort.existing_build;
  ItemSpec spec;
  spec.title = "Validate and benchmark the existing AMD build";
  // One unit of base work plus each kernel file the AMD build compiles, in days.
  const double files = static_cast<double>(amd.kernel_files_compiled);
  spec.quantity = 1;
  spec.quantity_unit = "build";
  spec.per_unit =
      weights.base_days + files * weights.kernel_file_hours / config.effort.hours_per_day;
  spec.weight_key = std::string(k_existing_build_key);
  spec.per_unit_note = fmt::format(
      "{:g} d + {} kernel files it compiles × effort.existing_build.kernel_file_hours "
      "{:g} h",
      weights.base_days, amd.kernel_files_compiled, weights.kernel_file_hours);
  EffortItem item = make_item(spec, config.effort);
  for (const BuildLine& line : amd.setup) {
    EvidenceLink link;
    link.kind = EvidenceLink::Kind::File;
    link.label = line.text;
    link.file = line.file;
    link.line = line.line;
    item.evidence.push_back(std::move(link));
  }
  items.push_back(std::move(item));
}

void add_dry_run_items(const EffortInputs& inputs, const ComponentProjects& projects,
                       const std::vector<AuditKernel>& kernels, const DefinitionRows& rows,
                       const AuditConfig& config, std::vector<EffortItem>& items) {
  const MechanicalWeights& weights = config.effort.mechanical;
  if (inputs.scan.amd_build.exists) {
    add_existing_build_item(inputs, config, items);
    return;
  }
  const PortWorkFiles port_work(inputs.scan, projects);
  DryRunDigest dry_run;
  dry_run.unsupported = port_work_uses(inputs.dry_run.unsupported, port_work);
  dry_run.needs_review = port_work_uses(inputs.dry_run.needs_review, port_work);
  for (const std::string& file : inputs.dry_run.changed_files) {
    if (port_work.contains(file)) {
      dry_run.changed_files.push_back(file);
    }
  }
  if (!dry_run.unsupported.empty()) {
    ItemSpec spec;
    spec.title = "Replace CUDA APIs that HIP does not provide";
    spec.quantity = static_cast<double>(dry_run.unsupported.size());
    spec.quantity_unit = dry_run.unsupported.size() == 1 ? "API" : "APIs";
    spec.per_unit = weights.unsupported_api_days;
    spec.weight_key = "effort.mechanical.unsupported_api_days";
    EffortItem item = make_item(spec, config.effort);
    for (const ApiUse& use : dry_run.unsupported) {
      item.evidence.push_back(api_link(use));
    }
    items.push_back(std::move(item));
  }
  if (!dry_run.needs_review.empty()) {
    ItemSpec spec;
    spec.title = "Review translated uses that need a person (FP8 encodings, library forms)";
    spec.quantity = static_cast<double>(dry_run.needs_review.size());
    spec.quantity_unit = dry_run.needs_review.size() == 1 ? "use" : "uses";
    spec.unit = EffortUnit::Hours;
    spec.per_unit = weights.needs_review_hours;
    spec.weight_key = "effort.mechanical.needs_review_hours";
    EffortItem item = make_item(spec, config.effort);
    for (const ApiUse& use : dry_run.needs_review) {
      item.evidence.push_back(api_link(use));
    }
    items.push_back(std::move(item));
  }
  if (!dry_run.changed_files.empty()) {
    ItemSpec spec;
    spec.title = "Review, build and fix the translated sources";
    spec.quantity = static_cast<double>(dry_run.changed_files.size());
    spec.quantity_unit = dry_run.changed_files.size() == 1 ? "file" : "files";
    spec.unit = EffortUnit::Hours;
    spec.per_unit = weights.file_hours;
    spec.weight_key = "effort.mechanical.file_hours";
    EffortItem item = make_item(spec, config.effort);
    for (const std::string& file : dry_run.changed_files) {
      EvidenceLink link;
      link.kind = EvidenceLink::Kind::File;
      link.label = file;
      link.file = file;
      item.evidence.push_back(std::move(link));
    }
    items.push_back(std::move(item));
  }

  // Kernels by size: each is ported, built and tested for correctness, hot or not.
  struct SizeClass {
    std::string_view name;
    double days = 0;
    std::string_view key;
    std::vector<std::size_t> kernels;
  };
  SizeClass classes[] = {
      {"small", weights.small_kernel_days, "effort.mechanical.small_kernel_days", {}},
      {"medium", weights.medium_kernel_days, "effort.mechanical.medium_kernel_days", {}},
      {"large", weights.large_kernel_days, "effort.mechanical.large_kernel_days", {}},
  };
  for (std::size_t k = 0; k < inputs.scan.kernels.size(); ++k) {
    // A Python kernel is priced by its rule: a rewrite (CuTe DSL, Numba) or its string's port.
    if (!inputs.scan.kernels[k].is_port_work() || projects.owner(inputs.scan.kernels[k].file) ||
        inputs.scan.kernels[k].language != KernelLanguage::Cuda) {
      continue;
    }
    const std::int64_t lines = inputs.scan.kernels[k].lines_of_code;
    const std::size_t size = lines <= weights.small_kernel_lines  ? 0
                             : lines > weights.large_kernel_lines ? 2
                                                                  : 1;
    classes[size].kernels.push_back(k);
  }
  for (const SizeClass& size : classes) {
    if (size.kernels.empty()) {
      continue;
    }
    ItemSpec spec;
    spec.title = fmt::format(
        "Port and test {} kernels ({})", size.name,
        size.name == "small"   ? fmt::format("up to {} lines", weights.small_kernel_lines)
        : size.name == "large" ? fmt::format("over {} lines", weights.large_kernel_lines)
                               : fmt::format("{}–{} lines", weights.small_kernel_lines + 1,
                                             weights.large_kernel_lines));
    spec.quantity = static_cast<double>(size.kernels.size());
    spec.quantity_unit = size.kernels.size() == 1 ? "kernel" : "kernels";
    spec.per_unit = size.days;
    spec.weight_key = std::string(size.key);
    EffortItem item = make_item(spec, config.effort);
    for (std::size_t k : size.kernels) {
      const Kernel& kernel = inputs.scan.kernels[k];
      EvidenceLink link;
      link.kind = EvidenceLink::Kind::Kernel;
      if (const std::int64_t row = rows.row_of(k); row >= 0) {
        link.anchor = kernels[static_cast<std::size_t>(row)].anchor;
      }
      link.label = fmt::format("{} ({} lines)", kernel.name, kernel.lines_of_code);
      link.file = kernel.file;
      link.line = kernel.line;
      item.evidence.push_back(std::move(link));
    }
    items.push_back(std::move(item));
  }
}

}  // namespace gpuport::effort_detail
