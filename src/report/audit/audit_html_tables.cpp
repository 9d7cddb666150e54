// The tables of the HTML audit report: portability, line items, kernels, findings. Each row
// that something links to carries the anchor the audit gave it as its id.
#include <fmt/format.h>

#include <string>
#include <string_view>
#include <unordered_map>

#include "report/audit/audit_html_parts.h"
#include "report/audit/audit_units.h"
#include "report/audit/html_text.h"
#include "report/profile/profile_units.h"
#include "report/text_util.h"

namespace gpuport::html {

std::string link(std::string_view anchor, std::string_view text) {
  if (anchor.empty()) {
    return html_escape(text);
  }
  return fmt::format("<a href=\"#{}\">{}</a>", html_escape(anchor), html_escape(text));
}

std::string location(std::string_view file, std::uint32_t line) {
  if (file.empty()) {
    return "";
  }
  return line > 0 ? fmt::format("<code class=\"loc\">{}:{}</code>", html_escape(file), line)
                  : fmt::format("<code class=\"loc\">{}</code>", html_escape(file));
}

std::string number_cell(std::string_view text) {
  return fmt::format("<td class=\"num\">{}</td>", html_escape(text));
}

namespace {

// Shown in the kernel tables; the full raw name is the cell's tooltip (and in the JSON).
constexpr std::size_t k_name_columns = 200;

std::string id_attribute(std::string_view anchor) {
  return anchor.empty() ? "" : fmt::format(" id=\"{}\"", html_escape(anchor));
}

std::string tier_cell(std::string_view tier) {
  return fmt::format("<td class=\"tier-{0}\">{0}</td>", html_escape(tier));
}

std::string evidence_list(const std::vector<EvidenceLink>& evidence) {
  std::string out;
  for (const EvidenceLink& link_to : evidence) {
    out += out.empty() ? "" : "<br>";
    if (!link_to.anchor.empty()) {
      out += link(link_to.anchor, link_to.label);
    } else {
      out += fmt::format("<code>{}</code>", html_escape(link_to.label));
      if (!link_to.file.empty() && link_to.file != link_to.label) {
        out += ' ';
        out += location(link_to.file, link_to.line);
      }
    }
  }
  return out;
}

// Each finding by its anchor, looked up once per kernel finding: a search of every finding for
// each made the report quadratic (187 s on a 100,000-file tree, against 4.5 s for JSON).
using FindingsByAnchor = std::unordered_map<std::string_view, const AuditFinding*>;

FindingsByAnchor findings_by_anchor(const AuditResult& result) {
  FindingsByAnchor index;
  index.reserve(result.findings.size());
  for (const AuditFinding& finding : result.findings) {
    index.emplace(finding.anchor, &finding);  // the first of a repeated anchor, as before
  }
  return index;
}

std::string kernel_row(const AuditKernel& kernel, const FindingsByAnchor& findings_index) {
  std::string findings;
  for (const std::string& anchor : kernel.finding_anchors) {
    const auto it = findings_index.find(anchor);
    const std::string label = it == findings_index.end()
                                  ? anchor
                                  : fmt::format("{} line {}", it->second->rule, it->second->line);
    findings += (findings.empty() ? "" : "<br>") + link(anchor, label);
  }
  const bool traced = kernel.hotness != Hotness::Untraced;
  return fmt::format(
      "<tr{}{}><td><code title=\"{}\">{}</code></td><td>{}<br>{}</td><td>{}</td>{}{}{}<td>{}</td>"
      "<td>{}: {}</td><td>{}</td>{}</tr>\n",
      id_attribute(kernel.anchor), kernel.own_code ? " class=\"own\"" : "",
      html_escape(kernel.raw_name),
      html_escape(truncate_to_width(valid_utf8(kernel.name), k_name_columns)),
      kernel_class_label(kernel.klass, kernel.own_code), html_escape(kernel.owner),
      kernel.own_code ? "yes" : "no", number_cell(traced ? format_share(kernel.share) : "-"),
      number_cell(traced ? format_duration(kernel.total_ns) : "-"),
      number_cell(traced ? format_count(kernel.calls) : "-"),
      kernel.source ? location(kernel.source->file, kernel.source->line) : "-",
      hotness_key(kernel.hotness), html_escape(kernel.why), findings,
      number_cell(format_tuning(kernel)));
}

constexpr std::string_view k_kernel_header =
    "<table class=\"kernels\">\n<tr><th>kernel</th><th>class, owner</th><th>own "
    "code</th><th>share</th><th>GPU time</th><th>calls</th><th>source</th><th>hot?</th>"
    "<th>findings</th><th>tuning days</th></tr>\n";

}  // namespace

std::string portability_section(const AuditResult& result) {
  std::string out = "<section id=\"portability\">\n<h2>Portability of this repository</h2>\n";
  if (result.portability.empty()) {
    out += "<p>The scan found no CUDA-specific component.</p>\n";
    return out + "</section>\n";
  }
  out +=
      "<table class=\"portability\">\n<tr><th>component</th><th>layer</th><th>findings</th>"
      "<th>AMD status</th><th>AMD equivalent</th><th>what it costs</th><th>evidence</th></tr>\n";
  for (const Component& component : result.portability) {
    std::string evidence;
    for (const Evidence& where : component.evidence) {
      evidence += (evidence.empty() ? "" : "<br>") + location(where.file, where.line);
    }
    out += fmt::format("<tr><td>{}</td>{}{}<td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
                       html_escape(component.name), tier_cell(tier_name(component.layer)),
                       number_cell(std::to_string(component.findings)),
                       html_escape(component.amd_status), html_escape(component.amd_equivalent),
                       html_escape(component.cost), evidence);
  }
  out += "</table>\n";
  return out + "</section>\n";
}

std::string items_section(const AuditResult& result) {
  std::string out = "<section id=\"items\">\n<h2>Line items</h2>\n";
  if (result.items.empty()) {
    out += "<p>Nothing to port.</p>\n";
    return out + "</section>\n";
  }
  out +=
      "<p>Every item is traceable to the findings or kernels it is made of; the weight is the "
      "config key it was priced with.</p>\n<table class=\"items\">\n<tr><th>#</th><th>tier</th>"
      "<th>item</th><th>quantity</th><th>weight</th><th>hotness</th><th>low</th><th>likely</th>"
      "<th>high</th><th>evidence</th></tr>\n";
  for (std::size_t i = 0; i < result.items.size(); ++i) {
    const EffortItem& item = result.items[i];
    out += fmt::format(
        "<tr{}><td>{}</td>{}<td>{}<br><span class=\"note\">{}</span><br>weight: <code "
        "class=\"key\">{}</code></td>{}<td>{} each</td>{}{}{}{}<td>{}</td></tr>\n",
        id_attribute(item.anchor), i + 1, tier_cell(effort_tier_key(item.tier)),
        html_escape(item.title), html_escape(item.basis), html_escape(item.weight_key),
        number_cell(format_amount(item.quantity, item.quantity_unit)),
        format_amount(item.per_unit, effort_unit_key(item.unit)),
        number_cell(format_quantity(item.hotness)),
        number_cell(format_effort(item.days.low, result.effort.hours_per_day)),
        number_cell(format_effort(item.days.likely, result.effort.hours_per_day)),
        number_cell(format_effort(item.days.high, result.effort.hours_per_day)),
        evidence_list(item.evidence));
  }
  out += "</table>\n";
  return out + "</section>\n";
}

std::string kernels_section(const AuditResult& result) {
  std::string out = "<section id=\"kernels\">\n<h2>Hot kernels, joined to source</h2>\n";
  out += fmt::format(
      "<p>Hot: at least {} of GPU time, or present in the p95 steps. Only hot kernels get "
      "tuning days; cold ones are listed with zero and the reason.</p>\n",
      format_share(result.hot_threshold));
  std::string hot;
  std::string rest;
  const FindingsByAnchor index = findings_by_anchor(result);
  for (const AuditKernel& kernel : result.kernels) {
    (kernel.hotness == Hotness::Hot ? hot : rest) += kernel_row(kernel, index);
  }
  out += hot.empty() ? "<p>No kernel is hot.</p>\n"
                     : std::string(k_kernel_header) + hot + "</table>\n";
  if (!rest.empty()) {
    out +=
        "<h3>Cold and untraced kernels</h3>\n" + std::string(k_kernel_header) + rest + "</table>\n";
  }
  return out + "</section>\n";
}

std::string measure_first_section(const AuditResult& result) {
  const MeasurePlan& plan = result.measure_first;
  std::string out =
      "<section id=\"measure-first\">\n<h2>What to measure before committing</h2>\n"
      "<p>Library and framework work on the hot path is priced at zero: AMD's counterpart is "
      "tuned by its maintainers, so only a measurement says whether it holds.</p>\n";
  if (!plan.steps.empty()) {
    out += fmt::format("<p>First {}, then compare each row.</p>\n", html_escape(plan.first));
    out +=
        "<table>\n<tr><th>library work on the hot path</th><th>GPU time</th><th>on AMD</th>"
        "<th>how to settle it</th><th>kernel</th></tr>\n";
    for (const MeasureStep& step : plan.steps) {
      out +=
          fmt::format("<tr><td>{}</td>{}<td>{}</td><td>{}</td><td>{}</td></tr>\n",
                      html_escape(step.what), number_cell(fmt::format("{:.1f}%", step.share * 100)),
                      html_escape(step.amd_counterpart), html_escape(step.how),
                      step.anchor.empty() ? std::string("-") : link(step.anchor, step.anchor));
    }
    out += "</table>\n";
  }
  out += fmt::format("<p><strong>Largest unpriced risk:</strong> {}.</p>\n",
                     html_escape(plan.largest_risk));
  return out + "</section>\n";
}

std::string feature_gaps_section(const AuditResult& result) {
  if (result.feature_gaps.empty()) {
    return {};
  }
  std::string out =
      "<section id=\"feature-gaps\">\n<h2>CUDA-only features without an AMD branch</h2>\n"
      "<p>Product code the AMD build leaves out with nothing in its place, or cannot compile: "
      "optional features, listed and not in the total.</p>\n<table>\n<tr><th>component</th>"
      "<th>findings</th><th>first</th><th>on AMD instead</th><th>to port it anyway</th></tr>\n";
  for (const FeatureGap& gap : result.feature_gaps) {
    out += fmt::format(
        "<tr><td>{}{}</td>{}<td>{}</td><td>{}</td><td>{}</td></tr>\n", html_escape(gap.component),
        gap.folder.empty() ? std::string() : " in <code>" + html_escape(gap.folder) + "</code>",
        number_cell(format_count(static_cast<std::int64_t>(gap.findings))),
        fmt::format("<a href=\"#{}\">{}</a>", html_escape(gap.first_anchor),
                    location(gap.file, gap.line)),
        html_escape(gap.amd_equivalent),
        gap.port_days ? html_escape(format_days(gap.port_days->likely) + " days likely (" +
                                    format_days(gap.port_days->low) + "–" +
                                    format_days(gap.port_days->high) + ")")
                      : std::string("—"));
  }
  out += "</table>\n";
  return out + "</section>\n";
}

std::string findings_section(const AuditResult& result) {
  std::string out = "<section id=\"findings\">\n<h2>Findings</h2>\n";
  if (result.findings.empty()) {
    out += "<p>No findings.</p>\n";
    return out + "</section>\n";
  }
  out +=
      "<table class=\"findings\">\n<tr><th>rule</th><th>tier</th><th>component</th><th>where</th>"
      "<th>for the port</th><th>what</th></tr>\n";
  for (const AuditFinding& finding : result.findings) {
    std::string what = html_escape(finding.summary);
    if (!finding.detail.empty()) {
      what += fmt::format("<br>matched: <code>{}</code>", html_escape(finding.detail));
    }
    if (!finding.excerpt.empty()) {
      what += fmt::format("<br><code>{}</code>", html_escape(finding.excerpt));
    }
    out += fmt::format(
        "<tr{}><td><code class=\"rule\">{}</code></td>{}<td>{}</td><td>{}</td><td>{}</td>"
        "<td>{}</td></tr>\n",
        id_attribute(finding.anchor), html_escape(finding.rule), tier_cell(tier_name(finding.tier)),
        html_escape(finding.component), location(finding.file, finding.line),
        html_escape(port_role(finding)), what);
  }
  out += "</table>\n";
  return out + "</section>\n";
}

}  // namespace gpuport::html
