// Python lexer: strings of every prefix and quote form, comments, numbers, names, operators
// and the Newline token that ends each logical line.
#include "lex/python_lexer.h"

#include <array>
#include <cstring>
#include <limits>

#include "lex/char_scan.h"

namespace gpuport {
namespace {

// Byte classes, looked up once per byte on the hot path.
constexpr std::uint8_t k_class_ident = 1;  // letters, '_', bytes >= 0x80
constexpr std::uint8_t k_class_digit = 2;
constexpr std::uint8_t k_class_blank = 4;  // ' ', '\t', '\f', '\v', '\r'
constexpr std::uint8_t k_class_op = 8;     // the first byte of an operator (k_ops1)

constexpr std::string_view k_ops1 = "+-*/%@&|^~<>()[]{},:;.=!";

constexpr std::array<std::uint8_t, 256> make_classes() {
  std::array<std::uint8_t, 256> table{};
  for (int c = 0; c < 256; ++c) {
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c >= 0x80) {
      table[c] = k_class_ident;
    } else if (c >= '0' && c <= '9') {
      table[c] = k_class_digit;
    } else if (c == ' ' || c == '\t' || c == '\f' || c == '\v' || c == '\r') {
      table[c] = k_class_blank;
    }
  }
  for (const char op : k_ops1) {
    table[static_cast<unsigned char>(op)] |= k_class_op;
  }
  return table;
}
constexpr std::array<std::uint8_t, 256> k_classes = make_classes();

bool is_ident_start(unsigned char c) {
  return (k_classes[c] & k_class_ident) != 0;
}
bool is_digit(unsigned char c) {
  return (k_classes[c] & k_class_digit) != 0;
}
bool is_ident_char(unsigned char c) {
  return (k_classes[c] & (k_class_ident | k_class_digit)) != 0;
}
bool is_hex_or_sep(unsigned char c) {
  return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F') || c == '_';
}
bool is_digit_or_sep(unsigned char c) {
  return is_digit(c) || c == '_';
}

char lower(char c) {
  return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
}

// r, u, b, f, t and the two-letter raw combinations (rb, br, fr, rf, tr, rt), any case.
bool is_string_prefix(std::string_view name) {
  if (name.size() == 1) {
    char c = lower(name[0]);
    return c == 'r' || c == 'u' || c == 'b' || c == 'f' || c == 't';
  }
  if (name.size() == 2) {
    char a = lower(name[0]);
    char b = lower(name[1]);
    if (a == 'r') {
      std::swap(a, b);
    }
    return b == 'r' && (a == 'b' || a == 'f' || a == 't');
  }
  return false;
}

// Length of the longest operator at the start of `rest` (non-empty), or 0 when none starts
// there. Three-byte: **= //= >>= <<= ...; two-byte: ** // >> << <= >= == != -> := and the
// augmented assignments (+= -= *= /= %= &= |= ^= @=).
std::uint32_t operator_length(std::string_view rest) {
  const char c = rest[0];
  if ((k_classes[static_cast<unsigned char>(c)] & k_class_op) == 0) {
    return 0;
  }
  const char d = rest.size() > 1 ? rest[1] : '\0';
  const char e = rest.size() > 2 ? rest[2] : '\0';
  switch (c) {
    case '*':
    case '/':
    case '>':
    case '<':
      if (d == c) {
        return e == '=' ? 3 : 2;
      }
      return d == '=' ? 2 : 1;
    case '.':
      return d == '.' && e == '.' ? 3 : 1;
    case '-':
      return d == '=' || d == '>' ? 2 : 1;
    case '+':
    case '%':
    case '&':
    case '|':
    case '^':
    case '@':
    case '=':
    case '!':
    case ':':
      return d == '=' ? 2 : 1;
    default:
      return 1;
  }
}

class PythonLexer {
 public:
  PythonLexer(std::string_view source, TokenStream& out) : m_src(source), m_out(out) {}

  void run() {
    compute_line_starts();
    const std::uint32_t n = static_cast<std::uint32_t>(m_src.size());
    if (m_src.substr(0, 3) == "\xEF\xBB\xBF") {
      m_pos = 3;
    }
    while (m_pos < n) {
      const unsigned char c = static_cast<unsigned char>(m_src[m_pos]);
      if (is_ident_start(c)) {  // the most common first byte, tested before the switch
        lex_name();
        continue;
      }
      switch (c) {
        case ' ':
        case '\t':
        case '\f':
        case '\v':
        case '\r':
          // Mostly one space between tokens: the vector scan only for a run of blanks.
          ++m_pos;
          if (m_pos < n &&
              (k_classes[static_cast<unsigned char>(m_src[m_pos])] & k_class_blank) != 0) {
            m_pos = offset_of(char_scan::blank_end(m_src.data() + m_pos + 1, m_src.data() + n));
          }
          continue;
        case '(':
        case '[':
        case '{':
          ++m_depth;
          emit(m_pos, m_pos + 1, TokenKind::Punct, m_line);
          ++m_pos;
          continue;
        case ')':
        case ']':
        case '}':
          m_depth -= m_depth > 0 ? 1 : 0;
          emit(m_pos, m_pos + 1, TokenKind::Punct, m_line);
          ++m_pos;
          continue;
        case ',':
        case ';':
        case '~':
          // Never the start of a longer operator: no look-ahead.
          emit(m_pos, m_pos + 1, TokenKind::Punct, m_line);
          ++m_pos;
          continue;
        case '\n':
          end_physical_line();
          continue;
        case '#':
          lex_comment();
          continue;
        case '\\':
          lex_backslash();
          continue;
        case '"':
        case '\'':
          lex_string(m_pos, m_pos);
          continue;
        default:
          break;
      }
      if (is_digit(c) || (c == '.' && m_pos + 1 < n && is_digit(m_src[m_pos + 1]))) {
        lex_number();
      } else {
        lex_operator();
      }
    }
    if (m_logical_has_token) {
      emit(n, n, TokenKind::Newline, m_line);
    }
  }

