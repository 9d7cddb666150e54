// Jupyter notebooks: a small JSON scanner that keeps line and column, reads the code cells and
// joins them into Python with a map from each Python line back to the .ipynb line.
#include "lex/notebook.h"

#include <cstring>

#include "source/utf8_encoding.h"

namespace gpuport {
namespace {

constexpr std::size_t k_max_depth = 256;

// One source string of a code cell and the .ipynb line where its JSON string starts.
struct SourcePiece {
  std::string text;
  std::uint32_t line = 0;
};

class NotebookReader {
 public:
  explicit NotebookReader(std::string_view json) : m_text(json) {}

  tl::expected<NotebookCode, NotebookError> run() {
    if (!parse_notebook()) {
      return tl::unexpected(std::move(m_error));
    }
    return std::move(m_code);
  }

 private:
  // ---- position and errors -------------------------------------------------------------
  bool at_end() const { return m_pos >= m_text.size(); }
  char peek() const { return at_end() ? '\0' : m_text[m_pos]; }

  void skip_ws() {
    while (m_pos < m_text.size()) {
      const char c = m_text[m_pos];
      if (c == '\n') {
        ++m_line;
        m_line_start = m_pos + 1;
      } else if (c != ' ' && c != '\t' && c != '\r') {
        return;
      }
      ++m_pos;
    }
  }

  bool fail_at(std::size_t pos, std::string message) {
    if (!m_failed) {
      m_failed = true;
      m_error.line = m_line;
      m_error.column = static_cast<std::uint32_t>(pos - m_line_start + 1);
      m_error.message = std::move(message);
    }
    return false;
  }
  // Errors at the current position; at the end of the input the message says so.
  bool fail(std::string message) {
    if (at_end()) {
      return fail_at(m_pos, "unexpected end of input");
    }
    return fail_at(m_pos, std::move(message));
  }

  // ---- scalars ---------------------------------------------------------------------------
  // Four hex digits at `pos`, or -1.
  long read_hex4(std::size_t pos) const {
    if (pos + 4 > m_text.size()) {
      return -1;
    }
    return hex4_value(m_text.data() + pos);
  }

  // At '"': reads the string, decoding escapes into *out when out is not null.
  bool parse_string(std::string* out) {
    ++m_pos;
    while (true) {
      // Copy the run of plain bytes in one go.
      std::size_t run = m_pos;
      while (run < m_text.size()) {
        const unsigned char c = static_cast<unsigned char>(m_text[run]);
        if (c == '"' || c == '\\' || c < 0x20) {
          break;
        }
        ++run;
      }
      if (out != nullptr) {
        out->append(m_text.substr(m_pos, run - m_pos));
      }
      m_pos = run;
      if (at_end()) {
        return fail("unterminated string");
      }
      const char c = m_text[m_pos];
      if (c == '"') {
        ++m_pos;
        return true;
      }
      if (c != '\\') {
        return fail_at(m_pos, "unescaped control character in string");
      }
      if (!parse_escape(out)) {
        return false;
      }
    }
  }

  // At '\\' inside a string.
  bool parse_escape(std::string* out) {
    const std::size_t escape = m_pos;
    if (m_pos + 1 >= m_text.size()) {
      m_pos = m_text.size();
      return fail("unterminated string");
    }
    const char e = m_text[m_pos + 1];
    char plain = '\0';
    switch (e) {
      case '"':
      case '\\':
      case '/':
        plain = e;
        break;
      case 'b':
        plain = '\b';
        break;
      case 'f':
        plain = '\f';
        break;
      case 'n':
        plain = '\n';
        break;
      case 'r':
        plain = '\r';
        break;
      case 't':
        plain = '\t';
        break;
      case 'u':
        return parse_unicode_escape(out);
      default:
        return fail_at(escape, "invalid escape in string");
    }
    if (out != nullptr) {
      out->push_back(plain);
    }
    m_pos += 2;
    return true;
  }

  // At "\uXXXX"; joins a surrogate pair, and writes U+FFFD for a lone surrogate.
  bool parse_unicode_escape(std::string* out) {
    const std::size_t escape = m_pos;
    const long first = read_hex4(m_pos + 2);
    if (first < 0) {
      return fail_at(escape, "invalid \\u escape in string");
    }
    m_pos += 6;
    std::uint32_t cp = static_cast<std::uint32_t>(first);
    if (cp >= 0xD800 && cp <= 0xDBFF) {
      long second = -1;
      if (m_pos + 1 < m_text.size() && m_text[m_pos] == '\\' && m_text[m_pos + 1] == 'u') {
        second = read_hex4(m_pos + 2);
      }
      if (second >= 0xDC00 && second <= 0xDFFF) {
        cp = 0x10000 + ((cp - 0xD800) << 10) + (static_cast<std::uint32_t>(second) - 0xDC00);
        m_pos += 6;
      } else {
        cp = 0xFFFD;
      }
    } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
      cp = 0xFFFD;
    }
    if (out != nullptr) {
      append_utf8(*out, cp);
    }
    return true;
  }

