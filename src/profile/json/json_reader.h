// A streaming JSON pull parser over a ByteStream: the caller walks the document value by value
// and skips what it does not need, so no DOM of a trace is ever built. The input is read in large
// chunks into one refillable buffer; a token that spans two chunks is kept whole by moving it to
// the front before the next read (the buffer grows only for a token longer than itself).
//
// Errors are sticky: the first one (bad syntax, truncation, an I/O error, or one a caller raises
// with fail()) is recorded with its uncompressed byte offset, and from then on every call returns
// false or an empty value, so loops end by themselves; check failed() at the end.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "profile/byte_stream.h"
#include "profile/trace.h"

namespace gpuport::json {

// A byte for an error message: 'x' when printable, else "byte 0x0a" (messages are one line).
std::string describe_byte(char c);

enum class ValueKind : std::uint8_t { Object, Array, String, Number, True, False, Null, None };

class JsonReader {
 public:
  static constexpr std::size_t k_default_chunk = 256 * 1024;
  static constexpr std::size_t k_max_depth = 1024;
  // The longest single value (a string, a number) held in memory: far above any kernel or range
  // name, far below what a decompression bomb makes (a 37 MB gzip of one 8 GB string).
  static constexpr std::size_t k_default_max_value = 64 * 1024 * 1024;

  explicit JsonReader(ByteStream& in, std::size_t chunk = k_default_chunk,
                      std::size_t max_value = k_default_max_value);

  // The kind of the next value, after whitespace; None at an error (truncation included).
  ValueKind peek();

  // Consumes '{' (or '['); an error when the next value is something else.
  bool enter_object();
  bool enter_array();
  // Moves to the next member of the innermost object: true with its key (valid until the next
  // call), the ':' consumed; false after consuming the closing '}' or at an error.
  bool next_key(std::string_view& key);
  // Moves to the next element of the innermost array: false after consuming ']' or at an error.
  bool next_element();

  // The string value, escapes decoded (valid until the next call). An error for another kind.
  std::string_view read_string();
  // The number exactly as written ("18.112", "-3e2"). An error for another kind.
  std::string_view read_number();
  // Skips any value without looking inside strings or checking scalars in nested containers;
  // brackets must still balance and strings end.
  void skip_value();
  // Skips the rest of the innermost entered object or array, its closing bracket included.
  void skip_rest();
  // After the top-level value: only whitespace may follow.
  bool finish();

  // Uncompressed offset of the next unread byte, and of the start of the last value peeked.
  std::uint64_t offset() const { return m_base + m_pos; }
  std::uint64_t value_offset() const { return m_value_offset; }
  // Depth of the containers entered and not yet left.
  std::size_t depth() const { return m_stack.size(); }

  // Records an error found by the caller at `at` ("byte N: what"), unless one is already set.
  void fail(std::uint64_t at, std::string_view what);
  bool failed() const { return m_error.has_value(); }
  // "PATH: byte N: what"; only meaningful when failed().
  const TraceError& error() const { return *m_error; }
  const std::string& path() const;

 private:
  enum Frame : std::uint8_t { k_array = 1, k_has_members = 2 };

  // Moves [m_pos, end) to the front (m_pos becomes 0) and reads more after it. False at the
  // end of the input or an error.
  bool refill();
  // Skips whitespace; false at the end of the input (not an error by itself) or an error.
  bool skip_whitespace();
  // The next non-whitespace byte, or an error naming what the input ends inside.
  bool next_significant(char& c);
  void fail_truncated(const char* inside);
  void fail_here(std::string_view what) { fail(offset(), what); }
  const char* innermost_name() const;
  bool push(std::uint8_t frame);

  // Refills keeping [m_pos, end); `cursor` (an index at or after m_pos) follows the move.
  bool refill_keeping(std::size_t& cursor);
  bool read_string_at(std::string_view& out);
  bool decode_escapes(std::size_t cursor, std::string_view& out);
  bool append_escape(std::size_t& cursor);
  bool skip_string_at(std::size_t& cursor);
  bool read_literal(std::string_view word);
  void skip_container(bool is_array);

  ByteStream& m_in;
  std::unique_ptr<char[]> m_buffer;
  std::size_t m_max_value = k_default_max_value;
  std::size_t m_capacity = 0;
  std::size_t m_pos = 0;
  std::size_t m_end = 0;
  std::uint64_t m_base = 0;  // uncompressed offset of m_buffer[0]
  bool m_eof = false;
  std::uint64_t m_value_offset = 0;
  std::vector<std::uint8_t> m_stack;
  std::string m_scratch;      // decoded strings that had escapes
  std::string m_key_scratch;  // a key kept across a refill before its ':'
  std::optional<TraceError> m_error;
};

}  // namespace gpuport::json
