// The pieces every JSON string reader in gpuport decodes with: the four hex digits of a \u
// escape and the UTF-8 bytes of a code point. Inline: the trace readers decode on a hot path.
#pragma once

#include <cstdint>
#include <string>

namespace gpuport {

// 0-15 for a hex digit, -1 otherwise.
inline int hex_digit_value(char c) {
  if (c >= '0' && c <= '9') {
    return c - '0';
  }
  if (c >= 'a' && c <= 'f') {
    return c - 'a' + 10;
  }
  if (c >= 'A' && c <= 'F') {
    return c - 'A' + 10;
  }
  return -1;
}

// The value of the four hex digits at p[0..3], or -1; the caller checks that they are there.
inline long hex4_value(const char* p) {
  long value = 0;
  for (int i = 0; i < 4; ++i) {
    const int digit = hex_digit_value(p[i]);
    if (digit < 0) {
      return -1;
    }
    value = value * 16 + digit;
  }
  return value;
}

// Bytes of the UTF-8 form of a code point (at most U+10FFFF).
inline std::size_t utf8_encoded_length(std::uint32_t code_point) {
  return code_point < 0x80 ? 1 : code_point < 0x800 ? 2 : code_point < 0x10000 ? 3 : 4;
}

inline void append_utf8(std::string& out, std::uint32_t code_point) {
  const auto put = [&out](std::uint32_t byte) { out.push_back(static_cast<char>(byte)); };
  if (code_point < 0x80) {
    put(code_point);
  } else if (code_point < 0x800) {
    put(0xC0 | (code_point >> 6));
    put(0x80 | (code_point & 0x3F));
  } else if (code_point < 0x10000) {
    put(0xE0 | (code_point >> 12));
    put(0x80 | ((code_point >> 6) & 0x3F));
    put(0x80 | (code_point & 0x3F));
  } else {
    put(0xF0 | (code_point >> 18));
    put(0x80 | ((code_point >> 12) & 0x3F));
    put(0x80 | ((code_point >> 6) & 0x3F));
    put(0x80 | (code_point & 0x3F));
  }
}

}  // namespace gpuport
