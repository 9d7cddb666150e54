// The real public traces beside the project (`../shared/data/traces`, with
// expected_answers.json). Tests that need them skip with a reason when the folder is absent.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>

#include <nlohmann/json.hpp>

namespace gpuport::testing {

// $GPUPORT_TRACES_DIR, else ../shared/data/traces next to the source tree.
inline std::optional<std::filesystem::path> shared_traces_dir() {
  std::filesystem::path dir;
  if (const char* env = std::getenv("GPUPORT_TRACES_DIR"); env != nullptr && *env != '\0') {
    dir = env;
  } else {
    dir = std::filesystem::path(GPUPORT_SOURCE_DIR).parent_path() / "shared" / "data" / "traces";
  }
  if (!std::filesystem::is_regular_file(dir / "expected_answers.json"))
    return std::nullopt;
  return dir;
}

inline nlohmann::json expected_answers(const std::filesystem::path& dir) {
  std::ifstream in(dir / "expected_answers.json");
  return nlohmann::json::parse(in);
}

}  // namespace gpuport::testing

// Skips the calling test when the shared traces are absent; defines `traces` (the folder).
#define GPUPORT_REQUIRE_SHARED_TRACES(traces)                                                   \
  const auto traces##_found = ::gpuport::testing::shared_traces_dir();                          \
  if (!traces##_found) {                                                                        \
    GTEST_SKIP() << "the shared traces (../shared/data/traces or $GPUPORT_TRACES_DIR) are not " \
                    "present";                                                                  \
  }                                                                                             \
  const std::filesystem::path traces = *traces##_found
