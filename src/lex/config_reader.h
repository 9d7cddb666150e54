// Light readers for the files where GPU settings live: CMake, requirements/pyproject,
// Dockerfile, shell, YAML. They yield logical lines with comments removed.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "source/language.h"

namespace gpuport {

struct ConfigLine {
  std::uint32_t line = 0;    // 1-based line where the logical line starts
  std::uint32_t indent = 0;  // leading spaces (YAML nesting)
  std::string text;  // comment removed, continuations joined with one space, outer blanks trimmed
};

// Comments: '#' outside quotes for every language here, plus CMake's #[[ ... ]] bracket
// comments. Continuations: trailing '\' in Docker and shell. Blank logical lines are omitted.
std::vector<ConfigLine> read_config_lines(std::string_view source, Language language);

}  // namespace gpuport
