// Single-pass, table-driven lexer for C, C++ and CUDA with #if branch contexts.
#include "lex/cuda_lexer.h"

#include <cstring>
#include <limits>
#include <string_view>

#include "lex/char_scan.h"
#include "lex/cuda_chars.h"
#include "lex/preprocessor_view.h"

namespace gpuport {
namespace {

using namespace cuda_chars;

constexpr std::size_t k_max_raw_delimiter = 16;

class CudaLexer {
 public:
  CudaLexer(std::string_view source, TokenStream& out)
      : m_out(out),
        m_begin(source.data()),
        m_end(source.data() + source.size()),
        m_p(source.data()) {}

  void run();

 private:
  std::uint32_t offset_of(const char* p) const { return static_cast<std::uint32_t>(p - m_begin); }
  char peek(const char* p, std::size_t ahead) const {
    return static_cast<std::size_t>(m_end - p) > ahead ? p[ahead] : '\0';
  }

  [[gnu::always_inline]] void emit(TokenKind kind, const char* start, const char* stop,
                                   std::uint32_t line, std::uint8_t flags = 0) {
    Token token;
    token.offset = offset_of(start);
    token.length = static_cast<std::uint32_t>(stop - start);
    token.line = line;
    token.kind = kind;
    token.flags = static_cast<std::uint8_t>(flags | m_directive_flag);
    if (kind == TokenKind::Identifier || kind == TokenKind::Number ||
        kind == TokenKind::LaunchOpen || kind == TokenKind::DirectiveStart) {
      m_out.anchors.push_back(static_cast<std::uint32_t>(m_out.tokens.size()));
    }
    m_out.tokens.push_back(token);
    if (kind != TokenKind::Comment) {
      m_at_line_start = false;
      m_expect_header = false;
    }
  }

  void diagnose(const char* at, std::uint32_t line, const char* message) {
    std::uint32_t column = offset_of(at) - m_out.line_starts[line - 1] + 1;
    m_out.diagnostics.push_back({line, column, message});
  }

  // `newline` points at a '\n' that has been consumed.
  void record_newline(const char* newline) {
    m_out.line_starts.push_back(offset_of(newline) + 1);
    ++m_line;
  }

  void record_newlines(const char* from, const char* to) {
    const std::size_t before = m_out.line_starts.size();
    char_scan::append_line_starts(std::string_view(from, static_cast<std::size_t>(to - from)),
                                  offset_of(from), m_out.line_starts);
    m_line += static_cast<std::uint32_t>(m_out.line_starts.size() - before);
  }

  // If `p` is a backslash-newline (or backslash-CRLF), the number of bytes it spans; else 0.
  std::size_t splice_length(const char* p) const {
    char next = peek(p, 1);
    if (next == '\n') {
      return 2;
    }
    return next == '\r' && peek(p, 2) == '\n' ? 3 : 0;
  }

  // `operator<<<T>` is `operator<<` then `<`, not a kernel launch.
  bool after_operator_keyword() const {
    if (m_out.tokens.empty()) {
      return false;
    }
    const Token& last = m_out.tokens.back();
    return last.kind == TokenKind::Identifier && last.length == 8 &&
           std::memcmp(m_begin + last.offset, "operator", 8) == 0;
  }

  void lex_identifier();
  void lex_number();
  void lex_quoted(const char* start, const char* quote);
  bool lex_raw_string(const char* start, const char* quote);
  void lex_line_comment();
  void lex_block_comment();
  bool lex_header_name();
  void lex_punct();
  // Out of line: directives are rare, and inlined into run() they cost the token loop registers.
  [[gnu::noinline]] void start_directive();
  [[gnu::noinline]] void end_directive(const char* at);

  TokenStream& m_out;
  const char* m_begin;
  const char* m_end;
  const char* m_p;
  std::uint32_t m_line = 1;
  bool m_at_line_start = true;
  bool m_expect_header = false;
  std::uint8_t m_directive_flag = 0;  // k_token_in_directive while inside a directive
  std::uint32_t m_launch_depth = 0;

