// Collects the edits and report items of one build file and applies them in one pass. Internal
// to the build-file rewriters (build_files_cmake.cpp, build_files_setup_py.cpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "hipify/build_files.h"

namespace gpuport {

class BuildFileEditor {
 public:
  explicit BuildFileEditor(std::string_view source);

  std::string_view source() const { return m_source; }
  std::uint32_t line_of(std::size_t offset) const;
  // The spaces and tabs that start the line holding `offset`.
  std::string_view indentation_at(std::size_t offset) const;

  void report(std::size_t offset, BuildChange change, std::string cuda, std::string hip);
  // Replaces the bytes [offset, offset + length); never spans a line break it does not remove.
  void replace(std::size_t offset, std::size_t length, std::string text);
  // Removes [begin, end); when that leaves only blanks on the line, the whole line goes.
  void remove(std::size_t begin, std::size_t end);
  // Removes [offset, offset + length) together with the blanks before it on the same line.
  void remove_with_leading_blanks(std::size_t offset, std::size_t length);
  // Adds `line` (no terminator) as a new line before the line holding `offset`, indented like
  // it, or after the line holding `offset`.
  void insert_line_before(std::size_t offset, std::string_view line);
  void insert_line_after(std::size_t offset, std::string_view line);

  std::size_t edit_count() const { return m_edits.size(); }

  // Applies the edits (an edit overlapping an earlier one is dropped) and sorts the items.
  BuildFileResult finish(BuildFileKind kind) &&;

 private:
  struct Edit {
    std::size_t offset = 0;
    std::size_t length = 0;
    std::string text;
    std::size_t sequence = 0;
  };

  std::string_view m_source;
  std::vector<std::size_t> m_line_starts;
  std::vector<Edit> m_edits;
  std::vector<std::pair<std::size_t, BuildFileItem>> m_items;  // by source offset
};

// One flag inside a build file: its offset in the source and its text.
struct FlagToken {
  std::size_t offset = 0;
  std::string_view text;
};

// The flags in source[begin, end): split on blanks and, when `semicolons`, on ';' (CMake lists).
std::vector<FlagToken> flag_tokens(std::string_view source, std::size_t begin, std::size_t end,
                                   bool semicolons);

// Translates the nvcc flags among `tokens` in place (nvcc_flags.h), reporting each change.
// Replacement flags are joined with `separator`. `architecture_written` carries over between the
// regions of one command, so that several -gencode flags become a single --offload-arch.
void edit_nvcc_flags(BuildFileEditor& editor, std::span<const FlagToken> tokens,
                     std::string_view separator, const BuildFileOptions& options,
                     bool& architecture_written);

// ASCII lower case (CMake command names are case-insensitive).
std::string lower_ascii(std::string_view text);

// The two rewriters behind analyze_build_file().
BuildFileResult analyze_cmake_file(std::string_view source, const BuildFileOptions& options);
BuildFileResult analyze_setup_py(std::string_view source, const BuildFileOptions& options);

}  // namespace gpuport