  bool parse_literal(std::string_view word) {
    if (m_text.substr(m_pos, word.size()) != word) {
      return fail("invalid literal");
    }
    m_pos += word.size();
    return true;
  }

  bool is_digit_at(std::size_t pos) const {
    return pos < m_text.size() && m_text[pos] >= '0' && m_text[pos] <= '9';
  }

  bool parse_number() {
    if (peek() == '-') {
      ++m_pos;
    }
    if (!is_digit_at(m_pos)) {
      return fail("invalid number");
    }
    while (is_digit_at(m_pos)) {
      ++m_pos;
    }
    if (peek() == '.') {
      ++m_pos;
      if (!is_digit_at(m_pos)) {
        return fail("invalid number");
      }
      while (is_digit_at(m_pos)) {
        ++m_pos;
      }
    }
    if (peek() == 'e' || peek() == 'E') {
      ++m_pos;
      if (peek() == '+' || peek() == '-') {
        ++m_pos;
      }
      if (!is_digit_at(m_pos)) {
        return fail("invalid number");
      }
      while (is_digit_at(m_pos)) {
        ++m_pos;
      }
    }
    return true;
  }

  bool parse_scalar() {
    const char c = peek();
    if (c == '"') {
      return parse_string(nullptr);
    }
    if (c == 't') {
      return parse_literal("true");
    }
    if (c == 'f') {
      return parse_literal("false");
    }
    if (c == 'n') {
      return parse_literal("null");
    }
    if (c == '-' || (c >= '0' && c <= '9')) {
      return parse_number();
    }
    return fail("expected a JSON value");
  }

  // ---- containers --------------------------------------------------------------------------
  // At a '"' key inside an object: reads `"key" :` and leaves the position at the value.
  bool parse_key(std::string& key) {
    if (peek() != '"') {
      return fail("expected a string key in object");
    }
    key.clear();
    if (!parse_string(&key)) {
      return false;
    }
    skip_ws();
    if (peek() != ':') {
      return fail("expected ':' after object key");
    }
    ++m_pos;
    skip_ws();
    return true;
  }

  // Skips any value without recursion; nesting deeper than k_max_depth is an error.
  bool skip_value() {
    m_stack.clear();
    while (true) {
      skip_ws();
      // A value starts here.
      const char c = peek();
      if (c == '{' || c == '[') {
        if (m_stack.size() >= k_max_depth) {
          return fail_at(m_pos, "nesting deeper than 256 levels");
        }
        ++m_pos;
        skip_ws();
        const char close = c == '{' ? '}' : ']';
        if (peek() == close) {
          ++m_pos;
        } else {
          m_stack.push_back(c);
          if (c == '{' && !parse_key(m_scratch)) {
            return false;
          }
          continue;
        }
      } else if (!parse_scalar()) {
        return false;
      }
      // A value ended: close containers or move to the next member.
      while (true) {
        if (m_stack.empty()) {
          return true;
        }
        skip_ws();
        const char open = m_stack.back();
        const char close = open == '{' ? '}' : ']';
        if (peek() == close) {
          ++m_pos;
          m_stack.pop_back();
          continue;
        }
        if (peek() != ',') {
          return fail(open == '{' ? "expected ',' or '}' after object member"
                                  : "expected ',' or ']' after array element");
        }
        ++m_pos;
        skip_ws();
        if (open == '{' && !parse_key(m_scratch)) {
          return false;
        }
        break;
      }
    }
  }

  // At '{': calls on_member(key) with the position at each member's value; on_member must
  // consume the value.
  template <typename OnMember>
  bool parse_object(OnMember&& on_member) {
    ++m_pos;
    skip_ws();
    if (peek() == '}') {
      ++m_pos;
      return true;
    }
    std::string key;
    while (true) {
      if (!parse_key(key) || !on_member(key)) {
        return false;
      }
      skip_ws();
      if (peek() == '}') {
        ++m_pos;
        return true;
      }
      if (peek() != ',') {
        return fail("expected ',' or '}' after object member");
      }
      ++m_pos;
      skip_ws();
    }
  }

