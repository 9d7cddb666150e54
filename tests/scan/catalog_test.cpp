// The catalog contract: unique sorted ids, known components, a fixture and a doc page per rule.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>

#include "fixture_expectations.h"
#include "scan/rules/catalog.h"

namespace gpuport {
namespace {

const std::filesystem::path k_root = GPUPORT_SOURCE_DIR;

bool valid_id(std::string_view id) {
  // GP-<FAMILY>-NNN
  if (!id.starts_with("GP-") || id.size() < 8) {
    return false;
  }
  std::string_view number = id.substr(id.size() - 3);
  return id[id.size() - 4] == '-' &&
         std::all_of(number.begin(), number.end(), [](char c) { return c >= '0' && c <= '9'; });
}

TEST(Catalog, HasAtLeastFiftyRules) {
  EXPECT_GE(rule_catalog().size(), 50u);
}

TEST(Catalog, IdsAreWellFormedSortedAndUnique) {
  std::span<const RuleInfo> rules = rule_catalog();
  for (std::size_t i = 0; i < rules.size(); ++i) {
    EXPECT_TRUE(valid_id(rules[i].id)) << rules[i].id;
    if (i > 0) {
      EXPECT_LT(rules[i - 1].id, rules[i].id) << "duplicate or unsorted id";
    }
    std::string family_prefix = "GP-" + std::string(rules[i].family) + "-";
    EXPECT_TRUE(rules[i].id.starts_with(family_prefix)) << rules[i].id;
  }
}

TEST(Catalog, EveryRuleHasTextAndAKnownComponent) {
  for (const RuleInfo& rule : rule_catalog()) {
    EXPECT_FALSE(rule.summary.empty()) << rule.id;
    EXPECT_TRUE(rule.summary.ends_with(".")) << rule.id << ": summary is one sentence";
    EXPECT_FALSE(rule.fix.empty()) << rule.id;
    EXPECT_GE(rule.effort_hours, 0.0) << rule.id;
    EXPECT_NE(find_component(rule.component), nullptr)
        << rule.id << " names unknown component '" << rule.component << "'";
  }
}

TEST(Catalog, ComponentNamesAreUnique) {
  std::set<std::string_view> names;
  for (const ComponentInfo& component : component_catalog()) {
    EXPECT_TRUE(names.insert(component.name).second) << component.name;
    EXPECT_FALSE(component.amd_status.empty()) << component.name;
  }
}

TEST(Catalog, EveryRuleHasAFixtureThatExpectsIt) {
  for (const RuleInfo& rule : rule_catalog()) {
    std::filesystem::path directory = k_root / "tests/fixtures/rules" / std::string(rule.id);
    ASSERT_TRUE(std::filesystem::is_directory(directory)) << "no fixture for " << rule.id;
    std::vector<std::string> expected = testing::read_expectations(directory);
    bool claimed = std::any_of(expected.begin(), expected.end(), [&](const std::string& e) {
      return e.ends_with(" " + std::string(rule.id));
    });
    EXPECT_TRUE(claimed) << "fixture of " << rule.id << " never expects it";
  }
}

TEST(Catalog, EveryRuleHasADocPageOpeningWithItsSummary) {
  for (const RuleInfo& rule : rule_catalog()) {
    std::filesystem::path page = k_root / "docs/rules" / (std::string(rule.id) + ".md");
    std::ifstream in(page);
    ASSERT_TRUE(in.good()) << "missing " << page.filename();
    std::string first_line;
    std::getline(in, first_line);
    EXPECT_EQ(first_line, "# " + std::string(rule.id) + ": " + std::string(rule.summary));
  }
}

TEST(Catalog, NoFixtureDirectoryForAnUnknownRule) {
  for (const auto& directory : testing::fixture_directories("rules")) {
    EXPECT_NE(find_rule(directory.filename().string()), nullptr)
        << "fixture directory without a rule: " << directory.filename();
  }
}

}  // namespace
}  // namespace gpuport
