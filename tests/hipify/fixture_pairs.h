// The hipify fixture pairs (tests/fixtures/hipify/<case>/): the input, the expected
// translation, and the translator options its `options` file names. Shared by the pair tests
// and the compile tests.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

#include "hipify/translator.h"

namespace gpuport::fixture_files {

namespace fs = std::filesystem;

inline const fs::path k_fixtures = fs::path(GPUPORT_SOURCE_DIR) / "tests" / "fixtures" / "hipify";

inline std::string read_bytes(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

struct FixturePair {
  fs::path directory;
  fs::path input;
  TranslateOptions options;
};

// One flag per line: --launch-syntax hip, --roc, --translate-comments.
inline TranslateOptions read_options(const fs::path& directory) {
  TranslateOptions options;
  options.warnings = false;
  std::istringstream lines(read_bytes(directory / "options"));
  for (std::string line; std::getline(lines, line);) {
    if (line == "--launch-syntax hip") {
      options.launch_syntax = LaunchSyntax::Hip;
    } else if (line == "--roc") {
      options.roc = true;
    } else if (line == "--translate-comments") {
      options.translate_comments = true;
    } else if (!line.empty()) {
      ADD_FAILURE() << directory << ": unknown option line '" << line << "'";
    }
  }
  return options;
}

inline void PrintTo(const FixturePair& pair, std::ostream* os) {
  *os << pair.directory.filename().string();
}

inline std::vector<FixturePair> fixture_pairs() {
  std::vector<FixturePair> pairs;
  for (const fs::directory_entry& entry : fs::directory_iterator(k_fixtures)) {
    if (!entry.is_directory()) {
      continue;
    }
    FixturePair pair;
    pair.directory = entry.path();
    for (const fs::directory_entry& file : fs::directory_iterator(entry.path())) {
      if (file.path().stem() == "input") {
        pair.input = file.path();
      }
    }
    pair.options = read_options(entry.path());
    pairs.push_back(pair);
  }
  std::sort(pairs.begin(), pairs.end(),
            [](const FixturePair& a, const FixturePair& b) { return a.directory < b.directory; });
  return pairs;
}

}  // namespace gpuport::fixture_files
