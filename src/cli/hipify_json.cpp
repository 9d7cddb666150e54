// The JSON view of a hipify run, documented in docs/hipify-json.md; every string passes
// valid_utf8(), keys keep their order.
#include <nlohmann/json.hpp>

#include <map>

#include "cli/hipify_report.h"
#include "report/text_util.h"
#include "scan/rules/catalog.h"
#include "version.h"

namespace gpuport {

namespace {

using Json = nlohmann::ordered_json;

Json str(std::string_view text) {
  return Json(valid_utf8(text));
}

std::string_view mode_name(OutputMode mode) {
  switch (mode) {
    case OutputMode::Directory:
      return "output-dir";
    case OutputMode::InPlace:
      return "in-place";
    case OutputMode::Stdout:
      return "stdout";
    case OutputMode::DryRun:
      return "dry-run";
  }
  return "dry-run";
}

Json options_json(const HipifyConfig& config) {
  Json out;
  out["rename"] = config.output.rename;
  out["build_files"] = config.hipify.rewrite_build_files;
  out["launch_syntax"] =
      config.hipify.translate.launch_syntax == LaunchSyntax::Hip ? "hip" : "keep";
  out["roc"] = config.hipify.translate.roc;
  out["translate_comments"] = config.hipify.translate.translate_comments;
  out["warnings"] = config.hipify.translate.warnings;
  out["offload_arch"] = config.hipify.build.offload_arch;
  out["rocm"] = rocm_release_name(config.hipify.translate.rocm != 0 ? config.hipify.translate.rocm
                                                                    : newest_rocm_release());
  return out;
}

Json summary_json(const HipifyRun& run, const HipifyCounts& counts) {
  const TranslationStats& totals = run.totals;
  Json out;
  out["files"] = counts.files;
  out["translated"] = counts.translated;
  out["changed"] = counts.changed;
  out["build_files"] = counts.build_files;
  out["build_files_rewritten"] = counts.build_files_rewritten;
  out["copied"] = counts.copied;
  out["not_translated"] = counts.not_translated + counts.skipped;
  out["symlinks"] = counts.symlinks;
  out["ignored_entries"] = run.ignored_entries;
  out["lines"] = totals.lines;
  out["changed_lines"] = totals.changed_lines;
  out["references_converted"] = totals.converted;
  out["references_kept"] = totals.kept;
  out["unsupported"] = totals.unsupported.size();
  out["needs_review"] = totals.needs_review.size();
  out["deprecated_uses"] = totals.deprecated_uses;
  out["hip_deprecated_uses"] = totals.hip_deprecated_uses;
  out["warnings"] = counts.warnings;
  out["warnings_resolved"] = counts.resolved;
  out["launches_rewritten"] = totals.launches_rewritten;
  out["symbol_arguments_wrapped"] = totals.symbol_arguments_wrapped;
  out["kernel_arguments_cast"] = totals.kernel_arguments_cast;
  out["roc_arguments_cast"] = totals.roc_arguments_cast;
  out["arguments_dropped"] = totals.arguments_dropped;
  out["includes_added"] = totals.includes_added;
  out["includes_removed"] = totals.includes_removed;
  return out;
}

Json conversions_json(const TranslationStats& totals) {
  Json by_family = Json::object();
  for (std::size_t i = 0; i < k_api_family_count; ++i) {
    by_family[std::string(api_family_name(static_cast<ApiFamily>(i)))] =
        totals.converted_by_family[i];
  }
  Json by_name = Json::array();
  for (const ConversionCount& entry : totals.converted_by_name) {
    by_name.push_back({{"cuda", str(entry.cuda)},
                       {"hip", str(entry.hip)},
                       {"family", std::string(api_family_name(entry.family))},
                       {"count", entry.count}});
  }
  Json unsupported = Json::array();
  for (const UnsupportedUse& use : totals.unsupported) {
    unsupported.push_back({{"name", str(use.name)},
                           {"family", std::string(api_family_name(use.family))},
                           {"lifecycle", std::string(lifecycle_name(use.lifecycle))},
                           {"file", str(use.file)},
                           {"line", use.line},
                           {"column", use.column}});
    if (use.needs_rocm != 0) {
      unsupported.back()["needs_rocm"] = rocm_release_name(use.needs_rocm);
    }
  }
  Json review = Json::array();
  for (const UnsupportedUse& use : totals.needs_review) {
    review.push_back({{"name", str(use.name)},
                      {"family", std::string(api_family_name(use.family))},
                      {"why", std::string(use.why)},
                      {"file", str(use.file)},
                      {"line", use.line},
                      {"column", use.column}});
  }
  return Json{{"converted_by_family", by_family},
              {"converted_by_name", by_name},
              {"unsupported", unsupported},
              {"needs_review", review}};
}

Json warnings_json(const HipifyRun& run, const HipifyCounts& counts) {
  const auto catalog = rule_catalog();
  Json by_rule = Json::array();
  for (const auto& [index, count] : counts.warnings_by_rule) {
    if (index < catalog.size()) {
      const RuleInfo& rule = catalog[index];
      by_rule.push_back({{"rule", std::string(rule.id)},
                         {"tier", std::string(tier_name(rule.tier))},
                         {"severity", std::string(severity_name(rule.severity))},
                         {"count", count},
                         {"summary", str(rule.summary)}});
    }
  }
  Json warnings = Json::array();
  Json diagnostics = Json::array();
  for (const FileOutcome& file : run.files) {
    for (const Finding& finding : file.warnings) {
      if (finding.rule < catalog.size()) {
        warnings.push_back({{"rule", std::string(catalog[finding.rule].id)},
                            {"file", str(finding.file)},
                            {"line", finding.line},
                            {"column", finding.column},
                            {"detail", str(finding.detail)},
                            {"excerpt", str(finding.excerpt)}});
      }
    }
    for (const LexDiagnostic& diagnostic : file.diagnostics) {
      diagnostics.push_back({{"file", str(file.display)},
                             {"line", diagnostic.line},
                             {"column", diagnostic.column},
                             {"message", str(diagnostic.message)}});
    }
  }
  Json resolved = Json::array();
  for (const auto& [index, count] : counts.resolved_by_rule) {
    if (index < catalog.size()) {
      resolved.push_back({{"rule", std::string(catalog[index].id)}, {"count", count}});
    }
  }
  return Json{{"warnings_by_rule", by_rule},
              {"resolved_by_rule", resolved},
              {"warnings", warnings},
              {"diagnostics", diagnostics}};
}

Json files_json(const HipifyRun& run, const OutputPlan& plan) {
  Json files = Json::array();
  Json build_files = Json::array();
  for (std::size_t i = 0; i < run.files.size(); ++i) {
    const FileOutcome& file = run.files[i];
    Json row;
    row["path"] = str(file.display);
    row["output"] = plan.destinations[i].empty() ? Json(nullptr) : str(plan.destinations[i]);
    row["action"] = std::string(file_action_name(file.action));
    row["changed"] = file.changed;
    row["reason"] = file.reason ? Json(std::string(skip_reason_name(*file.reason))) : Json(nullptr);
    row["kept_as_is"] = file.kept_as_is == KeptAsIs::No
                            ? Json(nullptr)
                            : Json(std::string(kept_as_is_name(file.kept_as_is)));
    row["lines"] = file.stats.lines;
    row["changed_lines"] = file.stats.changed_lines;
    row["converted"] = file.stats.converted;
    row["unsupported"] = file.stats.unsupported.size();
    row["warnings"] = file.warnings.size();
    files.push_back(std::move(row));
    if (file.build) {
      for (const BuildFileItem& item : file.build->items) {
        build_files.push_back({{"file", str(file.display)},
                               {"kind", std::string(build_file_kind_name(file.build->kind))},
                               {"line", item.line},
                               {"change", std::string(build_change_name(item.change))},
                               {"cuda", str(item.cuda)},
                               {"hip", str(item.hip)}});
      }
    }
  }
  Json problems = Json::array();
  for (const IoError& warning : run.warnings) {
    problems.push_back({{"path", str(warning.path)}, {"message", str(warning.message)}});
  }
  return Json{{"files", files}, {"build_files", build_files}, {"problems", problems}};
}

Json verify_json(const HipifyReport& report) {
  if (!report.verify) {
    return Json(nullptr);
  }
  std::map<std::string, std::size_t> by_status;
  Json results = Json::array();
  for (const VerifyResult& result : *report.verify) {
    ++by_status[std::string(verify_status_name(result.status))];
    results.push_back({{"file", str(result.file)},
                       {"status", std::string(verify_status_name(result.status))},
                       {"detail", str(result.detail)}});
  }
  Json summary = Json::object();
  for (const auto& [status, count] : by_status) {
    summary[status] = count;
  }
  return Json{{"hipcc", str(report.config.verify_options.hipcc)},
              {"offload_arch", report.config.verify_options.offload_arch},
              {"summary", summary},
              {"results", results}};
}

}  // namespace

std::string report_json(const HipifyReport& report) {
  const HipifyCounts counts = count_results(report.run);
  Json out;
  out["schema_version"] = std::string(k_hipify_json_schema_version);
  out["tool"] = {{"name", "gpuport"}, {"version", std::string(k_version)}};
  out["command"] = "hipify";
  Json inputs = Json::array();
  for (const std::string& input : report.config.inputs) {
    inputs.push_back(str(input));
  }
  out["inputs"] = inputs;
  out["mode"] = std::string(mode_name(report.config.output.mode));
  out["output_directory"] = report.config.output.mode == OutputMode::Directory
                                ? str(report.config.output.directory)
                                : Json(nullptr);
  out["options"] = options_json(report.config);
  out["summary"] = summary_json(report.run, counts);
  // Sections built apart, merged in order (a named value: items() does not own it).
  for (const Json& section :
       {conversions_json(report.run.totals), warnings_json(report.run, counts),
        files_json(report.run, report.plan)}) {
    for (const auto& [key, value] : section.items()) {
      out[key] = value;
    }
  }
  out["verify"] = verify_json(report);
  return out.dump(2) + "\n";
}

}  // namespace gpuport
