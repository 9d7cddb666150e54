// JsonReader: the buffer, whitespace, containers, keys, numbers and literals. Strings are in
// json_string.cpp, skipping in json_skip.cpp.
#include "profile/json/json_reader.h"

#include "profile/json/char_search.h"

#include <cstring>

namespace gpuport::json {
namespace {

bool is_whitespace(char c) {
  return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

bool is_number_char(char c) {
  return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E';
}

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

// JSON's number grammar: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
bool is_json_number(std::string_view text) {
  std::size_t i = 0;
  const std::size_t n = text.size();
  if (i < n && text[i] == '-')
    ++i;
  if (i == n || !is_digit(text[i]))
    return false;
  if (text[i] == '0') {
    ++i;
  } else {
    while (i < n && is_digit(text[i]))
      ++i;
  }
  if (i < n && text[i] == '.') {
    ++i;
    if (i == n || !is_digit(text[i]))
      return false;
    while (i < n && is_digit(text[i]))
      ++i;
  }
  if (i < n && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    if (i < n && (text[i] == '+' || text[i] == '-'))
      ++i;
    if (i == n || !is_digit(text[i]))
      return false;
    while (i < n && is_digit(text[i]))
      ++i;
  }
  return i == n;
}

}  // namespace

std::string describe_byte(char c) {
  if (c >= 0x20 && c < 0x7f)
    return std::string("'") + c + "'";
  static const char* hex = "0123456789abcdef";
  const auto byte = static_cast<unsigned char>(c);
  return std::string("byte 0x") + hex[byte >> 4] + hex[byte & 15];
}

JsonReader::JsonReader(ByteStream& in, std::size_t chunk, std::size_t max_value)
    : m_in(in),
      m_buffer(new char[chunk == 0 ? 1 : chunk]),
      m_max_value(max_value),
      m_capacity(chunk == 0 ? 1 : chunk) {
  m_base = in.position();
  // A UTF-8 byte order mark may precede the document.
  while (m_end < 3 && refill()) {
  }
  if (m_end >= 3 && std::memcmp(m_buffer.get(), "\xEF\xBB\xBF", 3) == 0)
    m_pos = 3;
}

const std::string& JsonReader::path() const {
  return m_in.path();
}

void JsonReader::fail(std::uint64_t at, std::string_view what) {
  if (m_error)
    return;
  m_error = TraceError{m_in.path() + ": byte " + std::to_string(at) + ": " + std::string(what)};
}

void JsonReader::fail_truncated(const char* inside) {
  if (m_error)
    return;
  fail(m_base + m_end, std::string("the file ends ") + (inside != nullptr ? "inside " : "before ") +
                           (inside != nullptr ? inside : "a JSON value") + " (truncated JSON?)");
}

const char* JsonReader::innermost_name() const {
  if (m_stack.empty())
    return nullptr;
  return (m_stack.back() & k_array) != 0 ? "an array" : "an object";
}

bool JsonReader::refill() {
  if (m_eof || m_error)
    return false;
  if (m_pos > 0) {
    std::memmove(m_buffer.get(), m_buffer.get() + m_pos, m_end - m_pos);
    m_base += m_pos;
    m_end -= m_pos;
    m_pos = 0;
  }
  if (m_end == m_capacity) {
    if (m_capacity >= m_max_value) {
      const std::string limit = m_max_value % (1u << 20) == 0
                                    ? std::to_string(m_max_value >> 20) + " MiB"
                                    : std::to_string(m_max_value) + " bytes";
      fail(m_base, "one value is longer than " + limit +
                       " (a trace holds names and numbers; this is no trace)");
      return false;
    }
    // One token fills the whole buffer: make room for the rest of it.
    std::unique_ptr<char[]> bigger(new char[m_capacity * 2]);
    std::memcpy(bigger.get(), m_buffer.get(), m_end);
    m_buffer = std::move(bigger);
    m_capacity *= 2;
  }
  auto got = m_in.read(m_buffer.get() + m_end, m_capacity - m_end);
  if (!got) {
    m_error = got.error();
    return false;
  }
  if (*got == 0) {
    m_eof = true;
    return false;
  }
  m_end += *got;
  return true;
}

bool JsonReader::refill_keeping(std::size_t& cursor) {
  const std::size_t relative = cursor - m_pos;
  const bool more = refill();
  cursor = m_pos + relative;
  return more;
}

bool JsonReader::skip_whitespace() {
  for (;;) {
    const char* buffer = m_buffer.get();
    if (m_pos < m_end && !is_whitespace(buffer[m_pos]))
      return true;  // the common case: no whitespace at all
    m_pos = static_cast<std::size_t>(find_non_whitespace(buffer + m_pos, buffer + m_end) - buffer);
    if (m_pos < m_end)
      return true;
    if (!refill())
      return false;
  }
}

bool JsonReader::next_significant(char& c) {
  if (m_error)
    return false;
  if (!skip_whitespace()) {
    fail_truncated(innermost_name());
    return false;
  }
  c = m_buffer[m_pos];
  return true;
}

bool JsonReader::push(std::uint8_t frame) {
  if (m_stack.size() >= k_max_depth) {
    fail_here("nesting deeper than " + std::to_string(k_max_depth) + " levels");
    return false;
  }
  m_stack.push_back(frame);
  return true;
}

ValueKind JsonReader::peek() {
  char c = 0;
  if (!next_significant(c))
    return ValueKind::None;
  m_value_offset = offset();
  switch (c) {
    case '{':
      return ValueKind::Object;
    case '[':
      return ValueKind::Array;
    case '"':
      return ValueKind::String;
    case 't':
      return ValueKind::True;
    case 'f':
      return ValueKind::False;
    case 'n':
      return ValueKind::Null;
    default:
      break;
  }
  if (c == '-' || is_digit(c))
    return ValueKind::Number;
  fail_here("expected a value, found " + describe_byte(c));
  return ValueKind::None;
}

bool JsonReader::enter_object() {
  const ValueKind kind = peek();
  if (kind != ValueKind::Object) {
    if (kind != ValueKind::None)
      fail_here("expected an object");
    return false;
  }
  if (!push(0))
    return false;
  ++m_pos;
  return true;
}

bool JsonReader::enter_array() {
  const ValueKind kind = peek();
  if (kind != ValueKind::Array) {
    if (kind != ValueKind::None)
      fail_here("expected an array");
    return false;
  }
  if (!push(k_array))
    return false;
  ++m_pos;
  return true;
}

bool JsonReader::next_key(std::string_view& key) {
  if (m_error || m_stack.empty() || (m_stack.back() & k_array) != 0)
    return false;
  char c = 0;
  if (!next_significant(c))
    return false;
  if ((m_stack.back() & k_has_members) != 0) {
    if (c == '}') {
      ++m_pos;
      m_stack.pop_back();
      return false;
    }
    if (c != ',') {
      fail_here("expected ',' or '}' after an object member, found " + describe_byte(c));
      return false;
    }
    ++m_pos;
    if (!next_significant(c))
      return false;
    if (c != '"') {
      fail_here("expected a string key after ',' in an object, found " + describe_byte(c));
      return false;
    }
  } else {
    if (c == '}') {
      ++m_pos;
      m_stack.pop_back();
      return false;
    }
    if (c != '"') {
      fail_here("expected a string key or '}' in an object, found " + describe_byte(c));
      return false;
    }
  }
  m_stack.back() |= k_has_members;
  if (!read_string_at(key))
    return false;
  // The ':' usually follows at once; when whitespace runs to the end of the buffer, the key is
  // copied before the refill moves it.
  const char* buffer = m_buffer.get();
  while (m_pos < m_end && is_whitespace(buffer[m_pos]))
    ++m_pos;
  if (m_pos == m_end) {
    m_key_scratch.assign(key);
    key = m_key_scratch;
    if (!next_significant(c))
      return false;
  }
  if (m_buffer[m_pos] != ':') {
    fail_here("expected ':' after an object key");
    return false;
  }
  ++m_pos;
  return true;
}

bool JsonReader::next_element() {
  if (m_error || m_stack.empty() || (m_stack.back() & k_array) == 0)
    return false;
  char c = 0;
  if (!next_significant(c))
    return false;
  if (c == ']') {
    ++m_pos;
    m_stack.pop_back();
    return false;
  }
  if ((m_stack.back() & k_has_members) != 0) {
    if (c != ',') {
      fail_here("expected ',' or ']' after an array element, found " + describe_byte(c));
      return false;
    }
    ++m_pos;
  }
  m_stack.back() |= k_has_members;
  return true;
}

std::string_view JsonReader::read_number() {
  const ValueKind kind = peek();
  if (kind != ValueKind::Number) {
    if (kind != ValueKind::None)
      fail_here("expected a number");
    return {};
  }
  std::size_t cursor = m_pos;
  for (;;) {
    const char* buffer = m_buffer.get();
    while (cursor < m_end && is_number_char(buffer[cursor]))
      ++cursor;
    if (cursor < m_end || !refill_keeping(cursor))
      break;
  }
  if (m_error)
    return {};
  const std::string_view text(m_buffer.get() + m_pos, cursor - m_pos);
  if (!is_json_number(text)) {
    fail_here("invalid number '" + std::string(text.substr(0, 40)) + "'");
    return {};
  }
  m_pos = cursor;
  return text;
}

bool JsonReader::read_literal(std::string_view word) {
  std::size_t cursor = m_pos;
  while (m_end - m_pos < word.size() && refill_keeping(cursor)) {
  }
  if (m_error)
    return false;
  const std::size_t have = std::min(word.size(), m_end - m_pos);
  if (std::string_view(m_buffer.get() + m_pos, have) != word) {
    if (have < word.size() &&
        word.substr(0, have) == std::string_view(m_buffer.get() + m_pos, have))
      fail(m_base + m_end, "the file ends inside a literal (truncated JSON?)");
    else
      fail_here("invalid literal (expected '" + std::string(word) + "')");
    return false;
  }
  m_pos += word.size();
  return true;
}

bool JsonReader::finish() {
  if (m_error)
    return false;
  if (skip_whitespace()) {
    fail_here("unexpected data after the JSON value, found " + describe_byte(m_buffer[m_pos]));
    return false;
  }
  return !m_error;
}

}  // namespace gpuport::json
