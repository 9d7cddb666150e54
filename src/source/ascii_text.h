// ASCII case folding for names in build files, paths and package specs (never locale-aware:
// these texts are ASCII by their formats, and a locale must not change a scan's answer).
#pragma once

#include <string>
#include <string_view>

namespace gpuport {

constexpr char ascii_lower(char c) {
  return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

inline std::string to_lower_ascii(std::string_view text) {
  std::string out(text);
  for (char& c : out) {
    c = ascii_lower(c);
  }
  return out;
}

// `text` starts with `prefix`, ignoring ASCII case on both sides; no copy.
constexpr bool starts_with_ci(std::string_view text, std::string_view prefix) {
  if (text.size() < prefix.size()) {
    return false;
  }
  for (std::size_t i = 0; i < prefix.size(); ++i) {
    if (ascii_lower(text[i]) != ascii_lower(prefix[i])) {
      return false;
    }
  }
  return true;
}

constexpr bool equals_ci(std::string_view a, std::string_view b) {
  return a.size() == b.size() && starts_with_ci(a, b);
}

}  // namespace gpuport
