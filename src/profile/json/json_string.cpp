// JsonReader: strings. A string without escapes is returned as a view of the buffer; one with
// escapes is decoded into a scratch string (\uXXXX to UTF-8, surrogate pairs joined).
#include <cstring>

#include "profile/json/char_search.h"
#include "profile/json/json_reader.h"
#include "source/utf8_encoding.h"

namespace gpuport::json {
namespace {

constexpr unsigned long k_replacement_character = 0xFFFD;

}  // namespace

std::string_view JsonReader::read_string() {
  const ValueKind kind = peek();
  if (kind != ValueKind::String) {
    if (kind != ValueKind::None)
      fail_here("expected a string");
    return {};
  }
  std::string_view out;
  if (!read_string_at(out))
    return {};
  return out;
}

// m_pos is at the opening quote and stays there until the string is complete, so a refill keeps
// the whole string in the buffer.
bool JsonReader::read_string_at(std::string_view& out) {
  std::size_t cursor = m_pos + 1;
  for (;;) {
    const char* buffer = m_buffer.get();
    cursor = static_cast<std::size_t>(find_string_stop(buffer + cursor, buffer + m_end) - buffer);
    if (cursor == m_end) {
      if (!refill_keeping(cursor)) {
        fail_truncated("a string");
        return false;
      }
      continue;
    }
    const char stop = buffer[cursor];
    if (stop == '"') {
      out = std::string_view(buffer + m_pos + 1, cursor - m_pos - 1);
      m_pos = cursor + 1;
      return true;
    }
    if (stop == '\\')
      return decode_escapes(cursor, out);
    fail(m_base + cursor, "a control character inside a string (it must be escaped)");
    return false;
  }
}

bool JsonReader::decode_escapes(std::size_t cursor, std::string_view& out) {
  m_scratch.assign(m_buffer.get() + m_pos + 1, cursor - m_pos - 1);
  for (;;) {
    const char* buffer = m_buffer.get();
    const std::size_t stop =
        static_cast<std::size_t>(find_string_stop(buffer + cursor, buffer + m_end) - buffer);
    m_scratch.append(buffer + cursor, stop - cursor);
    cursor = stop;
    if (cursor == m_end) {
      if (!refill_keeping(cursor)) {
        fail_truncated("a string");
        return false;
      }
      continue;
    }
    const char c = buffer[cursor];
    if (c == '"') {
      m_pos = cursor + 1;
      out = m_scratch;
      return true;
    }
    if (c != '\\') {
      fail(m_base + cursor, "a control character inside a string (it must be escaped)");
      return false;
    }
    if (!append_escape(cursor))
      return false;
  }
}

// Decodes the escape at `cursor` (a backslash) onto m_scratch and moves past it.
bool JsonReader::append_escape(std::size_t& cursor) {
  // The longest escape is a surrogate pair: 12 bytes.
  while (m_end - cursor < 12 && refill_keeping(cursor)) {
  }
  if (m_error)
    return false;
  const std::size_t have = m_end - cursor;
  const char* p = m_buffer.get() + cursor;
  if (have < 2) {
    fail_truncated("a string");
    return false;
  }
  char decoded = 0;
  switch (p[1]) {
    case '"':
    case '\\':
    case '/':
      decoded = p[1];
      break;
    case 'b':
      decoded = '\b';
      break;
    case 'f':
      decoded = '\f';
      break;
    case 'n':
      decoded = '\n';
      break;
    case 'r':
      decoded = '\r';
      break;
    case 't':
      decoded = '\t';
      break;
    case 'u': {
      const long code = have >= 6 ? hex4_value(p + 2) : -1;
      if (code < 0) {
        fail(m_base + cursor, "invalid \\u escape (four hex digits expected)");
        return false;
      }
      cursor += 6;
      if (code >= 0xD800 && code <= 0xDBFF && have >= 12 && p[6] == '\\' && p[7] == 'u') {
        const long low = hex4_value(p + 8);
        if (low >= 0xDC00 && low <= 0xDFFF) {
          append_utf8(m_scratch, static_cast<std::uint32_t>(0x10000 + ((code - 0xD800) << 10) +
                                                            (low - 0xDC00)));
          cursor += 6;
          return true;
        }
      }
      // A lone surrogate has no UTF-8 form.
      const bool surrogate = code >= 0xD800 && code <= 0xDFFF;
      append_utf8(m_scratch,
                  static_cast<std::uint32_t>(surrogate ? k_replacement_character : code));
      return true;
    }
    default:
      fail(m_base + cursor,
           "invalid escape: a backslash before " + describe_byte(p[1]) + " in a string");
      return false;
  }
  m_scratch += decoded;
  cursor += 2;
  return true;
}

}  // namespace gpuport::json
