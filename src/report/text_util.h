// Text helpers shared by the writers: UTF-8 repair, display width, truncation, padding.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace gpuport {

// `text` with every invalid UTF-8 sequence replaced by U+FFFD (one per maximal bad subpart).
std::string valid_utf8(std::string_view text);

// True when valid_utf8(text) == text, without building a copy.
bool is_valid_utf8(std::string_view text);

// valid_utf8() plus control characters (C0, DEL, C1) replaced by '?', so source excerpts cannot
// move the cursor or inject escape sequences into a terminal.
std::string printable(std::string_view text);

// Columns a valid UTF-8 string takes (one per code point; good enough for source text).
std::size_t display_width(std::string_view text);

// At most `width` columns; a cut string ends with "…".
std::string truncate_to_width(std::string_view text, std::size_t width);

// At most `width` columns keeping the end; a cut string starts with "…".
std::string truncate_start_to_width(std::string_view text, std::size_t width);

// `text` padded with spaces on the right (or left) to `width` columns.
std::string pad_right(std::string_view text, std::size_t width);
std::string pad_left(std::string_view text, std::size_t width);

// "12.3 MB" style (decimal units, one decimal); below 0.1 MB in kilobytes ("48.2 KB").
std::string format_megabytes(std::uint64_t bytes);

}  // namespace gpuport
