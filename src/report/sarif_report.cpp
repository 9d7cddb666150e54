// SARIF 2.1.0 report: the rule catalog as tool.driver.rules, findings as results.
#include "report/sarif_report.h"

#include <fmt/format.h>

#include "report/json_writer.h"
#include "report/report_groups.h"
#include "report/text_util.h"
#include "scan/rules/catalog.h"
#include "version.h"

namespace gpuport {

namespace {

void text_object(JsonWriter& w, std::string_view name, std::string_view value) {
  w.key(name);
  w.begin_object();
  w.field("text", value);
  w.end_object();
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

void rule_descriptor(JsonWriter& w, const RuleInfo& rule, const ReportOptions& options) {
  w.begin_object();
  w.field("id", rule.id);
  w.field("name", rule.component);
  text_object(w, "shortDescription", rule.summary);
  text_object(w, "fullDescription", fmt::format("{} Fix: {}", rule.summary, rule.fix));
  text_object(w, "help",
              fmt::format("{} (tier {}, severity {}, about {} engineer-hours each)", rule.fix,
                          tier_name(rule.tier), severity_name(rule.severity), rule.effort_hours));
  w.field("helpUri", options.rule_doc_base + std::string(rule.id) + ".md");
  w.key("defaultConfiguration");
  w.begin_object();
  w.field("level", sarif_level(rule.tier, rule.severity));
  w.end_object();
  w.key("properties");
  w.begin_object();
  w.field("tier", tier_name(rule.tier));
  w.field("severity", severity_name(rule.severity));
  w.field("effort_hours", rule.effort_hours);
  w.field("family", rule.family);
  w.end_object();
  w.end_object();
}

void result_of(JsonWriter& w, const Finding& finding, const RuleInfo& rule) {
  w.begin_object();
  w.field("ruleId", rule.id);
  w.field("ruleIndex", finding.rule);
  w.field("level", sarif_level(rule.tier, rule.severity));
  if (finding.detail.empty()) {
    text_object(w, "message", rule.summary);
  } else {
    // The writer repairs invalid UTF-8 itself, the same way valid_utf8() does.
    text_object(w, "message", std::string(rule.summary) + " (" + finding.detail + ")");
  }
  w.key("locations");
  w.begin_array();
  w.begin_object();
  w.key("physicalLocation");
  w.begin_object();
  w.key("artifactLocation");
  w.begin_object();
  w.field("uri", relative_uri(is_valid_utf8(finding.file) ? std::string_view(finding.file)
                                                          : valid_utf8(finding.file)));
  w.field("uriBaseId", "SRCROOT");
  w.end_object();
  w.key("region");
  w.begin_object();
  w.field("startLine", std::max<std::uint32_t>(finding.line, 1));
  if (finding.column > 0) {
    w.field("startColumn", finding.column);
  }
  if (!finding.excerpt.empty()) {
    text_object(w, "snippet", finding.excerpt);
  }
  w.end_object();
  w.end_object();
  w.end_object();
  w.end_array();
  w.key("properties");
  w.begin_object();
  w.field("tier", tier_name(rule.tier));
  w.field("context", context_name(finding.context));
  w.field("scope", scope_name(finding.scope));
  w.field("amd_build", amd_state_name(finding.amd_state));
  if (finding.amd_state == AmdBuildState::Excluded) {
    w.field("amd_alternative", finding.amd_alternative);
  }
  w.end_object();
  w.end_object();
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

void write_sarif(const ScanResult& result, const ReportOptions& options, OutputSink& sink) {
  JsonWriter w(sink);
  w.begin_object();
  w.field("$schema", "https://json.schemastore.org/sarif-2.1.0.json");
  w.field("version", "2.1.0");
  w.key("runs");
  w.begin_array();
  w.begin_object();

  w.key("tool");
  w.begin_object();
  w.key("driver");
  w.begin_object();
  w.field("name", "gpuport");
  w.field("version", k_version);
  w.field("semanticVersion", k_version);
  w.key("rules");
  w.begin_array();
  for (const RuleInfo& rule : rule_catalog()) {
    rule_descriptor(w, rule, options);
  }
  w.end_array();
  w.end_object();
  w.end_object();

  w.key("originalUriBaseIds");
  w.begin_object();
  w.key("SRCROOT");
  w.begin_object();
  if (!options.root_uri.empty()) {
    w.field("uri", options.root_uri);
  }
  text_object(w, "description", "The scanned root directory");
  w.end_object();
  w.end_object();

  w.key("results");
  w.begin_array();
  // Findings of unknown rules (none in practice) are left out.
  std::vector<const Finding*> known;
  known.reserve(result.findings.size());
  for (const Finding& finding : result.findings) {
    if (rule_of(finding) != nullptr) {
      known.push_back(&finding);
    }
  }
  w.elements(known.size(), options.jobs, [&](JsonWriter& out, std::size_t i) {
    result_of(out, *known[i], *rule_of(*known[i]));
  });
  w.end_array();

  w.end_object();
  w.end_array();
  w.end_object();
  w.finish();
}

std::string render_sarif(const ScanResult& result, const ReportOptions& options) {
  StringSink sink;
  write_sarif(result, options, sink);
  return std::move(sink.text());
}

}  // namespace gpuport
