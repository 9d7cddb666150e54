// Parses `EXPECT: ID[, ID]`, `EXPECT-NEXT-LINE: ID`, `EXPECT-NOT: ID` and expectations.txt
// sidecars.
#include "fixture_expectations.h"

#include <algorithm>
#include <fstream>
#include <sstream>

namespace gpuport::testing {

namespace {

// Rule ids in the text after a marker: GP-<FAMILY>-<NNN>.
std::vector<std::string> rule_ids(const std::string& text) {
  std::vector<std::string> ids;
  std::size_t at = 0;
  while ((at = text.find("GP-", at)) != std::string::npos) {
    std::size_t end = at + 3;
    while (end < text.size() &&
           (std::isalnum(static_cast<unsigned char>(text[end])) || text[end] == '-')) {
      ++end;
    }
    ids.push_back(text.substr(at, end - at));
    at = end;
  }
  return ids;
}

void read_markers(const std::filesystem::path& file, const std::string& relative,
                  std::vector<std::string>& out, std::vector<std::string>* forbidden) {
  std::ifstream in(file, std::ios::binary);
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    // `EXPECT: A EXPECT-NOT: B`: the ids after EXPECT-NOT are forbidden, those before expected.
    if (std::size_t never = line.find("EXPECT-NOT:"); never != std::string::npos) {
      if (forbidden != nullptr) {
        for (const std::string& id : rule_ids(line.substr(never))) {
          forbidden->push_back(relative + ":" + std::to_string(number) + " " + id);
        }
      }
      line.resize(never);
    }
    std::size_t next = line.find("EXPECT-NEXT-LINE:");
    if (next != std::string::npos) {
      for (const std::string& id : rule_ids(line.substr(next))) {
        out.push_back(relative + ":" + std::to_string(number + 1) + " " + id);
      }
      continue;
    }
    std::size_t same = line.find("EXPECT:");
    if (same != std::string::npos) {
      for (const std::string& id : rule_ids(line.substr(same))) {
        out.push_back(relative + ":" + std::to_string(number) + " " + id);
      }
    }
  }
}

void read_sidecar(const std::filesystem::path& file, std::vector<std::string>& out) {
  std::ifstream in(file);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::string path;
    std::string number;
    std::string id;
    if (fields >> path >> number >> id && path[0] != '#') {
      out.push_back(path + ":" + number + " " + id);
    }
  }
}

}  // namespace

std::vector<std::string> read_expectations(const std::filesystem::path& directory,
                                           std::vector<std::string>* forbidden) {
  std::vector<std::string> expected;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(directory)) {
    if (!entry.is_regular_file()) {
      continue;
    }
    std::string relative = entry.path().lexically_relative(directory).generic_string();
    if (relative == "expectations.txt") {
      read_sidecar(entry.path(), expected);
    } else {
      read_markers(entry.path(), relative, expected, forbidden);
    }
  }
  std::sort(expected.begin(), expected.end());
  if (forbidden != nullptr) {
    std::sort(forbidden->begin(), forbidden->end());
  }
  return expected;
}

std::vector<std::filesystem::path> fixture_directories(const std::string& group) {
  std::vector<std::filesystem::path> directories;
  std::filesystem::path base = std::filesystem::path(GPUPORT_SOURCE_DIR) / "tests/fixtures" / group;
  if (!std::filesystem::is_directory(base)) {
    return directories;
  }
  for (const auto& entry : std::filesystem::directory_iterator(base)) {
    if (entry.is_directory()) {
      directories.push_back(entry.path());
    }
  }
  std::sort(directories.begin(), directories.end());
  return directories;
}

}  // namespace gpuport::testing
