#include "report/audit/audit_json.h"
#include "report/json_report.h"

#include <algorithm>

#include "report/audit/audit_units.h"
#include "report/json_writer.h"
#include "report/profile/profile_units.h"
#include "report/report_groups.h"
#include "scan/project/scope.h"
#include "version.h"

namespace gpuport {

namespace {

void count(JsonWriter& json, std::string_view name, std::int64_t value) {
  json.field(name, static_cast<std::uint64_t>(std::max<std::int64_t>(0, value)));
}

// Signed: a monthly delta or a weight may be negative; these stay doubles.
void money(JsonWriter& json, std::string_view name, double dollars) {
  json.field(name, round2(dollars));
}

void optional_number(JsonWriter& json, std::string_view name, std::optional<double> value,
                     double (*round)(double)) {
  if (value) {
    json.field(name, round(*value));
  } else {
    json.null_field(name);
  }
}

void write_days(JsonWriter& json, std::string_view name, const DayRange& range) {
  json.key(name);
  json.begin_object();
  json.field("low", round2(range.low));
  json.field("likely", round2(range.likely));
  json.field("high", round2(range.high));
  json.end_object();
}

void write_inputs(JsonWriter& json, const AuditInputSummary& inputs) {
  json.key("inputs");
  json.begin_object();
  json.field("repo", inputs.repo);
  if (inputs.config_path) {
    json.field("config", *inputs.config_path);
  } else {
    json.null_field("config");
  }
  json.key("overrides");
  json.begin_array();
  for (const ConfigOverride& entry : inputs.overrides) {
    json.begin_object();
    json.field("key", entry.key);
    json.field("default", entry.default_value);
    json.field("value", entry.value);
    json.field("line", entry.line);
    json.end_object();
  }
  json.end_array();
  json.key("traces");
  json.begin_array();
  for (const AuditTraceInfo& trace : inputs.traces) {
    json.begin_object();
    json.field("path", trace.path);
    json.field("format", format_name(trace.format));
    json.field("vendor", vendor_name(trace.vendor));
    json.field("gpu", trace.gpu);
    count(json, "gpu_ns", trace.gpu_ns);
    count(json, "kernel_calls", trace.kernel_calls);
    count(json, "unique_kernels", trace.unique_kernels);
    count(json, "steps", trace.steps);
    if (trace.p95_ns) {
      count(json, "p95_ns", *trace.p95_ns);
    } else {
      json.null_field("p95_ns");
    }
    count(json, "joined_kernels", trace.joined_kernels);
    json.field("note", trace.note);
    json.end_object();
  }
  json.end_array();
  json.field("files_scanned", inputs.files_scanned);
  json.field("findings", inputs.findings);
  json.field("scanned_kernels", inputs.scanned_kernels);
  json.field("translatable_files", inputs.translatable_files);
  json.field("files_changed_by_translation", inputs.files_changed_by_translation);
  json.field("translation_rocm", inputs.translation_rocm);
  json.field("amd_build_exists", inputs.amd_build_exists);
  json.field("port_work_findings", inputs.port_work_findings);
  json.field("handled_for_amd_findings", inputs.handled_for_amd_findings);
  json.field("cuda_only_findings", inputs.cuda_only_findings);
  json.field("outside_product_findings", inputs.outside_product_findings);
  json.end_object();
}

void write_coverage(JsonWriter& json, const TraceCoverage& coverage) {
  json.key("coverage");
  json.begin_object();
  json.field("traced", coverage.traced);
  json.field("low_factor", round6(coverage.low_factor));
  json.field("high_factor", round6(coverage.high_factor));
  json.field("note", coverage.note);
  json.end_object();
}

void write_verdict(JsonWriter& json, const VerdictSummary& verdict) {
  json.key("verdict");
  json.begin_object();
  json.field("kind", verdict_id(verdict.kind));
  json.field("headline", verdict.headline);
  json.field("days_low", round2(verdict.days_low));
  json.field("days_high", round2(verdict.days_high));
  json.key("reasons");
  json.begin_array();
  for (const VerdictReason& reason : verdict.reasons) {
    json.begin_object();
    json.field("text", reason.text);
    json.field("anchor", reason.anchor);
    json.field("weight", round2(reason.weight));
    json.end_object();
  }
  json.end_array();
  json.key("assumed");
  json.begin_array();
  for (const std::string& assumed : verdict.assumed) {
    json.value(assumed);
  }
  json.end_array();
  json.field("cost_decides", verdict.cost_decides);
  json.field("incomplete", verdict.incomplete);
  json.end_object();
}

// The product files the scan could not read; the estimate leaves them out.
void write_source_coverage(JsonWriter& json, const ScanCoverage& coverage) {
  json.key("source_coverage");
  json.begin_object();
  json.field("complete", coverage.complete());
  json.field("files_read", coverage.files_read);
  json.field("files_skipped", coverage.files_skipped);
  write_skipped_entries(json, "unread_product_files", coverage.unread);
  json.end_object();
}

void write_effort(JsonWriter& json, const EffortSummary& effort) {
  json.key("effort");
  json.begin_object();
  json.key("tiers");
  json.begin_array();
  for (const EffortTierTotal& tier : effort.tiers) {
    json.begin_object();
    json.field("tier", effort_tier_key(tier.tier));
    json.field("items", tier.items);
    write_days(json, "days", tier.days);
    json.end_object();
  }
  json.end_array();
  write_days(json, "total", effort.total);
  const MagnitudeCheck& magnitude = effort.magnitude;
  json.key("magnitude");
  json.begin_object();
  json.field("state", magnitude_state_key(magnitude.state));
  json.field("kernels", magnitude.kernels);
  json.field("kernel_lines", magnitude.kernel_lines);
  json.field("port_days", round2(magnitude.port_days));
  if (magnitude.lines_per_day) {
    json.field("lines_per_day", round2(*magnitude.lines_per_day));
  } else {
    json.null_field("lines_per_day");
  }
  json.field("plausible_low", magnitude.plausible_low);
  json.field("plausible_high", magnitude.plausible_high);
  json.field("text", magnitude.text);
  json.end_object();
  json.end_object();
}

void write_platform(JsonWriter& json, std::string_view name, const PlatformCost& platform) {
  json.key(name);
  json.begin_object();
  json.field("vendor", vendor_name(platform.vendor));
  json.field("gpu", platform.gpu);
  money(json, "gpu_price_per_hour", platform.gpu_price_per_hour);
  json.field("gpus_per_replica", platform.gpus_per_replica);
  json.field("throughput_rps", round6(platform.throughput_rps));
  json.field("throughput_assumed", platform.throughput_assumed);
  money(json, "cost_per_million", platform.cost_per_million);
  money(json, "monthly_cost", platform.monthly_cost);
  if (const auto& source = platform.throughput_source) {
    json.key("throughput_source");
    json.begin_object();
    json.field("file", source->file);
    json.field("slo_qualified", source->slo_qualified);
    json.field("slo", source->slo);
    json.field("load", source->load);
    json.field("model", source->model);
    json.field("note", source->note);
    json.end_object();
  }
  json.end_object();
}

void write_cost(JsonWriter& json, const CostSummary& cost) {
  json.key("cost");
  json.begin_object();
  write_platform(json, "nvidia", cost.nvidia);
  write_platform(json, "amd", cost.amd);
  json.field("monthly_requests", round2(cost.monthly_requests));
  money(json, "monthly_delta", cost.monthly_delta);
  money(json, "day_rate", cost.day_rate);
  json.key("porting_cost");
  json.begin_object();
  money(json, "low", cost.porting_cost.low);
  money(json, "likely", cost.porting_cost.likely);
  money(json, "high", cost.porting_cost.high);
  json.end_object();
  optional_number(json, "payback_months", cost.payback_months, round2);
  json.field("horizon_months", round2(cost.horizon_months));
  json.field("break_even_ratio", round6(cost.break_even_ratio));
  optional_number(json, "payback_ratio", cost.payback_ratio, round6);
  json.end_object();
}

void write_portability(JsonWriter& json, const std::vector<Component>& components) {
  json.key("portability");
  json.begin_array();
  for (const Component& component : components) {
    json.begin_object();
    json.field("component", component.name);
    json.field("layer", tier_name(component.layer));
    json.field("findings", component.findings);
    json.field("amd_status", component.amd_status);
    json.field("amd_equivalent", component.amd_equivalent);
    json.field("cost", component.cost);
    json.field("effort_hours", round2(component.effort_hours));
    json.key("evidence");
    json.begin_array();
    for (const Evidence& evidence : component.evidence) {
      json.begin_object();
      json.field("file", evidence.file);
      json.field("line", evidence.line);
      json.end_object();
    }
    json.end_array();
    json.end_object();
  }
  json.end_array();
}

void write_gpu_time(JsonWriter& json, const std::vector<TraceClassTime>& traces) {
  json.key("gpu_time");
  json.begin_array();
  for (const TraceClassTime& trace : traces) {
    json.begin_object();
    json.field("trace", trace.trace);
    count(json, "gpu_ns", trace.gpu_ns);
    count(json, "own_code_ns", trace.own_code_ns);
    json.key("classes");
    json.begin_array();
    for (const ClassTime& klass : trace.classes) {
      json.begin_object();
      json.field("class", class_name(klass.klass));
      count(json, "time_ns", klass.time_ns);
      json.field("share", round6(klass.share));
      count(json, "own_code_ns", klass.own_code_ns);
      json.end_object();
    }
    json.end_array();
    json.end_object();
  }
  json.end_array();
}

void write_kernels(JsonWriter& json, const std::vector<AuditKernel>& kernels) {
  json.key("kernels");
  json.begin_array();
  for (const AuditKernel& kernel : kernels) {
    json.begin_object();
    json.field("anchor", kernel.anchor);
    json.field("name", kernel.name);
    json.field("raw_name", kernel.raw_name);
    if (kernel.hotness == Hotness::Untraced) {
      json.null_field("trace");
    } else {
      json.field("trace", kernel.trace);
    }
    json.field("class", class_name(kernel.klass));
    json.field("owner", kernel.owner);
    json.field("own_code", kernel.own_code);
    json.field("share", round6(kernel.share));
    count(json, "total_ns", kernel.total_ns);
    count(json, "calls", kernel.calls);
    if (kernel.source) {
      json.key("source");
      json.begin_object();
      json.field("file", kernel.source->file);
      json.field("line", kernel.source->line);
      json.end_object();
    } else {
      json.null_field("source");
    }
    json.field("hotness", hotness_key(kernel.hotness));
    json.field("why", kernel.why);
    json.key("findings");
    json.begin_array();
    for (const std::string& anchor : kernel.finding_anchors) {
      json.value(anchor);
    }
    json.end_array();
    write_days(json, "tuning_days",
               {kernel.tuning_days_low, kernel.tuning_days_likely, kernel.tuning_days_high});
    json.end_object();
  }
  json.end_array();
}

void write_evidence(JsonWriter& json, const EvidenceLink& link) {
  json.begin_object();
  json.field("kind", evidence_kind_key(link.kind));
  json.field("anchor", link.anchor);
  json.field("label", link.label);
  json.field("rule", link.rule);
  json.field("file", link.file);
  json.field("line", link.line);
  json.end_object();
}

void write_items(JsonWriter& json, const std::vector<EffortItem>& items) {
  json.key("items");
  json.begin_array();
  for (const EffortItem& item : items) {
    json.begin_object();
    json.field("anchor", item.anchor);
    json.field("tier", effort_tier_key(item.tier));
    json.field("title", item.title);
    json.field("quantity", round6(item.quantity));
    json.field("quantity_unit", item.quantity_unit);
    json.field("unit", effort_unit_key(item.unit));
    json.field("per_unit", round6(item.per_unit));
    json.field("hotness", round6(item.hotness));
    json.field("basis", item.basis);
    json.field("weight_key", item.weight_key);
    write_days(json, "days", item.days);
    json.key("evidence");
    json.begin_array();
    for (const EvidenceLink& link : item.evidence) {
      write_evidence(json, link);
    }
    json.end_array();
    json.end_object();
  }
  json.end_array();
}

void write_findings(JsonWriter& json, const std::vector<AuditFinding>& findings) {
  json.key("findings");
  json.begin_array();
  for (const AuditFinding& finding : findings) {
    json.begin_object();
    json.field("anchor", finding.anchor);
    json.field("rule", finding.rule);
    json.field("tier", tier_name(finding.tier));
    json.field("component", finding.component);
    json.field("summary", finding.summary);
    json.field("file", finding.file);
    json.field("line", finding.line);
    json.field("excerpt", finding.excerpt);
    json.field("detail", finding.detail);
    json.field("scope", scope_name(finding.scope));
    json.key("amd_build");
    json.begin_object();
    json.field("state", amd_state_name(finding.amd.state));
    if (finding.amd.state == AmdBuildState::Excluded) {
      json.field("alternative", finding.amd.alternative);
      json.field("guard_line", finding.amd.guard_line);
    }
    json.end_object();
    json.field("port_work", finding.is_port_work());
    json.end_object();
  }
  json.end_array();
}

void write_feature_gaps(JsonWriter& json, const std::vector<FeatureGap>& gaps) {
  json.key("feature_gaps");
  json.begin_array();
  for (const FeatureGap& gap : gaps) {
    json.begin_object();
    json.field("component", gap.component);
    json.field("amd_equivalent", gap.amd_equivalent);
    json.field("findings", gap.findings);
    json.field("first", gap.first_anchor);
    json.field("file", gap.file);
    json.field("line", gap.line);
    json.field("folder", gap.folder);
    if (gap.port_days) {
      write_days(json, "port_days", *gap.port_days);
    } else {
      json.null_field("port_days");
    }
    json.field("port_basis", gap.port_basis);
    json.end_object();
  }
  json.end_array();
}

void write_measure_first(JsonWriter& json, const MeasurePlan& plan) {
  json.key("measure_first");
  json.begin_object();
  json.field("first", plan.first);
  json.key("steps");
  json.begin_array();
  for (const MeasureStep& step : plan.steps) {
    json.begin_object();
    json.field("class", class_name(step.klass));
    json.field("what", step.what);
    json.field("share", round6(step.share));
    json.field("amd_counterpart", step.amd_counterpart);
    json.field("how", step.how);
    json.field("kernel", step.anchor);
    json.end_object();
  }
  json.end_array();
  json.field("largest_risk", plan.largest_risk);
  json.end_object();
}

}  // namespace

std::string render_audit_json(const AuditResult& result) {
  StringSink sink;
  JsonWriter json(sink);
  json.begin_object();
  json.field("schema_version", k_audit_schema_version);
  json.key("tool");
  json.begin_object();
  json.field("name", "gpuport");
  json.field("version", k_version);
  json.end_object();
  json.field("command", "audit");
  write_inputs(json, result.inputs);
  write_coverage(json, result.coverage);
  write_source_coverage(json, result.source_coverage);
  write_verdict(json, result.verdict);
  write_effort(json, result.effort);
  write_cost(json, result.cost);
  json.field("hot_threshold", round6(result.hot_threshold));
  write_portability(json, result.portability);
  write_gpu_time(json, result.class_time);
  write_kernels(json, result.kernels);
  write_items(json, result.items);
  write_findings(json, result.findings);
  write_feature_gaps(json, result.feature_gaps);
  write_measure_first(json, result.measure_first);
  json.key("warnings");
  json.begin_array();
  for (const std::string& warning : result.warnings) {
    json.value(warning);
  }
  json.end_array();
  json.end_object();
  json.finish();
  return std::move(sink.text());
}

}  // namespace gpuport
