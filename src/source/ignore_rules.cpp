// Gitignore pattern parsing and the iterative wildcard matcher behind it.
#include "source/ignore_rules.h"

#include <cctype>

namespace gpuport {
namespace {

constexpr std::size_t k_none = static_cast<std::size_t>(-1);

bool posix_class_contains(std::string_view name, unsigned char c) {
  const int ch = c;
  if (name == "alnum") {
    return std::isalnum(ch) != 0;
  }
  if (name == "alpha") {
    return std::isalpha(ch) != 0;
  }
  if (name == "blank") {
    return c == ' ' || c == '\t';
  }
  if (name == "cntrl") {
    return std::iscntrl(ch) != 0;
  }
  if (name == "digit") {
    return std::isdigit(ch) != 0;
  }
  if (name == "graph") {
    return std::isgraph(ch) != 0;
  }
  if (name == "lower") {
    return std::islower(ch) != 0;
  }
  if (name == "print") {
    return std::isprint(ch) != 0;
  }
  if (name == "punct") {
    return std::ispunct(ch) != 0;
  }
  if (name == "space") {
    return std::isspace(ch) != 0;
  }
  if (name == "upper") {
    return std::isupper(ch) != 0;
  }
  if (name == "xdigit") {
    return std::isxdigit(ch) != 0;
  }
  return false;
}

bool is_posix_class_name(std::string_view name) {
  for (std::string_view known : {"alnum", "alpha", "blank", "cntrl", "digit", "graph", "lower",
                                 "print", "punct", "space", "upper", "xdigit"}) {
    if (name == known) {
      return true;
    }
  }
  return false;
}

// True when the character at `index` is preceded by an odd number of backslashes.
bool is_escaped(std::string_view text, std::size_t index) {
  std::size_t backslashes = 0;
  while (index > backslashes && text[index - backslashes - 1] == '\\') {
    ++backslashes;
  }
  return backslashes % 2 == 1;
}

}  // namespace

// ---- Glob -----------------------------------------------------------------------------------

// Parses "[...]" starting at `open`; returns the index after ']' or k_none when unterminated.
std::size_t Glob::parse_class(std::string_view pattern, std::size_t open) {
  std::bitset<256> set;
  std::size_t i = open + 1;
  bool negated = false;
  if (i < pattern.size() && (pattern[i] == '!' || pattern[i] == '^')) {
    negated = true;
    ++i;
  }
  bool first = true;
  for (;;) {
    if (i >= pattern.size()) {
      return k_none;
    }
    char c = pattern[i];
    if (c == ']' && !first) {
      ++i;
      break;
    }
    first = false;
    if (c == '[' && i + 1 < pattern.size() && pattern[i + 1] == ':') {
      const std::size_t close = pattern.find(":]", i + 2);
      if (close != std::string_view::npos) {
        const std::string_view name = pattern.substr(i + 2, close - i - 2);
        if (is_posix_class_name(name)) {
          for (unsigned v = 0; v < 256; ++v) {
            if (posix_class_contains(name, static_cast<unsigned char>(v))) {
              set.set(v);
            }
          }
          i = close + 2;
          continue;
        }
      }
    }
    if (c == '\\' && i + 1 < pattern.size()) {
      c = pattern[++i];
    }
    ++i;
    auto low = static_cast<unsigned char>(c);
    if (i + 1 < pattern.size() && pattern[i] == '-' && pattern[i + 1] != ']') {
      char high_char = pattern[i + 1];
      i += 2;
      if (high_char == '\\' && i < pattern.size()) {
        high_char = pattern[i++];
      }
      const auto high = static_cast<unsigned char>(high_char);
      for (unsigned v = low; v <= high; ++v) {
        set.set(v);
      }
      continue;
    }
    set.set(low);
  }
  if (negated) {
    set.flip();
  }
  set.reset(static_cast<unsigned char>('/'));
  Token token;
  token.kind = Kind::Class;
  token.class_index = static_cast<std::uint16_t>(m_classes.size());
  m_classes.push_back(set);
  m_tokens.push_back(token);
  return i;
}

bool Glob::compile(std::string_view pattern, Glob& out) {
  out.m_tokens.clear();
  out.m_classes.clear();
  std::size_t i = 0;
  while (i < pattern.size()) {
    const char c = pattern[i];
    if (c == '*') {
      std::size_t end = i;
      while (end < pattern.size() && pattern[end] == '*') {
        ++end;
      }
      // Two or more stars that make up a whole path component are "**" (as git's wildmatch
      // does); any other run of stars is one '*'.
      const bool whole_component =
          (i == 0 || pattern[i - 1] == '/') && (end == pattern.size() || pattern[end] == '/');
      if (end - i >= 2 && whole_component) {
        if (end == pattern.size()) {
          out.m_tokens.push_back(Token{Kind::DoubleStarAll, 0, 0});
          i = end;
        } else {
          out.m_tokens.push_back(Token{Kind::DoubleStarSlash, 0, 0});
          i = end + 1;
        }
      } else {
        if (out.m_tokens.empty() || out.m_tokens.back().kind != Kind::Star) {
          out.m_tokens.push_back(Token{Kind::Star, 0, 0});
        }
        i = end;
      }
      continue;
    }
    if (c == '?') {
      out.m_tokens.push_back(Token{Kind::AnyChar, 0, 0});
      ++i;
      continue;
    }
    if (c == '[' && out.m_classes.size() < 0xffff) {
      const std::size_t after = out.parse_class(pattern, i);
      if (after != k_none) {
        i = after;
        continue;
      }
      // An unterminated '[' is an ordinary character.
    }
    if (c == '\\') {
      if (i + 1 >= pattern.size()) {
        return false;
      }
      out.m_tokens.push_back(Token{Kind::Literal, pattern[i + 1], 0});
      i += 2;
      continue;
    }
    out.m_tokens.push_back(Token{Kind::Literal, c, 0});
    ++i;
  }
  return true;
}

bool Glob::matches(std::string_view text) const {
  const std::size_t count = m_tokens.size();
  std::size_t p = 0;
  std::size_t t = 0;
  std::size_t star_p = k_none;  // token after the last '*', and where its match ends
  std::size_t star_t = 0;
  std::size_t dstar_p = k_none;  // token after the last '**/', and where its match ends
  std::size_t dstar_t = 0;
  while (p < count || t < text.size()) {
    if (p < count) {
      const Token& token = m_tokens[p];
      switch (token.kind) {
        case Kind::DoubleStarAll:
          return true;
        case Kind::DoubleStarSlash:
          dstar_p = ++p;
          dstar_t = t;
          star_p = k_none;
          continue;
        case Kind::Star:
          star_p = ++p;
          star_t = t;
          continue;
        case Kind::Literal:
          if (t < text.size() && text[t] == token.ch) {
            ++p;
            ++t;
            continue;
          }
          break;
        case Kind::AnyChar:
          if (t < text.size() && text[t] != '/') {
            ++p;
            ++t;
            continue;
          }
          break;
        case Kind::Class:
          if (t < text.size() &&
              m_classes[token.class_index].test(static_cast<unsigned char>(text[t]))) {
            ++p;
            ++t;
            continue;
          }
          break;
      }
    }
    // Mismatch: let the last '*' take one more character, else the last '**/' one more directory.
    if (star_p != k_none && star_t < text.size() && text[star_t] != '/') {
      t = ++star_t;
      p = star_p;
      continue;
    }
    if (dstar_p != k_none) {
      const std::size_t slash = text.find('/', dstar_t);
      if (slash == std::string_view::npos) {
        return false;
      }
      dstar_t = slash + 1;
      t = dstar_t;
      p = dstar_p;
      star_p = k_none;
      continue;
    }
    return false;
  }
  return true;
}

// ---- IgnoreRules ----------------------------------------------------------------------------

IgnoreRules IgnoreRules::parse(std::string_view text) {
  IgnoreRules rules;
  if (text.substr(0, 3) == "\xEF\xBB\xBF") {
    text.remove_prefix(3);
  }
  while (!text.empty()) {
    const std::size_t newline = text.find('\n');
    rules.add_line(text.substr(0, newline));
    if (newline == std::string_view::npos) {
      break;
    }
    text.remove_prefix(newline + 1);
  }
  return rules;
}

void IgnoreRules::add_line(std::string_view line) {
  if (!line.empty() && line.back() == '\r') {
    line.remove_suffix(1);
  }
  if (line.empty() || line.front() == '#') {
    return;
  }
  while (!line.empty() && line.back() == ' ' && !is_escaped(line, line.size() - 1)) {
    line.remove_suffix(1);
  }
  IgnorePattern pattern;
  if (!line.empty() && line.front() == '!') {
    pattern.negated = true;
    line.remove_prefix(1);
  }
  if (!line.empty() && line.back() == '/' && !is_escaped(line, line.size() - 1)) {
    pattern.directory_only = true;
    line.remove_suffix(1);
  }
  if (!line.empty() && line.front() == '/') {
    pattern.anchored = true;
    line.remove_prefix(1);
  } else if (line.find('/') != std::string_view::npos) {
    pattern.anchored = true;
  }
  if (line.empty()) {
    return;
  }
  if (!Glob::compile(line, pattern.glob)) {
    return;
  }
  m_patterns.push_back(std::move(pattern));
}

IgnoreMatch IgnoreRules::match(std::string_view path, PathKind kind) const {
  const std::size_t slash = path.rfind('/');
  const std::string_view name = slash == std::string_view::npos ? path : path.substr(slash + 1);
  for (auto it = m_patterns.rbegin(); it != m_patterns.rend(); ++it) {
    if (it->directory_only && kind != PathKind::Directory) {
      continue;
    }
    if (it->glob.matches(it->anchored ? path : name)) {
      return it->negated ? IgnoreMatch::Include : IgnoreMatch::Ignore;
    }
  }
  return IgnoreMatch::None;
}

IgnoreMatch match_ignore_levels(const IgnoreLevel* deepest, std::string_view path, PathKind kind) {
  for (const IgnoreLevel* level = deepest; level != nullptr; level = level->parent.get()) {
    if (path.size() <= level->base.size() || path.substr(0, level->base.size()) != level->base) {
      continue;
    }
    const IgnoreMatch match = level->rules.match(path.substr(level->base.size()), kind);
    if (match != IgnoreMatch::None) {
      return match;
    }
  }
  return IgnoreMatch::None;
}

}  // namespace gpuport
