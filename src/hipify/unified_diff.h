// Line diffs (Myers' O(ND) algorithm, linear space) and their unified-diff text, as `diff -u`
// and `git diff` print them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace gpuport {

enum class LineEditKind : std::uint8_t { Keep, Delete, Insert };

// One step of an edit script. `old_index` is the position in the old lines (for Insert: the
// index of the old line that follows), `new_index` likewise in the new lines.
struct LineEdit {
  LineEditKind kind = LineEditKind::Keep;
  std::size_t old_index = 0;
  std::size_t new_index = 0;
};

// The lines of `text`, each keeping its terminator ("a\r\n" stays "a\r\n"); a last line without
// '\n' is returned as it is. An empty text has no lines.
std::vector<std::string_view> split_lines(std::string_view text);

// A shortest edit script turning `old_lines` into `new_lines`. In every run of changes the
// deletions come before the insertions.
std::vector<LineEdit> diff_lines(std::span<const std::string_view> old_lines,
                                 std::span<const std::string_view> new_lines);

inline constexpr std::size_t k_default_diff_context = 3;

// The unified diff of two texts with `--- a/OLD_PATH` and `+++ b/NEW_PATH` headers, @@ hunks and
// `context` unchanged lines around each change; "" when the texts are equal. A last line without
// a newline is followed by "\ No newline at end of file". Line terminators are kept as they are,
// so a CRLF file shows its '\r' inside the lines.
std::string unified_diff(std::string_view old_text, std::string_view new_text,
                         std::string_view old_path, std::string_view new_path,
                         std::size_t context = k_default_diff_context);

}  // namespace gpuport
