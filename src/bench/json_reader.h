// A validating JSON reader (RFC 8259) that reports values as events and allocates nothing for
// ordinary documents: strings and keys are views into the text, with their decoded size known,
// and are decoded only when a handler asks. It runs for every response and every streamed
// chunk of a benchmark, where a general-purpose parser's per-string allocations showed up as a
// tenth of the client's time.
//
// It accepts what nlohmann::json::accept() accepts (the fuzz target checks this): one value with
// optional whitespace around it and a leading UTF-8 byte order mark; strings of valid UTF-8
// without control characters, with escapes and surrogate pairs checked. One difference: the
// library stops reading at a NUL byte outside a string, where this reader reports an error.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace gpuport {

// A JSON string as it appears in the text, between its quotes.
struct JsonString {
  std::string_view raw;       // without the quotes, escapes not decoded
  std::size_t decoded_bytes;  // UTF-8 bytes once decoded
  bool has_escapes;

  // The decoded text (escapes resolved, surrogate pairs joined).
  std::string decode() const;
  bool equals(std::string_view text) const { return !has_escapes && raw == text; }
};

// Handler events, each returning false to stop reading:
//   start_object(), end_object(), start_array(), end_array(), key(const JsonString&),
//   string(const JsonString&), count(std::int64_t) for an integer in [0, INT64_MAX], and
//   other_scalar(bool is_null) for every other number and for true, false and null.
// read_json() returns true when the text is one valid JSON value and no handler stopped it.
template <typename Handler>
bool read_json(std::string_view text, Handler& handler);

namespace json_reader_detail {

// Scans a string whose opening quote is at text[at - 1]; returns the index after the closing
// quote, or npos when the string is invalid or unterminated.
std::size_t scan_string(std::string_view text, std::size_t at, JsonString& out);
// Scans a number starting at text[at]; returns the index after it, or npos when invalid.
// `count` is set for an integer without fraction or exponent that fits in [0, INT64_MAX].
std::size_t scan_number(std::string_view text, std::size_t at, std::optional<std::int64_t>& count);

inline bool is_space(char c) {
  return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

inline std::size_t skip_space(std::string_view text, std::size_t at) {
  while (at < text.size() && is_space(text[at])) {
    ++at;
  }
  return at;
}

}  // namespace json_reader_detail

template <typename Handler>
bool read_json(std::string_view text, Handler& handler) {
  using namespace json_reader_detail;
  constexpr std::size_t npos = std::string_view::npos;
  std::size_t at = 0;
  if (text.size() >= 3 && text.substr(0, 3) == "\xEF\xBB\xBF") {
    at = 3;
  }
  // One byte per open container: '{' or '['. Short for ordinary documents (no allocation).
  std::string open;
  bool expect_value = true;  // a value must start here; otherwise ',' or a close
  // `"name" :` from `at` (blanks allowed before the name), reported as a key.
  const auto read_member_name = [&] {
    at = skip_space(text, at);
    if (at >= text.size() || text[at] != '"') {
      return false;
    }
    JsonString name{};
    at = scan_string(text, at + 1, name);
    if (at == npos) {
      return false;
    }
    at = skip_space(text, at);
    if (at >= text.size() || text[at] != ':') {
      return false;
    }
    ++at;
    return handler.key(name);
  };
  while (true) {
    at = skip_space(text, at);
    if (at >= text.size()) {
      return false;
    }
    const char c = text[at];
    if (!expect_value) {
      if (open.empty()) {
        return false;
      }
      const char container = open.back();
      if (c == ',') {
        ++at;
        expect_value = true;
        if (container == '{' && !read_member_name()) {
          return false;
        }
        continue;
      }
      if (c != (container == '{' ? '}' : ']')) {
        return false;
      }
      ++at;
      open.pop_back();
      if (!(container == '{' ? handler.end_object() : handler.end_array())) {
        return false;
      }
    } else {
      switch (c) {
        case '{': {
          ++at;
          open.push_back('{');
          if (!handler.start_object()) {
            return false;
          }
          at = skip_space(text, at);
          if (at < text.size() && text[at] == '}') {
            ++at;
            open.pop_back();
            if (!handler.end_object()) {
              return false;
            }
            break;
          }
          if (!read_member_name()) {
            return false;
          }
          continue;  // the member's value
        }
        case '[': {
          ++at;
          open.push_back('[');
          if (!handler.start_array()) {
            return false;
          }
          const std::size_t next = skip_space(text, at);
          if (next < text.size() && text[next] == ']') {
            at = next + 1;
            open.pop_back();
            if (!handler.end_array()) {
              return false;
            }
            break;
          }
          continue;  // the first element
        }
        case '"': {
          JsonString value{};
          at = scan_string(text, at + 1, value);
          if (at == npos || !handler.string(value)) {
            return false;
          }
          break;
        }
        case 't':
        case 'f':
        case 'n': {
          const std::string_view word = c == 't' ? "true" : c == 'f' ? "false" : "null";
          if (text.substr(at, word.size()) != word) {
            return false;
          }
          at += word.size();
          if (!handler.other_scalar(c == 'n')) {
            return false;
          }
          break;
        }
        default: {
          std::optional<std::int64_t> count;
          at = scan_number(text, at, count);
          if (at == npos) {
            return false;
          }
          if (!(count ? handler.count(*count) : handler.other_scalar(false))) {
            return false;
          }
          break;
        }
      }
    }
    expect_value = false;
    if (open.empty()) {
      return skip_space(text, at) == text.size();
    }
  }
}

}  // namespace gpuport
