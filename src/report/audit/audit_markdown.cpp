#include "report/audit/audit_markdown.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "report/audit/audit_units.h"
#include "report/profile/profile_units.h"
#include "report/text_util.h"
#include "scan/project/scope.h"
#include "version.h"

namespace gpuport {

namespace {

// Kernel names in a PR comment: ATen's run to hundreds of characters; JSON keeps them whole.
constexpr std::size_t k_name_columns = 100;

// How much of the long lists a report holds. A GitHub comment holds 65,536 characters: a report
// over that is rendered again with the compact limits, which keep the verdict, the summary, the
// largest items and the port-work findings first, and say where the rest is.
struct Limits {
  std::size_t items = SIZE_MAX;     // line items, largest first
  std::size_t evidence = SIZE_MAX;  // evidence labels per item
  std::size_t findings = SIZE_MAX;  // finding rows; port work first
  std::size_t warnings = SIZE_MAX;  // in the Warnings section at the end
};
constexpr std::size_t k_comment_limit = 65'536;
constexpr Limits k_compact{25, 5, 60, 20};
constexpr Limits k_minimal{10, 3, 0, 5};
constexpr std::string_view k_see_full =
    "the JSON (`--format json`) and HTML (`--format html`) reports list every one";

std::string where(std::string_view file, std::uint32_t line) {
  return markdown_cell(line > 0 ? fmt::format("{}:{}", file, line) : std::string(file));
}

// `text` as a code span when nothing in it can break one or the table; else an escaped cell.
std::string code_cell(std::string_view text) {
  if (text.empty() || text.find_first_of("`|\r\n") != std::string_view::npos) {
    return markdown_cell(text);
  }
  return fmt::format("`{}`", printable(text));
}

std::string days_cells(const DayRange& range, double hours_per_day) {
  return fmt::format("{} | {} | {}", format_effort(range.low, hours_per_day),
                     format_effort(range.likely, hours_per_day),
                     format_effort(range.high, hours_per_day));
}

void summary(std::string& out, const AuditResult& result) {
  const VerdictSummary& verdict = result.verdict;
  const CostSummary& cost = result.cost;
  out += fmt::format("# gpuport audit: {}\n\n", markdown_cell(result.inputs.repo));
  out += fmt::format("**Verdict: {}** ({})\n\n", markdown_cell(verdict.headline),
                     verdict_id(verdict.kind));
  if (!verdict.incomplete.empty()) {
    out += fmt::format("> Incomplete: {}; the estimate leaves them out (see *Coverage*).\n",
                       markdown_cell(verdict.incomplete));
  }
  for (const std::string& assumed : verdict.assumed) {
    out += fmt::format("> Assumed: {}.\n", markdown_cell(assumed));
  }
  if (flags_the_estimate(result.effort.magnitude)) {
    out += fmt::format("> Check: {}.\n", markdown_cell(result.effort.magnitude.text));
  }
  if (!result.measure_first.largest_risk.empty()) {
    out += fmt::format("> Largest unpriced risk: {}.\n",
                       markdown_cell(result.measure_first.largest_risk));
  }
  if (!verdict.incomplete.empty() || !verdict.assumed.empty() ||
      flags_the_estimate(result.effort.magnitude) || !result.measure_first.largest_risk.empty()) {
    out += "\n";
  }
  if (!verdict.reasons.empty()) {
    out += "Why:\n\n";
    for (std::size_t i = 0; i < verdict.reasons.size(); ++i) {
      const VerdictReason& reason = verdict.reasons[i];
      out += fmt::format(
          "{}. {}{}\n", i + 1, markdown_cell(reason.text),
          reason.anchor.empty() ? std::string() : fmt::format(" (evidence: `{}`)", reason.anchor));
    }
    out += "\n";
  }
  out += "| figure | value |\n|---|---|\n";
  out +=
      fmt::format("| Effort (low / likely / high) | {} |\n", format_day_range(result.effort.total));
  out +=
      fmt::format("| Porting cost | {} / {} / {} at {} per engineer-day |\n",
                  format_dollars(cost.porting_cost.low), format_dollars(cost.porting_cost.likely),
                  format_dollars(cost.porting_cost.high), format_dollars(cost.day_rate));
  out += fmt::format(
      "| Cost per 1M requests | {} {} · {} {} |\n", markdown_cell(platform_label(cost.nvidia)),
      format_dollars(cost.nvidia.cost_per_million), markdown_cell(platform_label(cost.amd)),
      format_dollars(cost.amd.cost_per_million));
  if (verdict.cost_decides) {
    out += fmt::format("| Monthly saving on AMD | {} at {} requests a month |\n",
                       format_dollars(cost.monthly_delta), format_requests(cost.monthly_requests));
    out += fmt::format("| Payback | {} (horizon {}) |\n", format_months(cost.payback_months),
                       format_months(cost.horizon_months));
  } else {
    out += "| Monthly saving on AMD | not known: a throughput is a placeholder |\n";
    out +=
        fmt::format("| Payback | not known (horizon {}) |\n", format_months(cost.horizon_months));
  }
  // Two different thresholds, two names: break-even (same cost per request) and payback (the
  // saving repays the port within the horizon).
  out +=
      fmt::format("| Break-even throughput | AMD at {} of NVIDIA's: the same cost per request |\n",
                  format_throughput_ratio(cost.break_even_ratio));
  if (cost.payback_ratio) {
    out += fmt::format(
        "| Payback throughput | AMD at {} of NVIDIA's: the port pays back within {} |\n",
        format_throughput_ratio(*cost.payback_ratio), format_months(cost.horizon_months));
  }
  if (!result.coverage.note.empty()) {
    out += fmt::format("\n> {}\n", markdown_cell(result.coverage.note));
  }
  if (!result.warnings.empty()) {
    out += fmt::format("\n{} warning{}: see *Warnings* at the end.\n", result.warnings.size(),
                       result.warnings.size() == 1 ? "" : "s");
  }
}

void coverage(std::string& out, const AuditResult& result, const Limits& limits) {
  const ScanCoverage& coverage = result.source_coverage;
  if (coverage.complete()) {
    return;
  }
  out += fmt::format(
      "\n## Coverage\n\n{} product file{} could not be read; their findings, "
      "kernels and effort are missing from this report.\n\n",
      coverage.unread.size(), coverage.unread.size() == 1 ? "" : "s");
  out += "| File | Reason | Detail |\n|---|---|---|\n";
  const std::size_t shown = std::min(coverage.unread.size(), limits.warnings);
  for (std::size_t i = 0; i < shown; ++i) {
    const SkippedEntry& entry = coverage.unread[i];
    out += fmt::format("| {} | {} | {} |\n", markdown_cell(entry.path),
                       skip_reason_name(entry.reason), markdown_cell(entry.detail));
  }
  if (shown < coverage.unread.size()) {
    out += fmt::format("\nand {} more: {}\n", coverage.unread.size() - shown, k_see_full);
  }
}

void warnings(std::string& out, const AuditResult& result, const Limits& limits) {
  if (result.warnings.empty()) {
    return;
  }
  out += "\n## Warnings\n\n";
  const std::size_t shown = std::min(result.warnings.size(), limits.warnings);
  for (std::size_t i = 0; i < shown; ++i) {
    out += fmt::format("- {}\n", markdown_cell(result.warnings[i]));
  }
  if (shown < result.warnings.size()) {
    out += fmt::format("- and {} more: {}\n", result.warnings.size() - shown, k_see_full);
  }
}

void inputs(std::string& out, const AuditResult& result) {
  const AuditInputSummary& in = result.inputs;
  out += "\n## Inputs\n\n";
  out += fmt::format("- Scan: {} files, {} findings, {} kernels defined\n",
                     format_count(static_cast<std::int64_t>(in.files_scanned)),
                     format_count(static_cast<std::int64_t>(in.findings)),
                     format_count(static_cast<std::int64_t>(in.scanned_kernels)));
  out += fmt::format(
      "- Findings for the port: {} port work (product code the AMD build may compile), {} "
      "already handled for AMD, {} CUDA-only without an AMD branch, {} outside the product\n",
      format_count(static_cast<std::int64_t>(in.port_work_findings)),
      format_count(static_cast<std::int64_t>(in.handled_for_amd_findings)),
      format_count(static_cast<std::int64_t>(in.cuda_only_findings)),
      format_count(static_cast<std::int64_t>(in.outside_product_findings)));
  if (in.amd_build_exists) {
    out +=
        "- AMD build: the project already builds for AMD; the mechanical port is priced as "
        "validating that build\n";
  }
  out += fmt::format("- Translation dry-run for ROCm {}: {} of {} translatable files change\n",
                     in.translation_rocm,
                     format_count(static_cast<std::int64_t>(in.files_changed_by_translation)),
                     format_count(static_cast<std::int64_t>(in.translatable_files)));
  for (const AuditTraceInfo& trace : in.traces) {
    out += fmt::format(
        "- Trace {} ({}, {}): GPU time {}, {} kernel calls, {} steps, p95 {}, "
        "{} kernels joined to source{}\n",
        markdown_cell(trace.path), format_name(trace.format),
        markdown_cell(trace.gpu.empty() ? std::string(vendor_name(trace.vendor)) : trace.gpu),
        format_duration(trace.gpu_ns), format_count(trace.kernel_calls), format_count(trace.steps),
        trace.p95_ns ? format_duration(*trace.p95_ns) : "-", format_count(trace.joined_kernels),
        trace.note.empty() ? "" : "; " + markdown_cell(trace.note));
  }
  if (in.traces.empty()) {
    out += "- No trace\n";
  }
  out += in.config_path ? fmt::format("- Config: {} ({} overridden)\n",
                                      markdown_cell(*in.config_path), in.overrides.size())
                        : std::string("- Config: the shipped defaults\n");
  if (!in.overrides.empty()) {
    out += "\n| overridden key | default | value | line |\n|---|---|---|--:|\n";
    for (const ConfigOverride& entry : in.overrides) {
      out +=
          fmt::format("| {} | {} | {} | {} |\n", markdown_cell(entry.key),
                      markdown_cell(entry.default_value), markdown_cell(entry.value), entry.line);
    }
  }
}

void effort(std::string& out, const AuditResult& result) {
  out += "\n## Effort by tier (engineer-days)\n\n";
  out += "| tier | items | low | likely | high |\n|---|--:|--:|--:|--:|\n";
  for (const EffortTierTotal& tier : result.effort.tiers) {
    out += fmt::format("| {} | {} | {} |\n", effort_tier_title(tier.tier), tier.items,
                       days_cells(tier.days, result.effort.hours_per_day));
  }
  out += fmt::format("| **total** | {} | {} |\n", result.items.size(),
                     days_cells(result.effort.total, result.effort.hours_per_day));
  out += fmt::format("\nMagnitude check: {}.\n", markdown_cell(result.effort.magnitude.text));
}

void cost(std::string& out, const CostSummary& cost) {
  out += "\n## Cost per platform\n\n";
  out +=
      "| platform | GPU $/hour | GPUs per replica | throughput per replica | per 1M requests "
      "| per month |\n|---|--:|--:|--:|--:|--:|\n";
  for (const PlatformCost* platform : {&cost.nvidia, &cost.amd}) {
    out += fmt::format(
        "| {} | {} | {} | {}{} | {} | {} |\n", markdown_cell(platform_label(*platform)),
        format_dollars(platform->gpu_price_per_hour), platform->gpus_per_replica,
        format_rps(platform->throughput_rps), platform->throughput_assumed ? " (assumed)" : "",
        format_dollars(platform->cost_per_million), format_dollars(platform->monthly_cost));
  }
  for (const PlatformCost* platform : {&cost.nvidia, &cost.amd}) {
    if (const auto& source = platform->throughput_source) {
      out += fmt::format("\n{}{} throughput: {}\n", source->slo_qualified ? "" : "**Note:** ",
                         markdown_cell(platform_label(*platform)), markdown_cell(source->note));
    }
  }
}

void items(std::string& out, const AuditResult& result, const Limits& limits) {
  out += "\n## Line items\n\n";
  if (result.items.empty()) {
    out += "Nothing to port.\n";
    return;
  }
  // The largest items, kept in the report's order (tier, then days).
  std::vector<std::size_t> by_size(result.items.size());
  for (std::size_t i = 0; i < by_size.size(); ++i) {
    by_size[i] = i;
  }
  std::stable_sort(by_size.begin(), by_size.end(), [&](std::size_t a, std::size_t b) {
    return result.items[a].days.likely > result.items[b].days.likely;
  });
  std::vector<bool> keep(result.items.size(), false);
  for (std::size_t rank = 0; rank < by_size.size() && rank < limits.items; ++rank) {
    keep[by_size[rank]] = true;
  }
  out += "| item | tier | what | quantity | weight | low | likely | high | evidence |\n";
  out += "|---|---|---|--:|---|--:|--:|--:|---|\n";
  DayRange left_out;
  std::size_t items_left_out = 0;
  for (std::size_t index = 0; index < result.items.size(); ++index) {
    const EffortItem& item = result.items[index];
    if (!keep[index]) {
      ++items_left_out;
      left_out.likely += item.days.likely;
      continue;
    }
    std::string evidence;
    const std::size_t shown = std::min(item.evidence.size(), limits.evidence);
    for (std::size_t i = 0; i < shown; ++i) {
      evidence += (evidence.empty() ? "" : "; ") + markdown_cell(item.evidence[i].label);
    }
    if (shown < item.evidence.size()) {
      evidence += fmt::format("; and {} more", item.evidence.size() - shown);
    }
    out += fmt::format(
        "| {} | {} | {} | {} | {} each, hotness {} ({}) | {} | {} |\n", markdown_cell(item.anchor),
        effort_tier_key(item.tier), markdown_cell(item.title),
        markdown_cell(format_amount(item.quantity, item.quantity_unit)),
        format_amount(item.per_unit, effort_unit_key(item.unit)), format_quantity(item.hotness),
        code_cell(item.weight_key), days_cells(item.days, result.effort.hours_per_day), evidence);
  }
  if (items_left_out > 0) {
    out += fmt::format("\n{} smaller items ({} days likely together) are not shown here: {}.\n",
                       items_left_out, format_days(left_out.likely), k_see_full);
  }
}

void kernels(std::string& out, const AuditResult& result) {
  out += fmt::format("\n## Hot kernels (at least {} of GPU time, or in the p95 steps)\n\n",
                     format_share(result.hot_threshold));
  std::size_t cold = 0;
  std::string rows;
  for (const AuditKernel& kernel : result.kernels) {
    if (kernel.hotness != Hotness::Hot) {
      ++cold;
      continue;
    }
    rows +=
        fmt::format("| {} | {} | {} | {} | {} | {} | {} | {} |\n", markdown_cell(kernel.anchor),
                    markdown_cell(truncate_to_width(valid_utf8(kernel.name), k_name_columns)),
                    kernel_class_label(kernel.klass, kernel.own_code), kernel.own_code ? "yes" : "",
                    format_share(kernel.share), format_duration(kernel.total_ns),
                    kernel.source ? where(kernel.source->file, kernel.source->line) : "",
                    format_tuning(kernel));
  }
  if (rows.empty()) {
    out += "No kernel is hot.\n";
  } else {
    out += "| kernel | name | class | own code | share | GPU time | source | tuning days |\n";
    out += "|---|---|---|---|--:|--:|---|--:|\n" + rows;
  }
  if (cold > 0) {
    out += fmt::format(
        "\n{} cold or untraced kernel{} with zero tuning days (the HTML and JSON "
        "reports list each with its reason).\n",
        cold, cold == 1 ? "" : "s");
  }
}

void portability(std::string& out, const AuditResult& result) {
  out += "\n## Portability\n\n";
  if (result.portability.empty()) {
    out += "No CUDA-specific component.\n";
    return;
  }
  out += "| component | layer | findings | AMD status | first evidence |\n|---|---|--:|---|---|\n";
  for (const Component& component : result.portability) {
    out += fmt::format(
        "| {} | {} | {} | {} | {} |\n", markdown_cell(component.name), tier_name(component.layer),
        component.findings, markdown_cell(component.amd_status),
        component.evidence.empty() ? std::string()
                                   : where(component.evidence[0].file, component.evidence[0].line));
  }
}

void gpu_time(std::string& out, const AuditResult& result) {
  for (const TraceClassTime& trace : result.class_time) {
    const std::string path =
        trace.trace < result.inputs.traces.size() ? result.inputs.traces[trace.trace].path : "";
    out += fmt::format("\n## GPU time by class: {}\n\n", markdown_cell(path));
    out += "| class | GPU time | share | own code |\n|---|--:|--:|--:|\n";
    for (const ClassTime& klass : trace.classes) {
      out += fmt::format("| {} | {} | {} | {} |\n", class_time_label(klass),
                         format_duration(klass.time_ns), format_share(klass.share),
                         klass.own_code_ns > 0 ? format_duration(klass.own_code_ns) : "-");
    }
    out += fmt::format("| **total** | {} | | {} |\n", format_duration(trace.gpu_ns),
                       format_duration(trace.own_code_ns));
  }
}

void measure_first(std::string& out, const AuditResult& result) {
  const MeasurePlan& plan = result.measure_first;
  out += "\n## What to measure before committing\n\n";
  if (!plan.steps.empty()) {
    out += fmt::format(
        "Library and framework work on the hot path is priced at zero: {}, then "
        "compare each row.\n\n",
        markdown_cell(plan.first));
    out += "| library work on the hot path | GPU time | on AMD | how to settle it | kernel |\n";
    out += "|---|--:|---|---|---|\n";
    for (const MeasureStep& step : plan.steps) {
      out += fmt::format("| {} | {:.1f}% | {} | {} | {} |\n", markdown_cell(step.what),
                         step.share * 100, markdown_cell(step.amd_counterpart),
                         markdown_cell(step.how),
                         step.anchor.empty() ? std::string("-") : "`" + step.anchor + "`");
    }
    out += "\n";
  }
  out += fmt::format("Largest unpriced risk: {}.\n", markdown_cell(plan.largest_risk));
}

void feature_gaps(std::string& out, const AuditResult& result) {
  if (result.feature_gaps.empty()) {
    return;
  }
  out += "\n## CUDA-only features without an AMD branch (not in the total)\n\n";
  out +=
      "| component | findings | first | on AMD instead | to port it anyway |\n"
      "|---|--:|---|---|---|\n";
  for (const FeatureGap& gap : result.feature_gaps) {
    out +=
        fmt::format("| {}{} | {} | {} | {} | {} |\n", markdown_cell(gap.component),
                    gap.folder.empty() ? std::string() : " in `" + markdown_cell(gap.folder) + "`",
                    format_count(static_cast<std::int64_t>(gap.findings)),
                    where(gap.file, gap.line), markdown_cell(gap.amd_equivalent),
                    gap.port_days ? format_days(gap.port_days->likely) + " days likely (" +
                                        format_days(gap.port_days->low) + "–" +
                                        format_days(gap.port_days->high) + ")"
                                  : std::string("—"));
  }
}

void findings(std::string& out, const AuditResult& result, const Limits& limits) {
  if (limits.findings == 0) {
    out += fmt::format("\n{} findings: {}.\n", result.findings.size(), k_see_full);
    return;
  }
  out += fmt::format("\n<details><summary>Findings ({})</summary>\n\n", result.findings.size());
  // Port work first (in scan order), then the rest, as many as the limit holds.
  std::vector<const AuditFinding*> shown;
  for (int pass = 0; pass < 2; ++pass) {
    for (const AuditFinding& finding : result.findings) {
      if (finding.is_port_work() == (pass == 0) && shown.size() < limits.findings) {
        shown.push_back(&finding);
      }
    }
  }
  if (result.findings.empty()) {
    out += "No findings.\n";
  } else {
    out += "| rule | tier | where | for the port | what |\n|---|---|---|---|---|\n";
    for (const AuditFinding* each : shown) {
      const AuditFinding& finding = *each;
      out += fmt::format(
          "| {} | {} | {} | {} | {}{} |\n", markdown_cell(finding.rule), tier_name(finding.tier),
          where(finding.file, finding.line), port_role(finding), markdown_cell(finding.summary),
          finding.detail.empty() ? std::string()
                                 : fmt::format(" (matched {})", code_cell(finding.detail)));
    }
  }
  if (shown.size() < result.findings.size()) {
    out += fmt::format("\n{} more findings are not shown here: {}.\n",
                       result.findings.size() - shown.size(), k_see_full);
  }
  out += "\n</details>\n";
}

std::string render_with(const AuditResult& result, const Limits& limits) {
  std::string out;
  summary(out, result);
  inputs(out, result);
  effort(out, result);
  cost(out, result.cost);
  items(out, result, limits);
  measure_first(out, result);
  feature_gaps(out, result);
  kernels(out, result);
  portability(out, result);
  gpu_time(out, result);
  findings(out, result, limits);
  coverage(out, result, limits);
  warnings(out, result, limits);
  out +=
      fmt::format("\n_gpuport {}: the full report with charts is `--format html`._\n", k_version);
  return out;
}

}  // namespace

std::string render_audit_markdown(const AuditResult& result) {
  for (const Limits& limits : {Limits{}, k_compact, k_minimal}) {
    std::string out = render_with(result, limits);
    if (out.size() <= k_comment_limit) {
      return out;
    }
  }
  // Still too long (thousands of overridden keys, say): cut at a line and say so.
  std::string out = render_with(result, k_minimal);
  const std::string note = fmt::format("\n_Cut to fit a comment: {}._\n", k_see_full);
  const std::size_t cut = out.rfind('\n', k_comment_limit - note.size());
  out.resize(cut == std::string::npos ? 0 : cut + 1);
  return out + note;
}

}  // namespace gpuport
