// Rewrite items: inline PTX, matrix-core code, CUTLASS, TensorRT, precompiled binaries, and the
// other rules of the rewrite tier; code sites are weighted by the hotness of where they sit.
#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <tuple>

#include <fmt/format.h>

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
  if (rule == "GP-LIB-009") {
    return RewriteKind::Cutlass;
  }
  if (rule == "GP-ART-001") {
    return RewriteKind::TensorRtEngine;
  }
  if (rule == "GP-LIB-007" || rule == "GP-FW-005" || rule == "GP-FW-006" ||
      rule == "GP-BUILD-008" || rule == "GP-DEPLOY-007" || rule == "GP-PKG-004") {
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

// The folder (up to three levels deep) a CUTLASS/CuTe use sits in: its kernel family.
std::string family_of(std::string_view file) {
  std::size_t end = 0;
  for (int level = 0; level < 3; ++level) {
    const std::size_t slash = file.find('/', end == 0 ? 0 : end + 1);
    if (slash == std::string_view::npos) {
      break;
    }
    end = slash;
  }
  return std::string(file.substr(0, end));
}

struct Group {
  RewriteKind kind = RewriteKind::Other;
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
  return group.file.empty() ? std::string() : "in " + group.file + " (outside kernels)";
}

}  // namespace

void add_rewrite_items(const EffortInputs& inputs, const std::vector<AuditKernel>& kernels,
                       const KernelLocator& locator, const DefinitionRows& rows,
                       const AuditConfig& config, std::vector<EffortItem>& items) {
  const auto catalog = rule_catalog();
  const RewriteWeights& weights = config.effort.rewrite;
  // Key: kind, rule (Other only), kernel index + 1 (0 outside kernels), file (outside kernels).
  std::map<std::tuple<RewriteKind, std::string_view, std::size_t, std::string>, Group> groups;
  for (std::size_t f = 0; f < inputs.scan.findings.size(); ++f) {
    const Finding& finding = inputs.scan.findings[f];
    const RuleInfo& rule = catalog[finding.rule];
    if (rule.tier != Tier::Rewrite || !finding.is_port_work()) {
      continue;
    }
    const RewriteKind kind = rewrite_kind(rule.id);
    std::optional<std::size_t> kernel;
    std::string file;
    if (kind == RewriteKind::Cutlass) {
      file = family_of(finding.file);  // one project per family, wherever its uses sit
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
        spec.title = "Rewrite inline PTX " + where;
        spec.per_unit = weights.ptx_site_days;
        spec.weight_key = "effort.rewrite.ptx_site_days";
        break;
      case RewriteKind::Mma:
        spec.title = "Redesign tensor-core code (WMMA/MMA/ldmatrix) " + where;
        spec.per_unit = weights.mma_site_days;
        spec.weight_key = "effort.rewrite.mma_site_days";
        break;
      case RewriteKind::Cutlass: {
        std::set<std::string> files;
        for (std::size_t f : group.findings) {
          files.insert(inputs.scan.findings[f].file);
        }
        spec.title = "Port the CUTLASS/CuTe kernel family " +
                     (group.file.empty() ? std::string("at the root") : "in " + group.file + "/") +
                     " to Composable Kernel, hipBLASLt, aiter or Triton";
        spec.quantity = 1;
        spec.quantity_unit = "family";
        spec.per_unit = project_days(weights.cutlass_family_days, files.size());
        spec.weight_key = "effort.rewrite.cutlass_family_days";
        spec.per_unit_note =
            fmt::format("{:g} d × (1 + log2 {} files)", weights.cutlass_family_days, files.size());
        break;
      }
      case RewriteKind::TensorRtEngine:
        spec.title = "Rebuild TensorRT engines for AMD (MIGraphX)";
        spec.quantity_unit = group.findings.size() == 1 ? "engine" : "engines";
        spec.per_unit = weights.tensorrt_engine_days;
        spec.weight_key = "effort.rewrite.tensorrt_engine_days";
        break;
      case RewriteKind::TensorRtApi: {
        std::set<std::string> files;
        for (std::size_t f : group.findings) {
          files.insert(inputs.scan.findings[f].file);
        }
        spec.title = "Replace TensorRT with MIGraphX or ONNX Runtime's MIGraphX execution provider";
        spec.quantity = 1;
        spec.quantity_unit = "project";
        spec.per_unit = project_days(weights.tensorrt_project_days, files.size());
        spec.weight_key = "effort.rewrite.tensorrt_project_days";
        spec.per_unit_note = fmt::format("{:g} d × (1 + log2 {} files using or packaging it)",
                                         weights.tensorrt_project_days, files.size());
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
    EffortItem item = make_item(spec, config.effort);
    if (group.kernel) {
      if (const std::int64_t row = rows.row_of(*group.kernel); row >= 0) {
        item.evidence.push_back(kernel_link(kernels[static_cast<std::size_t>(row)]));
      }
    }
    for (std::size_t f : group.findings) {
      item.evidence.push_back(finding_link(inputs.findings[f]));
    }
    items.push_back(std::move(item));
  }
}

}  // namespace gpuport::effort_detail
