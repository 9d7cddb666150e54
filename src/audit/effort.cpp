// The effort model's driver: line items from the catalog, the dry-run and the rewrite kinds,
// tuning days for hot kernels, widening without a trace, and the totals per tier.
#include "audit/effort.h"

#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "audit/effort_detail.h"
#include "scan/rules/catalog.h"

namespace gpuport {

namespace effort_detail {

KernelLocator::KernelLocator(const ScanResult& scan) {
  for (std::size_t i = 0; i < scan.kernels.size(); ++i) {
    const Kernel& kernel = scan.kernels[i];
    const std::uint32_t first = kernel.line > 1 ? kernel.line - 1 : kernel.line;
    const std::uint32_t last = kernel.line + std::max<std::uint32_t>(kernel.lines_of_code, 1) - 1;
    m_by_file[kernel.file].push_back({i, first, last});
  }
}

std::optional<std::size_t> KernelLocator::kernel_at(const std::string& file,
                                                    std::uint32_t line) const {
  auto it = m_by_file.find(file);
  if (it == m_by_file.end()) {
    return std::nullopt;
  }
  for (const Span& span : it->second) {
    if (line >= span.first && line <= span.last) {
      return span.kernel;
    }
  }
  return std::nullopt;
}

std::vector<std::size_t> KernelLocator::kernels_in(const std::string& file) const {
  std::vector<std::size_t> out;
  if (auto it = m_by_file.find(file); it != m_by_file.end()) {
    for (const Span& span : it->second) {
      out.push_back(span.kernel);
    }
  }
  return out;
}

DefinitionRows::DefinitionRows(const ScanResult& scan, const std::vector<AuditKernel>& kernels)
    : m_kernels(kernels), m_rows(scan.kernels.size(), -1) {
  std::map<std::pair<std::string, std::uint32_t>, std::size_t> index;
  for (std::size_t i = 0; i < scan.kernels.size(); ++i) {
    index.emplace(std::make_pair(scan.kernels[i].file, scan.kernels[i].line), i);
  }
  for (std::size_t row = 0; row < kernels.size(); ++row) {
    if (!kernels[row].source) {
      continue;
    }
    auto it = index.find({kernels[row].source->file, kernels[row].source->line});
    if (it != index.end() && m_rows[it->second] < 0) {
      m_rows[it->second] = static_cast<std::int64_t>(row);  // rows are hottest first
    }
  }
}

Hotness DefinitionRows::hotness(std::size_t index) const {
  const std::int64_t row = m_rows[index];
  return row < 0 ? Hotness::Cold : m_kernels[static_cast<std::size_t>(row)].hotness;
}

EffortItem make_item(const ItemSpec& spec, const EffortConfig& config) {
  EffortItem item;
  item.tier = spec.tier;
  item.title = spec.title;
  item.quantity = spec.quantity;
  item.quantity_unit = spec.quantity_unit;
  item.unit = spec.unit;
  item.per_unit = spec.per_unit;
  item.hotness = spec.hotness;
  item.weight_key = spec.weight_key;
  item.priced_by_hotness = !spec.hotness_note.empty();
  const double per_day = spec.unit == EffortUnit::Hours ? config.hours_per_day : 1.0;
  const double likely = spec.quantity * spec.per_unit / per_day * spec.hotness;
  item.days = spec.component_project ? DayRange{likely * config.project_range.low, likely,
                                                likely * config.project_range.high}
                                     : spread_days(likely, spec.tier, config);
  item.basis = fmt::format("{:g} {} × {:g} {}", spec.quantity, spec.quantity_unit, spec.per_unit,
                           spec.unit == EffortUnit::Hours ? "h" : "d");
  if (!spec.per_unit_note.empty()) {
    item.basis += " (" + spec.per_unit_note + ")";
  }
  if (!spec.hotness_note.empty()) {
    item.basis += fmt::format(" × {:g} ({})", spec.hotness, spec.hotness_note);
  }
  return item;
}

EvidenceLink finding_link(const AuditFinding& finding) {
  EvidenceLink link;
  link.kind = EvidenceLink::Kind::Finding;
  link.anchor = finding.anchor;
  link.label = finding.rule + " " + finding.file + ":" + std::to_string(finding.line);
  link.rule = finding.rule;
  link.file = finding.file;
  link.line = finding.line;
  return link;
}

EvidenceLink kernel_link(const AuditKernel& kernel) {
  EvidenceLink link;
  link.kind = EvidenceLink::Kind::Kernel;
  link.anchor = kernel.anchor;
  link.label = kernel.name;
  if (kernel.source) {
    link.file = kernel.source->file;
    link.line = kernel.source->line;
  }
  return link;
}

}  // namespace effort_detail

namespace {

using namespace effort_detail;

// Tuning days for each own-code kernel on the hot path (with no trace: every scanned kernel, at
// no_trace.kernel_weight). Returns, per item added, the kernel rows it prices.
void add_tuning_items(const EffortInputs& inputs, const ComponentProjects& projects,
                      std::vector<AuditKernel>& kernels, const KernelLocator& locator,
                      const AuditConfig& config, std::vector<EffortItem>& items,
                      std::vector<std::pair<std::size_t, std::size_t>>& item_kernel) {
  // Retune and rewrite findings inside each scanned kernel.
  std::vector<std::vector<std::size_t>> inside(inputs.scan.kernels.size());
  for (std::size_t f = 0; f < inputs.findings.size(); ++f) {
    const AuditFinding& finding = inputs.findings[f];
    if ((finding.tier != Tier::Retune && finding.tier != Tier::Rewrite) ||
        !inputs.scan.findings[f].is_port_work()) {
      continue;
    }
    if (auto kernel = locator.kernel_at(finding.file, finding.line)) {
      inside[*kernel].push_back(f);
    }
  }
  std::map<std::pair<std::string, std::uint32_t>, std::size_t> definition;
  for (std::size_t i = 0; i < inputs.scan.kernels.size(); ++i) {
    definition.emplace(std::make_pair(inputs.scan.kernels[i].file, inputs.scan.kernels[i].line), i);
  }
  const RetuneWeights& weights = config.effort.retune;
  std::map<std::string, std::size_t> priced;  // definition or raw name -> kernel row priced
  for (std::size_t row = 0; row < kernels.size(); ++row) {
    AuditKernel& kernel = kernels[row];
    std::optional<std::size_t> scanned;
    if (kernel.source) {
      auto it = definition.find({kernel.source->file, kernel.source->line});
      if (it != definition.end()) {
        scanned = it->second;
        for (std::size_t f : inside[it->second]) {
          kernel.finding_anchors.push_back(inputs.findings[f].anchor);
        }
      }
    }
    const bool priced_kind =
        kernel.own_code && (kernel.hotness == Hotness::Hot || kernel.hotness == Hotness::Untraced);
    if (!priced_kind) {
      continue;
    }
    // Without a trace every kernel may be hot; but a project that builds for AMD already is
    // benchmarked as part of its validation item, which is what finds the hot ones.
    if (kernel.hotness == Hotness::Untraced && inputs.scan.amd_build.exists) {
      kernel.why +=
          "; the project builds for AMD already: the validation's benchmark run finds the hot "
          "kernels (a trace prices their tuning)";
      continue;
    }
    if (scanned) {
      if (auto project = projects.owner(inputs.scan.kernels[*scanned].file)) {
        kernel.why += "; part of " + projects.name(*project) + ", priced with it";
        continue;
      }
    }
    if (scanned && rewritten_by_its_rule(inputs.scan.kernels[*scanned])) {
      kernel.why += "; a " +
                    std::string(kernel_language_label(inputs.scan.kernels[*scanned].language)) +
                    " kernel: its rewrite is priced by its rule, no tuning days";
      continue;
    }
    if (scanned && !inputs.scan.kernels[*scanned].is_port_work()) {
      const Kernel& definition_kernel = inputs.scan.kernels[*scanned];
      kernel.why += definition_kernel.scope != Scope::Product
                        ? "; " + std::string(scope_name(definition_kernel.scope)) +
                              " code, not port work: no tuning days"
                        : "; the AMD build leaves its definition out: no tuning days";
      continue;
    }
    const std::string key = kernel.source
                                ? kernel.source->file + ":" + std::to_string(kernel.source->line)
                                : kernel.raw_name;
    if (auto done = priced.find(key); done != priced.end()) {
      kernel.why += "; tuned once, with " + kernels[done->second].anchor;
      continue;
    }
    priced.emplace(key, row);
    const std::size_t findings = scanned ? inside[*scanned].size() : 0;
    ItemSpec spec;
    spec.tier = EffortTier::Retune;
    // The scan's spelling is short ("rms_norm_kernel"); a trace's has templates and parameters.
    spec.title = "Tune " + (scanned ? inputs.scan.kernels[*scanned].name : kernel.name) + " on AMD";
    spec.quantity = 1;
    spec.quantity_unit = "kernel";
    spec.per_unit = weights.hot_kernel_days + weights.finding_days * static_cast<double>(findings);
    spec.weight_key = "effort.retune.hot_kernel_days";
    spec.per_unit_note = fmt::format("{:g} d + {} retune/rewrite findings × {:g} d",
                                     weights.hot_kernel_days, findings, weights.finding_days);
    if (kernel.hotness == Hotness::Untraced) {
      spec.title += " (if hot)";
      spec.hotness = config.no_trace.kernel_weight;
      spec.hotness_note = "no_trace.kernel_weight";
    }
    if (!kernel.source) {
      kernel.why += "; own code by its launch, but not found in the scanned repository";
    }
    EffortItem item = make_item(spec, config.effort);
    item.evidence.push_back(kernel_link(kernel));
    if (scanned) {
      for (std::size_t f : inside[*scanned]) {
        item.evidence.push_back(finding_link(inputs.findings[f]));
      }
    }
    item_kernel.emplace_back(items.size(), row);
    items.push_back(std::move(item));
  }
}

int tier_order(EffortTier tier) {
  return static_cast<int>(tier);
}

}  // namespace

DayRange spread_days(double likely, EffortTier tier, const EffortConfig& config) {
  const SpreadFactors* spread = &config.mechanical_range;
  switch (tier) {
    case EffortTier::Config:
      spread = &config.config_range;
      break;
    case EffortTier::Mechanical:
      break;
    case EffortTier::Retune:
      spread = &config.retune_range;
      break;
    case EffortTier::Rewrite:
      spread = &config.rewrite_range;
      break;
  }
  return {likely * spread->low, likely, likely * spread->high};
}

EffortEstimate estimate_effort(const EffortInputs& inputs, std::vector<AuditKernel>& kernels,
                               const AuditConfig& config) {
  const KernelLocator locator(inputs.scan);
  const DefinitionRows rows(inputs.scan, kernels);
  const ComponentProjects projects(inputs.scan);
  std::vector<EffortItem> items;
  std::vector<std::pair<std::size_t, std::size_t>> item_kernel;
  EffortEstimate estimate;
  add_catalog_items(inputs, projects, config, items);
  add_validation_item(inputs, config, items);
  add_dry_run_items(inputs, projects, kernels, rows, config, items);
  add_tuning_items(inputs, projects, kernels, locator, config, items, item_kernel);
  add_rewrite_items(inputs, projects, kernels, locator, rows, config, items, estimate.feature_gaps);

  // Without a trace, what is unknown is which code is hot: only the items priced by hotness are
  // widened. Validation, component projects and correctness fixes do not depend on it.
  if (!inputs.traced) {
    auto widen = [&](DayRange& days) {
      days.low *= config.no_trace.low_factor;
      days.high *= config.no_trace.high_factor;
    };
    for (EffortItem& item : items) {
      if (item.priced_by_hotness) {
        widen(item.days);
        item.basis += fmt::format("; range widened ×{:g} low / ×{:g} high (no trace)",
                                  config.no_trace.low_factor, config.no_trace.high_factor);
      }
    }
    for (FeatureGap& gap : estimate.feature_gaps) {
      if (gap.port_days && gap.port_widened) {
        widen(*gap.port_days);
      }
    }
  }
  for (const auto& [item, row] : item_kernel) {
    kernels[row].tuning_days_low = items[item].days.low;
    kernels[row].tuning_days_likely = items[item].days.likely;
    kernels[row].tuning_days_high = items[item].days.high;
  }

  std::vector<std::size_t> order(items.size());
  for (std::size_t i = 0; i < order.size(); ++i) {
    order[i] = i;
  }
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    if (items[a].tier != items[b].tier) {
      return tier_order(items[a].tier) < tier_order(items[b].tier);
    }
    if (items[a].days.likely != items[b].days.likely) {
      return items[a].days.likely > items[b].days.likely;
    }
    return items[a].title < items[b].title;
  });
  estimate.summary.hours_per_day = config.effort.hours_per_day;
  for (EffortTier tier :
       {EffortTier::Config, EffortTier::Mechanical, EffortTier::Retune, EffortTier::Rewrite}) {
    estimate.summary.tiers.push_back({tier, 0, {}});
  }
  for (std::size_t index : order) {
    EffortItem item = std::move(items[index]);
    item.anchor = "item-" + std::to_string(estimate.items.size() + 1);
    EffortTierTotal& total = estimate.summary.tiers[static_cast<std::size_t>(item.tier)];
    total.items += 1;
    total.days.low += item.days.low;
    total.days.likely += item.days.likely;
    total.days.high += item.days.high;
    estimate.summary.total.low += item.days.low;
    estimate.summary.total.likely += item.days.likely;
    estimate.summary.total.high += item.days.high;
    estimate.items.push_back(std::move(item));
  }
  return estimate;
}

}  // namespace gpuport
