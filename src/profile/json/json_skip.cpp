// JsonReader: skipping values. Most of a Kineto trace is events nobody asked for, so this is where
// the time goes: inside a skipped container only quotes and brackets are looked at (found 16
// bytes at a time), strings are jumped over to their closing quote, and bracket kinds are kept
// in a bit stack so that '[' ... '}' is still an error.
#include <array>

#include "profile/json/char_search.h"
#include "profile/json/json_reader.h"

namespace gpuport::json {

// Skips the string whose opening quote is at `cursor`, without decoding it.
inline bool JsonReader::skip_string_at(std::size_t& cursor) {
  ++cursor;
  for (;;) {
    const char* buffer = m_buffer.get();
    cursor =
        static_cast<std::size_t>(find_quote_or_backslash(buffer + cursor, buffer + m_end) - buffer);
    if (cursor + 1 < m_end) {
      if (buffer[cursor] == '"') {
        ++cursor;
        return true;
      }
      cursor += 2;  // a backslash and the byte it escapes
      continue;
    }
    if (cursor < m_end && buffer[cursor] == '"') {
      ++cursor;
      return true;
    }
    // Nothing found, or a backslash as the last byte: keep it and read on.
    m_pos = cursor;
    if (!refill()) {
      fail_truncated("a string");
      return false;
    }
    cursor = m_pos;
  }
}

void JsonReader::skip_value() {
  switch (peek()) {
    case ValueKind::Object:
      ++m_pos;
      skip_container(false);
      return;
    case ValueKind::Array:
      ++m_pos;
      skip_container(true);
      return;
    case ValueKind::String: {
      std::size_t cursor = m_pos;
      if (skip_string_at(cursor))
        m_pos = cursor;
      return;
    }
    case ValueKind::Number:
      read_number();
      return;
    case ValueKind::True:
      read_literal("true");
      return;
    case ValueKind::False:
      read_literal("false");
      return;
    case ValueKind::Null:
      read_literal("null");
      return;
    case ValueKind::None:
      return;
  }
}

void JsonReader::skip_rest() {
  if (m_error || m_stack.empty())
    return;
  const bool is_array = (m_stack.back() & k_array) != 0;
  m_stack.pop_back();
  skip_container(is_array);
}

// Skips to the bracket that closes a container whose opening bracket was just consumed.
void JsonReader::skip_container(bool is_array) {
  std::array<std::uint64_t, k_max_depth / 64> array_bits{};
  const auto set_kind = [&](std::size_t level, bool array) {
    const std::uint64_t bit = std::uint64_t{1} << (level % 64);
    array_bits[level / 64] =
        array ? (array_bits[level / 64] | bit) : (array_bits[level / 64] & ~bit);
  };
  const auto kind_at = [&](std::size_t level) {
    return ((array_bits[level / 64] >> (level % 64)) & 1) != 0;
  };
  const std::size_t outer = m_stack.size();
  std::size_t depth = 1;
  set_kind(0, is_array);
  std::size_t cursor = m_pos;
  for (;;) {
    const char* buffer = m_buffer.get();
    cursor = static_cast<std::size_t>(find_structural(buffer + cursor, buffer + m_end) - buffer);
    if (cursor == m_end) {
      m_pos = cursor;
      if (!refill()) {
        fail_truncated(kind_at(depth - 1) ? "an array" : "an object");
        return;
      }
      cursor = m_pos;
      continue;
    }
    const char c = buffer[cursor];
    if (c == '"') {
      if (!skip_string_at(cursor))
        return;
      continue;
    }
    if (c == '{' || c == '[') {
      if (outer + depth >= k_max_depth) {
        fail(m_base + cursor, "nesting deeper than " + std::to_string(k_max_depth) + " levels");
        return;
      }
      set_kind(depth, c == '[');
      ++depth;
      ++cursor;
      continue;
    }
    const bool closes_array = c == ']';
    if (closes_array != kind_at(depth - 1)) {
      fail(m_base + cursor, closes_array ? "']' closes an object (expected '}')"
                                         : "'}' closes an array (expected ']')");
      return;
    }
    ++cursor;
    if (--depth == 0) {
      m_pos = cursor;
      return;
    }
  }
}

}  // namespace gpuport::json
