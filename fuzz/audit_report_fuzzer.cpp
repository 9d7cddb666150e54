// libFuzzer target: the audit writers (HTML, Markdown, JSON) on an AuditResult built from the
// input: arbitrary bytes as names, paths, anchors and sentences; any double (NaN, infinities,
// huge values) as shares, days and dollars. Checks that nothing crashes, that the JSON parses,
// and that no input string reaches the HTML as markup: the page has exactly as many '<', '>' and
// '"' as the page of the same result with every string replaced by a plain placeholder.
#include <fuzzer/FuzzedDataProvider.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "audit/audit_result.h"
#include "report/audit/audit_html.h"
#include "report/audit/audit_json.h"
#include "report/audit/audit_markdown.h"

namespace gpuport {
namespace {

class Builder {
 public:
  explicit Builder(FuzzedDataProvider& in) : m_in(in) {}

  std::string text() { return m_in.ConsumeRandomLengthString(48); }
  double number() {
    // Half the time any bit pattern (NaN, infinities, denormals), else a plausible value.
    if (m_in.ConsumeBool()) {
      return std::bit_cast<double>(m_in.ConsumeIntegral<std::uint64_t>());
    }
    return m_in.ConsumeFloatingPointInRange<double>(-1e6, 1e9);
  }
  std::int64_t count() { return m_in.ConsumeIntegralInRange<std::int64_t>(0, INT64_MAX); }
  std::uint32_t line() { return m_in.ConsumeIntegral<std::uint32_t>(); }
  DayRange days() { return {number(), number(), number()}; }
  template <typename Enum>
  Enum pick(int count) {
    return static_cast<Enum>(m_in.ConsumeIntegralInRange<int>(0, count - 1));
  }
  std::size_t items(std::size_t most) { return m_in.ConsumeIntegralInRange<std::size_t>(0, most); }

