// Light readers for CMake, packaging, Dockerfile, shell and YAML files: logical lines with
// comments removed, continuations joined and outer blanks trimmed.
#include "lex/config_reader.h"

namespace gpuport {
namespace {

enum class Flavor : std::uint8_t { CMake, Pip, Docker, Shell, Yaml };

Flavor flavor_of(Language language) {
  switch (language) {
    case Language::CMake:
      return Flavor::CMake;
    case Language::Packaging:
      return Flavor::Pip;
    case Language::Docker:
      return Flavor::Docker;
    case Language::Yaml:
      return Flavor::Yaml;
    default:
      return Flavor::Shell;
  }
}

bool is_blank(char c) {
  return c == ' ' || c == '\t' || c == '\f' || c == '\v' || c == '\r';
}

std::string_view trim(std::string_view text) {
  while (!text.empty() && is_blank(text.front())) {
    text.remove_prefix(1);
  }
  while (!text.empty() && is_blank(text.back())) {
    text.remove_suffix(1);
  }
  return text;
}

std::uint32_t leading_spaces(std::string_view text) {
  std::uint32_t count = 0;
  while (count < text.size() && text[count] == ' ') {
    ++count;
  }
  return count;
}

// Splits the source into physical lines without their '\n' or trailing '\r'.
class LineCursor {
 public:
  explicit LineCursor(std::string_view source) : m_rest(source) {
    if (m_rest.starts_with("\xEF\xBB\xBF")) {
      m_rest.remove_prefix(3);
    }
  }
  bool next(std::string_view& line, std::uint32_t& number) {
    if (m_done) {
      return false;
    }
    const std::size_t newline = m_rest.find('\n');
    if (newline == std::string_view::npos) {
      line = m_rest;
      m_done = true;
    } else {
      line = m_rest.substr(0, newline);
      m_rest.remove_prefix(newline + 1);
    }
    if (!line.empty() && line.back() == '\r') {
      line.remove_suffix(1);
    }
    number = ++m_number;
    return true;
  }

 private:
  std::string_view m_rest;
  std::uint32_t m_number = 0;
  bool m_done = false;
};

// ---- '#' comments outside quotes (shell, Docker, YAML, requirements/TOML) -------------------

// Where a YAML quote may open a quoted scalar: at a token start, not inside a word ("it's").
bool yaml_quote_may_open(std::string_view line, std::size_t i) {
  if (i == 0) {
    return true;
  }
  const char prev = line[i - 1];
  return prev == ' ' || prev == '\t' || prev == '[' || prev == '{' || prev == ',' || prev == ':' ||
         prev == '-' || prev == '?';
}

// Returns the part of `line` before its comment. `quote` (0, '\'' or '"') carries an open
// quote in and out, so a continued line keeps its quoting.
std::string_view strip_hash_comment(std::string_view line, Flavor flavor, char& quote) {
  const bool shell_escapes = flavor == Flavor::Shell || flavor == Flavor::Docker;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quote == '"') {
      if (c == '\\') {
        ++i;
      } else if (c == '"') {
        quote = 0;
      }
      continue;
    }
    if (quote == '\'') {
      if (c == '\'') {
        if (flavor == Flavor::Yaml && i + 1 < line.size() && line[i + 1] == '\'') {
          ++i;  // '' is an escaped quote in a YAML single-quoted scalar
        } else {
          quote = 0;
        }
      }
      continue;
    }
    if (c == '\\' && shell_escapes) {
      ++i;
    } else if (c == '"' || c == '\'') {
      if (flavor != Flavor::Yaml || yaml_quote_may_open(line, i)) {
        quote = c;
      }
    } else if (c == '#' && (i == 0 || is_blank(line[i - 1]))) {
      return line.substr(0, i);
    }
  }
  return line;
}

// ---- CMake: quoted arguments, bracket arguments and bracket comments ------------------------

struct CMakeState {
  enum class Mode : std::uint8_t { Normal, Quoted, BracketArgument, BracketComment };
  Mode mode = Mode::Normal;
  std::size_t equals = 0;  // '=' count of the open bracket
};

// If `[` '='* `[` starts at pos, its length; else 0.
std::size_t bracket_open_length(std::string_view line, std::size_t pos, std::size_t& equals) {
  if (pos >= line.size() || line[pos] != '[') {
    return 0;
  }
  std::size_t i = pos + 1;
  while (i < line.size() && line[i] == '=') {
    ++i;
  }
  if (i >= line.size() || line[i] != '[') {
    return 0;
  }
  equals = i - pos - 1;
  return i + 1 - pos;
}

// The offset just past the `]` '='*equals `]` that closes a bracket, searching from `from`.
std::size_t find_bracket_close(std::string_view line, std::size_t from, std::size_t equals) {
  for (std::size_t i = line.find(']', from); i != std::string_view::npos;
       i = line.find(']', i + 1)) {
    std::size_t j = i + 1;
    while (j < line.size() && line[j] == '=' && j - i - 1 < equals) {
      ++j;
    }
    if (j - i - 1 == equals && j < line.size() && line[j] == ']') {
      return j + 1;
    }
  }
  return std::string_view::npos;
}

