// Rewrite items: inline PTX, matrix-core code, CUTLASS, TensorRT, precompiled binaries, and the
// other rules of the rewrite tier; code sites are weighted by the hotness of where they sit.
#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <tuple>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "audit/effort_detail.h"
#include "scan/rules/catalog.h"

namespace gpuport::effort_detail {

namespace {

enum class RewriteKind : std::uint8_t {
  Ptx,
  Mma,
  Cutlass,
  TensorRtEngine,
  TensorRtApi,
  CudnnGraph,
  Cubin,
  Other
};

RewriteKind rewrite_kind(std::string_view rule) {
  if (rule == "GP-ASM-001") {
    return RewriteKind::Ptx;
  }
  if (rule == "GP-ASM-002" || rule == "GP-MMA-001" || rule == "GP-MMA-002") {
    return RewriteKind::Mma;
  }
  if (is_cutlass_rule(rule)) {
    return RewriteKind::Cutlass;
  }
  if (rule == "GP-ART-001") {
    return RewriteKind::TensorRtEngine;
  }
  if (is_tensorrt_rule(rule)) {
    return RewriteKind::TensorRtApi;
  }
  if (rule == "GP-ART-002" || rule == "GP-ART-003" || rule == "GP-ART-004") {
    return RewriteKind::Cubin;
  }
  return RewriteKind::Other;
}

bool located_in_code(RewriteKind kind) {
  return kind == RewriteKind::Ptx || kind == RewriteKind::Mma || kind == RewriteKind::Cutlass ||
         kind == RewriteKind::Other;
}

struct Weighting {
  double weight = 1;
  std::string note;
};

// Where a code site sits decides its weight: its kernel's hotness, else the hottest kernel of its
// file, else (a file with no kernel) full weight, since nothing says it is cold.
Weighting site_weight(const AuditFinding& finding, std::optional<std::size_t> kernel,
                      const KernelLocator& locator, const DefinitionRows& rows, bool traced,
                      const RewriteWeights& weights) {
  if (!traced) {
    return {weights.untraced_weight, "effort.rewrite.untraced_weight"};
  }
  if (kernel) {
    return rows.hotness(*kernel) == Hotness::Hot ? Weighting{weights.hot_weight, "hot kernel"}
                                                 : Weighting{weights.cold_weight, "cold kernel"};
  }
  const std::vector<std::size_t> in_file = locator.kernels_in(finding.file);
  if (in_file.empty()) {
    return {weights.hot_weight, "no kernel in the file: priced in full"};
  }
  for (std::size_t k : in_file) {
    if (rows.hotness(k) == Hotness::Hot) {
      return {weights.hot_weight, "a hot kernel's file"};
    }
  }
  return {weights.cold_weight, "only cold kernels in the file"};
}

// A component replacement sized by the files it spans: each doubling of them adds one base.
double project_days(double base, std::size_t files) {
  return base * (1 + std::log2(static_cast<double>(std::max<std::size_t>(files, 1))));
}

struct Group {
  RewriteKind kind = RewriteKind::Other;
  std::optional<std::size_t> project;  // the component project it is, if any
  std::uint16_t rule = 0;
  std::optional<std::size_t> kernel;
  std::string file;
  Weighting weighting;
  std::vector<std::size_t> findings;
};

std::string place(const Group& group, const ScanResult& scan) {
  if (group.kernel) {
    return "in " + scan.kernels[*group.kernel].name;
  }
  return group.file.empty() ? std::string() : "in " + group.file;
}

// An instruction's kind: its opcode, with the state space for memory operations (ld.global,
// st.shared, cp.async, red.global); an API name (wmma::mma_sync, CUtensorMap) is its own kind.
std::string instruction_kind(std::string_view instruction) {
  while (!instruction.empty() && instruction.front() == ' ') {
    instruction.remove_prefix(1);
  }
  // WMMA's API is one kind whatever the call (fragments, loads, stores, multiply-accumulate).
  if (instruction.starts_with("wmma::")) {
    return "wmma";
  }
  const std::size_t end = instruction.find_first_of(" ,%");
  instruction = instruction.substr(0, end);
  const std::size_t dot = instruction.find('.');
  if (dot == std::string_view::npos) {
    return std::string(instruction);
  }
  const std::string_view opcode = instruction.substr(0, dot);
  if (opcode == "ld" || opcode == "st" || opcode == "red" || opcode == "atom" || opcode == "cp" ||
      opcode == "prefetch") {
    const std::size_t second = instruction.find('.', dot + 1);
    return std::string(instruction.substr(0, second));
  }
  return std::string(opcode);
}

// A WMMA include or namespace directive: inventory, but no work of its own (the work is priced
// where the API is used).
bool is_wmma_declaration(std::string_view detail) {
  return detail.starts_with("#include <") || detail.starts_with("using namespace nvcuda") ||
         detail.starts_with("namespace alias nvcuda");
}

// The distinct instruction kinds of a group's findings (a detail may list several: "setp.ne.b32,
// mov.b32, ld.global.v4.u32"); empty when the group holds only WMMA declarations.
std::set<std::string> instruction_kinds(const Group& group,
                                        const std::vector<AuditFinding>& findings) {
  std::set<std::string> kinds;
  bool declarations_only = true;
  for (std::size_t f : group.findings) {
    std::string_view detail = findings[f].detail;
    if (is_wmma_declaration(detail)) {
      continue;
    }
    declarations_only = false;
    while (!detail.empty()) {
      const std::size_t comma = detail.find(',');
      const std::string kind = instruction_kind(detail.substr(0, comma));
      if (!kind.empty()) {
        kinds.insert(kind);
      }
      detail = comma == std::string_view::npos ? std::string_view() : detail.substr(comma + 1);
    }
  }
  if (kinds.empty() && !declarations_only) {
    kinds.insert("asm");  // no instruction text: one kind
  }
  return kinds;
}

// One component project, sized by the files it spans: base × (1 + log2 files), spread by
// effort.range.project_*.
void component_project(ItemSpec& spec, std::string_view unit, double base,
                       std::string_view weight_key, std::string_view files_are, std::size_t files) {
  spec.quantity = 1;
  spec.quantity_unit = std::string(unit);
  spec.component_project = true;
  spec.per_unit = project_days(base, files);
  spec.weight_key = std::string(weight_key);
  spec.per_unit_note = fmt::format("{:g} d × (1 + log2 {} {})", base, files, files_are);
}

// The files that size a project: those that use the component itself. A component's groups
// always have their project: every use's file is in that project's files.
std::size_t project_size(const Group& group, const ComponentProjects& projects) {
  return projects.projects()[*group.project].files.size();
}

// How many of a project group's findings are the component's own rule (the rest are its code's).
std::size_t rule_findings(const Group& group, const ComponentProjects& projects,
                          const ScanResult& scan) {
  const auto catalog = rule_catalog();
  const ComponentProjects::Kind kind = projects.projects()[*group.project].kind;
  std::size_t count = 0;
  for (std::size_t f : group.findings) {
    const Finding& finding = scan.findings[f];
    const std::string_view rule = catalog[finding.rule].id;
    const bool own = kind == ComponentProjects::Kind::TensorRt     ? is_tensorrt_rule(rule)
                     : kind == ComponentProjects::Kind::CudnnGraph ? is_cudnn_graph_use(finding)
                                                                   : is_cutlass_rule(rule);
    count += own ? 1 : 0;
  }
  return count;
}

FeatureGap family_gap(const ComponentProjects::Project& project, const EffortItem& item,
                      std::size_t findings, const AuditFinding& first) {
  FeatureGap gap;
  gap.component = first.component;
  gap.folder = project.folder.empty() ? std::string() : project.folder + "/";
  gap.findings = findings;
  gap.first_anchor = first.anchor;
  gap.file = first.file;
  gap.line = first.line;
  gap.port_days = item.days;
  gap.port_basis = item.title + ": " + item.basis;
  gap.port_widened = item.priced_by_hotness;
  return gap;
}

}  // namespace

void add_rewrite_items(const EffortInputs& inputs, const ComponentProjects& projects,
                       const std::vector<AuditKernel>& kernels, const KernelLocator& locator,
                       const DefinitionRows& rows, const AuditConfig& config,
                       std::vector<EffortItem>& items, std::vector<FeatureGap>& gaps) {
  const auto catalog = rule_catalog();
  const RewriteWeights& weights = config.effort.rewrite;
  // Key: kind, rule (Other only), kernel index + 1 (0 outside any kernel), file (outside any
  // kernel) or the project's folder.
  std::map<std::tuple<RewriteKind, std::string_view, std::size_t, std::string>, Group> groups;
  // Findings of any tier inside a project's code: its evidence, priced with it.
  std::map<std::size_t, std::vector<std::size_t>> owned;
  for (std::size_t f = 0; f < inputs.scan.findings.size(); ++f) {
    const Finding& finding = inputs.scan.findings[f];
    const RuleInfo& rule = catalog[finding.rule];
    if (!finding.is_port_work()) {
      continue;
    }
    RewriteKind kind = rewrite_kind(rule.id);
    // Binaries and engines inside a project's code (a plugin's cubins, a DSL's compiled
    // kernels) go with it too.
    const std::optional<std::size_t> project = projects.owner(finding.file);
    // The cuDNN graph project is made of retune-tier findings: they are its uses, not its code.
    const bool graph_use =
        project && is_cudnn_graph_use(finding) &&
        projects.projects()[*project].kind == ComponentProjects::Kind::CudnnGraph;
    if (rule.tier != Tier::Rewrite && !graph_use) {
      if (project && rule.tier != Tier::Config && rule.tier != Tier::Framework) {
        owned[*project].push_back(f);
      }
      continue;
    }
    std::optional<std::size_t> kernel;
    std::string file;
    if (project) {
      const ComponentProjects::Project& owner = projects.projects()[*project];
      kind = owner.kind == ComponentProjects::Kind::TensorRt     ? RewriteKind::TensorRtApi
             : owner.kind == ComponentProjects::Kind::CudnnGraph ? RewriteKind::CudnnGraph
                                                                 : RewriteKind::Cutlass;
      file = owner.folder;  // one project, wherever its code sits
    } else if (located_in_code(kind)) {
      kernel = locator.kernel_at(finding.file, finding.line);
      if (!kernel) {
        file = finding.file;
      }
    }
    const std::string_view rule_key = kind == RewriteKind::Other ? rule.id : std::string_view();
    auto key = std::make_tuple(kind, rule_key, kernel ? *kernel + 1 : 0, file);
    Group& group = groups[key];
    if (group.findings.empty()) {
      group.kind = kind;
      group.project = project;
      group.rule = finding.rule;
      group.kernel = kernel;
      group.file = file;
      // A family's weight is its hottest use's (below); other groups take their place's.
      group.weighting = kind == RewriteKind::Cutlass ? Weighting{0, ""}
                        : located_in_code(kind) ? site_weight(inputs.findings[f], kernel, locator,
                                                              rows, inputs.traced, weights)
                                                : Weighting{1, ""};
    }
    if (kind == RewriteKind::Cutlass) {
      // The family is as hot as its hottest use.
      const Weighting site =
          site_weight(inputs.findings[f], locator.kernel_at(finding.file, finding.line), locator,
                      rows, inputs.traced, weights);
      if (site.weight > group.weighting.weight) {
        group.weighting = site;
      }
    }
    group.findings.push_back(f);
  }

  for (const auto& [key, group] : groups) {
    const RuleInfo& rule = catalog[group.rule];
    ItemSpec spec;
    spec.tier = EffortTier::Rewrite;
    spec.hotness = group.weighting.weight;
    spec.hotness_note = group.weighting.note;
    spec.quantity = static_cast<double>(group.findings.size());
    spec.quantity_unit = group.findings.size() == 1 ? "site" : "sites";
    const std::string where = place(group, inputs.scan);
    switch (group.kind) {
      case RewriteKind::Ptx:
      case RewriteKind::Mma: {
        const bool ptx = group.kind == RewriteKind::Ptx;
        spec.title = ptx ? "Rewrite inline PTX " + where
                         : "Redesign tensor-core code (WMMA/MMA/ldmatrix) " + where;
        // One unit per distinct instruction kind, whatever the number of statements.
        const std::set<std::string> kinds = instruction_kinds(group, inputs.findings);
        if (kinds.empty()) {
          continue;  // only WMMA includes or namespace directives: no work of their own
        }
        spec.quantity = static_cast<double>(kinds.size());
        spec.quantity_unit = kinds.size() == 1 ? "instruction kind" : "instruction kinds";
        spec.per_unit = ptx ? weights.ptx_kind_days : weights.mma_kind_days;
        spec.weight_key = ptx ? "effort.rewrite.ptx_kind_days" : "effort.rewrite.mma_kind_days";
        spec.per_unit_note =
            fmt::format("{}: {} statement{}", fmt::join(kinds, ", "), group.findings.size(),
                        group.findings.size() == 1 ? "" : "s");
        break;
      }
      case RewriteKind::Cutlass: {
        component_project(spec, "family", weights.cutlass_family_days,
                          "effort.rewrite.cutlass_family_days", "files",
                          project_size(group, projects));
        spec.title = "Port the CUTLASS/CuTe kernel family " +
                     (group.file.empty() ? std::string("at the root") : "in " + group.file + "/") +
                     " to Composable Kernel, hipBLASLt, aiter or Triton";
        break;
      }
      case RewriteKind::TensorRtEngine:
        spec.title = "Rebuild TensorRT engines for AMD (MIGraphX)";
        spec.quantity_unit = group.findings.size() == 1 ? "engine" : "engines";
        spec.per_unit = weights.tensorrt_engine_days;
        spec.weight_key = "effort.rewrite.tensorrt_engine_days";
        break;
      case RewriteKind::TensorRtApi: {
        component_project(spec, "project", weights.tensorrt_project_days,
                          "effort.rewrite.tensorrt_project_days", "files using or packaging it",
                          project_size(group, projects));
        spec.title = "Replace TensorRT with MIGraphX or ONNX Runtime's MIGraphX execution provider";
        break;
      }
      case RewriteKind::CudnnGraph: {
        component_project(spec, "project", weights.cudnn_graph_days,
                          "effort.rewrite.cudnn_graph_days", "files using cudnn_frontend",
                          project_size(group, projects));
        spec.title =
            "Port the cuDNN frontend graphs to MIOpen (or move their ops into PyTorch or "
            "MIGraphX)";
        break;
      }
      case RewriteKind::Cubin:
        spec.title = "Rebuild or replace precompiled NVIDIA binaries";
        spec.quantity_unit = group.findings.size() == 1 ? "binary" : "binaries";
        spec.per_unit = weights.cubin_days;
        spec.weight_key = "effort.rewrite.cubin_days";
        break;
      case RewriteKind::Other:
        spec.title = std::string(rule.id) + " " + std::string(rule.component) +
                     (where.empty() ? "" : " " + where);
        spec.unit = EffortUnit::Hours;
        spec.per_unit = rule.effort_hours * config.effort.tier_weight.rewrite;
        spec.weight_key = "effort.tier_weight.rewrite";
        spec.per_unit_note = fmt::format("catalog {:g} h × effort.tier_weight.rewrite {:g}",
                                         rule.effort_hours, config.effort.tier_weight.rewrite);
        break;
    }
    std::size_t owned_findings = 0;
    std::size_t owned_kernels = 0;
    if (group.project) {
      owned_findings = group.findings.size() - rule_findings(group, projects, inputs.scan);
      if (auto it = owned.find(*group.project); it != owned.end()) {
        owned_findings += it->second.size();
      }
      for (const Kernel& kernel : inputs.scan.kernels) {
        owned_kernels +=
            kernel.is_port_work() && projects.owner(kernel.file) == group.project ? 1 : 0;
      }
      std::vector<std::string> parts;
      if (owned_findings > 0) {
        parts.push_back(
            fmt::format("{} other finding{}", owned_findings, owned_findings == 1 ? "" : "s"));
      }
      if (owned_kernels > 0) {
        parts.push_back(fmt::format("{} kernel{}", owned_kernels, owned_kernels == 1 ? "" : "s"));
      }
      if (!parts.empty()) {
        spec.per_unit_note +=
            "; includes its code's " + fmt::format("{}", fmt::join(parts, " and "));
      }
    }
    EffortItem item = make_item(spec, config.effort);
    if (group.kernel) {
      if (const std::int64_t row = rows.row_of(*group.kernel); row >= 0) {
        item.evidence.push_back(kernel_link(kernels[static_cast<std::size_t>(row)]));
      }
    }
    for (std::size_t f : group.findings) {
      item.evidence.push_back(finding_link(inputs.findings[f]));
    }
    if (group.project) {
      if (auto it = owned.find(*group.project); it != owned.end()) {
        for (std::size_t f : it->second) {
          item.evidence.push_back(finding_link(inputs.findings[f]));
        }
      }
      const ComponentProjects::Project& project = projects.projects()[*group.project];
      if (project.feature_gap) {
        const auto it = owned.find(*group.project);
        const std::size_t all = group.findings.size() + (it != owned.end() ? it->second.size() : 0);
        gaps.push_back(family_gap(project, item, all, inputs.findings[group.findings.front()]));
        continue;
      }
    }
    items.push_back(std::move(item));
  }
}

}  // namespace gpuport::effort_detail
