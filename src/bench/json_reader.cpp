// String and number scanning for read_json(): RFC 8259's grammar, with the UTF-8 of strings
// checked against RFC 3629's table of well-formed sequences.
#include "bench/json_reader.h"

#include <array>
#include <limits>

#include "source/utf8_encoding.h"

namespace gpuport {

namespace json_reader_detail {

namespace {

constexpr std::size_t npos = std::string_view::npos;

// Bytes a string may hold as they are: printable ASCII other than '"' and '\\'.
constexpr std::array<bool, 256> k_plain = [] {
  std::array<bool, 256> plain{};
  for (int c = 0x20; c < 0x80; ++c) {
    plain[static_cast<std::size_t>(c)] = c != '"' && c != '\\';
  }
  return plain;
}();

// The four hex digits at text[at..at+4), or -1.
long hex4(std::string_view text, std::size_t at) {
  return text.size() < at + 4 ? -1 : hex4_value(text.data() + at);
}

bool in(unsigned char c, unsigned char low, unsigned char high) {
  return c >= low && c <= high;
}

// The length of the well-formed UTF-8 sequence that starts at text[at] (a byte >= 0x80), or 0.
std::size_t utf8_sequence(std::string_view text, std::size_t at) {
  const auto byte = [&](std::size_t i) -> unsigned char {
    return at + i < text.size() ? static_cast<unsigned char>(text[at + i]) : 0;
  };
  const unsigned char lead = byte(0);
  if (in(lead, 0xC2, 0xDF)) {
    return in(byte(1), 0x80, 0xBF) ? 2 : 0;
  }
  if (in(lead, 0xE0, 0xEF)) {
    const unsigned char low = lead == 0xE0 ? 0xA0 : 0x80;
    const unsigned char high = lead == 0xED ? 0x9F : 0xBF;
    return in(byte(1), low, high) && in(byte(2), 0x80, 0xBF) ? 3 : 0;
  }
  if (in(lead, 0xF0, 0xF4)) {
    const unsigned char low = lead == 0xF0 ? 0x90 : 0x80;
    const unsigned char high = lead == 0xF4 ? 0x8F : 0xBF;
    return in(byte(1), low, high) && in(byte(2), 0x80, 0xBF) && in(byte(3), 0x80, 0xBF) ? 4 : 0;
  }
  return 0;
}

// The code point of the \u escape at text[at] (the backslash), joining a surrogate pair, and
// how many bytes of text it spans; {-1, 0} when invalid.
std::pair<long, std::size_t> unicode_escape(std::string_view text, std::size_t at) {
  const long first = hex4(text, at + 2);
  if (first < 0 || (first >= 0xDC00 && first <= 0xDFFF)) {
    return {-1, 0};
  }
  if (first < 0xD800 || first > 0xDBFF) {
    return {first, 6};
  }
  if (text.size() < at + 12 || text[at + 6] != '\\' || text[at + 7] != 'u') {
    return {-1, 0};
  }
  const long second = hex4(text, at + 8);
  if (second < 0xDC00 || second > 0xDFFF) {
    return {-1, 0};
  }
  return {0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00), 12};
}

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

}  // namespace

std::size_t scan_string(std::string_view text, std::size_t at, JsonString& out) {
  const std::size_t start = at;
  std::size_t decoded = 0;
  bool escapes = false;
  while (true) {
    while (at < text.size() && k_plain[static_cast<unsigned char>(text[at])]) {
      ++at;
      ++decoded;
    }
    if (at >= text.size()) {
      return npos;
    }
    const auto c = static_cast<unsigned char>(text[at]);
    if (c == '"') {
      out = {text.substr(start, at - start), decoded, escapes};
      return at + 1;
    }
    if (c == '\\') {
      escapes = true;
      if (at + 1 >= text.size()) {
        return npos;
      }
      switch (text[at + 1]) {
        case '"':
        case '\\':
        case '/':
        case 'b':
        case 'f':
        case 'n':
        case 'r':
        case 't':
          at += 2;
          ++decoded;
          continue;
        case 'u': {
          const auto [code_point, span] = unicode_escape(text, at);
          if (code_point < 0) {
            return npos;
          }
          at += span;
          decoded += utf8_encoded_length(static_cast<std::uint32_t>(code_point));
          continue;
        }
        default:
          return npos;
      }
    }
    if (c < 0x20) {
      return npos;
    }
    const std::size_t length = utf8_sequence(text, at);
    if (length == 0) {
      return npos;
    }
    at += length;
    decoded += length;
  }
}

std::size_t scan_number(std::string_view text, std::size_t at, std::optional<std::int64_t>& count) {
  count.reset();
  const bool negative = at < text.size() && text[at] == '-';
  if (negative) {
    ++at;
  }
  if (at >= text.size() || !is_digit(text[at])) {
    return npos;
  }
  constexpr std::int64_t k_max = std::numeric_limits<std::int64_t>::max();
  std::int64_t value = 0;
  bool fits = true;
  if (text[at] == '0') {
    ++at;
  } else {
    while (at < text.size() && is_digit(text[at])) {
      const int digit = text[at] - '0';
      if (value > (k_max - digit) / 10) {
        fits = false;
      } else {
        value = value * 10 + digit;
      }
      ++at;
    }
  }
  bool integer = true;
  if (at < text.size() && text[at] == '.') {
    integer = false;
    ++at;
    if (at >= text.size() || !is_digit(text[at])) {
      return npos;
    }
    while (at < text.size() && is_digit(text[at])) {
      ++at;
    }
  }
  if (at < text.size() && (text[at] == 'e' || text[at] == 'E')) {
    integer = false;
    ++at;
    if (at < text.size() && (text[at] == '+' || text[at] == '-')) {
      ++at;
    }
    if (at >= text.size() || !is_digit(text[at])) {
      return npos;
    }
    while (at < text.size() && is_digit(text[at])) {
      ++at;
    }
  }
  // "-0" is the integer 0, as for a general-purpose parser; other negatives are not counts.
  if (integer && fits && (!negative || value == 0)) {
    count = value;
  }
  return at;
}

}  // namespace json_reader_detail

std::string JsonString::decode() const {
  if (!has_escapes) {
    return std::string(raw);
  }
  std::string out;
  out.reserve(decoded_bytes);
  for (std::size_t at = 0; at < raw.size();) {
    if (raw[at] != '\\') {
      out.push_back(raw[at]);
      ++at;
      continue;
    }
    const char kind = raw[at + 1];
    if (kind == 'u') {
      const auto [code_point, span] = json_reader_detail::unicode_escape(raw, at);
      append_utf8(out, static_cast<std::uint32_t>(code_point));
      at += span;
      continue;
    }
    const char simple = kind == 'b'   ? '\b'
                        : kind == 'f' ? '\f'
                        : kind == 'n' ? '\n'
                        : kind == 'r' ? '\r'
                        : kind == 't' ? '\t'
                                      : kind;
    out.push_back(simple);
    at += 2;
  }
  return out;
}

}  // namespace gpuport
