// A plain-text table that fits a width: long columns shrink (with "…"), numbers align right.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "report/report_options.h"

namespace gpuport {

enum class Align : std::uint8_t { Left, Right };
enum class Shrink : std::uint8_t { Fixed, Allowed };
// Which end of a cut cell survives: paths keep their end ("…/attention.cu:42").
enum class KeepEnd : std::uint8_t { Start, End };

struct TableColumn {
  std::string header;
  Align align = Align::Left;
  Shrink shrink = Shrink::Allowed;
  std::size_t min_width = 6;
  KeepEnd keep = KeepEnd::Start;
  // ANSI colour for a cell when colour is on (empty: none); decided from the cell text.
  std::string_view (*color_of)(std::string_view cell) = nullptr;
  std::size_t max_width = 0;  // 0: as wide as its widest cell
};

// Renders header + rows, each line starting with `indent` spaces and at most `width` columns.
// Cells must be printable (see text_util.h); they are truncated, never wrapped. A non-empty
// notes[i] is printed under row i, aligned with the second column (also cut to the width).
std::string render_table(const std::vector<TableColumn>& columns,
                         const std::vector<std::vector<std::string>>& rows, std::size_t indent,
                         std::size_t width, Color color,
                         const std::vector<std::string>& notes = {});

// ANSI helpers (empty strings when colour is off).
inline constexpr std::string_view k_ansi_bold = "\x1b[1m";
inline constexpr std::string_view k_ansi_dim = "\x1b[2m";
inline constexpr std::string_view k_ansi_red = "\x1b[31m";
inline constexpr std::string_view k_ansi_yellow = "\x1b[33m";
inline constexpr std::string_view k_ansi_cyan = "\x1b[36m";
inline constexpr std::string_view k_ansi_blue = "\x1b[34m";
inline constexpr std::string_view k_ansi_green = "\x1b[32m";
inline constexpr std::string_view k_ansi_reset = "\x1b[0m";

std::string styled(std::string_view text, std::string_view style, Color color);
// Colour of a tier name ("rewrite" red ... "framework" green); empty for other text.
std::string_view tier_color(std::string_view tier);

}  // namespace gpuport