 private:
  FuzzedDataProvider& m_in;
};

AuditResult build(FuzzedDataProvider& in) {
  Builder b(in);
  AuditResult r;
  r.inputs.repo = b.text();
  for (std::size_t i = b.items(2); i > 0; --i) {
    AuditTraceInfo trace;
    trace.path = b.text();
    trace.vendor = b.pick<Vendor>(3);
    trace.gpu = b.text();
    trace.gpu_ns = b.count();
    trace.kernel_calls = b.count();
    trace.steps = b.count();
    if (in.ConsumeBool()) {
      trace.p95_ns = b.count();
    }
    trace.note = b.text();
    r.inputs.traces.push_back(trace);
  }
  if (in.ConsumeBool()) {
    r.inputs.config_path = b.text();
  }
  for (std::size_t i = b.items(2); i > 0; --i) {
    r.inputs.overrides.push_back({b.text(), b.text(), b.text(), b.line()});
  }
  for (std::size_t i = b.items(3); i > 0; --i) {
    Component component;
    component.name = b.text();
    component.layer = b.pick<Tier>(5);
    component.amd_status = b.text();
    component.amd_equivalent = b.text();
    component.cost = b.text();
    component.effort_hours = b.number();
    component.evidence.push_back({b.text(), b.line()});
    r.portability.push_back(component);
  }
  for (std::size_t i = b.items(3); i > 0; --i) {
    r.findings.push_back({b.text(), b.text(), b.pick<Tier>(5), b.text(), b.text(), b.text(),
                          b.line(), b.text(), b.text(), b.pick<Scope>(k_scope_count),
                          AmdBuild{b.pick<AmdBuildState>(3), in.ConsumeBool(), b.line()}});
  }
  for (std::size_t i = b.items(2); i > 0; --i) {
    FeatureGap gap;
    gap.component = b.text();
    gap.amd_equivalent = b.text();
    gap.findings = b.line();
    gap.first_anchor = b.text();
    gap.file = b.text();
    gap.line = b.line();
    gap.folder = b.text();
    if (in.ConsumeBool()) {  // a kernel family beside an AMD build, with its port estimate
      gap.port_days = b.days();
      gap.port_basis = b.text();
    }
    r.feature_gaps.push_back(gap);
  }
  for (std::size_t i = b.items(3); i > 0; --i) {
    AuditKernel kernel;
    kernel.anchor = b.text();
    kernel.name = b.text();
    kernel.raw_name = b.text();
    kernel.klass = b.pick<KernelClass>(12);
    kernel.owner = b.text();
    kernel.own_code = in.ConsumeBool();
    kernel.share = b.number();
    kernel.total_ns = b.count();
    kernel.calls = b.count();
    if (in.ConsumeBool()) {
      kernel.source = SourceRef{b.text(), b.line()};
    }
    kernel.hotness = b.pick<Hotness>(3);
    kernel.why = b.text();
    kernel.finding_anchors.push_back(b.text());
    kernel.tuning_days_low = b.number();
    kernel.tuning_days_likely = b.number();
    kernel.tuning_days_high = b.number();
    r.kernels.push_back(kernel);
  }
  for (std::size_t i = b.items(2); i > 0; --i) {
    TraceClassTime classes;
    classes.trace = b.items(3);
    classes.gpu_ns = b.count();
    classes.own_code_ns = b.count();
    for (std::size_t j = b.items(3); j > 0; --j) {
      classes.classes.push_back({b.pick<KernelClass>(12), b.count(), b.number(), b.count()});
    }
    r.class_time.push_back(classes);
  }
  for (std::size_t i = b.items(3); i > 0; --i) {
    EffortItem item;
    item.anchor = b.text();
    item.tier = b.pick<EffortTier>(4);
    item.title = b.text();
    item.evidence.push_back(
        {b.pick<EvidenceLink::Kind>(4), b.text(), b.text(), b.text(), b.text(), b.line()});
    item.quantity = b.number();
    item.quantity_unit = b.text();
    item.unit = b.pick<EffortUnit>(2);
    item.per_unit = b.number();
    item.hotness = b.number();
    item.basis = b.text();
    item.weight_key = b.text();
    item.days = b.days();
    r.items.push_back(item);
  }
  for (int tier = 0; tier < 4; ++tier) {
    r.effort.tiers.push_back({static_cast<EffortTier>(tier), b.line(), b.days()});
  }
  r.effort.total = b.days();
  r.measure_first.first = b.text();
  for (std::size_t i = b.items(3); i > 0; --i) {
    r.measure_first.steps.push_back(
        {b.pick<KernelClass>(12), b.text(), b.number(), b.text(), b.text(), b.text()});
  }
  r.measure_first.largest_risk = b.text();
  MagnitudeCheck& magnitude = r.effort.magnitude;
  magnitude.state = b.pick<MagnitudeState>(4);
  magnitude.kernels = b.line();
  magnitude.kernel_lines = b.count();
  magnitude.port_days = b.number();
  if (in.ConsumeBool()) {
    magnitude.lines_per_day = b.number();
  }
  magnitude.plausible_low = b.number();
  magnitude.plausible_high = b.number();
  magnitude.text = b.text();
  CostSummary& cost = r.cost;
  for (PlatformCost* platform : {&cost.nvidia, &cost.amd}) {
    *platform = {b.pick<Vendor>(3), b.text(),   b.number(), b.line(),    b.number(),
                 in.ConsumeBool(),  b.number(), b.number(), std::nullopt};
    if (in.ConsumeBool()) {  // a bench result gave the throughput (audit --bench-*)
      platform->throughput_source =
          ThroughputSource{b.text(), in.ConsumeBool(), b.text(), b.text(), b.text(), b.text()};
    }
  }
  cost.monthly_requests = b.number();
  cost.monthly_delta = b.number();
  cost.day_rate = b.number();
  cost.porting_cost = b.days();
  if (in.ConsumeBool()) {
    cost.payback_months = b.number();
  }
  cost.horizon_months = b.number();
  cost.break_even_ratio = b.number();
  if (in.ConsumeBool()) {
    cost.payback_ratio = b.number();
  }
  r.verdict.kind = b.pick<VerdictKind>(6);
  r.verdict.headline = b.text();
  r.verdict.days_low = b.number();
  r.verdict.days_high = b.number();
  for (std::size_t i = b.items(3); i > 0; --i) {
    r.verdict.reasons.push_back({b.text(), b.text(), b.number()});
  }
  for (std::size_t i = b.items(2); i > 0; --i) {
    r.verdict.assumed.push_back(b.text());
  }
  r.verdict.cost_decides = in.ConsumeBool();
  r.verdict.incomplete = b.text();
  r.coverage = {in.ConsumeBool(), b.number(), b.number(), b.text()};
  r.source_coverage.files_read = in.ConsumeIntegral<std::uint64_t>();
  r.source_coverage.files_skipped = in.ConsumeIntegral<std::uint64_t>();
  for (std::size_t i = b.items(3); i > 0; --i) {
    r.source_coverage.unread.push_back(
        {b.text(), in.ConsumeBool() ? SkipReason::Unreadable : SkipReason::TooLarge,
         in.ConsumeIntegral<std::uint64_t>(), b.text()});
  }
  r.hot_threshold = b.number();
  for (std::size_t i = b.items(2); i > 0; --i) {
    r.warnings.push_back(b.text());
  }
  return r;
}

// Every string replaced by "p<N>" (equal strings by equal placeholders, "" kept), so the page's
// structure (which depends on emptiness and equality only) stays, and no markup can come in.
class Placeholders {
 public:
  void operator()(std::string& text) {
    if (text.empty()) {
      return;
    }
    auto [it, added] = m_map.try_emplace(text, "p" + std::to_string(m_map.size()));
    text = it->second;
  }