  // At '[': calls on_element() with the position at each element.
  template <typename OnElement>
  bool parse_array(OnElement&& on_element) {
    ++m_pos;
    skip_ws();
    if (peek() == ']') {
      ++m_pos;
      return true;
    }
    while (true) {
      skip_ws();
      if (!on_element()) {
        return false;
      }
      skip_ws();
      if (peek() == ']') {
        ++m_pos;
        return true;
      }
      if (peek() != ',') {
        return fail("expected ',' or ']' after array element");
      }
      ++m_pos;
    }
  }

  // ---- the notebook ----------------------------------------------------------------------
  bool parse_notebook() {
    skip_ws();
    if (peek() != '{') {
      return fail("notebook is not a JSON object");
    }
    const std::size_t object_pos = m_pos;
    const std::uint32_t object_line = m_line;
    const std::size_t object_line_start = m_line_start;
    bool found_cells = false;
    const bool ok = parse_object([&](const std::string& key) {
      if (key != "cells") {
        return skip_value();
      }
      if (peek() != '[') {
        return fail("\"cells\" is not an array");
      }
      found_cells = true;
      m_code.python.clear();
      m_code.file_line.clear();
      return parse_array([&] { return peek() == '{' ? parse_cell() : skip_value(); });
    });
    if (!ok) {
      return false;
    }
    skip_ws();
    if (!at_end()) {
      return fail_at(m_pos, "unexpected data after the notebook object");
    }
    if (!found_cells) {
      m_line = object_line;
      m_line_start = object_line_start;
      return fail_at(object_pos, "no \"cells\" array: not an nbformat 4 notebook");
    }
    return true;
  }

  bool read_source_string() {
    if (m_piece_count == m_pieces.size()) {
      m_pieces.emplace_back();
    }
    SourcePiece& piece = m_pieces[m_piece_count];
    piece.text.clear();
    piece.line = m_line;
    ++m_piece_count;
    return parse_string(&piece.text);
  }

  bool parse_cell() {
    bool is_code = false;
    m_piece_count = 0;
    const bool ok = parse_object([&](const std::string& key) {
      if (key == "cell_type" && peek() == '"') {
        m_scratch.clear();
        if (!parse_string(&m_scratch)) {
          return false;
        }
        is_code = m_scratch == "code";
        return true;
      }
      if (key == "source" && peek() == '"') {
        m_piece_count = 0;
        return read_source_string();
      }
      if (key == "source" && peek() == '[') {
        m_piece_count = 0;
        return parse_array([&] { return peek() == '"' ? read_source_string() : skip_value(); });
      }
      return skip_value();
    });
    if (ok && is_code) {
      append_cell();
    }
    return ok;
  }

  // Appends the cell's source; each Python line maps to the line of the string it starts in.
  void append_cell() {
    std::string& python = m_code.python;
    bool at_line_start = true;
    std::size_t line_begin = python.size();
    for (std::size_t p = 0; p < m_piece_count; ++p) {
      std::string_view rest = m_pieces[p].text;
      while (!rest.empty()) {
        if (at_line_start) {
          m_code.file_line.push_back(m_pieces[p].line);
          line_begin = python.size();
          at_line_start = false;
        }
        const std::size_t newline = rest.find('\n');
        if (newline == std::string_view::npos) {
          python.append(rest);
          break;
        }
        python.append(rest.substr(0, newline + 1));
        rest.remove_prefix(newline + 1);
        finish_line(line_begin);
        at_line_start = true;
      }
    }
    if (!at_line_start) {
      python.push_back('\n');
      finish_line(line_begin);
    }
  }

  // The line [line_begin, end) just ended with '\n': blank it if it is an IPython magic.
  void finish_line(std::size_t line_begin) {
    std::string& python = m_code.python;
    std::size_t i = line_begin;
    while (i < python.size() && (python[i] == ' ' || python[i] == '\t')) {
      ++i;
    }
    if (i < python.size() && (python[i] == '%' || python[i] == '!')) {
      python.resize(line_begin);
      python.push_back('\n');
    }
  }

  std::string_view m_text;
  std::size_t m_pos = 0;
  std::uint32_t m_line = 1;
  std::size_t m_line_start = 0;
  bool m_failed = false;
  NotebookError m_error;
  NotebookCode m_code;
  std::vector<char> m_stack;
  std::string m_scratch;
  std::vector<SourcePiece> m_pieces;
  std::size_t m_piece_count = 0;
};

}  // namespace

tl::expected<NotebookCode, NotebookError> extract_notebook_code(std::string_view json) {
  return NotebookReader(json).run();
}

}  // namespace gpuport
