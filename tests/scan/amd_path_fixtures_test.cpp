// Runs the real scan on each tests/fixtures/amd_path/<case>/ tree and compares the AMD-path
// signs (amd_path[]: kind, file, line) with the fixture's marks:
//   EXPECT-SIGN: kind        a sign of that kind on this line (hip_include, shim_include, ...)
//   EXPECT-NOT-SIGN: kind    none of that kind on this line
// Every sign the scan reports must be marked.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include "fixture_expectations.h"
#include "scan/scanner.h"

namespace gpuport {
namespace {

void read_sign_marks(const std::filesystem::path& directory, std::vector<std::string>& expected,
                     std::vector<std::string>& forbidden) {
  for (const auto& entry : std::filesystem::recursive_directory_iterator(directory)) {
    if (!entry.is_regular_file()) {
      continue;
    }
    const std::string relative = entry.path().lexically_relative(directory).generic_string();
    std::ifstream in(entry.path(), std::ios::binary);
    std::string line;
    int number = 0;
    while (std::getline(in, line)) {
      ++number;
      for (auto [mark, out] : {std::pair{std::string_view("EXPECT-SIGN:"), &expected},
                               std::pair{std::string_view("EXPECT-NOT-SIGN:"), &forbidden}}) {
        if (const std::size_t at = line.find(mark); at != std::string::npos) {
          std::istringstream words(line.substr(at + mark.size()));
          std::string kind;
          words >> kind;
          out->push_back(relative + ":" + std::to_string(number) + " " + kind);
        }
      }
    }
  }
  std::sort(expected.begin(), expected.end());
  std::sort(forbidden.begin(), forbidden.end());
}

std::string join(const std::vector<std::string>& lines) {
  std::string out;
  for (const std::string& line : lines) {
    out += "  " + line + "\n";
  }
  return out.empty() ? "  (none)\n" : out;
}

class AmdPathFixture : public ::testing::TestWithParam<std::filesystem::path> {};

TEST_P(AmdPathFixture, ReportsExactlyTheMarkedSigns) {
  const std::filesystem::path directory = GetParam();
  std::vector<std::string> expected;
  std::vector<std::string> forbidden;
  read_sign_marks(directory, expected, forbidden);
  DiskFileSystem fs;
  ScanOptions options;
  options.walk.jobs = 1;
  const auto result = scan(fs, directory.string(), options);
  ASSERT_TRUE(result.has_value());
  std::vector<std::string> actual;
  for (const AmdPathSign& sign : result->amd_path) {
    actual.push_back(sign.file + ":" + std::to_string(sign.line) + " " +
                     std::string(amd_path_kind_name(sign.kind)));
  }
  std::sort(actual.begin(), actual.end());
  std::vector<std::string> missing;
  std::vector<std::string> extra;
  std::vector<std::string> invented;
  std::set_difference(expected.begin(), expected.end(), actual.begin(), actual.end(),
                      std::back_inserter(missing));
  std::set_difference(actual.begin(), actual.end(), expected.begin(), expected.end(),
                      std::back_inserter(extra));
  std::set_intersection(forbidden.begin(), forbidden.end(), actual.begin(), actual.end(),
                        std::back_inserter(invented));
  EXPECT_TRUE(missing.empty() && extra.empty() && invented.empty())
      << "fixture " << directory.filename().string() << "\nmissing:\n"
      << join(missing) << "unexpected:\n"
      << join(extra) << "marked EXPECT-NOT-SIGN:\n"
      << join(invented);
}

// The summary the reports print: both include kinds counted, and the AMD path exists.
TEST(AmdPathSummary, ShimAndHipIncludesAreTheExistingAmdPath) {
  DiskFileSystem fs;
  ScanOptions options;
  options.walk.jobs = 1;
  const auto result =
      scan(fs, std::string(GPUPORT_SOURCE_DIR) + "/tests/fixtures/amd_path/shim_and_hip_includes",
           options);
  ASSERT_TRUE(result.has_value());
  const AmdBuildPath& path = result->amd_build;
  EXPECT_TRUE(path.exists);
  EXPECT_EQ(path.shim_include_sites, 2u);
  ASSERT_EQ(path.shim_includes.size(), 2u);
  EXPECT_EQ(path.shim_includes[0].file, "common.cuh");
  EXPECT_EQ(path.shim_includes[0].line, 4u);
  EXPECT_EQ(path.hip_include_files, 2u);
  EXPECT_EQ(path.hip_includes[0].file, "rocm_gemm.cpp");
}

std::string fixture_name(const ::testing::TestParamInfo<std::filesystem::path>& info) {
  std::string name = info.param.filename().string();
  std::replace_if(
      name.begin(), name.end(), [](char c) { return !std::isalnum(c); }, '_');
  return name;
}

INSTANTIATE_TEST_SUITE_P(AmdPath, AmdPathFixture,
                         ::testing::ValuesIn(testing::fixture_directories("amd_path")),
                         fixture_name);

}  // namespace
}  // namespace gpuport
