#include "report/audit/html_text.h"

#include <fmt/format.h>

#include <cmath>

#include "report/text_util.h"

namespace gpuport {

std::string html_escape(std::string_view text) {
  const std::string clean = printable(text);
  std::string out;
  out.reserve(clean.size() + clean.size() / 8);
  for (char c : clean) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string html_id(std::string_view text) {
  std::string out;
  bool gap = false;
  for (char c : text) {
    const bool digit = c >= '0' && c <= '9';
    const bool lower = c >= 'a' && c <= 'z';
    const bool upper = c >= 'A' && c <= 'Z';
    if (digit || lower || upper) {
      if (gap && !out.empty()) {
        out += '-';
      }
      gap = false;
      out += upper ? static_cast<char>(c - 'A' + 'a') : c;
    } else {
      gap = true;
    }
  }
  return out.empty() ? "x" : out;
}

std::string svg_number(double value) {
  if (!std::isfinite(value)) {
    return "0";
  }
  const double rounded = std::round(value * 10) / 10;
  if (rounded == 0) {
    return "0";
  }
  std::string text = fmt::format("{:.1f}", rounded);
  if (text.size() > 2 && text.compare(text.size() - 2, 2, ".0") == 0) {
    text.resize(text.size() - 2);
  }
  return text;
}

}  // namespace gpuport
