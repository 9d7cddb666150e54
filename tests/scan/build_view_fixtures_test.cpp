// Runs the real scan on each tests/fixtures/amd_build/<case>/ tree and compares every finding,
// kernel and warning, with its AMD-build state and scope, against the fixture's marks:
//   EXPECT: GP-ASM-002 amd=excluded+alt [scope=test]     (this line; also EXPECT-NEXT-LINE:)
//   EXPECT-KERNEL: name lines=12 amd=compiled [scope=...] (the line of the kernel's name)
//   EXPECT-WARNING                                        (a scan warning on this line)
// amd= is compiled, excluded, excluded+alt (excluded, with an AMD alternative) or unknown; scope
// defaults to product. Anything the scan reports that no mark claims fails the fixture.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include "fixture_expectations.h"
#include "scan/rules/catalog.h"
#include "scan/scanner.h"

namespace gpuport {
namespace {

std::string amd_text(const AmdBuild& amd) {
  switch (amd.state) {
    case AmdBuildState::Compiled:
      return "compiled";
    case AmdBuildState::Excluded:
      return amd.alternative ? "excluded+alt" : "excluded";
    case AmdBuildState::Unknown:
      break;
  }
  return "unknown";
}

// The names of a mark (rule ids, or a kernel's name) and its `key=value` words, with a default
// scope: "GP-WARP-006, GP-WARP-009 amd=compiled" gives two names and " amd=compiled scope=product".
std::string attributes(std::istringstream& words, std::vector<std::string>& names) {
  std::string amd;
  std::string scope = "product";
  std::string lines;
  std::string word;
  while (words >> word) {
    if (word.starts_with("amd=")) {
      amd = word.substr(4);
    } else if (word.starts_with("scope=")) {
      scope = word.substr(6);
    } else if (word.starts_with("lines=")) {
      lines = word.substr(6);
    } else {
      while (!word.empty() && word.back() == ',') {
        word.pop_back();
      }
      names.push_back(word);
    }
  }
  return (lines.empty() ? "" : " lines=" + lines) + " amd=" + amd + " scope=" + scope;
}

void read_marks(const std::filesystem::path& file, const std::string& relative,
                std::vector<std::string>& out) {
  std::ifstream in(file, std::ios::binary);
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    const std::string where = relative + ":" + std::to_string(number);
    if (std::size_t at = line.find("EXPECT-KERNEL:"); at != std::string::npos) {
      std::istringstream words(line.substr(at + 14));
      std::vector<std::string> names;
      std::string rest = attributes(words, names);
      for (const std::string& name : names) {
        out.push_back(where + " kernel " + name + rest);
      }
    } else if (line.find("EXPECT-WARNING") != std::string::npos) {
      out.push_back(where + " warning");
    } else {
      const bool next = line.find("EXPECT-NEXT-LINE:") != std::string::npos;
      std::size_t at = line.find(next ? "EXPECT-NEXT-LINE:" : "EXPECT:");
      if (at == std::string::npos) {
        continue;
      }
      std::istringstream words(line.substr(at + (next ? 17 : 7)));
      std::vector<std::string> rules;
      std::string rest = attributes(words, rules);
      for (const std::string& rule : rules) {
        out.push_back(relative + ":" + std::to_string(number + (next ? 1 : 0)) + " " + rule + rest);
      }
    }
  }
}

std::vector<std::string> expected_of(const std::filesystem::path& directory) {
  std::vector<std::string> expected;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(directory)) {
    if (entry.is_regular_file()) {
      read_marks(entry.path(), entry.path().lexically_relative(directory).generic_string(),
                 expected);
    }
  }
  std::sort(expected.begin(), expected.end());
  return expected;
}

std::vector<std::string> actual_of(const std::filesystem::path& directory) {
  DiskFileSystem fs;
  ScanOptions options;
  options.walk.jobs = 2;
  auto result = scan(fs, directory.string(), options);
  EXPECT_TRUE(result.has_value()) << directory;
  std::vector<std::string> actual;
  if (!result) {
    return actual;
  }
  for (const Finding& f : result->findings) {
    actual.push_back(f.file + ":" + std::to_string(f.line) + " " +
                     std::string(rule_catalog()[f.rule].id) + " amd=" + amd_text(f.amd()) +
                     " scope=" + std::string(scope_name(f.scope)));
  }
  for (const Kernel& k : result->kernels) {
    actual.push_back(k.file + ":" + std::to_string(k.line) + " kernel " + k.name +
                     " lines=" + std::to_string(k.lines_of_code) + " amd=" + amd_text(k.amd) +
                     " scope=" + std::string(scope_name(k.scope)));
  }
  for (const FileWarning& w : result->warnings) {
    actual.push_back(w.file + ":" + std::to_string(w.line) + " warning");
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

class BuildViewFixture : public ::testing::TestWithParam<std::filesystem::path> {};

TEST_P(BuildViewFixture, ReportsExactlyTheMarkedItemsWithTheirAmdBuildState) {
  const std::vector<std::string> expected = expected_of(GetParam());
  const std::vector<std::string> actual = actual_of(GetParam());
  std::vector<std::string> missing;
  std::vector<std::string> extra;
  std::set_difference(expected.begin(), expected.end(), actual.begin(), actual.end(),
                      std::back_inserter(missing));
  std::set_difference(actual.begin(), actual.end(), expected.begin(), expected.end(),
                      std::back_inserter(extra));
  EXPECT_TRUE(missing.empty() && extra.empty())
      << "fixture " << GetParam().filename().string() << "\nmissing:\n"
      << join(missing) << "unexpected:\n"
      << join(extra);
}

std::string fixture_name(const ::testing::TestParamInfo<std::filesystem::path>& info) {
  std::string name = info.param.filename().string();
  std::replace_if(
      name.begin(), name.end(), [](char c) { return !std::isalnum(c); }, '_');
  return name;
}

INSTANTIATE_TEST_SUITE_P(AmdBuild, BuildViewFixture,
                         ::testing::ValuesIn(testing::fixture_directories("amd_build")),
                         fixture_name);

}  // namespace
}  // namespace gpuport
