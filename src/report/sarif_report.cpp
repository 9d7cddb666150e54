// SARIF 2.1.0 report: the rule catalog as tool.driver.rules, findings as results.
#include "report/sarif_report.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "report/report_groups.h"
#include "report/text_util.h"
#include "scan/rules/catalog.h"
#include "version.h"

namespace gpuport {

namespace {

using Json = nlohmann::ordered_json;

Json text(std::string_view value) {
  return {{"text", valid_utf8(value)}};
}

bool unreserved(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
         c == '.' || c == '_' || c == '~';
}

std::string percent_encode(std::string_view path) {
  std::string out;
  for (const char ch : path) {
    const auto c = static_cast<unsigned char>(ch);
    if (unreserved(c) || c == '/') {
      out.push_back(ch);
    } else {
      out += fmt::format("%{:02X}", c);
    }
  }
  return out;
}

Json rule_descriptor(const RuleInfo& rule, const ReportOptions& options) {
  Json out;
  out["id"] = std::string(rule.id);
  out["name"] = valid_utf8(rule.component);
  out["shortDescription"] = text(rule.summary);
  out["fullDescription"] = text(fmt::format("{} Fix: {}", rule.summary, rule.fix));
  out["help"] =
      text(fmt::format("{} (tier {}, severity {}, about {} engineer-hours each)", rule.fix,
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
    region["snippet"] = text(finding.excerpt);
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
  out["message"] = text(message);
  out["locations"] = Json::array({location});
  out["properties"] = {{"tier", std::string(tier_name(rule.tier))},
                       {"context", std::string(context_name(finding.context))}};
  return out;
}

}  // namespace

std::string_view sarif_level(Tier tier, Severity severity) {
  if (tier == Tier::Rewrite || severity == Severity::High) {
    return "error";
  }
  if (tier == Tier::Retune || tier == Tier::Mechanical) {
    return "warning";
  }
  return "note";
}

std::string directory_uri(std::string_view absolute_directory) {
  if (absolute_directory.empty()) {
    return {};
  }
  std::string uri = "file://" + percent_encode(absolute_directory);
  if (uri.back() != '/') {
    uri.push_back('/');
  }
  return uri;
}

std::string relative_uri(std::string_view path) {
  return percent_encode(path);
}

std::string render_sarif(const ScanResult& result, const ReportOptions& options) {
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
  base["description"] = text("The scanned root directory");

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

}  // namespace gpuport
