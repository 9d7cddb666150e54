// gpuport-ignore markers remove exactly the findings they name, on the lines they cover.
#include <gtest/gtest.h>

#include "scan/rules/catalog.h"
#include "scan/suppression.h"

namespace gpuport {
namespace {

Finding at(std::uint16_t rule, std::uint32_t line) {
  Finding finding;
  finding.rule = rule;
  finding.file = "a.cu";
  finding.line = line;
  return finding;
}

std::vector<std::uint32_t> lines_of(const std::vector<Finding>& findings) {
  std::vector<std::uint32_t> lines;
  for (const Finding& f : findings) {
    lines.push_back(f.line);
  }
  return lines;
}

class Suppression : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_GE(rule_catalog().size(), 2u);
    first = std::string(rule_catalog()[0].id);
    second = std::string(rule_catalog()[1].id);
  }
  std::string first;
  std::string second;
};

TEST_F(Suppression, SameLineWithRuleListRemovesOnlyThatRule) {
  std::string source = "x\ny // gpuport-ignore(" + first + ")\nz\n";
  std::vector<Finding> findings = {at(0, 2), at(1, 2), at(0, 3)};
  apply_suppressions(source, findings);
  ASSERT_EQ(findings.size(), 2u);
  EXPECT_EQ(findings[0].rule, 1);
  EXPECT_EQ(findings[0].line, 2u);
  EXPECT_EQ(findings[1].line, 3u);
}

TEST_F(Suppression, BareMarkerRemovesEveryRuleOnItsLine) {
  std::string source = "a # gpuport-ignore\nb\n";
  std::vector<Finding> findings = {at(0, 1), at(1, 1), at(1, 2)};
  apply_suppressions(source, findings);
  EXPECT_EQ(lines_of(findings), std::vector<std::uint32_t>{2});
}

TEST_F(Suppression, NextLineCoversOnlyTheFollowingLine) {
  std::string source = "// gpuport-ignore-next-line(" + second + ")\nb\nc\n";
  std::vector<Finding> findings = {at(1, 2), at(1, 3), at(0, 2)};
  apply_suppressions(source, findings);
  EXPECT_EQ(lines_of(findings), (std::vector<std::uint32_t>{3, 2}));
}

TEST_F(Suppression, BeginEndCoversTheBlockInclusive) {
  std::string source =
      "a\n// gpuport-ignore-begin(" + first + ")\nb\nc\n// gpuport-ignore-end(" + first + ")\nd\n";
  std::vector<Finding> findings = {at(0, 1), at(0, 3), at(0, 4), at(0, 6), at(1, 3)};
  apply_suppressions(source, findings);
  EXPECT_EQ(lines_of(findings), (std::vector<std::uint32_t>{1, 6, 3}));
}

TEST_F(Suppression, UnclosedBeginRunsToEndOfFile) {
  std::string source = "a\n/* gpuport-ignore-begin */\nb\nc\n";
  std::vector<Finding> findings = {at(0, 1), at(0, 3), at(1, 4)};
  apply_suppressions(source, findings);
  EXPECT_EQ(lines_of(findings), std::vector<std::uint32_t>{1});
}

TEST_F(Suppression, LongerWordIsNotAMarker) {
  std::string source = "// gpuport-ignored is not a marker\n";
  std::vector<Finding> findings = {at(0, 1)};
  apply_suppressions(source, findings);
  EXPECT_EQ(findings.size(), 1u);
}

}  // namespace
}  // namespace gpuport
