#include "report/audit/audit_html.h"

#include <fmt/format.h>

#include "report/audit/audit_charts.h"
#include "report/audit/audit_html_parts.h"
#include "report/audit/audit_units.h"
#include "report/audit/html_text.h"
#include "report/profile/profile_units.h"
#include "version.h"

namespace gpuport {

namespace {

constexpr std::string_view k_style = R"(
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#212529;margin:0;background:#f8f9fa;line-height:1.45}
main{max-width:1200px;margin:0 auto;padding:16px 24px 48px;background:#fff}
h1{font-size:1.5em;margin:.4em 0}h2{font-size:1.25em;margin:1.6em 0 .5em;border-bottom:1px solid #dee2e6;padding-bottom:.2em}
h3{font-size:1.05em;margin:1.2em 0 .4em}
nav a{margin-right:1em}
code{font-family:ui-monospace,"SFMono-Regular",Menlo,Consolas,monospace;font-size:.88em;word-break:break-all}
code.loc,code.rule{word-break:normal;overflow-wrap:anywhere}
code.key{word-break:normal;overflow-wrap:anywhere}
table.kernels td:first-child{width:30%}
table{border-collapse:collapse;margin:.5em 0 1em;font-size:.9em;width:100%}
th,td{border:1px solid #dee2e6;padding:4px 8px;text-align:left;vertical-align:top;overflow-wrap:anywhere}
th{background:#f1f3f5}
td.num{text-align:right;white-space:nowrap}
tr:target{background:#fff3bf}
table.figures{width:auto}table.figures th{width:16em}
.verdict{border-left:8px solid #3b5bdb;background:#edf2ff;padding:8px 16px;margin:12px 0}
.verdict p{margin:0;text-transform:uppercase;letter-spacing:.05em;font-size:.8em;color:#495057}
.verdict h2{border:0;margin:.2em 0;font-size:1.4em}
.verdict-config-change,.verdict-validation-pass,.verdict-existing-amd-build{border-color:#2b8a3e;background:#ebfbee}
.verdict-major-project{border-color:#e8590c;background:#fff4e6}
.verdict-not-worth-it{border-color:#c92a2a;background:#fff5f5}
.note{color:#495057;font-style:italic}
.warn{color:#c92a2a}
.own{background:#fff4e6}
.tier-rewrite{color:#c92a2a;font-weight:600}.tier-retune{color:#e8590c;font-weight:600}
.legend-own{display:inline-block;width:12px;height:12px;background:#e8590c;vertical-align:middle}
.legend-other{display:inline-block;width:12px;height:12px;background:#3b5bdb;vertical-align:middle}
svg.chart{max-width:100%;height:auto;display:block;margin:.5em 0}
footer{color:#868e96;font-size:.85em;margin-top:3em}
)";

std::string head(const AuditResult& result) {
  return fmt::format(
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
      "<meta name=\"generator\" content=\"gpuport {}\">\n"
      "<title>gpuport audit: {}</title>\n<style>{}</style>\n</head>\n<body>\n<main>\n",
      k_version, html_escape(result.inputs.repo), k_style);
}

std::string inputs_paragraph(const AuditResult& result) {
  const AuditInputSummary& inputs = result.inputs;
  std::string out =
      fmt::format("<h1>gpuport audit: <code>{}</code></h1>\n<p>", html_escape(inputs.repo));
  out += fmt::format(
      "{} files scanned, {} findings, {} kernels defined; the translation dry-run for ROCm {} "
      "changes {} of {} translatable files. ",
      format_count(static_cast<std::int64_t>(inputs.files_scanned)),
      format_count(static_cast<std::int64_t>(inputs.findings)),
      format_count(static_cast<std::int64_t>(inputs.scanned_kernels)),
      html_escape(inputs.translation_rocm),
      format_count(static_cast<std::int64_t>(inputs.files_changed_by_translation)),
      format_count(static_cast<std::int64_t>(inputs.translatable_files)));
  out += fmt::format(
      "For the port: {} findings are port work (product code the AMD build may compile), {} "
      "already handled for AMD, {} CUDA-only without an AMD branch, {} outside the product. ",
      format_count(static_cast<std::int64_t>(inputs.port_work_findings)),
      format_count(static_cast<std::int64_t>(inputs.handled_for_amd_findings)),
      format_count(static_cast<std::int64_t>(inputs.cuda_only_findings)),
      format_count(static_cast<std::int64_t>(inputs.outside_product_findings)));
  if (inputs.amd_build_exists) {
    out +=
        "The project already builds for AMD: the mechanical port is priced as validating that "
        "build. ";
  }
  out += inputs.config_path ? fmt::format("Prices and weights: <code>{}</code> ({} overridden).",
                                          html_escape(*inputs.config_path), inputs.overrides.size())
                            : std::string("Prices and weights: the shipped defaults.");
  out += "</p>\n";
  if (inputs.traces.empty()) {
    out += "<p class=\"note\">No trace: every kernel is priced from the scan alone.</p>\n";
    return out;
  }
  out +=
      "<table>\n<tr><th>trace</th><th>format</th><th>GPU</th><th>GPU time</th><th>kernel "
      "calls</th><th>steps</th><th>p95 step</th><th>joined to source</th></tr>\n";
  for (const AuditTraceInfo& trace : inputs.traces) {
    out += fmt::format(
        "<tr><td><code>{}</code>{}</td><td>{}</td><td>{}</td>{}{}{}{}{}</tr>\n",
        html_escape(trace.path),
        trace.note.empty()
            ? ""
            : fmt::format("<br><span class=\"note\">{}</span>", html_escape(trace.note)),
        html_escape(format_name(trace.format)),
        html_escape(trace.gpu.empty() ? std::string(vendor_name(trace.vendor)) : trace.gpu),
        html::number_cell(format_duration(trace.gpu_ns)),
        html::number_cell(format_count(trace.kernel_calls)),
        html::number_cell(format_count(trace.steps)),
        html::number_cell(trace.p95_ns ? format_duration(*trace.p95_ns) : "-"),
        html::number_cell(fmt::format("{} kernels", format_count(trace.joined_kernels))));
  }
  out += "</table>\n";
  return out;
}

std::string navigation() {
  return "<nav><a href=\"#summary\">Summary</a><a href=\"#portability\">Portability</a>"
         "<a href=\"#gpu-time\">GPU time</a><a href=\"#effort\">Effort</a><a "
         "href=\"#cost\">Cost</a><a href=\"#measure-first\">Measure first</a><a "
         "href=\"#items\">Line items</a><a "
         "href=\"#kernels\">Kernels</a><a href=\"#findings\">Findings</a></nav>\n";
}

std::string summary_section(const AuditResult& result) {
  const VerdictSummary& verdict = result.verdict;
  const CostSummary& cost = result.cost;
  std::string out = fmt::format(
      "<section id=\"summary\">\n<h2>Summary</h2>\n<div class=\"verdict verdict-{}\" "
      "id=\"verdict\">\n<p>verdict: {}</p>\n<h2>{}</h2>\n</div>\n",
      verdict_id(verdict.kind), html_escape(verdict_title(verdict.kind)),
      html_escape(verdict.headline));
  if (!verdict.incomplete.empty()) {
    out += fmt::format(
        "<p class=\"note assumed\">Incomplete: {}; the estimate leaves them out (<a "
        "href=\"#coverage\">listed</a>).</p>\n",
        html_escape(verdict.incomplete));
  }
  for (const std::string& assumed : verdict.assumed) {
    out += fmt::format("<p class=\"note assumed\">Assumed: {}.</p>\n", html_escape(assumed));
  }
  if (flags_the_estimate(result.effort.magnitude)) {
    out += fmt::format("<p class=\"note assumed\">Check: {}.</p>\n",
                       html_escape(result.effort.magnitude.text));
  }
  if (!result.measure_first.largest_risk.empty()) {
    out += fmt::format("<p class=\"note assumed\">Largest unpriced risk: {}.</p>\n",
                       html_escape(result.measure_first.largest_risk));
  }
  out += "<h3>Why</h3>\n<ol class=\"reasons\">\n";
  for (const VerdictReason& reason : verdict.reasons) {
    out += fmt::format("<li>{}</li>\n", html::link(reason.anchor, reason.text));
  }
  out += "</ol>\n<table class=\"figures\">\n";
  const auto row = [&out](std::string_view label, const std::string& value) {
    out += fmt::format("<tr><th>{}</th><td>{}</td></tr>\n", label, value);
  };
  row("Effort (low / likely / high)", html::link("effort", format_day_range(result.effort.total)));
  row("Porting cost",
      html_escape(
          fmt::format("{} / {} / {} at {} per engineer-day", format_dollars(cost.porting_cost.low),
                      format_dollars(cost.porting_cost.likely),
                      format_dollars(cost.porting_cost.high), format_dollars(cost.day_rate))));
  row("Cost per 1M requests", html_escape(fmt::format("{} {} · {} {}", platform_label(cost.nvidia),
                                                      format_dollars(cost.nvidia.cost_per_million),
                                                      platform_label(cost.amd),
                                                      format_dollars(cost.amd.cost_per_million))));
  if (verdict.cost_decides) {
    row("Monthly saving on AMD",
        html_escape(fmt::format("{} at {} requests a month", format_dollars(cost.monthly_delta),
                                format_requests(cost.monthly_requests))));
    row("Payback", html_escape(fmt::format("{} (horizon {})", format_months(cost.payback_months),
                                           format_months(cost.horizon_months))));
  } else {
    row("Monthly saving on AMD", "not known: a throughput is a placeholder");
    row("Payback",
        html_escape(fmt::format("not known (horizon {})", format_months(cost.horizon_months))));
  }
  // Two different thresholds, two names: break-even and payback.
  row("Break-even throughput",
      html_escape(fmt::format("AMD at {} of NVIDIA's throughput costs the same per request",
                              format_throughput_ratio(cost.break_even_ratio))));
  if (cost.payback_ratio) {
    row("Payback throughput",
        html_escape(fmt::format("AMD at {} of NVIDIA's throughput pays the port back within {}",
                                format_throughput_ratio(*cost.payback_ratio),
                                format_months(cost.horizon_months))));
  }
  out += "</table>\n";
  if (!result.coverage.note.empty()) {
    out += fmt::format("<p class=\"note\">{}</p>\n", html_escape(result.coverage.note));
  }
  if (!result.warnings.empty()) {
    out += fmt::format(
        "<p class=\"note\">{} warning{}: <a href=\"#warnings\">listed at the "
        "end</a>.</p>\n",
        result.warnings.size(), result.warnings.size() == 1 ? "" : "s");
  }
  out += "</section>\n";
  return out;
}

std::string coverage_section(const AuditResult& result) {
  const ScanCoverage& coverage = result.source_coverage;
  if (coverage.complete()) {
    return {};
  }
  std::string out = fmt::format(
      "<section id=\"coverage\">\n<h2>Coverage</h2>\n<p>{} product file{} could not be read; "
      "their findings, kernels and effort are missing from this report.</p>\n<table>\n"
      "<tr><th>File</th><th>Reason</th><th>Detail</th></tr>\n",
      coverage.unread.size(), coverage.unread.size() == 1 ? "" : "s");
  for (const SkippedEntry& entry : coverage.unread) {
    out += fmt::format("<tr><td><code>{}</code></td><td>{}</td><td>{}</td></tr>\n",
                       html_escape(entry.path), skip_reason_name(entry.reason),
                       html_escape(entry.detail));
  }
  return out + "</table>\n</section>\n";
}

std::string warnings_section(const AuditResult& result) {
  if (result.warnings.empty()) {
    return {};
  }
  std::string out = "<section id=\"warnings\">\n<h2>Warnings</h2>\n<ul class=\"warn\">\n";
  for (const std::string& warning : result.warnings) {
    out += fmt::format("<li>{}</li>\n", html_escape(warning));
  }
  return out + "</ul>\n</section>\n";
}

std::string gpu_time_section(const AuditResult& result) {
  std::string out = "<section id=\"gpu-time\">\n<h2>GPU time by class</h2>\n";
  if (result.class_time.empty()) {
    out += "<p class=\"note\">No trace was given, so there is no GPU time to show.</p>\n";
    return out + "</section>\n";
  }
  out +=
      "<p><span class=\"legend-own\"></span> the team's own code &nbsp; <span "
      "class=\"legend-other\"></span> everything else (libraries and frameworks that already run "
      "on AMD, or are ported by their maintainers)</p>\n";
  for (std::size_t i = 0; i < result.class_time.size(); ++i) {
    const TraceClassTime& trace = result.class_time[i];
    std::string suffix;
    if (result.class_time.size() > 1 && trace.trace < result.inputs.traces.size()) {
      suffix = ": " + result.inputs.traces[trace.trace].path;
    }
    if (!suffix.empty()) {
      out += fmt::format("<h3>{}</h3>\n", html_escape(result.inputs.traces[trace.trace].path));
    }
    out += render_bar_chart(gpu_time_chart(trace, i, suffix));
    out += fmt::format(
        "<table class=\"classes\">\n<tr><th>class</th><th>GPU time</th><th>share</th><th>own "
        "code</th></tr>\n");
    for (const ClassTime& klass : trace.classes) {
      out += fmt::format(
          "<tr{}><td>{}</td>{}{}{}</tr>\n", klass.own_code_ns > 0 ? " class=\"own\"" : "",
          class_time_label(klass), html::number_cell(format_duration(klass.time_ns)),
          html::number_cell(format_share(klass.share)),
          html::number_cell(klass.own_code_ns > 0 ? format_duration(klass.own_code_ns) : "-"));
    }
    out += fmt::format("<tr><th>total</th>{}<td></td>{}</tr>\n</table>\n",
                       html::number_cell(format_duration(trace.gpu_ns)),
                       html::number_cell(format_duration(trace.own_code_ns)));
  }
  return out + "</section>\n";
}

std::string effort_section(const AuditResult& result) {
  std::string out = "<section id=\"effort\">\n<h2>Effort by tier</h2>\n";
  out += render_range_chart(effort_chart(result.effort));
  out += "<table>\n<tr><th>tier</th><th>items</th><th>low</th><th>likely</th><th>high</th></tr>\n";
  for (const EffortTierTotal& tier : result.effort.tiers) {
    out +=
        fmt::format("<tr><td>{}</td>{}{}{}{}</tr>\n", effort_tier_title(tier.tier),
                    html::number_cell(std::to_string(tier.items)),
                    html::number_cell(format_effort(tier.days.low, result.effort.hours_per_day)),
                    html::number_cell(format_effort(tier.days.likely, result.effort.hours_per_day)),
                    html::number_cell(format_effort(tier.days.high, result.effort.hours_per_day)));
  }
  out += fmt::format("<tr><th>total</th>{}{}{}{}</tr>\n</table>\n",
                     html::number_cell(std::to_string(result.items.size())),
                     html::number_cell(format_days(result.effort.total.low)),
                     html::number_cell(format_days(result.effort.total.likely)),
                     html::number_cell(format_days(result.effort.total.high)));
  out += fmt::format("<p class=\"note\" id=\"magnitude\">Magnitude check: {}.</p>\n",
                     html_escape(result.effort.magnitude.text));
  if (!result.coverage.note.empty()) {
    out += fmt::format("<p class=\"note\">{}</p>\n", html_escape(result.coverage.note));
  }
  out += "<h3>Weights overridden by the config</h3>\n";
  if (result.inputs.overrides.empty()) {
    out +=
        "<p>None: every weight is the shipped default (<code>gpuport audit "
        "--print-default-config</code> lists them with their sources).</p>\n";
  } else {
    out += "<table>\n<tr><th>key</th><th>default</th><th>value</th><th>line</th></tr>\n";
    for (const ConfigOverride& entry : result.inputs.overrides) {
      out += fmt::format(
          "<tr><td><code>{}</code></td><td><code>{}</code></td><td><code>{}</code>"
          "</td>{}</tr>\n",
          html_escape(entry.key), html_escape(entry.default_value), html_escape(entry.value),
          html::number_cell(std::to_string(entry.line)));
    }
    out += "</table>\n";
  }
  return out + "</section>\n";
}

std::string platform_row(const PlatformCost& platform) {
  return fmt::format("<tr><td>{}</td>{}{}{}{}{}</tr>\n", html_escape(platform_label(platform)),
                     html::number_cell(format_dollars(platform.gpu_price_per_hour)),
                     html::number_cell(std::to_string(platform.gpus_per_replica)),
                     html::number_cell(format_rps(platform.throughput_rps) +
                                       (platform.throughput_assumed ? " (assumed)" : "")),
                     html::number_cell(format_dollars(platform.cost_per_million)),
                     html::number_cell(format_dollars(platform.monthly_cost)));
}

std::string cost_section(const AuditResult& result) {
  const CostSummary& cost = result.cost;
  std::string out = "<section id=\"cost\">\n<h2>Cost and payback</h2>\n";
  out += render_bar_chart(cost_chart(cost));
  out +=
      "<table>\n<tr><th>platform</th><th>GPU $/hour</th><th>GPUs per replica</th><th>throughput "
      "per replica at the p95 SLO</th><th>per 1M requests</th><th>per month</th></tr>\n";
  out += platform_row(cost.nvidia);
  out += platform_row(cost.amd);
  out += "</table>\n";
  for (const PlatformCost* platform : {&cost.nvidia, &cost.amd}) {
    if (const auto& source = platform->throughput_source) {
      out += fmt::format("<p{}>{} throughput: {}</p>\n",
                         source->slo_qualified ? "" : " class=\"warn\"",
                         html_escape(platform_label(*platform)), html_escape(source->note));
    }
  }
  if (cost.nvidia.throughput_assumed || cost.amd.throughput_assumed) {
    out +=
        "<p class=\"warn\">A throughput is the shipped placeholder, not a measurement: set "
        "<code>throughput_rps</code> in the config from a load test at your p95 SLO.</p>\n";
  }
  out += render_line_chart(payback_chart(cost));
  out += fmt::format(
      "<p>Saving {} a month against a porting cost of {} (likely; {} to {}): payback in {}. "
      "AMD breaks even per request at {} of NVIDIA's throughput.</p>\n",
      html_escape(format_dollars(cost.monthly_delta)),
      html_escape(format_dollars(cost.porting_cost.likely)),
      html_escape(format_dollars(cost.porting_cost.low)),
      html_escape(format_dollars(cost.porting_cost.high)),
      html_escape(format_months(cost.payback_months)),
      html_escape(format_throughput_ratio(cost.break_even_ratio)));
  return out + "</section>\n";
}

}  // namespace

std::string render_audit_html(const AuditResult& result) {
  std::string out = head(result);
  out += inputs_paragraph(result);
  out += navigation();
  out += summary_section(result);
  out += html::portability_section(result);
  out += gpu_time_section(result);
  out += effort_section(result);
  out += cost_section(result);
  out += html::measure_first_section(result);
  out += html::items_section(result);
  out += html::feature_gaps_section(result);
  out += html::kernels_section(result);
  out += html::findings_section(result);
  out += coverage_section(result);
  out += warnings_section(result);
  out += fmt::format(
      "<footer>Generated by gpuport {}. Self-contained: no script, no external resource. "
      "The numbers and how they are made: docs/estimate-model.md; the same values as JSON: "
      "<code>--format json</code>.</footer>\n</main>\n</body>\n</html>\n",
      k_version);
  return out;
}

}  // namespace gpuport
