// UTF-8 repair and column arithmetic for the report writers.
#include "report/text_util.h"

#include <fmt/format.h>

#include <cstdint>

namespace gpuport {

namespace {

constexpr std::string_view k_replacement = "\xEF\xBF\xBD";  // U+FFFD
constexpr std::string_view k_ellipsis = "\xE2\x80\xA6";     // U+2026

// Length of the valid UTF-8 sequence starting at text[i], or 0 when it is invalid.
std::size_t valid_sequence_length(std::string_view text, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char lead = byte(i);
  if (lead < 0x80) {
    return 1;
  }
  std::size_t length = 0;
  unsigned char low = 0x80;
  unsigned char high = 0xBF;
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    if (lead == 0xE0) {
      low = 0xA0;  // no overlongs
    } else if (lead == 0xED) {
      high = 0x9F;  // no surrogates
    }
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    if (lead == 0xF0) {
      low = 0x90;
    } else if (lead == 0xF4) {
      high = 0x8F;  // nothing above U+10FFFF
    }
  } else {
    return 0;
  }
  if (i + length > text.size()) {
    return 0;
  }
  if (byte(i + 1) < low || byte(i + 1) > high) {
    return 0;
  }
  for (std::size_t k = 2; k < length; ++k) {
    if (byte(i + k) < 0x80 || byte(i + k) > 0xBF) {
      return 0;
    }
  }
  return length;
}

// Bytes of the maximal invalid subpart starting at i (at least 1): the lead byte and any
// continuation bytes that could still have belonged to it.
std::size_t invalid_run_length(std::string_view text, std::size_t i) {
  std::size_t k = i + 1;
  const auto lead = static_cast<unsigned char>(text[i]);
  if (lead >= 0xC2 && lead <= 0xF4) {
    while (k < text.size() && k < i + 4 && (static_cast<unsigned char>(text[k]) & 0xC0) == 0x80 &&
           valid_sequence_length(text, k) == 0) {
      ++k;
    }
  }
  return k - i;
}

bool is_ascii_control(unsigned char c) { return c < 0x20 || c == 0x7F; }

}  // namespace

std::string valid_utf8(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  std::size_t i = 0;
  while (i < text.size()) {
    const std::size_t length = valid_sequence_length(text, i);
    if (length > 0) {
      out.append(text.substr(i, length));
      i += length;
    } else {
      out.append(k_replacement);
      i += invalid_run_length(text, i);
    }
  }
  return out;
}

std::string printable(std::string_view text) {
  const std::string valid = valid_utf8(text);
  std::string out;
  out.reserve(valid.size());
  for (std::size_t i = 0; i < valid.size(); ++i) {
    const auto c = static_cast<unsigned char>(valid[i]);
    if (c == '\t') {
      out.push_back(' ');
    } else if (is_ascii_control(c)) {
      out.push_back('?');
    } else if (c == 0xC2 && i + 1 < valid.size() &&
               static_cast<unsigned char>(valid[i + 1]) < 0xA0) {
      out.push_back('?');  // C1 control (U+0080..U+009F)
      ++i;
    } else {
      out.push_back(static_cast<char>(c));
    }
  }
  return out;
}

std::size_t display_width(std::string_view text) {
  std::size_t columns = 0;
  for (const char c : text) {
    if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) {
      ++columns;
    }
  }
  return columns;
}

std::string truncate_to_width(std::string_view text, std::size_t width) {
  if (display_width(text) <= width) {
    return std::string(text);
  }
  if (width == 0) {
    return {};
  }
  std::string out;
  std::size_t columns = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const bool starts_code_point = (static_cast<unsigned char>(text[i]) & 0xC0) != 0x80;
    if (starts_code_point) {
      if (columns + 1 == width) {
        break;
      }
      ++columns;
    }
    out.push_back(text[i]);
  }
  out.append(k_ellipsis);
  return out;
}

std::string pad_right(std::string_view text, std::size_t width) {
  std::string out(text);
  const std::size_t columns = display_width(text);
  if (columns < width) {
    out.append(width - columns, ' ');
  }
  return out;
}

std::string pad_left(std::string_view text, std::size_t width) {
  const std::size_t columns = display_width(text);
  std::string out;
  if (columns < width) {
    out.append(width - columns, ' ');
  }
  out.append(text);
  return out;
}

std::string format_megabytes(std::uint64_t bytes) {
  return fmt::format("{:.1f} MB", static_cast<double>(bytes) / 1e6);
}

}  // namespace gpuport