  // The directive being lexed.
  Directive m_directive = Directive::None;
  std::string_view m_directive_name;
  const char* m_directive_hash = nullptr;
  std::uint32_t m_directive_line = 0;
  std::uint32_t m_directive_token = 0;  // index of its DirectiveStart token
  const char* m_condition = nullptr;
};

void CudaLexer::run() {
  if (m_end - m_p >= 3 && static_cast<unsigned char>(m_p[0]) == 0xEF &&
      static_cast<unsigned char>(m_p[1]) == 0xBB && static_cast<unsigned char>(m_p[2]) == 0xBF) {
    m_p += 3;  // a UTF-8 byte order mark is whitespace
  }
  while (m_p < m_end) {
    char c = *m_p;
    std::uint8_t cls = class_of(c);
    if ((cls & k_space) != 0) {
      // Mostly one space between tokens: the vector scan only for a run of blanks.
      ++m_p;
      if (m_p < m_end && (class_of(*m_p) & k_space) != 0) {
        m_p = char_scan::blank_end(m_p + 1, m_end);
      }
      continue;
    }
    if ((cls & k_ident_start) != 0) {
      lex_identifier();
      continue;
    }
    if ((cls & k_digit) != 0) {
      lex_number();
      continue;
    }
    switch (c) {
      case '\n':
        if (m_directive_flag != 0) {
          end_directive(m_p);
        }
        record_newline(m_p);
        ++m_p;
        m_at_line_start = true;
        continue;
      case '/':
        if (peek(m_p, 1) == '/') {
          lex_line_comment();
          continue;
        }
        if (peek(m_p, 1) == '*') {
          lex_block_comment();
          continue;
        }
        break;
      case '"':
        if (m_expect_header && lex_header_name()) {
          continue;
        }
        lex_quoted(m_p, m_p);
        continue;
      case '\'':
        lex_quoted(m_p, m_p);
        continue;
      case '.':
        if ((class_of(peek(m_p, 1)) & k_digit) != 0) {
          lex_number();
          continue;
        }
        break;
      case '#':
        if (m_at_line_start && m_directive_flag == 0) {
          start_directive();
          continue;
        }
        break;
      case '<':
        if (m_expect_header && lex_header_name()) {
          continue;
        }
        break;
      case '(':
      case ')':
      case '[':
      case ']':
      case '{':
      case '}':
      case ';':
      case ',':
      case '?':
      case '~':
        // Punctuators that are never the start of a longer one: no look-ahead.
        emit(TokenKind::Punct, m_p, m_p + 1, m_line);
        ++m_p;
        continue;
      case '\\':
        if (m_directive_flag != 0) {
          if (std::size_t splice = splice_length(m_p); splice != 0) {
            record_newline(m_p + splice - 1);
            m_p += splice;
            continue;
          }
        }
        break;
      default:
        break;
    }
    lex_punct();
  }
  if (m_directive_flag != 0) {
    end_directive(m_end);
  }
}

void CudaLexer::lex_identifier() {
  const char* start = m_p;
  const char* p = char_scan::ident_end<true>(m_p + 1, m_end);
  m_p = p;
  std::size_t length = static_cast<std::size_t>(p - start);
  // The quote first: it is rarely there, so this branch predicts well; name lengths do not.
  if (p < m_end && (*p == '"' || *p == '\'') && length <= 3) {
    std::string_view word(start, length);
    bool prefix = word == "L" || word == "u8" || word == "u" || word == "U";
    if (prefix) {
      lex_quoted(start, p);
      return;
    }
    bool raw_prefix = word == "R" || word == "LR" || word == "u8R" || word == "uR" || word == "UR";
    if (raw_prefix && *p == '"' && lex_raw_string(start, p)) {
      return;
    }
  }
  emit(TokenKind::Identifier, start, p, m_line);
}

void CudaLexer::lex_number() {
  const char* start = m_p;
  const char* p = m_p + 1;
  while (p < m_end) {
    char c = *p;
    if ((class_of(c) & k_pp_number) != 0) {
      ++p;
    } else if ((c == '+' || c == '-') &&
               (p[-1] == 'e' || p[-1] == 'E' || p[-1] == 'p' || p[-1] == 'P')) {
      ++p;
    } else if (c == '\'' && (class_of(peek(p, 1)) & k_alnum) != 0) {
      p += 2;
    } else {
      break;
    }
  }
  m_p = p;
  emit(TokenKind::Number, start, p, m_line);
}

// A string or character literal; `quote` is its opening quote (after any prefix). Stops at an
// unescaped newline: the literal is then flagged unterminated and lexing goes on.
void CudaLexer::lex_quoted(const char* start, const char* quote) {
  char delimiter = *quote;
  TokenKind kind = delimiter == '"' ? TokenKind::String : TokenKind::Char;
  std::uint32_t line = m_line;
  const char* p = quote + 1;
  while (p < m_end) {
    char c = *p;
    if (c == delimiter) {
      m_p = p + 1;
      emit(kind, start, m_p, line);
      return;
    }
    if (c == '\n') {
      break;
    }
    if (c == '\\') {
      if (std::size_t splice = splice_length(p); splice != 0) {
        record_newline(p + splice - 1);
        p += splice;
        continue;
      }
      p += p + 1 < m_end ? 2 : 1;
      continue;
    }
    ++p;
  }
  m_p = p;
  const char* stop = p;
  if (stop > quote + 1 && stop[-1] == '\r') {
    --stop;
  }
  emit(kind, start, stop, line, k_token_unterminated);
  diagnose(
      start, line,
      kind == TokenKind::String ? "unterminated string literal" : "unterminated character literal");
}

// R"delim( ... )delim" with any prefix; false (nothing consumed) when the delimiter is not
// valid, in which case the prefix is an identifier and the quote starts an ordinary string.
bool CudaLexer::lex_raw_string(const char* start, const char* quote) {
  const char* delimiter = quote + 1;
  const char* p = delimiter;
  while (p < m_end && *p != '(') {
    char c = *p;
    // Any character but blanks, parentheses and the backslash: R"""(...)""" has the delimiter `""`.
    if (c == ' ' || c == ')' || c == '\\' || c == '\t' || c == '\v' || c == '\f' || c == '\n' ||
        c == '\r' || static_cast<std::size_t>(p - delimiter) >= k_max_raw_delimiter) {
      return false;
    }
    ++p;
  }
  if (p >= m_end) {
    return false;
  }
  std::string_view delim(delimiter, static_cast<std::size_t>(p - delimiter));
  std::uint32_t line = m_line;
  ++p;  // past '('
  while (p < m_end) {
    const void* hit = std::memchr(p, ')', static_cast<std::size_t>(m_end - p));
    const char* close = hit == nullptr ? m_end : static_cast<const char*>(hit);
    record_newlines(p, close);
    if (close == m_end) {
      break;
    }
    std::size_t rest = static_cast<std::size_t>(m_end - close - 1);
    if (rest > delim.size() && std::string_view(close + 1, delim.size()) == delim &&
        close[1 + delim.size()] == '"') {
      m_p = close + delim.size() + 2;
      emit(TokenKind::String, start, m_p, line);
      return true;
    }
    p = close + 1;
  }
  m_p = m_end;
  emit(TokenKind::String, start, m_end, line, k_token_unterminated);
  diagnose(start, line, "unterminated raw string");
  return true;
}

// `// ...` up to the end of the line; a backslash before the newline continues it.
void CudaLexer::lex_line_comment() {
  const char* start = m_p;
  std::uint32_t line = m_line;
  const char* p = start + 2;
  const char* stop = m_end;
  while (p < m_end) {
    const void* hit = std::memchr(p, '\n', static_cast<std::size_t>(m_end - p));
    if (hit == nullptr) {
      break;
    }
    const char* newline = static_cast<const char*>(hit);
    const char* last = newline - 1;  // the byte before the newline, skipping one '\r'
    if (last >= p && *last == '\r') {
      --last;
    }
    if (last >= p && *last == '\\') {
      record_newline(newline);
      p = newline + 1;
      continue;
    }
    stop = newline;
    break;
  }
  m_p = stop;
  if (stop > start + 2 && stop[-1] == '\r') {
    --stop;
  }
  emit(TokenKind::Comment, start, stop, line);
}

void CudaLexer::lex_block_comment() {
  const char* start = m_p;
  std::uint32_t line = m_line;
  const char* p = start + 2;
  while (p < m_end) {
    const void* hit = std::memchr(p, '*', static_cast<std::size_t>(m_end - p));
    if (hit == nullptr) {
      break;
    }
    const char* star = static_cast<const char*>(hit);
    record_newlines(p, star);
    if (star + 1 < m_end && star[1] == '/') {
      m_p = star + 2;
      emit(TokenKind::Comment, start, m_p, line);
      return;
    }
    p = star + 1;
  }
  record_newlines(p, m_end);
  m_p = m_end;
  emit(TokenKind::Comment, start, m_end, line, k_token_unterminated);
  diagnose(start, line, "unterminated block comment");
}

// <...> or "..." on one line after #include; false (nothing consumed) if not closed.
bool CudaLexer::lex_header_name() {
  char close = *m_p == '<' ? '>' : '"';
  for (const char* p = m_p + 1; p < m_end && *p != '\n'; ++p) {
    if (*p == close) {
      const char* start = m_p;
      m_p = p + 1;
      emit(TokenKind::HeaderName, start, m_p, m_line);
      return true;
    }
  }
  return false;
}

// Every punctuator but the single-byte ones ( ) [ ] { } ; , ? ~, which run() emits itself.
void CudaLexer::lex_punct() {
  const char* start = m_p;
  char c1 = peek(m_p, 1);
  char c2 = peek(m_p, 2);
  std::size_t length = 1;
  TokenKind kind = TokenKind::Punct;
  switch (*m_p) {
    case '<':
      if (c1 == '<') {
        if (c2 == '<' && !after_operator_keyword()) {
          kind = TokenKind::LaunchOpen;
          ++m_launch_depth;
          length = 3;
        } else {
          length = c2 == '=' ? 3 : 2;
        }
      } else if (c1 == '=') {
        length = c2 == '>' ? 3 : 2;
      }
      break;
    case '>':
      if (c1 == '>') {
        if (c2 == '>' && m_launch_depth > 0) {
          kind = TokenKind::LaunchClose;
          --m_launch_depth;
          length = 3;
        } else {
          length = c2 == '=' ? 3 : 2;
        }
      } else if (c1 == '=') {
        length = 2;
      }
      break;
    case '-':
      if (c1 == '>') {
        length = c2 == '*' ? 3 : 2;
      } else if (c1 == '-' || c1 == '=') {
        length = 2;
      }
      break;
    case '+':
      length = c1 == '+' || c1 == '=' ? 2 : 1;
      break;
    case '&':
      length = c1 == '&' || c1 == '=' ? 2 : 1;
      break;
    case '|':
      length = c1 == '|' || c1 == '=' ? 2 : 1;
      break;
    case '*':
    case '/':
    case '%':
    case '^':
    case '=':
    case '!':
      length = c1 == '=' ? 2 : 1;
      break;
    case ':':
      length = c1 == ':' ? 2 : 1;
      break;
    case '#':
      length = c1 == '#' ? 2 : 1;
      break;
    case '.':
      if (c1 == '.' && c2 == '.') {
        length = 3;
      } else if (c1 == '*') {
        length = 2;
      }
      break;
    default:
      kind = TokenKind::Other;
      break;
  }
  m_p += length;
  emit(kind, start, m_p, m_line);
}

// At a '#' that begins a line: DirectiveStart covers '#', blanks and the name.
void CudaLexer::start_directive() {
  const char* hash = m_p;
  const char* name = hash + 1;
  while (name < m_end && (*name == ' ' || *name == '\t')) {
    ++name;
  }
  const char* name_end = name;
  while (name_end < m_end && (class_of(*name_end) & k_ident) != 0) {
    ++name_end;
  }
  if (name_end == name || (class_of(*name) & k_digit) != 0) {
    name_end = hash + 1;  // null directive or a line marker ("# 12 \"file\"")
    m_directive = Directive::Other;
    m_directive_name = {};
  } else {
    m_directive_name = std::string_view(name, static_cast<std::size_t>(name_end - name));
    m_directive = directive_of(m_directive_name);
  }
  m_directive_hash = hash;
  m_directive_line = m_line;
  m_directive_token = static_cast<std::uint32_t>(m_out.tokens.size());
  m_condition = name_end;
  m_directive_flag = k_token_in_directive;
  m_p = name_end;
  emit(TokenKind::DirectiveStart, hash, name_end, m_line);
  m_expect_header = m_directive == Directive::Include;
}

void CudaLexer::end_directive(const char* at) {
  emit(TokenKind::DirectiveEnd, at, at, m_line);
  m_directive_flag = 0;
  if (is_recorded(m_directive)) {
    DirectiveRecord record;
    record.kind = m_directive;
    record.line = m_directive_line;
    record.column = offset_of(m_directive_hash) - m_out.line_starts[m_directive_line - 1] + 1;
    record.first_token = m_directive_token;
    record.end_token = static_cast<std::uint32_t>(m_out.tokens.size());
    record.text_offset = offset_of(m_condition);
    record.text_length = static_cast<std::uint32_t>(at - m_condition);
    m_out.directives.push_back(record);
  }
  m_directive = Directive::None;
}

}  // namespace

void lex_cuda(std::string_view source, TokenStream& out) {
  lex_cuda(source, out, PreprocessorSetup{});
}

void lex_cuda(std::string_view source, TokenStream& out, const PreprocessorSetup& setup) {
  lex_cuda_tokens(source, out);
  resolve_branches(out, setup);
}

void lex_cuda_tokens(std::string_view source, TokenStream& out) {
  out.clear();
  std::string_view text = source;
  constexpr std::size_t k_max_size = std::numeric_limits<std::uint32_t>::max() - 1;
  if (text.size() > k_max_size) {
    text = text.substr(0, k_max_size);
  }
  out.source = source;
  out.tokens.reserve(text.size() / 4 + 16);
  out.line_starts.reserve(text.size() / 32 + 16);
  out.anchors.reserve(text.size() / 8 + 16);
  out.line_starts.push_back(0);
  CudaLexer lexer(text, out);
  lexer.run();
  if (text.size() < source.size()) {
    out.diagnostics.push_back({1, 1, "file larger than 4 GiB; only the first 4 GiB were lexed"});
  }
}

}  // namespace gpuport
