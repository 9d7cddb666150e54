// Reads the expectations a fixture directory states: EXPECT comments and expectations.txt.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace gpuport::testing {

// "file:line RULE-ID", the form in which expected and actual findings are compared. With
// `forbidden`, also the `EXPECT-NOT: ID` marks: a finding of that rule must not be on that line.
std::vector<std::string> read_expectations(const std::filesystem::path& directory,
                                           std::vector<std::string>* forbidden = nullptr);

// Every fixture directory under tests/fixtures/<group>/ (rules, traps), sorted.
std::vector<std::filesystem::path> fixture_directories(const std::string& group);

}  // namespace gpuport::testing
