// UTF-8 repair and column arithmetic for the report writers.
#include "report/text_util.h"

#include <fmt/format.h>

#include <cstdint>
#include <cstring>

namespace gpuport {

namespace {

constexpr std::string_view k_replacement = "\xEF\xBF\xBD";  // U+FFFD
constexpr std::string_view k_ellipsis = "\xE2\x80\xA6";     // U+2026

// The shape of a UTF-8 sequence by its lead byte: total length and the allowed range of the
// second byte (which excludes overlongs, surrogates and code points above U+10FFFF).
struct LeadShape {
  std::size_t length = 0;  // 0: not a lead byte
  unsigned char low = 0x80;
  unsigned char high = 0xBF;
};

LeadShape lead_shape(unsigned char lead) {
  if (lead < 0x80) {
    return {1, 0, 0};
  }
  if (lead >= 0xC2 && lead <= 0xDF) {
    return {2, 0x80, 0xBF};
  }
  if (lead == 0xE0) {
    return {3, 0xA0, 0xBF};
  }
  if (lead == 0xED) {
    return {3, 0x80, 0x9F};
  }
  if (lead >= 0xE1 && lead <= 0xEF) {
    return {3, 0x80, 0xBF};
  }
  if (lead == 0xF0) {
    return {4, 0x90, 0xBF};
  }
  if (lead == 0xF4) {
    return {4, 0x80, 0x8F};
  }
  if (lead >= 0xF1 && lead <= 0xF3) {
    return {4, 0x80, 0xBF};
  }
  return {};
}

// Bytes of the well-formed prefix starting at text[i]: the whole sequence when it is valid,
// else the maximal subpart (at least 1) that Unicode replaces by one U+FFFD.
std::size_t sequence_prefix(std::string_view text, std::size_t i, bool& valid) {
  const LeadShape shape = lead_shape(static_cast<unsigned char>(text[i]));
  valid = false;
  if (shape.length == 1) {
    valid = true;
    return 1;
  }
  if (shape.length == 0) {
    return 1;
  }
  std::size_t k = i + 1;
  const auto at = [&](std::size_t j) { return static_cast<unsigned char>(text[j]); };
  if (k < text.size() && at(k) >= shape.low && at(k) <= shape.high) {
    ++k;
    while (k < text.size() && k < i + shape.length && at(k) >= 0x80 && at(k) <= 0xBF) {
      ++k;
    }
  }
  valid = k == i + shape.length;
  return k - i;
}

bool is_ascii_control(unsigned char c) {
  return c < 0x20 || c == 0x7F;
}

}  // namespace

std::string valid_utf8(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  std::size_t i = 0;
  while (i < text.size()) {
    bool valid = false;
    const std::size_t length = sequence_prefix(text, i, valid);
    if (valid) {
      out.append(text.substr(i, length));
    } else {
      out.append(k_replacement);
    }
    i += length;
  }
  return out;
}

bool is_valid_utf8(std::string_view text) {
  std::size_t i = 0;
  while (i < text.size()) {
    // ASCII runs, the usual case, eight bytes at a time.
    while (i + 8 <= text.size()) {
      std::uint64_t word = 0;
      std::memcpy(&word, text.data() + i, 8);
      if ((word & 0x8080808080808080ull) != 0) {
        break;
      }
      i += 8;
    }
    if (i >= text.size()) {
      break;
    }
    bool valid = false;
    i += sequence_prefix(text, i, valid);
    if (!valid) {
      return false;
    }
  }
  return true;
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

std::string truncate_start_to_width(std::string_view text, std::size_t width) {
  const std::size_t columns = display_width(text);
  if (columns <= width) {
    return std::string(text);
  }
  if (width == 0) {
    return {};
  }
  // Skip code points until width - 1 of them remain, then prefix the ellipsis.
  std::size_t to_skip = columns - (width - 1);
  std::size_t i = 0;
  while (i < text.size()) {
    const bool starts_code_point = (static_cast<unsigned char>(text[i]) & 0xC0) != 0x80;
    if (starts_code_point) {
      if (to_skip == 0) {
        break;
      }
      --to_skip;
    }
    ++i;
  }
  return std::string(k_ellipsis) + std::string(text.substr(i));
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
  if (bytes < 100'000) {
    return fmt::format("{:.1f} KB", static_cast<double>(bytes) / 1e3);
  }
  return fmt::format("{:.1f} MB", static_cast<double>(bytes) / 1e6);
}

}  // namespace gpuport
