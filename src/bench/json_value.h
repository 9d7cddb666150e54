// A small JSON document reader that keeps the byte offset of every value, so errors in a saved
// bench result can name the line and column ("h100.json:3:17: expected a number for 'completed'"),
// and a writer of JSON strings. Bench results are small (kilobytes); no streaming needed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <tl/expected.hpp>

namespace gpuport {

struct JsonMember;

struct JsonValue {
  enum class Kind { null, boolean, number, string, array, object };
  Kind kind = Kind::null;
  std::size_t offset = 0;  // of the value's first byte in the document
  bool boolean = false;
  std::string text;  // a string's decoded value, or a number's text as written
  std::vector<JsonValue> items;
  std::vector<JsonMember> members;  // in document order

  const JsonValue* find(std::string_view key) const;  // the last member named `key`
};

struct JsonMember {
  std::string key;
  JsonValue value;
};

struct JsonError {
  std::size_t offset = 0;
  std::string message;
};

// RFC 8259 JSON; nesting deeper than 64 is refused (no unbounded recursion).
tl::expected<JsonValue, JsonError> parse_json(std::string_view text);

// "line:column" (1-based, column in bytes) of `offset` in `text`.
std::string line_column(std::string_view text, std::size_t offset);

// `text` as a JSON string literal with quotes; invalid UTF-8 becomes U+FFFD.
std::string json_quoted(std::string_view text);

}  // namespace gpuport
