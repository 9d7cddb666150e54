// A streaming JSON writer whose output is byte-for-byte nlohmann::json's dump(2) of the same
// document, so the JSON and SARIF reports need no document tree in memory.
#pragma once

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "report/output_sink.h"

namespace gpuport {

// Values are written in document order: begin_object(), key(), a value, ..., end_object().
// Strings are repaired to valid UTF-8 (as valid_utf8() does) and escaped as nlohmann does
// (\" \\ \b \f \n \r \t, other control bytes as \u00xx, everything else verbatim). Call
// finish() at the end; it writes the closing newline and flushes the buffer to the sink.
class JsonWriter {
 public:
  explicit JsonWriter(OutputSink& sink);
  JsonWriter(const JsonWriter&) = delete;
  JsonWriter& operator=(const JsonWriter&) = delete;

  void begin_object();
  void end_object();
  void begin_array();
  void end_array();
  void key(std::string_view name);

  void value(std::string_view text);
  void value(const char* text) { value(std::string_view(text)); }
  void value(bool flag);
  void value(double number);
  void value(std::uint64_t number);
  template <std::unsigned_integral T>
  requires(!std::same_as<T, bool> && !std::same_as<T, std::uint64_t>) void value(T number) {
    value(static_cast<std::uint64_t>(number));
  }
  void null();

  // key(name) followed by value(v).
  template <typename T>
  void field(std::string_view name, const T& v) {
    key(name);
    value(v);
  }
  void null_field(std::string_view name) {
    key(name);
    null();
  }

  // Writes `count` elements of the array being written, element(writer, i) writing the i-th.
  // With jobs > 1, long lists are rendered in chunks on up to `jobs` threads and written in
  // order: the bytes are those of writing the elements one by one. `element` must be safe to
  // call concurrently.
  void elements(std::size_t count, unsigned jobs,
                const std::function<void(JsonWriter&, std::size_t)>& element);

  void finish();

 private:
  // A fragment writer: elements of an array nested `depth` levels deep that already holds
  // `members` elements. It is flushed, never finished.
  JsonWriter(OutputSink& sink, std::size_t depth, std::size_t members);

  struct Level {
    bool object = false;
    std::size_t members = 0;
  };

  void before_value();
  void open(char bracket, bool object);
  void close(char bracket);
  void line_break(bool comma, std::size_t depth);
  void write_escaped(std::string_view text);
  void put(char c) {
    if (m_used == m_buffer.size()) {
      flush();
    }
    m_buffer[m_used++] = c;
  }
  void put(std::string_view bytes);
  void flush();

  OutputSink& m_sink;
  std::vector<char> m_buffer;
  std::size_t m_used = 0;
  std::vector<Level> m_levels;
  bool m_after_key = false;
};

}  // namespace gpuport
