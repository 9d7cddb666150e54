// Directive names, skeleton copies, and the small parsers of #define, #ifdef and #include text.
#include "lex/pp_directives.h"

namespace gpuport {

namespace {

bool is_ident_byte(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '$' || c >= 0x80;
}

// Skips blanks, backslash-newlines and comments from `pos`.
std::size_t skip_blanks(std::string_view text, std::size_t pos) {
  while (pos < text.size()) {
    char c = text[pos];
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v') {
      ++pos;
    } else if (c == '\\' && pos + 1 < text.size() &&
               (text[pos + 1] == '\n' || text[pos + 1] == '\r')) {
      pos += 2;
    } else if (c == '/' && pos + 1 < text.size() && text[pos + 1] == '/') {
      return text.size();
    } else if (c == '/' && pos + 1 < text.size() && text[pos + 1] == '*') {
      std::size_t close = text.find("*/", pos + 2);
      pos = close == std::string_view::npos ? text.size() : close + 2;
    } else {
      break;
    }
  }
  return pos;
}

std::size_t identifier_end(std::string_view text, std::size_t pos) {
  if (pos < text.size() && text[pos] >= '0' && text[pos] <= '9') {
    return pos;
  }
  while (pos < text.size() && is_ident_byte(static_cast<unsigned char>(text[pos]))) {
    ++pos;
  }
  return pos;
}

}  // namespace

Directive directive_of(std::string_view name) {
  struct Entry {
    std::string_view name;
    Directive directive;
  };
  static constexpr Entry k_directives[] = {
      {"if", Directive::If},           {"ifdef", Directive::Ifdef},
      {"ifndef", Directive::Ifndef},   {"elif", Directive::Elif},
      {"elifdef", Directive::Elifdef}, {"elifndef", Directive::Elifndef},
      {"else", Directive::Else},       {"endif", Directive::Endif},
      {"include", Directive::Include}, {"include_next", Directive::Include},
      {"import", Directive::Include},  {"define", Directive::Define},
      {"undef", Directive::Undef},     {"pragma", Directive::Pragma},
  };
  for (const Entry& entry : k_directives) {
    if (entry.name == name) {
      return entry.directive;
    }
  }
  return Directive::Other;
}

bool opens_chain(Directive d) {
  return d == Directive::If || d == Directive::Ifdef || d == Directive::Ifndef;
}

bool continues_chain(Directive d) {
  return d == Directive::Elif || d == Directive::Elifdef || d == Directive::Elifndef ||
         d == Directive::Else || d == Directive::Endif;
}

bool is_recorded(Directive d) {
  return d != Directive::None && d != Directive::Other;
}

HeaderSkeleton make_skeleton(std::string path, const DirectiveList& list) {
  HeaderSkeleton skeleton;
  skeleton.path = std::move(path);
  std::size_t size = 0;
  for (const DirectiveRecord& record : list.records) {
    size += record.text_length;
  }
  skeleton.text.reserve(size);
  skeleton.records.reserve(list.records.size());
  for (const DirectiveRecord& record : list.records) {
    DirectiveRecord copy = record;
    copy.first_token = 0;
    copy.end_token = 0;
    copy.text_offset = static_cast<std::uint32_t>(skeleton.text.size());
    skeleton.text += list.rest(record);
    skeleton.records.push_back(copy);
  }
  return skeleton;
}

MacroText parse_define(std::string_view rest) {
  MacroText macro;
  std::size_t start = skip_blanks(rest, 0);
  std::size_t end = identifier_end(rest, start);
  if (end == start) {
    return macro;
  }
  macro.name = rest.substr(start, end - start);
  std::size_t body = end;
  if (end < rest.size() && rest[end] == '(') {
    macro.function_like = true;
    std::size_t close = rest.find(')', end);
    body = close == std::string_view::npos ? rest.size() : close + 1;
  }
  body = skip_blanks(rest, body);
  macro.body = rest.substr(body);
  return macro;
}

std::string_view first_identifier(std::string_view rest) {
  std::size_t start = skip_blanks(rest, 0);
  std::size_t end = identifier_end(rest, start);
  return rest.substr(start, end - start);
}

IncludeTarget parse_include(std::string_view rest) {
  IncludeTarget target;
  std::size_t start = skip_blanks(rest, 0);
  if (start >= rest.size()) {
    return target;
  }
  char open = rest[start];
  char close = open == '<' ? '>' : open == '"' ? '"' : '\0';
  if (close == '\0') {
    return target;
  }
  std::size_t end = rest.find(close, start + 1);
  if (end == std::string_view::npos || end == start + 1) {
    return target;
  }
  target.header = rest.substr(start + 1, end - start - 1);
  target.angled = open == '<';
  target.valid = target.header.find('\n') == std::string_view::npos;
  return target;
}

}  // namespace gpuport
