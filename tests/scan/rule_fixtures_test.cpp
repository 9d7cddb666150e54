// Runs the real scan on every rule and trap fixture and compares findings with the EXPECT marks.
#include <gtest/gtest.h>

#include <algorithm>
#include <iterator>

#include "fixture_expectations.h"
#include "scan/rules/catalog.h"
#include "scan/scanner.h"

namespace gpuport {
namespace {

std::vector<std::string> actual_findings(const std::filesystem::path& directory) {
  DiskFileSystem fs;
  ScanOptions options;
  options.walk.jobs = 1;
  auto result = scan(fs, directory.string(), options);
  EXPECT_TRUE(result.has_value()) << directory;
  std::vector<std::string> actual;
  if (!result) {
    return actual;
  }
  for (const Finding& finding : result->findings) {
    actual.push_back(finding.file + ":" + std::to_string(finding.line) + " " +
                     std::string(rule_catalog()[finding.rule].id));
  }
  std::sort(actual.begin(), actual.end());
  return actual;
}

std::string join(const std::vector<std::string>& lines) {
  std::string out;
  for (const std::string& line : lines) {
    out += "  " + line + "\n";
  }
  return out.empty() ? "  (none)\n" : out;
}

void check_fixture(const std::filesystem::path& directory) {
  std::vector<std::string> forbidden;
  std::vector<std::string> expected = testing::read_expectations(directory, &forbidden);
  std::vector<std::string> actual = actual_findings(directory);
  // EXPECT-NOT marks an invention a fixture guards against: it must not be found, nor expected.
  std::vector<std::string> invented;
  std::set_intersection(forbidden.begin(), forbidden.end(), actual.begin(), actual.end(),
                        std::back_inserter(invented));
  std::set_intersection(forbidden.begin(), forbidden.end(), expected.begin(), expected.end(),
                        std::back_inserter(invented));
  EXPECT_TRUE(invented.empty()) << "fixture " << directory.filename().string()
                                << "\nfindings marked EXPECT-NOT:\n"
                                << join(invented);
  std::vector<std::string> missing;
  std::vector<std::string> extra;
  std::set_difference(expected.begin(), expected.end(), actual.begin(), actual.end(),
                      std::back_inserter(missing));
  std::set_difference(actual.begin(), actual.end(), expected.begin(), expected.end(),
                      std::back_inserter(extra));
  EXPECT_TRUE(missing.empty() && extra.empty())
      << "fixture " << directory.filename().string() << "\nmissing findings:\n"
      << join(missing) << "unexpected findings:\n"
      << join(extra);
}

class RuleFixture : public ::testing::TestWithParam<std::filesystem::path> {};

TEST_P(RuleFixture, FindsExactlyTheExpectedLines) {
  check_fixture(GetParam());
}

std::string fixture_name(const ::testing::TestParamInfo<std::filesystem::path>& info) {
  std::string name = info.param.filename().string();
  std::replace_if(
      name.begin(), name.end(), [](char c) { return !std::isalnum(c); }, '_');
  return name;
}

INSTANTIATE_TEST_SUITE_P(Rules, RuleFixture,
                         ::testing::ValuesIn(testing::fixture_directories("rules")), fixture_name);
INSTANTIATE_TEST_SUITE_P(Traps, RuleFixture,
                         ::testing::ValuesIn(testing::fixture_directories("traps")), fixture_name);

}  // namespace
}  // namespace gpuport