// Appends the non-comment text of one physical line to out; state carries across lines.
void strip_cmake(std::string_view line, CMakeState& state, std::string& out) {
  using Mode = CMakeState::Mode;
  std::size_t i = 0;
  while (i < line.size()) {
    if (state.mode == Mode::BracketComment || state.mode == Mode::BracketArgument) {
      const std::size_t end = find_bracket_close(line, i, state.equals);
      const std::size_t stop = end == std::string_view::npos ? line.size() : end;
      if (state.mode == Mode::BracketArgument) {
        out.append(line.substr(i, stop - i));
      }
      if (end != std::string_view::npos) {
        state.mode = Mode::Normal;
      }
      i = stop;
      continue;
    }
    const char c = line[i];
    if (c == '\\') {
      out.append(line.substr(i, 2));
      i += 2;
      continue;
    }
    if (state.mode == Mode::Quoted) {
      out.push_back(c);
      if (c == '"') {
        state.mode = Mode::Normal;
      }
      ++i;
      continue;
    }
    std::size_t equals = 0;
    if (c == '"') {
      state.mode = Mode::Quoted;
    } else if (std::size_t length = bracket_open_length(line, i, equals); length != 0) {
      out.append(line.substr(i, length));
      state.mode = Mode::BracketArgument;
      state.equals = equals;
      i += length;
      continue;
    } else if (c == '#') {
      const std::size_t length = bracket_open_length(line, i + 1, equals);
      if (length == 0) {
        return;  // line comment
      }
      state.mode = Mode::BracketComment;
      state.equals = equals;
      i += 1 + length;
      continue;
    }
    out.push_back(c);
    ++i;
  }
}

void push_line(std::vector<ConfigLine>& lines, std::uint32_t number, std::string_view text) {
  const std::string_view trimmed = trim(text);
  if (trimmed.empty()) {
    return;
  }
  ConfigLine line;
  line.line = number;
  line.indent = leading_spaces(text);
  line.text = std::string(trimmed);
  lines.push_back(std::move(line));
}

std::vector<ConfigLine> read_cmake(std::string_view source) {
  std::vector<ConfigLine> lines;
  LineCursor cursor(source);
  CMakeState state;
  std::string text;
  std::string_view line;
  std::uint32_t number = 0;
  while (cursor.next(line, number)) {
    text.clear();
    strip_cmake(line, state, text);
    push_line(lines, number, text);
  }
  return lines;
}

// One physical line is one logical line (YAML, requirements, TOML).
std::vector<ConfigLine> read_simple(std::string_view source, Flavor flavor) {
  std::vector<ConfigLine> lines;
  LineCursor cursor(source);
  std::string_view line;
  std::uint32_t number = 0;
  while (cursor.next(line, number)) {
    char quote = 0;
    push_line(lines, number, strip_hash_comment(line, flavor, quote));
  }
  return lines;
}

// True when the text ends with an odd number of backslashes (a line continuation).
bool ends_with_continuation(std::string_view text) {
  std::size_t count = 0;
  while (count < text.size() && text[text.size() - 1 - count] == '\\') {
    ++count;
  }
  return count % 2 == 1;
}

// Shell and Dockerfile: a trailing backslash joins the next physical line.
std::vector<ConfigLine> read_continued(std::string_view source, Flavor flavor) {
  std::vector<ConfigLine> lines;
  LineCursor cursor(source);
  std::string_view line;
  std::uint32_t number = 0;
  bool continuing = false;
  char quote = 0;
  ConfigLine current;
  while (cursor.next(line, number)) {
    if (continuing && flavor == Flavor::Docker) {
      // Docker drops comment lines and blank lines inside a continued instruction.
      const std::string_view trimmed = trim(line);
      if (trimmed.empty() || trimmed.front() == '#') {
        continue;
      }
    }
    if (!continuing) {
      quote = 0;
      current.line = number;
      current.text.clear();
    }
    std::string_view piece = strip_hash_comment(line, flavor, quote);
    if (!continuing) {
      current.indent = leading_spaces(piece);
    }
    piece = trim(piece);
    const bool continued = ends_with_continuation(piece);
    if (continued) {
      piece = trim(piece.substr(0, piece.size() - 1));
    }
    if (!piece.empty()) {
      if (!current.text.empty()) {
        current.text.push_back(' ');
      }
      current.text.append(piece);
    }
    continuing = continued;
    if (!continuing) {
      if (!current.text.empty()) {
        lines.push_back(current);
      }
    }
  }
  if (continuing && !current.text.empty()) {
    lines.push_back(current);
  }
  return lines;
}

}  // namespace

std::vector<ConfigLine> read_config_lines(std::string_view source, Language language) {
  const Flavor flavor = flavor_of(language);
  switch (flavor) {
    case Flavor::CMake:
      return read_cmake(source);
    case Flavor::Docker:
    case Flavor::Shell:
      return read_continued(source, flavor);
    case Flavor::Pip:
    case Flavor::Yaml:
      break;
  }
  return read_simple(source, flavor);
}

}  // namespace gpuport