 private:
  void compute_line_starts() {
    m_out.line_starts.push_back(0);
    char_scan::append_line_starts(m_src, 0, m_out.line_starts);
  }

  std::uint32_t offset_of(const char* p) const {
    return static_cast<std::uint32_t>(p - m_src.data());
  }

  void emit(std::uint32_t begin, std::uint32_t end, TokenKind kind, std::uint32_t line,
            std::uint8_t flags = 0) {
    Token token;
    token.offset = begin;
    token.length = end - begin;
    token.line = line;
    token.kind = kind;
    token.flags = flags;
    if (kind == TokenKind::Identifier || kind == TokenKind::String ||
        (kind == TokenKind::Punct && end - begin == 1 && m_src[begin] == '@')) {
      m_out.anchors.push_back(static_cast<std::uint32_t>(m_out.tokens.size()));
    }
    m_out.tokens.push_back(token);
    if (kind != TokenKind::Comment && kind != TokenKind::Newline) {
      m_logical_has_token = true;
    }
  }

  void diagnose(std::uint32_t offset, std::uint32_t line, std::string message) {
    LexDiagnostic diagnostic;
    diagnostic.line = line;
    diagnostic.column = offset - m_out.line_starts[line - 1] + 1;
    diagnostic.message = std::move(message);
    m_out.diagnostics.push_back(std::move(diagnostic));
  }

  // At a '\n': ends the logical line unless inside brackets or on a blank/comment line.
  void end_physical_line() {
    if (m_depth == 0 && m_logical_has_token) {
      emit(m_pos, m_pos + 1, TokenKind::Newline, m_line);
      m_logical_has_token = false;
    }
    ++m_line;
    ++m_pos;
  }

  void lex_comment() {
    const std::uint32_t begin = m_pos;
    const std::size_t hit = m_src.find('\n', m_pos);
    std::uint32_t end = hit == std::string_view::npos ? static_cast<std::uint32_t>(m_src.size())
                                                      : static_cast<std::uint32_t>(hit);
    m_pos = end;
    if (end > begin + 1 && m_src[end - 1] == '\r') {
      --end;
    }
    emit(begin, end, TokenKind::Comment, m_line);
  }

  // A backslash before a line break joins the lines; anywhere else it is a stray byte.
  void lex_backslash() {
    const std::size_t n = m_src.size();
    if (m_pos + 1 < n && m_src[m_pos + 1] == '\n') {
      m_pos += 2;
      ++m_line;
    } else if (m_pos + 2 < n && m_src[m_pos + 1] == '\r' && m_src[m_pos + 2] == '\n') {
      m_pos += 3;
      ++m_line;
    } else {
      emit(m_pos, m_pos + 1, TokenKind::Other, m_line);
      ++m_pos;
    }
  }

  // `begin` is where the prefix starts, `quote` the offset of the opening quote. A backslash
  // always protects the next byte from ending the string, raw or not (as in Python).
  void lex_string(std::uint32_t begin, std::uint32_t quote) {
    const std::uint32_t n = static_cast<std::uint32_t>(m_src.size());
    const char q = m_src[quote];
    const std::uint32_t start_line = m_line;
    const bool triple = quote + 2 < n && m_src[quote + 1] == q && m_src[quote + 2] == q;
    std::uint32_t p = quote + (triple ? 3 : 1);
    const char* data = m_src.data();
    if (triple) {
      while (p < n) {
        p = offset_of(char_scan::find_any_of(data + p, data + n, q, '\\', '\n'));
        if (p >= n) {
          break;
        }
        const char c = m_src[p];
        if (c == '\\') {
          if (p + 1 < n && m_src[p + 1] == '\n') {
            ++m_line;
          }
          p += 2;
          continue;
        }
        if (c == '\n') {
          ++m_line;
        } else if (c == q && p + 2 < n && m_src[p + 1] == q && m_src[p + 2] == q) {
          m_pos = p + 3;
          emit(begin, m_pos, TokenKind::String, start_line);
          return;
        }
        ++p;
      }
      m_pos = n;
      emit(begin, n, TokenKind::String, start_line, k_token_unterminated);
      diagnose(begin, start_line, "unterminated triple-quoted string");
      return;
    }
    while (p < n) {
      p = offset_of(char_scan::find_any_of(data + p, data + n, q, '\\', '\n'));
      if (p >= n) {
        break;
      }
      const char c = m_src[p];
      if (c == '\\') {
        if (p + 1 < n && m_src[p + 1] == '\n') {
          ++m_line;
          p += 2;
        } else if (p + 2 < n && m_src[p + 1] == '\r' && m_src[p + 2] == '\n') {
          ++m_line;
          p += 3;
        } else {
          p += 2;
        }
        continue;
      }
      if (c == q) {
        m_pos = p + 1;
        emit(begin, m_pos, TokenKind::String, start_line);
        return;
      }
      if (c == '\n') {
        break;
      }
      ++p;
    }
    // Unterminated: the token stops before the line break (or at the end of the file).
    p = p > n ? n : p;
    m_pos = p;
    std::uint32_t end = p;
    if (end > quote + 1 && m_src[end - 1] == '\r' && end < n) {
      --end;
    }
    emit(begin, end, TokenKind::String, start_line, k_token_unterminated);
    diagnose(begin, start_line, "unterminated string literal");
  }

