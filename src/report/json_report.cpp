// JSON report: one ordered document mirroring ScanResult, streamed; every string is written as
// valid UTF-8.
#include "report/json_report.h"
#include "scan/coverage.h"

#include "report/json_writer.h"
#include "report/report_groups.h"
#include "report/text_util.h"
#include "version.h"

namespace gpuport {

namespace {

void string_list(JsonWriter& w, std::string_view name, const std::vector<std::string>& items) {
  w.key(name);
  w.begin_array();
  for (const std::string& item : items) {
    w.value(item);
  }
  w.end_array();
}

void summary(JsonWriter& w, const ScanResult& result) {
  w.key("summary");
  w.begin_object();
  w.field("files", result.files_scanned);
  w.field("bytes", result.bytes_scanned);
  w.field("seconds", result.seconds);
  w.field("ignored_entries", result.ignored_entries);
  if (const auto highest = highest_tier(result)) {
    w.field("highest_tier", tier_name(*highest));
  } else {
    w.null_field("highest_tier");
  }
  w.field("findings", result.findings.size());
  w.key("findings_by_tier");
  w.begin_object();
  const auto tiers = findings_by_tier(result);
  for (std::size_t i = 0; i < k_tier_count; ++i) {
    w.field(tier_name(static_cast<Tier>(i)), tiers[i]);
  }
  w.end_object();
  w.key("findings_by_rule");
  w.begin_object();
  for (const RuleCount& entry : findings_by_rule(result)) {
    w.field(entry.rule->id, entry.count);
  }
  w.end_object();
  w.key("findings_by_scope");
  w.begin_object();
  const auto scopes = findings_by_scope(result);
  for (std::size_t i = 0; i < k_scope_count; ++i) {
    w.field(scope_name(static_cast<Scope>(i)), scopes[i]);
  }
  w.end_object();
  const AmdBuildTally amd = count_amd_build(result);
  w.key("findings_by_amd_build");
  w.begin_object();
  w.field("compiled", amd.compiled);
  w.field("excluded", amd.excluded);
  w.field("excluded_with_alternative", amd.excluded_with_alternative);
  w.field("unknown", amd.unknown);
  w.end_object();
  w.end_object();
}

void build_line(JsonWriter& w, const BuildLine& line) {
  w.begin_object();
  w.field("file", line.file);
  w.field("line", line.line);
  w.field("text", line.text);
  w.end_object();
}

// {"state", "alternative", "guard" | "build"}: why the AMD build leaves an item out.
void amd_build(JsonWriter& w, const ScanResult& result, std::string_view file,
               const AmdBuild& amd) {
  w.key("amd_build");
  w.begin_object();
  w.field("state", amd_state_name(amd.state));
  if (amd.state == AmdBuildState::Excluded) {
    w.field("alternative", amd.alternative);
    if (amd.guard_line != 0) {
      w.key("guard");
      w.begin_object();
      w.field("line", amd.guard_line);
      const GuardLine* guard = find_guard(result, file, amd.guard_line);
      w.field("text", guard != nullptr ? std::string_view(guard->text) : std::string_view());
      w.end_object();
    } else if (const ExcludedSource* source = find_excluded_source(result, file)) {
      w.key("build");
      build_line(w, source->where);
    }
  }
  w.end_object();
}

void amd_build_path(JsonWriter& w, const ScanResult& result) {
  const AmdBuildPath& path = result.amd_build;
  w.key("amd_build");
  w.begin_object();
  w.field("exists", path.exists);
  auto lines = [&](std::string_view name, const std::vector<BuildLine>& items) {
    w.key(name);
    w.begin_array();
    for (const BuildLine& line : items) {
      build_line(w, line);
    }
    w.end_array();
  };
  auto evidence = [&](std::string_view name, const std::vector<Evidence>& items) {
    w.key(name);
    w.begin_array();
    for (const Evidence& item : items) {
      w.begin_object();
      w.field("file", item.file);
      w.field("line", item.line);
      w.end_object();
    }
    w.end_array();
  };
  lines("setup", path.setup);
  lines("switches", path.switches);
  evidence("shims", path.shims);
  evidence("shim_includes", path.shim_includes);
  w.field("shim_include_sites", path.shim_include_sites);
  evidence("hip_includes", path.hip_includes);
  w.field("hip_include_files", path.hip_include_files);
  evidence("ci", path.ci);
  w.field("kernel_files", path.kernel_files);
  w.field("kernel_files_compiled", path.kernel_files_compiled);
  w.field("kernel_files_excluded", path.kernel_files_excluded);
  w.key("excluded_sources");
  w.begin_array();
  for (const ExcludedSource& source : result.excluded_sources) {
    w.begin_object();
    w.field("file", source.file);
    w.field("alternative", source.alternative);
    w.key("build");
    build_line(w, source.where);
    if (!source.via.empty()) {
      w.field("included_by", source.via);
    }
    w.end_object();
  }
  w.end_array();
  w.end_object();
}

void rules(JsonWriter& w, const ScanResult& result, const ReportOptions& options) {
  w.key("rules");
  w.begin_array();
  for (const RuleCount& entry : findings_by_rule(result)) {
    const RuleInfo& rule = *entry.rule;
    w.begin_object();
    w.field("id", rule.id);
    w.field("family", rule.family);
    w.field("component", rule.component);
    w.field("tier", tier_name(rule.tier));
    w.field("severity", severity_name(rule.severity));
    w.field("effort_hours", rule.effort_hours);
    w.field("summary", rule.summary);
    w.field("fix", rule.fix);
    w.field("doc", options.rule_doc_base + std::string(rule.id) + ".md");
    w.end_object();
  }
  w.end_array();
}

void languages(JsonWriter& w, const ScanResult& result) {
  w.key("languages");
  w.begin_object();
  for (const auto& [language, stats] : result.languages) {
    w.key(language_name(language));
    w.begin_object();
    w.field("files", stats.files);
    w.field("bytes", stats.bytes);
    w.field("lines", stats.lines);
    w.end_object();
  }
  w.end_object();
}

// {"compiled", "excluded", "excluded_with_alternative", "unknown"} under "amd_build".
void tally(JsonWriter& w, const AmdBuildTally& amd) {
  w.key("amd_build");
  w.begin_object();
  w.field("compiled", amd.compiled);
  w.field("excluded", amd.excluded);
  w.field("excluded_with_alternative", amd.excluded_with_alternative);
  w.field("unknown", amd.unknown);
  w.end_object();
}

void components(JsonWriter& w, const ScanResult& result) {
  w.key("components");
  w.begin_array();
  for (const Component& component : result.components) {
    w.begin_object();
    w.field("name", component.name);
    w.field("layer", tier_name(component.layer));
    w.field("amd_status", component.amd_status);
    w.field("amd_equivalent", component.amd_equivalent);
    w.field("cost", component.cost);
    w.field("findings", component.findings);
    w.field("findings_outside_product", component.findings_outside_product);
    w.field("effort_hours", component.effort_hours);
    tally(w, component.amd);
    w.key("evidence");
    w.begin_array();
    for (const Evidence& item : component.evidence) {
      w.begin_object();
      w.field("file", item.file);
      w.field("line", item.line);
      w.end_object();
    }
    w.end_array();
    w.end_object();
  }
  w.end_array();
}

void finding(JsonWriter& w, const ScanResult& result, const Finding& finding) {
  const RuleInfo* rule = rule_of(finding);
  w.begin_object();
  if (rule != nullptr) {
    w.field("rule", rule->id);
    w.field("tier", tier_name(rule->tier));
    w.field("severity", severity_name(rule->severity));
  } else {
    w.null_field("rule");
    w.null_field("tier");
    w.null_field("severity");
  }
  w.field("file", finding.file);
  w.field("line", finding.line);
  w.field("column", finding.column);
  w.field("excerpt", finding.excerpt);
  w.field("detail", finding.detail);
  w.field("context", context_name(finding.context));
  w.field("scope", scope_name(finding.scope));
  amd_build(w, result, finding.file, finding.amd());
  w.field("message", rule != nullptr ? rule->summary : std::string_view());
  w.end_object();
}

void findings(JsonWriter& w, const ScanResult& result, const ReportOptions& options) {
  w.key("findings");
  w.begin_array();
  w.elements(result.findings.size(), options.jobs,
             [&](JsonWriter& out, std::size_t i) { finding(out, result, result.findings[i]); });
  w.end_array();
}

void features(JsonWriter& w, const KernelFeatures& features) {
  w.key("features");
  w.begin_object();
  string_list(w, "ptx_instructions", features.ptx_instructions);
  string_list(w, "warp_intrinsics", features.warp_intrinsics);
  w.field("wmma", features.wmma);
  w.field("mma_ptx", features.mma_ptx);
  if (features.static_shared_bytes) {
    w.field("static_shared_bytes", *features.static_shared_bytes);
  } else {
    w.null_field("static_shared_bytes");
  }
  w.field("atomics", features.atomics);
  w.field("textures", features.textures);
  w.field("surfaces", features.surfaces);
  w.field("cooperative_groups", features.cooperative_groups);
  w.field("dynamic_parallelism", features.dynamic_parallelism);
  w.end_object();
}

void kernel(JsonWriter& w, const ScanResult& result, const Kernel& kernel) {
  w.begin_object();
  w.field("name", kernel.name);
  w.field("file", kernel.file);
  w.field("line", kernel.line);
  w.field("lines_of_code", kernel.lines_of_code);
  w.field("template", kernel.is_template);
  w.field("via_macro", kernel.via_macro);
  w.field("language", kernel_language_name(kernel.language));
  w.field("context", context_name(kernel.context));
  w.field("scope", scope_name(kernel.scope));
  amd_build(w, result, kernel.file, kernel.amd);
  features(w, kernel.features);
  w.end_object();
}

void kernels(JsonWriter& w, const ScanResult& result, const ReportOptions& options) {
  w.key("kernels");
  w.begin_array();
  w.elements(result.kernels.size(), options.jobs,
             [&](JsonWriter& out, std::size_t i) { kernel(out, result, result.kernels[i]); });
  w.end_array();
}

void launches(JsonWriter& w, const ScanResult& result) {
  w.key("launches");
  w.begin_array();
  for (const LaunchSite& launch : result.launches) {
    w.begin_object();
    w.field("kernel", launch.kernel);
    w.field("file", launch.file);
    w.field("line", launch.line);
    w.field("kind", launch_kind_name(launch.kind));
    w.field("scope", scope_name(launch.scope));
    amd_build(w, result, launch.file, launch.amd);
    w.end_object();
  }
  w.end_array();
}

void instantiation_files(JsonWriter& w, const ScanResult& result) {
  w.key("instantiation_files");
  w.begin_array();
  for (const InstantiationFile& file : result.instantiation_files) {
    w.begin_object();
    w.field("file", file.file);
    w.field("instantiations", file.instantiations);
    w.end_object();
  }
  w.end_array();
}

void artifacts(JsonWriter& w, const ScanResult& result) {
  w.key("artifacts");
  w.begin_array();
  for (const Artifact& artifact : result.artifacts) {
    w.begin_object();
    w.field("file", artifact.file);
    w.field("kind", artifact_kind_name(artifact.kind));
    w.field("bytes", artifact.bytes);
    w.field("line", artifact.line);
    w.end_object();
  }
  w.end_array();
}

void amd_path(JsonWriter& w, const ScanResult& result) {
  w.key("amd_path");
  w.begin_array();
  for (const AmdPathSign& sign : result.amd_path) {
    w.begin_object();
    w.field("kind", amd_path_kind_name(sign.kind));
    w.field("file", sign.file);
    w.field("line", sign.line);
    w.field("detail", sign.detail);
    w.end_object();
  }
  w.end_array();
}

void skipped(JsonWriter& w, const ScanResult& result) {
  write_skipped_entries(w, "skipped", result.skipped);
  w.key("skipped_by_reason");
  w.begin_object();
  for (const NameCount& entry : skipped_by_reason(result)) {
    w.field(entry.name, entry.count);
  }
  w.end_object();
}

// Whether the findings cover every product file: the files that could not be read are listed.
void coverage(JsonWriter& w, const ScanResult& result) {
  const ScanCoverage covered = scan_coverage(result);
  w.key("coverage");
  w.begin_object();
  w.field("complete", covered.complete());
  w.field("files_read", covered.files_read);
  w.field("files_skipped", covered.files_skipped);
  w.field("summary", coverage_gap(covered));
  write_skipped_entries(w, "unread_product_files", covered.unread);
  w.end_object();
}

void warnings(JsonWriter& w, const ScanResult& result) {
  w.key("warnings");
  w.begin_array();
  for (const FileWarning& warning : result.warnings) {
    w.begin_object();
    w.field("file", warning.file);
    w.field("line", warning.line);
    w.field("column", warning.column);
    w.field("message", warning.message);
    w.end_object();
  }
  w.end_array();
}

}  // namespace

void write_skipped_entries(JsonWriter& w, std::string_view key,
                           std::span<const SkippedEntry> entries) {
  w.key(key);
  w.begin_array();
  for (const SkippedEntry& entry : entries) {
    w.begin_object();
    w.field("path", entry.path);
    w.field("reason", skip_reason_name(entry.reason));
    w.field("size", entry.size);
    w.field("detail", entry.detail);
    w.end_object();
  }
  w.end_array();
}

void write_json(const ScanResult& result, const ReportOptions& options, OutputSink& sink) {
  JsonWriter w(sink);
  w.begin_object();
  w.field("schema_version", k_json_schema_version);
  w.key("tool");
  w.begin_object();
  w.field("name", "gpuport");
  w.field("version", k_version);
  w.end_object();
  w.field("root", result.root);
  summary(w, result);
  languages(w, result);
  components(w, result);
  findings(w, result, options);
  rules(w, result, options);
  kernels(w, result, options);
  launches(w, result);
  instantiation_files(w, result);
  artifacts(w, result);
  amd_path(w, result);
  amd_build_path(w, result);
  skipped(w, result);
  coverage(w, result);
  warnings(w, result);
  w.end_object();
  w.finish();
}

std::string render_json(const ScanResult& result, const ReportOptions& options) {
  StringSink sink;
  write_json(result, options, sink);
  return std::move(sink.text());
}

}  // namespace gpuport
