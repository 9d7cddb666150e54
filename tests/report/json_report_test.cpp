// JSON writer: exact fields and values on a hand-built result, and valid output from bad UTF-8.
#include "report/json_report.h"

#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <set>

#include "sample_result.h"
#include "version.h"

namespace gpuport {
namespace {

using nlohmann::json;
using testing::sample_result;

json rendered(const ScanResult& result) {
  return json::parse(render_json(result, ReportOptions{}));
}

TEST(JsonReport, TopLevelKeysInDocumentedOrder) {
  const json doc = rendered(sample_result());
  std::vector<std::string> keys;
  for (auto it = doc.begin(); it != doc.end(); ++it) {
    keys.push_back(it.key());
  }
  // nlohmann::json sorts keys; the order check uses the raw text instead.
  const std::string text = render_json(sample_result(), ReportOptions{});
  EXPECT_LT(text.find("\"schema_version\""), text.find("\"tool\""));
  EXPECT_LT(text.find("\"tool\""), text.find("\"root\""));
  EXPECT_LT(text.find("\"summary\""), text.find("\"components\""));
  EXPECT_LT(text.find("\"findings\": ["), text.find("\"kernels\""));
  EXPECT_LT(text.find("\"skipped\""), text.find("\"warnings\""));
  for (const char* key :
       {"schema_version", "tool", "root", "summary", "languages", "components", "findings", "rules",
        "kernels", "launches", "instantiation_files", "artifacts", "amd_path", "amd_build",
        "skipped", "skipped_by_reason", "coverage", "warnings"}) {
    EXPECT_TRUE(doc.contains(key)) << key;
  }
  EXPECT_EQ(keys.size(), 18u);
}

TEST(JsonReport, HeaderAndSummary) {
  const json doc = rendered(sample_result());
  EXPECT_EQ(doc["schema_version"], "1");
  EXPECT_EQ(doc["tool"]["name"], "gpuport");
  EXPECT_EQ(doc["tool"]["version"], k_version);
  EXPECT_EQ(doc["root"], "serving");
  const json& summary = doc["summary"];
  EXPECT_EQ(summary["files"], 12);
  EXPECT_EQ(summary["bytes"], 2500000);
  EXPECT_DOUBLE_EQ(summary["seconds"].get<double>(), 0.25);
  EXPECT_EQ(summary["highest_tier"], "rewrite");
  EXPECT_EQ(summary["findings"], 3);
  EXPECT_EQ(summary["findings_by_tier"]["rewrite"], 2);
  EXPECT_EQ(summary["findings_by_tier"]["config"], 1);
  EXPECT_EQ(summary["findings_by_tier"]["framework"], 0);
  EXPECT_EQ(summary["findings_by_tier"].size(), 5u);
  const std::string rewrite_id(rule_catalog()[testing::rewrite_rule()].id);
  EXPECT_EQ(summary["findings_by_rule"][rewrite_id], 2);
}

TEST(JsonReport, FindingFields) {
  const json doc = rendered(sample_result());
  ASSERT_EQ(doc["findings"].size(), 3u);
  const json& f = doc["findings"][2];
  const RuleInfo& rule = rule_catalog()[testing::rewrite_rule()];
  EXPECT_EQ(f["rule"], std::string(rule.id));
  EXPECT_EQ(f["tier"], "rewrite");
  EXPECT_EQ(f["severity"], std::string(severity_name(rule.severity)));
  EXPECT_EQ(f["file"], "csrc/attention.cu");
  EXPECT_EQ(f["line"], 57);
  EXPECT_EQ(f["column"], 5);
  EXPECT_EQ(f["excerpt"], "asm volatile(\"ldmatrix.sync.aligned.m8n8.x4\" ...);");
  EXPECT_EQ(f["detail"], "ldmatrix.sync.aligned.m8n8.x4");
  EXPECT_EQ(f["context"], "cuda_device");
  EXPECT_EQ(f["message"], std::string(rule.summary));
  EXPECT_EQ(doc["findings"][0]["context"], "neutral");
  EXPECT_EQ(f["scope"], "product");
  EXPECT_EQ(f["amd_build"], json::parse(R"({"state": "excluded", "alternative": true,
                            "guard": {"line": 55, "text": "#ifdef NEW_MMA_AVAILABLE"}})"));
  EXPECT_EQ(doc["findings"][1]["amd_build"], json::parse(R"({"state": "compiled"})"));
  EXPECT_EQ(doc["findings"][0]["amd_build"], json::parse(R"({"state": "unknown"})"));
  EXPECT_EQ(doc["summary"]["findings_by_amd_build"],
            json::parse(R"({"compiled": 1, "excluded": 1, "excluded_with_alternative": 1,
                            "unknown": 1})"));
}

TEST(JsonReport, AmdBuildPathAndExcludedSources) {
  const json doc = rendered(sample_result());
  const json& amd = doc["amd_build"];
  EXPECT_EQ(amd["exists"], true);
  EXPECT_EQ(
      amd["setup"][0],
      json::parse(R"j({"file": "CMakeLists.txt", "line": 12, "text": "enable_language(HIP)"})j"));
  EXPECT_EQ(amd["shims"][0], json::parse(R"({"file": "csrc/hip_compat.h", "line": 4})"));
  EXPECT_EQ(amd["kernel_files"], 2);
  EXPECT_EQ(amd["kernel_files_compiled"], 1);
  EXPECT_EQ(amd["excluded_sources"][0]["file"], "csrc/sm90_gemm.cu");
  EXPECT_EQ(amd["excluded_sources"][0]["build"]["line"], 20);
  EXPECT_EQ(amd["excluded_sources"][0]["alternative"], true);
}

TEST(JsonReport, InventorySections) {
  const json doc = rendered(sample_result());
  const json& kernel = doc["kernels"][0];
  EXPECT_EQ(kernel["name"], "flash_fwd_kernel");
  EXPECT_EQ(kernel["line"], 30);
  EXPECT_EQ(kernel["lines_of_code"], 120);
  EXPECT_EQ(kernel["template"], true);
  EXPECT_EQ(kernel["via_macro"], false);
  EXPECT_EQ(kernel["language"], "cuda");
  EXPECT_EQ(kernel["features"]["ptx_instructions"][1], "ldmatrix.sync.aligned.m8n8.x4");
  EXPECT_EQ(kernel["features"]["static_shared_bytes"], 49152);
  EXPECT_TRUE(doc["kernels"][1]["features"]["static_shared_bytes"].is_null());
  EXPECT_EQ(doc["launches"][0]["kind"], "triple_chevron");
  EXPECT_EQ(doc["launches"][0]["kernel"], "flash_fwd_kernel<128>");
  EXPECT_EQ(doc["instantiation_files"][0]["instantiations"], 4);
  EXPECT_EQ(doc["artifacts"][0]["kind"], "tensorrt_engine");
  EXPECT_EQ(doc["artifacts"][0]["bytes"], 1048576);
  EXPECT_EQ(doc["amd_path"][1]["kind"], "hip_guard");
  EXPECT_EQ(doc["amd_path"][1]["line"], 20);
  EXPECT_EQ(doc["components"][0]["name"], "Inline PTX");
  EXPECT_EQ(doc["components"][0]["layer"], "rewrite");
  EXPECT_EQ(doc["components"][0]["evidence"][1]["line"], 57);
  EXPECT_EQ(doc["languages"]["cuda"]["lines"], 900);
  EXPECT_EQ(doc["skipped"][1]["reason"], "too_large");
  EXPECT_EQ(doc["skipped"][1]["size"], 20000000);
  EXPECT_EQ(doc["skipped_by_reason"]["binary"], 1);
  EXPECT_EQ(doc["skipped_by_reason"]["too_large"], 1);
  EXPECT_EQ(doc["warnings"][0]["message"], "unterminated block comment");
  EXPECT_EQ(doc["warnings"][0]["column"], 3);
  EXPECT_EQ(doc["rules"][0]["doc"],
            "docs/rules/" + std::string(rule_catalog()[testing::rewrite_rule()].id) + ".md");
}

TEST(JsonReport, EmptyResultHasNullHighestTier) {
  const json doc = rendered(ScanResult{});
  EXPECT_TRUE(doc["summary"]["highest_tier"].is_null());
  EXPECT_TRUE(doc["findings"].is_array());
  EXPECT_TRUE(doc["findings"].empty());
  EXPECT_TRUE(doc["languages"].is_object());
}

TEST(JsonReport, InvalidUtf8BecomesReplacementCharacter) {
  ScanResult result = sample_result();
  result.findings[0].excerpt = "bad \xff\xfe bytes \xc3";
  result.findings[0].file = "dir/\xe9t\xe9.cu";
  result.kernels[0].name = "k\x80";
  const std::string text = render_json(result, ReportOptions{});
  const json doc = json::parse(text);  // throws on invalid JSON
  EXPECT_EQ(doc["findings"][0]["excerpt"], "bad \xEF\xBF\xBD\xEF\xBF\xBD bytes \xEF\xBF\xBD");
  EXPECT_EQ(doc["findings"][0]["file"], "dir/\xEF\xBF\xBDt\xEF\xBF\xBD.cu");
  EXPECT_EQ(doc["kernels"][0]["name"], "k\xEF\xBF\xBD");
}

std::set<std::string> keys_of(const json& object) {
  std::set<std::string> keys;
  for (auto it = object.begin(); it != object.end(); ++it) {
    keys.insert(it.key());
  }
  return keys;
}

std::set<std::string> required_of(const json& schema) {
  return schema["required"].get<std::set<std::string>>();
}

// docs/scan.schema.json must describe exactly the fields the writer emits.
TEST(JsonReport, MatchesTheDocumentedSchema) {
  std::ifstream file(std::string(GPUPORT_SOURCE_DIR) + "/docs/scan.schema.json");
  ASSERT_TRUE(file.good());
  const json schema = json::parse(file);
  const json doc = rendered(sample_result());
  const json& properties = schema["properties"];
  EXPECT_EQ(keys_of(doc), required_of(schema));
  EXPECT_EQ(keys_of(doc), keys_of(properties));
  EXPECT_EQ(keys_of(doc["summary"]), required_of(properties["summary"]));
  EXPECT_EQ(keys_of(doc["summary"]["findings_by_tier"]),
            required_of(properties["summary"]["properties"]["findings_by_tier"]));
  for (const char* array :
       {"components", "findings", "rules", "kernels", "launches", "instantiation_files",
        "artifacts", "amd_path", "skipped", "warnings"}) {
    ASSERT_FALSE(doc[array].empty()) << array;
    EXPECT_EQ(keys_of(doc[array][0]), required_of(properties[array]["items"])) << array;
    EXPECT_EQ(keys_of(doc[array][0]), keys_of(properties[array]["items"]["properties"])) << array;
  }
  EXPECT_EQ(keys_of(doc["kernels"][0]["features"]),
            required_of(properties["kernels"]["items"]["properties"]["features"]));
  EXPECT_EQ(schema["properties"]["schema_version"]["const"], doc["schema_version"]);
}

}  // namespace
}  // namespace gpuport