  void lex_number() {
    const std::uint32_t n = static_cast<std::uint32_t>(m_src.size());
    std::uint32_t p = m_pos;
    auto at = [&](std::uint32_t i) -> unsigned char {
      return i < n ? static_cast<unsigned char>(m_src[i]) : 0;
    };
    const unsigned char radix = static_cast<unsigned char>(lower(static_cast<char>(at(p + 1))));
    if (at(p) == '0' && (radix == 'x' || radix == 'o' || radix == 'b')) {
      p += 2;
      while (p < n && is_hex_or_sep(at(p))) {
        ++p;
      }
    } else {
      while (p < n && is_digit_or_sep(at(p))) {
        ++p;
      }
      if (at(p) == '.') {
        ++p;
        while (p < n && is_digit_or_sep(at(p))) {
          ++p;
        }
      }
      if (at(p) == 'e' || at(p) == 'E') {
        std::uint32_t q = p + 1;
        if (at(q) == '+' || at(q) == '-') {
          ++q;
        }
        if (is_digit(at(q))) {
          p = q;
          while (p < n && is_digit_or_sep(at(p))) {
            ++p;
          }
        }
      }
      if (at(p) == 'j' || at(p) == 'J') {
        ++p;
      }
    }
    emit(m_pos, p, TokenKind::Number, m_line);
    m_pos = p;
  }

  void lex_name() {
    const std::uint32_t n = static_cast<std::uint32_t>(m_src.size());
    const std::uint32_t p =
        offset_of(char_scan::ident_end<false>(m_src.data() + m_pos, m_src.data() + n));
    if (p < n && (m_src[p] == '"' || m_src[p] == '\'') &&
        is_string_prefix(m_src.substr(m_pos, p - m_pos))) {
      lex_string(m_pos, p);
      return;
    }
    emit(m_pos, p, TokenKind::Identifier, m_line);
    m_pos = p;
  }

  void lex_operator() {
    const std::string_view rest = m_src.substr(m_pos);
    const std::uint32_t length = operator_length(rest);
    if (length == 0) {
      // A run of bytes nothing accepts ('$', '?', '`', control bytes) is one Other token.
      std::uint32_t p = m_pos + 1;
      while (p < m_src.size() && is_stray(static_cast<unsigned char>(m_src[p]))) {
        ++p;
      }
      emit(m_pos, p, TokenKind::Other, m_line);
      m_pos = p;
      return;
    }
    const char c = rest[0];
    if (length == 1) {
      if (c == '(' || c == '[' || c == '{') {
        ++m_depth;
      } else if ((c == ')' || c == ']' || c == '}') && m_depth > 0) {
        --m_depth;
      }
    }
    emit(m_pos, m_pos + length, TokenKind::Punct, m_line);
    m_pos += length;
  }

  static bool is_stray(unsigned char c) {
    if (is_ident_char(c) || c == '"' || c == '\'' || c == '#' || c == '\\' || c == '\n' ||
        c == ' ' || c == '\t' || c == '\f' || c == '\v' || c == '\r') {
      return false;
    }
    return (k_classes[c] & k_class_op) == 0;
  }

  std::string_view m_src;
  TokenStream& m_out;
  std::uint32_t m_pos = 0;
  std::uint32_t m_line = 1;
  std::uint32_t m_depth = 0;
  bool m_logical_has_token = false;
};

}  // namespace

void lex_python(std::string_view source, TokenStream& out) {
  out.clear();
  // Offsets are 32-bit; the walker's size limit keeps files far below 4 GiB.
  if (source.size() >= std::numeric_limits<std::uint32_t>::max()) {
    source = source.substr(0, std::numeric_limits<std::uint32_t>::max() - 1);
  }
  out.source = source;
  out.tokens.reserve(source.size() / 8 + 16);
  out.anchors.reserve(source.size() / 16 + 16);
  PythonLexer(source, out).run();
}

}  // namespace gpuport
