// Deciding whether output gets colour, and how wide the terminal is.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

#include "report/report_options.h"

namespace gpuport {

enum class ColorMode : std::uint8_t { Auto, Always, Never };
enum class IsTerminal : std::uint8_t { No, Yes };

std::optional<ColorMode> parse_color_mode(std::string_view name);

// The colour rule: `always` and `never` are final (an explicit flag beats the environment);
// `auto` is on only when the output is a terminal and NO_COLOR is unset or empty.
Color decide_color(ColorMode mode, IsTerminal output, const char* no_color_env);

// Same, for standard output and the real NO_COLOR.
Color decide_stdout_color(ColorMode mode);

IsTerminal stdout_is_terminal();
IsTerminal stderr_is_terminal();

// Columns of the terminal on standard output, or `fallback` when it is not a terminal.
std::size_t terminal_width(std::size_t fallback = 100);

}  // namespace gpuport
