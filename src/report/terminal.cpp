// Colour decision (--color, NO_COLOR, isatty) and terminal width.
#include "report/terminal.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <cstdlib>

namespace gpuport {

std::optional<ColorMode> parse_color_mode(std::string_view name) {
  if (name == "auto") {
    return ColorMode::Auto;
  }
  if (name == "always") {
    return ColorMode::Always;
  }
  if (name == "never") {
    return ColorMode::Never;
  }
  return std::nullopt;
}

Color decide_color(ColorMode mode, IsTerminal output, const char* no_color_env) {
  switch (mode) {
    case ColorMode::Always:
      return Color::On;
    case ColorMode::Never:
      return Color::Off;
    case ColorMode::Auto:
      break;
  }
  if (no_color_env != nullptr && no_color_env[0] != '\0') {
    return Color::Off;
  }
  return output == IsTerminal::Yes ? Color::On : Color::Off;
}

Color decide_stdout_color(ColorMode mode) {
  return decide_color(mode, stdout_is_terminal(), std::getenv("NO_COLOR"));
}

IsTerminal stdout_is_terminal() {
  return ::isatty(STDOUT_FILENO) != 0 ? IsTerminal::Yes : IsTerminal::No;
}

IsTerminal stderr_is_terminal() {
  return ::isatty(STDERR_FILENO) != 0 ? IsTerminal::Yes : IsTerminal::No;
}

std::size_t terminal_width(std::size_t fallback) {
  if (stdout_is_terminal() == IsTerminal::No) {
    return fallback;
  }
  winsize size{};
  if (::ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) != 0 || size.ws_col == 0) {
    return fallback;
  }
  // Very narrow terminals still get a readable (wrapped) report; very wide ones gain nothing.
  std::size_t columns = size.ws_col;
  if (columns < 60) {
    return 60;
  }
  return columns > 160 ? 160 : columns;
}

}  // namespace gpuport
