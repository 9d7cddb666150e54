// SARIF writer: the 2.1.0 required fields, rule metadata, and results that point at rules.
#include "report/sarif_report.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "sample_result.h"

namespace gpuport {
namespace {

using nlohmann::json;
using testing::sample_result;

json rendered(const ScanResult& result, const ReportOptions& options = {}) {
  return json::parse(render_sarif(result, options));
}

TEST(SarifReport, RequiredTopLevelFields) {
  const json doc = rendered(sample_result());
  EXPECT_EQ(doc["$schema"], "https://json.schemastore.org/sarif-2.1.0.json");
  EXPECT_EQ(doc["version"], "2.1.0");
  ASSERT_TRUE(doc["runs"].is_array());
  ASSERT_EQ(doc["runs"].size(), 1u);
  const json& driver = doc["runs"][0]["tool"]["driver"];
  EXPECT_EQ(driver["name"], "gpuport");
  EXPECT_TRUE(driver["version"].is_string());
  EXPECT_EQ(driver["rules"].size(), rule_catalog().size());
}

TEST(SarifReport, EveryResultHasMessageLocationAndKnownRule) {
  const json doc = rendered(sample_result());
  const json& run = doc["runs"][0];
  const json& rules = run["tool"]["driver"]["rules"];
  ASSERT_EQ(run["results"].size(), 3u);
  for (const json& result : run["results"]) {
    ASSERT_TRUE(result["message"]["text"].is_string());
    EXPECT_FALSE(result["message"]["text"].get<std::string>().empty());
    const auto index = result["ruleIndex"].get<std::size_t>();
    ASSERT_LT(index, rules.size());
    EXPECT_EQ(rules[index]["id"], result["ruleId"]);
    const json& location = result["locations"][0]["physicalLocation"];
    EXPECT_EQ(location["artifactLocation"]["uriBaseId"], "SRCROOT");
    EXPECT_GE(location["region"]["startLine"].get<int>(), 1);
  }
  const json& ptx = run["results"][1];
  EXPECT_EQ(ptx["level"], "error");
  EXPECT_EQ(ptx["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
            "csrc/attention.cu");
  EXPECT_EQ(ptx["locations"][0]["physicalLocation"]["region"]["startLine"], 42);
  EXPECT_EQ(ptx["locations"][0]["physicalLocation"]["region"]["startColumn"], 5);
  EXPECT_NE(ptx["message"]["text"].get<std::string>().find("mma.sync.aligned.m16n8k16"),
            std::string::npos);
}

TEST(SarifReport, RuleMetadataAndHelpLinks) {
  ReportOptions options;
  options.rule_doc_base = "https://example.org/rules/";
  const json doc = rendered(sample_result(), options);
  const json& rules = doc["runs"][0]["tool"]["driver"]["rules"];
  const RuleInfo& info = rule_catalog()[testing::rewrite_rule()];
  const json& rule = rules[testing::rewrite_rule()];
  EXPECT_EQ(rule["id"], std::string(info.id));
  EXPECT_EQ(rule["shortDescription"]["text"], std::string(info.summary));
  EXPECT_TRUE(rule["fullDescription"]["text"].is_string());
  EXPECT_TRUE(rule["help"]["text"].is_string());
  EXPECT_EQ(rule["helpUri"], "https://example.org/rules/" + std::string(info.id) + ".md");
  EXPECT_EQ(rule["properties"]["tier"], "rewrite");
  EXPECT_DOUBLE_EQ(rule["properties"]["effort_hours"].get<double>(), info.effort_hours);
  EXPECT_EQ(rule["defaultConfiguration"]["level"], "error");
  // The default link is relative to the repository, where the rule pages live.
  const json plain = rendered(sample_result());
  EXPECT_EQ(plain["runs"][0]["tool"]["driver"]["rules"][0]["helpUri"],
            "docs/rules/" + std::string(rule_catalog()[0].id) + ".md");
}

TEST(SarifReport, LevelsFollowTierAndSeverity) {
  EXPECT_EQ(sarif_level(Tier::Rewrite, Severity::Low), "error");
  EXPECT_EQ(sarif_level(Tier::Config, Severity::High), "error");
  EXPECT_EQ(sarif_level(Tier::Retune, Severity::Medium), "warning");
  EXPECT_EQ(sarif_level(Tier::Mechanical, Severity::Low), "warning");
  EXPECT_EQ(sarif_level(Tier::Config, Severity::Medium), "note");
  EXPECT_EQ(sarif_level(Tier::Framework, Severity::Info), "note");
}

TEST(SarifReport, UrisArePercentEncoded) {
  EXPECT_EQ(directory_uri("/home/a b/repo"), "file:///home/a%20b/repo/");
  EXPECT_EQ(directory_uri("/"), "file:///");
  EXPECT_EQ(directory_uri(""), "");
  EXPECT_EQ(relative_uri("src/my kernel#1.cu"), "src/my%20kernel%231.cu");
  ReportOptions options;
  options.root_uri = directory_uri("/srv/repo");
  const json doc = rendered(sample_result(), options);
  EXPECT_EQ(doc["runs"][0]["originalUriBaseIds"]["SRCROOT"]["uri"], "file:///srv/repo/");
}

TEST(SarifReport, InvalidUtf8StaysValidJson) {
  ScanResult result = sample_result();
  result.findings[1].detail = "mma\xff";
  result.findings[1].excerpt = "\xc0\xaf";
  EXPECT_NO_THROW(rendered(result));
}

TEST(SarifReport, EmptyResultHasEmptyResultsArray) {
  const json doc = rendered(ScanResult{});
  EXPECT_TRUE(doc["runs"][0]["results"].is_array());
  EXPECT_TRUE(doc["runs"][0]["results"].empty());
}

}  // namespace
}  // namespace gpuport