 private:
  std::map<std::string, std::string> m_map;
};

AuditResult placeheld(AuditResult r) {
  Placeholders p;
  p(r.inputs.repo);
  for (AuditTraceInfo& trace : r.inputs.traces) {
    p(trace.path), p(trace.gpu), p(trace.note);
  }
  if (r.inputs.config_path) {
    p(*r.inputs.config_path);
  }
  for (ConfigOverride& entry : r.inputs.overrides) {
    p(entry.key), p(entry.default_value), p(entry.value);
  }
  for (Component& component : r.portability) {
    p(component.name), p(component.amd_status), p(component.amd_equivalent), p(component.cost);
    for (Evidence& evidence : component.evidence) {
      p(evidence.file);
    }
  }
  for (AuditFinding& finding : r.findings) {
    p(finding.anchor), p(finding.rule), p(finding.component), p(finding.summary);
    p(finding.file), p(finding.excerpt), p(finding.detail);
  }
  for (FeatureGap& gap : r.feature_gaps) {
    p(gap.component), p(gap.amd_equivalent), p(gap.first_anchor), p(gap.file), p(gap.folder);
    p(gap.port_basis);
  }
  for (AuditKernel& kernel : r.kernels) {
    p(kernel.anchor), p(kernel.name), p(kernel.raw_name), p(kernel.owner), p(kernel.why);
    if (kernel.source) {
      p(kernel.source->file);
    }
    for (std::string& anchor : kernel.finding_anchors) {
      p(anchor);
    }
  }
  for (EffortItem& item : r.items) {
    p(item.anchor), p(item.title), p(item.quantity_unit), p(item.basis), p(item.weight_key);
    for (EvidenceLink& link : item.evidence) {
      p(link.anchor), p(link.label), p(link.rule), p(link.file);
    }
  }
  p(r.cost.nvidia.gpu), p(r.cost.amd.gpu);
  p(r.verdict.headline);
  for (std::string& assumed : r.verdict.assumed) {
    p(assumed);
  }
  for (VerdictReason& reason : r.verdict.reasons) {
    p(reason.text), p(reason.anchor);
  }
  p(r.coverage.note);
  p(r.verdict.incomplete);
  for (SkippedEntry& entry : r.source_coverage.unread) {
    p(entry.path), p(entry.detail);
  }
  p(r.effort.magnitude.text);
  p(r.measure_first.first), p(r.measure_first.largest_risk);
  for (MeasureStep& step : r.measure_first.steps) {
    p(step.what), p(step.amd_counterpart), p(step.how), p(step.anchor);
  }
  for (std::string& warning : r.warnings) {
    p(warning);
  }
  return r;
}

std::array<std::size_t, 3> markup(const std::string& html) {
  return {static_cast<std::size_t>(std::count(html.begin(), html.end(), '<')),
          static_cast<std::size_t>(std::count(html.begin(), html.end(), '>')),
          static_cast<std::size_t>(std::count(html.begin(), html.end(), '"'))};
}

}  // namespace
}  // namespace gpuport

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzedDataProvider in(data, size);
  const gpuport::AuditResult result = gpuport::build(in);
  const std::string html = gpuport::render_audit_html(result);
  const std::string json = gpuport::render_audit_json(result);
  gpuport::render_audit_markdown(result);
  if (!nlohmann::json::accept(json)) {
    std::abort();
  }
  if (html.find("<script") != std::string::npos ||
      gpuport::markup(html) !=
          gpuport::markup(gpuport::render_audit_html(gpuport::placeheld(result)))) {
    std::abort();
  }
  return 0;
}
