// The JSON and SARIF writers as they were before streaming: an nlohmann document of everything,
// dumped at the end. Kept as the reference the streamed writers must match byte for byte.
#include "dom_reference.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "report/json_report.h"
#include "report/report_groups.h"
#include "report/sarif_report.h"
#include "report/text_util.h"
#include "scan/coverage.h"
#include "scan/rules/catalog.h"
#include "version.h"

namespace gpuport::testing {

namespace {

using Json = nlohmann::ordered_json;

Json str(std::string_view text) {
  return Json(valid_utf8(text));
}

Json string_list(const std::vector<std::string>& items) {
  Json list = Json::array();
  for (const std::string& item : items) {
    list.push_back(str(item));
  }
  return list;
}

Json summary(const ScanResult& result) {
  Json out;
  out["files"] = result.files_scanned;
  out["bytes"] = result.bytes_scanned;
  out["seconds"] = result.seconds;
  out["ignored_entries"] = result.ignored_entries;
  const auto highest = highest_tier(result);
  out["highest_tier"] = highest ? Json(std::string(tier_name(*highest))) : Json(nullptr);
  out["findings"] = result.findings.size();
  Json by_tier = Json::object();
  const auto tiers = findings_by_tier(result);
  for (std::size_t i = 0; i < k_tier_count; ++i) {
    by_tier[std::string(tier_name(static_cast<Tier>(i)))] = tiers[i];
  }
  out["findings_by_tier"] = by_tier;
  Json by_rule = Json::object();
  for (const RuleCount& entry : findings_by_rule(result)) {
    by_rule[std::string(entry.rule->id)] = entry.count;
  }
  out["findings_by_rule"] = by_rule;
  Json by_scope = Json::object();
  const auto scopes = findings_by_scope(result);
  for (std::size_t i = 0; i < k_scope_count; ++i) {
    by_scope[std::string(scope_name(static_cast<Scope>(i)))] = scopes[i];
  }
  out["findings_by_scope"] = by_scope;
  const AmdBuildTally amd = count_amd_build(result);
  out["findings_by_amd_build"] = {{"compiled", amd.compiled},
                                  {"excluded", amd.excluded},
                                  {"excluded_with_alternative", amd.excluded_with_alternative},
                                  {"unknown", amd.unknown}};
  return out;
}

Json build_line(const BuildLine& line) {
  return {{"file", str(line.file)}, {"line", line.line}, {"text", str(line.text)}};
}

Json amd_build(const ScanResult& result, std::string_view file, const AmdBuild& amd) {
  Json out;
  out["state"] = std::string(amd_state_name(amd.state));
  if (amd.state == AmdBuildState::Excluded) {
    out["alternative"] = amd.alternative;
    if (amd.guard_line != 0) {
      const GuardLine* guard = find_guard(result, file, amd.guard_line);
      out["guard"] = {{"line", amd.guard_line},
                      {"text", guard != nullptr ? str(guard->text) : Json("")}};
    } else if (const ExcludedSource* source = find_excluded_source(result, file)) {
      out["build"] = build_line(source->where);
    }
  }
  return out;
}

Json rules(const ScanResult& result, const ReportOptions& options) {
  Json list = Json::array();
  for (const RuleCount& entry : findings_by_rule(result)) {
    const RuleInfo& rule = *entry.rule;
    Json row;
    row["id"] = std::string(rule.id);
    row["family"] = std::string(rule.family);
    row["component"] = str(rule.component);
    row["tier"] = std::string(tier_name(rule.tier));
    row["severity"] = std::string(severity_name(rule.severity));
    row["effort_hours"] = rule.effort_hours;
    row["summary"] = str(rule.summary);
    row["fix"] = str(rule.fix);
    row["doc"] = options.rule_doc_base + std::string(rule.id) + ".md";
    list.push_back(std::move(row));
  }
  return list;
}

Json languages(const ScanResult& result) {
  Json out = Json::object();
  for (const auto& [language, stats] : result.languages) {
    out[std::string(language_name(language))] = {
        {"files", stats.files}, {"bytes", stats.bytes}, {"lines", stats.lines}};
  }
  return out;
}

Json evidence_list(const std::vector<Evidence>& evidence) {
  Json list = Json::array();
  for (const Evidence& item : evidence) {
    list.push_back({{"file", str(item.file)}, {"line", item.line}});
  }
  return list;
}

Json components(const ScanResult& result) {
  Json list = Json::array();
  for (const Component& component : result.components) {
    Json row;
    row["name"] = str(component.name);
    row["layer"] = std::string(tier_name(component.layer));
    row["amd_status"] = str(component.amd_status);
    row["amd_equivalent"] = str(component.amd_equivalent);
    row["cost"] = str(component.cost);
    row["findings"] = component.findings;
    row["findings_outside_product"] = component.findings_outside_product;
    row["effort_hours"] = component.effort_hours;
    row["amd_build"] = {{"compiled", component.amd.compiled},
                        {"excluded", component.amd.excluded},
                        {"excluded_with_alternative", component.amd.excluded_with_alternative},
                        {"unknown", component.amd.unknown}};
    row["evidence"] = evidence_list(component.evidence);
    list.push_back(std::move(row));
  }
  return list;
}

Json findings(const ScanResult& result) {
  Json list = Json::array();
  for (const Finding& finding : result.findings) {
    const RuleInfo* rule = rule_of(finding);
    Json row;
    row["rule"] = rule != nullptr ? Json(std::string(rule->id)) : Json(nullptr);
    row["tier"] = rule != nullptr ? Json(std::string(tier_name(rule->tier))) : Json(nullptr);
    row["severity"] =
        rule != nullptr ? Json(std::string(severity_name(rule->severity))) : Json(nullptr);
    row["file"] = str(finding.file);
    row["line"] = finding.line;
    row["column"] = finding.column;
    row["excerpt"] = str(finding.excerpt);
    row["detail"] = str(finding.detail);
    row["context"] = std::string(context_name(finding.context));
    row["scope"] = std::string(scope_name(finding.scope));
    row["amd_build"] = amd_build(result, finding.file.str(), finding.amd());
    row["message"] = rule != nullptr ? str(rule->summary) : Json("");
    list.push_back(std::move(row));
  }
  return list;
}

Json features(const KernelFeatures& features) {
  Json out;
  out["ptx_instructions"] = string_list(features.ptx_instructions);
  out["warp_intrinsics"] = string_list(features.warp_intrinsics);
  out["wmma"] = features.wmma;
  out["mma_ptx"] = features.mma_ptx;
  out["static_shared_bytes"] =
      features.static_shared_bytes ? Json(*features.static_shared_bytes) : Json(nullptr);
  out["atomics"] = features.atomics;
  out["textures"] = features.textures;
  out["surfaces"] = features.surfaces;
  out["cooperative_groups"] = features.cooperative_groups;
  out["dynamic_parallelism"] = features.dynamic_parallelism;
  return out;
}

Json kernels(const ScanResult& result) {
  Json list = Json::array();
  for (const Kernel& kernel : result.kernels) {
    Json row;
    row["name"] = str(kernel.name);
    row["file"] = str(kernel.file);
    row["line"] = kernel.line;
    row["lines_of_code"] = kernel.lines_of_code;
    row["template"] = kernel.is_template;
    row["via_macro"] = kernel.via_macro;
    row["language"] = std::string(kernel_language_name(kernel.language));
    row["context"] = std::string(context_name(kernel.context));
    row["scope"] = std::string(scope_name(kernel.scope));
    row["amd_build"] = amd_build(result, kernel.file.str(), kernel.amd);
    row["features"] = features(kernel.features);
    list.push_back(std::move(row));
  }
  return list;
}

Json launches(const ScanResult& result) {
  Json list = Json::array();
  for (const LaunchSite& launch : result.launches) {
    list.push_back({{"kernel", str(launch.kernel)},
                    {"file", str(launch.file)},
                    {"line", launch.line},
                    {"kind", std::string(launch_kind_name(launch.kind))},
                    {"scope", std::string(scope_name(launch.scope))},
                    {"amd_build", amd_build(result, launch.file.str(), launch.amd)}});
  }
  return list;
}

Json amd_build_path(const ScanResult& result) {
  const AmdBuildPath& path = result.amd_build;
  auto lines = [](const std::vector<BuildLine>& items) {
    Json list = Json::array();
    for (const BuildLine& line : items) {
      list.push_back(build_line(line));
    }
    return list;
  };
  Json out;
  out["exists"] = path.exists;
  out["setup"] = lines(path.setup);
  out["switches"] = lines(path.switches);
  out["shims"] = evidence_list(path.shims);
  out["shim_includes"] = evidence_list(path.shim_includes);
  out["shim_include_sites"] = path.shim_include_sites;
  out["hip_includes"] = evidence_list(path.hip_includes);
  out["hip_include_files"] = path.hip_include_files;
  out["ci"] = evidence_list(path.ci);
  out["kernel_files"] = path.kernel_files;
  out["kernel_files_compiled"] = path.kernel_files_compiled;
  out["kernel_files_excluded"] = path.kernel_files_excluded;
  Json excluded = Json::array();
  for (const ExcludedSource& source : result.excluded_sources) {
    Json entry = {{"file", str(source.file)},
                  {"alternative", source.alternative},
                  {"build", build_line(source.where)}};
    if (!source.via.empty()) {
      entry["included_by"] = str(source.via);
    }
    excluded.push_back(std::move(entry));
  }
  out["excluded_sources"] = excluded;
  return out;
}

Json instantiation_files(const ScanResult& result) {
  Json list = Json::array();
  for (const InstantiationFile& file : result.instantiation_files) {
    list.push_back({{"file", str(file.file)}, {"instantiations", file.instantiations}});
  }
  return list;
}

Json artifacts(const ScanResult& result) {
  Json list = Json::array();
  for (const Artifact& artifact : result.artifacts) {
    list.push_back({{"file", str(artifact.file)},
                    {"kind", std::string(artifact_kind_name(artifact.kind))},
                    {"bytes", artifact.bytes},
                    {"line", artifact.line}});
  }
  return list;
}

Json amd_path(const ScanResult& result) {
  Json list = Json::array();
  for (const AmdPathSign& sign : result.amd_path) {
    list.push_back({{"kind", std::string(amd_path_kind_name(sign.kind))},
                    {"file", str(sign.file)},
                    {"line", sign.line},
                    {"detail", str(sign.detail)}});
  }
  return list;
}

Json skipped(const ScanResult& result) {
  Json list = Json::array();
  for (const SkippedEntry& entry : result.skipped) {
    list.push_back({{"path", str(entry.path)},
                    {"reason", std::string(skip_reason_name(entry.reason))},
                    {"size", entry.size},
                    {"detail", str(entry.detail)}});
  }
  return list;
}

Json skipped_counts(const ScanResult& result) {
  Json out = Json::object();
  for (const NameCount& entry : skipped_by_reason(result)) {
    out[entry.name] = entry.count;
  }
  return out;
}

Json coverage(const ScanResult& result) {
  const ScanCoverage covered = scan_coverage(result);
  Json unread = Json::array();
  for (const SkippedEntry& entry : covered.unread) {
    unread.push_back({{"path", str(entry.path)},
                      {"reason", std::string(skip_reason_name(entry.reason))},
                      {"size", entry.size},
                      {"detail", str(entry.detail)}});
  }
  return {{"complete", covered.complete()},
          {"files_read", covered.files_read},
          {"files_skipped", covered.files_skipped},
          {"summary", coverage_gap(covered)},
          {"unread_product_files", unread}};
}

Json warnings(const ScanResult& result) {
  Json list = Json::array();
  for (const FileWarning& warning : result.warnings) {
    list.push_back({{"file", str(warning.file)},
                    {"line", warning.line},
                    {"column", warning.column},
                    {"message", str(warning.message)}});
  }
  return list;
}

}  // namespace

std::string dom_json(const ScanResult& result, const ReportOptions& options) {
  Json document;
  document["schema_version"] = std::string(k_json_schema_version);
  document["tool"] = {{"name", "gpuport"}, {"version", k_version}};
  document["root"] = str(result.root);
  document["summary"] = summary(result);
  document["languages"] = languages(result);
  document["components"] = components(result);
  document["findings"] = findings(result);
  document["rules"] = rules(result, options);
  document["kernels"] = kernels(result);
  document["launches"] = launches(result);
  document["instantiation_files"] = instantiation_files(result);
  document["artifacts"] = artifacts(result);
  document["amd_path"] = amd_path(result);
  document["amd_build"] = amd_build_path(result);
  document["skipped"] = skipped(result);
  document["skipped_by_reason"] = skipped_counts(result);
  document["coverage"] = coverage(result);
  document["warnings"] = warnings(result);
  // Every string was repaired above; `replace` is a second guard so a dump can never throw.
  return document.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

namespace {

Json text_of(std::string_view value) {
  return {{"text", valid_utf8(value)}};
}

Json rule_descriptor(const RuleInfo& rule, const ReportOptions& options) {
  Json out;
  out["id"] = std::string(rule.id);
  out["name"] = valid_utf8(rule.component);
  out["shortDescription"] = text_of(rule.summary);
  out["fullDescription"] = text_of(fmt::format("{} Fix: {}", rule.summary, rule.fix));
  out["help"] =
      text_of(fmt::format("{} (tier {}, severity {}, about {} engineer-hours each)", rule.fix,
                          tier_name(rule.tier), severity_name(rule.severity), rule.effort_hours));
  out["helpUri"] = options.rule_doc_base + std::string(rule.id) + ".md";
  out["defaultConfiguration"] = {{"level", std::string(sarif_level(rule.tier, rule.severity))}};
  out["properties"] = {{"tier", std::string(tier_name(rule.tier))},
                       {"severity", std::string(severity_name(rule.severity))},
                       {"effort_hours", rule.effort_hours},
                       {"family", std::string(rule.family)}};
  return out;
}

Json result_of(const Finding& finding, const RuleInfo& rule) {
  Json region;
  region["startLine"] = std::max<std::uint32_t>(finding.line, 1);
  if (finding.column > 0) {
    region["startColumn"] = finding.column;
  }
  if (!finding.excerpt.empty()) {
    region["snippet"] = text_of(finding.excerpt);
  }
  Json location;
  location["physicalLocation"] = {
      {"artifactLocation",
       {{"uri", relative_uri(valid_utf8(finding.file))}, {"uriBaseId", "SRCROOT"}}},
      {"region", region}};

  std::string message(rule.summary);
  if (!finding.detail.empty()) {
    message += " (" + valid_utf8(finding.detail) + ")";
  }
  Json out;
  out["ruleId"] = std::string(rule.id);
  out["ruleIndex"] = finding.rule;
  out["level"] = std::string(sarif_level(rule.tier, rule.severity));
  out["message"] = text_of(message);
  out["locations"] = Json::array({location});
  out["properties"] = {{"tier", std::string(tier_name(rule.tier))},
                       {"context", std::string(context_name(finding.context))},
                       {"scope", std::string(scope_name(finding.scope))},
                       {"amd_build", std::string(amd_state_name(finding.amd_state))}};
  if (finding.amd_state == AmdBuildState::Excluded) {
    out["properties"]["amd_alternative"] = finding.amd_alternative;
  }
  return out;
}

}  // namespace

std::string dom_sarif(const ScanResult& result, const ReportOptions& options) {
  Json rules = Json::array();
  for (const RuleInfo& rule : rule_catalog()) {
    rules.push_back(rule_descriptor(rule, options));
  }
  Json driver;
  driver["name"] = "gpuport";
  driver["version"] = k_version;
  driver["semanticVersion"] = k_version;
  driver["rules"] = std::move(rules);

  Json results = Json::array();
  for (const Finding& finding : result.findings) {
    if (const RuleInfo* rule = rule_of(finding)) {
      results.push_back(result_of(finding, *rule));
    }
  }

  Json base;
  if (!options.root_uri.empty()) {
    base["uri"] = options.root_uri;
  }
  base["description"] = text_of("The scanned root directory");

  Json run;
  run["tool"] = {{"driver", std::move(driver)}};
  run["originalUriBaseIds"] = {{"SRCROOT", std::move(base)}};
  run["results"] = std::move(results);

  Json document;
  document["$schema"] = "https://json.schemastore.org/sarif-2.1.0.json";
  document["version"] = "2.1.0";
  document["runs"] = Json::array({std::move(run)});
  return document.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

}  // namespace gpuport::testing
