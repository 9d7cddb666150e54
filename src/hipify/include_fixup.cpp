// Include renaming, duplicate removal and hip_runtime.h insertion.
#include "hipify/include_fixup.h"

#include <algorithm>
#include <string>

#include "hipify/token_walk.h"

namespace gpuport {

namespace {

constexpr std::uint32_t k_bom_size = 3;

bool has_bom(std::string_view source) {
  return source.size() >= k_bom_size && source.substr(0, k_bom_size) == "\xEF\xBB\xBF";
}

// The file's own line ending, taken from its first line break ("\n" when it has none).
std::string_view line_ending(std::string_view source) {
  std::size_t newline = source.find('\n');
  return newline != std::string_view::npos && newline > 0 && source[newline - 1] == '\r' ? "\r\n"
                                                                                         : "\n";
}

std::string_view directive_name_of(const TokenStream& ts, std::size_t directive) {
  return directive_name(ts.text(ts.tokens[directive]));
}

// The DirectiveEnd closing the directive that starts at `directive`.
std::size_t directive_end(const TokenStream& ts, std::size_t directive) {
  std::size_t i = directive + 1;
  while (i < ts.tokens.size() && ts.tokens[i].kind != TokenKind::DirectiveEnd) {
    ++i;
  }
  return i;
}

// The first token after `i` that is not a comment and not the end of a directive.
std::size_t next_significant(const TokenStream& ts, std::size_t i) {
  while (i < ts.tokens.size() && (ts.tokens[i].kind == TokenKind::Comment ||
                                  ts.tokens[i].kind == TokenKind::DirectiveEnd)) {
    ++i;
  }
  return i;
}

// The identifier a directive names first ("X" in `#ifndef X` / `#define X 1`), or empty.
std::string_view first_identifier(const TokenStream& ts, std::size_t directive) {
  std::size_t i = next_code(ts, directive);
  if (i == k_no_token || ts.tokens[i].kind != TokenKind::Identifier ||
      !ts.tokens[i].in_directive()) {
    return {};
  }
  return ts.text(ts.tokens[i]);
}

bool is_conditional_start(std::string_view name) {
  return name == "if" || name == "ifdef" || name == "ifndef";
}
bool is_conditional_next(std::string_view name) {
  return name == "elif" || name == "elifdef" || name == "elifndef" || name == "else";
}

}  // namespace

void IncludeFixup::on_directive(std::size_t index, std::string_view name) {
  if (is_conditional_start(name)) {
    m_scopes.push_back(m_next_scope++);
  } else if (is_conditional_next(name)) {
    if (m_scopes.size() > 1) {
      m_scopes.back() = m_next_scope++;
    }
  } else if (name == "endif") {
    if (m_scopes.size() > 1) {
      m_scopes.pop_back();
    }
  } else if (name == "include" || name == "include_next" || name == "import") {
    on_include(index);
  }
}

bool IncludeFixup::in_open_scope(std::uint32_t scope) const {
  return std::find(m_scopes.begin(), m_scopes.end(), scope) != m_scopes.end();
}

void IncludeFixup::on_include(std::size_t directive) {
  const TokenStream& ts = m_ft.ts;
  std::size_t i = next_code(ts, directive);
  if (i == k_no_token || ts.tokens[i].kind != TokenKind::HeaderName) {
    return;  // #include MACRO: nothing to rename
  }
  const Token& header = ts.tokens[i];
  std::string_view written = ts.text(header);
  std::string_view path = written.substr(1, written.size() - 2);
  Seen seen{path, m_scopes.back(), false};
  if (header.context != BranchContext::Hip) {
    const Mapping* entry = m_ft.names.table().find_header(path);
    if (entry != nullptr && entry->angle_only && written.front() == '"') {
      entry = nullptr;  // the project's own header of a name CUDA also uses
    }
    if (entry != nullptr) {
      std::string_view to = m_ft.record_use(*entry, path, header.offset + 1, header.line);
      if (!to.empty() && to != path) {
        seen.path = to;
        seen.renamed = true;
      }
    }
  }
  if (seen.path == k_hip_runtime_header) {
    m_has_runtime = true;
  }
  // Renaming can make two includes of one header (cuda.h and cuda_runtime.h both become
  // hip/hip_runtime.h): the later one goes when the earlier one is always seen before it.
  for (const Seen& earlier : m_seen) {
    if (earlier.path == seen.path && (earlier.renamed || seen.renamed) &&
        in_open_scope(earlier.scope)) {
      remove_directive_line(directive);
      return;
    }
  }
  if (seen.renamed) {
    // Keep the <> or "" form as written.
    m_ft.edits.replace(header.offset + 1, end_of(header) - 1, seen.path);
  }
  m_seen.push_back(seen);
}

void IncludeFixup::remove_directive_line(std::size_t directive) {
  const TokenStream& ts = m_ft.ts;
  std::string_view source = ts.source;
  std::uint32_t begin = ts.tokens[directive].offset;
  std::uint32_t line_start = ts.line_starts[ts.tokens[directive].line - 1];
  bool blank_before = std::all_of(source.begin() + line_start, source.begin() + begin,
                                  [](char c) { return c == ' ' || c == '\t'; });
  if (blank_before) {
    begin = line_start;
  }
  std::uint32_t end = ts.tokens[directive_end(ts, directive)].offset;  // at the '\n' or EOF
  if (end < source.size() && source[end] == '\n') {
    ++end;
  }
  m_ft.edits.replace(begin, end, {});
  ++m_ft.stats.includes_removed;
}

void IncludeFixup::finish() {
  if (!m_ft.needs_runtime_header || m_has_runtime) {
    return;
  }
  std::string_view source = m_ft.ts.source;
  std::uint32_t at = insertion_offset();
  std::string line;
  std::string_view eol = line_ending(source);
  if (at == source.size() && at > 0 && source.back() != '\n') {
    line += eol;
  }
  line += "#include <";
  line += k_hip_runtime_header;
  line += ">";
  line += eol;
  m_ft.edits.insert_line(at, m_ft.edits.own(std::move(line)));
  m_ft.stats.includes_added = 1;
}

// After the leading comments and the include guard (#pragma once, or #ifndef X + #define X), at
// the start of the line of the first directive or code.
std::uint32_t IncludeFixup::insertion_offset() const {
  const TokenStream& ts = m_ft.ts;
  std::size_t i = next_significant(ts, 0);
  for (bool moved = true; moved && i < ts.tokens.size();) {
    moved = false;
    if (ts.tokens[i].kind != TokenKind::DirectiveStart) {
      break;
    }
    std::string_view name = directive_name_of(ts, i);
    if (name == "pragma" && first_identifier(ts, i) == "once") {
      i = next_significant(ts, directive_end(ts, i));
      moved = true;
    } else if (name == "ifndef" && !first_identifier(ts, i).empty()) {
      std::size_t define = next_significant(ts, directive_end(ts, i));
      if (define < ts.tokens.size() && ts.tokens[define].kind == TokenKind::DirectiveStart &&
          directive_name_of(ts, define) == "define" &&
          first_identifier(ts, define) == first_identifier(ts, i)) {
        i = next_significant(ts, directive_end(ts, define));
        moved = true;
      }
    }
  }
  std::uint32_t floor = has_bom(ts.source) ? k_bom_size : 0;
  if (i >= ts.tokens.size()) {
    return static_cast<std::uint32_t>(ts.source.size());
  }
  const Token& first = ts.tokens[i];
  std::uint32_t line_start = ts.line_starts[first.line - 1];
  // A block comment that ends on this line began on an earlier one: insert at the token itself
  // (after the comment) so the new line is not inside the comment.
  if (i > 0 && end_of(ts.tokens[i - 1]) > line_start) {
    return std::max(first.offset, floor);
  }
  return std::max(line_start, floor);
}

}  // namespace gpuport
