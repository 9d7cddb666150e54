// A CMake tokenizer after the grammar in cmake-language(7): command invocations, quoted,
// bracket and unquoted arguments, line and bracket comments.
#include "lex/cmake_commands.h"

#include <algorithm>

namespace gpuport {

namespace {

bool is_identifier_start(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

bool is_identifier_char(char c) {
  return is_identifier_start(c) || (c >= '0' && c <= '9');
}

bool is_blank(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

class Tokenizer {
 public:
  explicit Tokenizer(std::string_view source) : m_s(source) {
    if (m_s.starts_with("\xEF\xBB\xBF")) {
      m_i = 3;  // a UTF-8 byte order mark, which CMake accepts
    }
  }

  std::vector<CMakeCommand> run() {
    std::vector<CMakeCommand> commands;
    while (m_i < m_s.size()) {
      const char c = m_s[m_i];
      if (c == '#') {
        skip_comment();
      } else if (is_identifier_start(c) && (m_i == 0 || !is_identifier_char(m_s[m_i - 1]))) {
        const std::size_t start = m_i;
        while (m_i < m_s.size() && is_identifier_char(m_s[m_i])) {
          ++m_i;
        }
        const std::size_t name_end = m_i;
        while (m_i < m_s.size() && (m_s[m_i] == ' ' || m_s[m_i] == '\t')) {
          ++m_i;
        }
        if (m_i < m_s.size() && m_s[m_i] == '(') {
          CMakeCommand command;
          command.name = lower(m_s.substr(start, name_end - start));
          command.name_offset = start;
          ++m_i;
          parse_arguments(command);
          commands.push_back(std::move(command));
        } else {
          stray(start);
        }
      } else if (c == '"') {
        stray(m_i);
        skip_quoted();  // not valid outside a command; skipped so that it cannot start one
      } else {
        if (!is_blank(c)) {
          stray(m_i);
        }
        ++m_i;
      }
    }
    return commands;
  }

  std::size_t first_stray() const { return m_stray; }

 private:
  static std::string lower(std::string_view text) {
    std::string out(text);
    for (char& c : out) {
      if (c >= 'A' && c <= 'Z') {
        c = static_cast<char>(c - 'A' + 'a');
      }
    }
    return out;
  }

  // At '[': the number of '=' of a bracket opening "[==[", or -1 when it is not one.
  int bracket_level(std::size_t at) const {
    std::size_t j = at + 1;
    while (j < m_s.size() && m_s[j] == '=') {
      ++j;
    }
    return j < m_s.size() && m_s[j] == '[' ? static_cast<int>(j - at - 1) : -1;
  }

  // From the opening bracket at `at` with `level` '='s: the offset just past "]==]".
  std::size_t bracket_end(std::size_t at, int level, std::size_t* content_end) const {
    const std::string closing = "]" + std::string(static_cast<std::size_t>(level), '=') + "]";
    const std::size_t found = m_s.find(closing, at + static_cast<std::size_t>(level) + 2);
    if (found == std::string_view::npos) {
      *content_end = m_s.size();
      return m_s.size();
    }
    *content_end = found;
    return found + closing.size();
  }

  void skip_comment() {
    if (m_i + 1 < m_s.size() && m_s[m_i + 1] == '[') {
      const int level = bracket_level(m_i + 1);
      if (level >= 0) {
        std::size_t content_end = 0;
        const std::size_t start = m_i;
        m_i = bracket_end(m_i + 1, level, &content_end);
        if (content_end == m_s.size()) {
          stray(start);  // a bracket comment that never closes
        }
        return;
      }
    }
    const std::size_t newline = m_s.find('\n', m_i);
    m_i = newline == std::string_view::npos ? m_s.size() : newline;
  }

  // From an opening quote: moves past the closing one (or to the end of the file).
  void skip_quoted() {
    ++m_i;
    while (m_i < m_s.size() && m_s[m_i] != '"') {
      m_i += m_s[m_i] == '\\' ? 2 : 1;
    }
    m_i = std::min(m_i + 1, m_s.size());
  }

  void parse_arguments(CMakeCommand& command) {
    int depth = 1;
    while (m_i < m_s.size()) {
      const char c = m_s[m_i];
      if (is_blank(c)) {
        ++m_i;
      } else if (c == '#') {
        skip_comment();
      } else if (c == '(') {
        ++depth;
        ++m_i;
        command.parens.emplace_back(static_cast<std::uint32_t>(command.args.size()), '(');
      } else if (c == ')') {
        ++m_i;
        if (--depth == 0) {
          command.end = m_i;
          command.closed = true;
          return;
        }
        command.parens.emplace_back(static_cast<std::uint32_t>(command.args.size()), ')');
      } else if (c == '"') {
        CMakeArg arg;
        arg.kind = CMakeArgKind::Quoted;
        arg.offset = m_i;
        arg.content_offset = m_i + 1;
        skip_quoted();
        arg.length = m_i - arg.offset;
        const bool closed = arg.length >= 2 && m_s[m_i - 1] == '"';
        arg.content_length = arg.length - 1 - (closed ? 1 : 0);
        command.args.push_back(arg);
      } else if (c == '[' && bracket_level(m_i) >= 0) {
        const int level = bracket_level(m_i);
        CMakeArg arg;
        arg.kind = CMakeArgKind::Bracket;
        arg.offset = m_i;
        arg.content_offset = m_i + static_cast<std::size_t>(level) + 2;
        std::size_t content_end = 0;
        m_i = bracket_end(m_i, level, &content_end);
        arg.length = m_i - arg.offset;
        arg.content_length = content_end - arg.content_offset;
        command.args.push_back(arg);
      } else {
        parse_unquoted(command);
      }
    }
    command.end = m_s.size();
  }

  void parse_unquoted(CMakeCommand& command) {
    CMakeArg arg;
    arg.offset = m_i;
    arg.content_offset = m_i;
    while (m_i < m_s.size()) {
      const char c = m_s[m_i];
      if (is_blank(c) || c == '(' || c == ')' || c == '#') {
        break;
      }
      if (c == '\\') {
        m_i = std::min(m_i + 2, m_s.size());
      } else if (c == '"') {
        skip_quoted();  // legacy form: -DNAME="a b" is one argument
      } else {
        ++m_i;
      }
    }
    arg.length = m_i - arg.offset;
    arg.content_length = arg.length;
    command.args.push_back(arg);
  }

  void stray(std::size_t offset) { m_stray = std::min(m_stray, offset); }

  std::string_view m_s;
  std::size_t m_i = 0;
  std::size_t m_stray = std::string_view::npos;
};

}  // namespace

std::vector<CMakeCommand> parse_cmake_commands(std::string_view source, std::size_t* stray) {
  Tokenizer tokenizer(source);
  std::vector<CMakeCommand> commands = tokenizer.run();
  if (stray != nullptr) {
    *stray = tokenizer.first_stray();
  }
  return commands;
}

}  // namespace gpuport
