// Imports, decorators and attribute chains of a Python file, taken from its tokens in one pass.
#include "lex/python_lexer.h"

#include <algorithm>
#include <cstdint>
#include <optional>

namespace gpuport {
namespace {

// Works on token indices; comments carry no syntax and are stepped over by sig()/next() and
// previous().
class FactsBuilder {
 public:
  FactsBuilder(const TokenStream& stream, const PythonFactsOptions& options)
      : m_stream(stream),
        m_tokens(stream.tokens.data()),
        m_count(stream.tokens.size()),
        m_chain_roots(options.chain_roots) {
    m_facts.imports.reserve(16);
    m_facts.decorators.reserve(8);
    m_facts.attribute_chains.reserve(
        m_chain_roots.empty() ? std::min<std::size_t>(m_count / 16 + 8, 4096) : 8);
  }

  // Visits the anchors (identifiers, strings, `@`); what the tokens between them would tell
  // (a statement start, a preceding dot) is read by looking back from the anchor.
  PythonFacts run() {
    std::size_t resume = 0;  // the tokens before this index belong to an import, chain or decorator
    for (const std::uint32_t anchor : m_stream.anchors) {
      const std::size_t i = anchor;
      if (i < resume) {
        continue;
      }
      const Token& token = m_tokens[i];
      if (token.kind == TokenKind::Identifier) {
        std::size_t end = i;
        if (m_stream.text_is(token, "import")) {
          end = parse_import(next(i));
        } else if (m_stream.text_is(token, "from")) {
          end = parse_from_import(next(i)).value_or(i);
        }
        if (end == i && !follows_dot(i)) {
          end = parse_chain(i);
        }
        resume = end;
      } else if (token.kind == TokenKind::Punct && starts_statement(i) && is_ident(next(i))) {
        resume = parse_decorator(next(i));  // `@` opening a logical line
      }
    }
    return std::move(m_facts);
  }

 private:
  // The first index at or after i that is not a comment.
  std::size_t sig(std::size_t i) const {
    while (i < m_count && m_tokens[i].kind == TokenKind::Comment) {
      ++i;
    }
    return i;
  }
  std::size_t next(std::size_t i) const { return sig(i + 1); }
  // The first index before i that is not a comment, or SIZE_MAX.
  std::size_t previous(std::size_t i) const {
    while (i > 0) {
      --i;
      if (m_tokens[i].kind != TokenKind::Comment) {
        return i;
      }
    }
    return SIZE_MAX;
  }
  // Token i is the first of a statement: at the start of the file, a logical line or after `;`.
  bool starts_statement(std::size_t i) const {
    const std::size_t before = previous(i);
    return before == SIZE_MAX || m_tokens[before].kind == TokenKind::Newline ||
           is_punct(before, ";");
  }
  // Token i follows a `.` (an attribute, not the start of a chain).
  bool follows_dot(std::size_t i) const {
    const std::size_t before = previous(i);
    return before != SIZE_MAX && is_punct(before, ".");
  }
  std::string_view text(std::size_t i) const { return m_stream.text(m_tokens[i]); }
  bool is_ident(std::size_t i) const {
    return i < m_count && m_tokens[i].kind == TokenKind::Identifier;
  }
  bool is_name(std::size_t i, std::string_view name) const {
    return is_ident(i) && m_stream.text_is(m_tokens[i], name);
  }
  bool is_punct(std::size_t i, std::string_view punct) const {
    return i < m_count && m_tokens[i].kind == TokenKind::Punct &&
           m_stream.text_is(m_tokens[i], punct);
  }
  std::uint32_t column(std::size_t i) const { return m_stream.column(m_tokens[i]); }

  // Reads `name(.name)*` from i into *out (when not null); returns the index after it (i when
  // there is none).
  std::size_t read_dotted(std::size_t i, std::string* out) const {
    if (!is_ident(i)) {
      return i;
    }
    if (out != nullptr) {
      out->append(text(i));
    }
    std::size_t j = next(i);
    while (is_punct(j, ".") && is_ident(next(j))) {
      j = next(j);
      if (out != nullptr) {
        out->push_back('.');
        out->append(text(j));
      }
      j = next(j);
    }
    return j;
  }

  bool keeps_chain_from(std::string_view root) const {
    return m_chain_roots.empty() ||
           std::find(m_chain_roots.begin(), m_chain_roots.end(), root) != m_chain_roots.end();
  }

  // Skips `as alias` if present.
  std::size_t skip_alias(std::size_t i) const {
    if (is_name(i, "as") && is_ident(next(i))) {
      return next(next(i));
    }
    return i;
  }

  // `import a.b [as x], c ...` from the first name; stops at the first token that does not fit.
  std::size_t parse_import(std::size_t i) {
    while (true) {
      PythonImport entry;
      const std::size_t after = read_dotted(i, &entry.module);
      if (after == i) {
        return i;
      }
      entry.line = m_tokens[i].line;
      m_facts.imports.push_back(std::move(entry));
      i = skip_alias(after);
      if (!is_punct(i, ",")) {
        return i;
      }
      i = next(i);
    }
  }

  // `from [dots]module import names`; nullopt when the tokens are not an import (`yield from`).
  std::optional<std::size_t> parse_from_import(std::size_t i) {
    std::string module;
    while (is_punct(i, ".") || is_punct(i, "...")) {
      module.append(text(i));
      i = next(i);
    }
    if (!is_name(i, "import")) {
      i = read_dotted(i, &module);
    }
    if (module.empty() || !is_name(i, "import")) {
      return std::nullopt;
    }
    i = next(i);
    const bool parenthesized = is_punct(i, "(");
    if (parenthesized) {
      i = next(i);
    }
    while (true) {
      if (is_ident(i) || is_punct(i, "*")) {
        PythonImport entry;
        entry.module = module;
        entry.name = std::string(text(i));
        entry.line = m_tokens[i].line;
        m_facts.imports.push_back(std::move(entry));
        i = skip_alias(next(i));
      }
      if (!is_punct(i, ",")) {
        break;
      }
      i = next(i);
    }
    if (parenthesized && is_punct(i, ")")) {
      i = next(i);
    }
    return i;
  }

  // After '@' at the start of a logical line: the decorator's dotted name.
  std::size_t parse_decorator(std::size_t i) {
    PythonDotted entry;
    const std::size_t after = read_dotted(i, &entry.name);
    entry.line = m_tokens[i].line;
    entry.column = column(i);
    m_facts.decorators.push_back(std::move(entry));
    return after;
  }

  // A maximal `a.b.c` chain from i (an identifier not preceded by '.'); returns the index
  // after it, which is i + 1 (or the next non-comment) for a lone name.
  std::size_t parse_chain(std::size_t i) {
    const std::size_t first = next(i);
    if (!(is_punct(first, ".") && is_ident(next(first)))) {
      return first;
    }
    if (!keeps_chain_from(text(i))) {
      return read_dotted(i, nullptr);
    }
    PythonDotted entry;
    const std::size_t after = read_dotted(i, &entry.name);
    entry.line = m_tokens[i].line;
    entry.column = column(i);
    m_facts.attribute_chains.push_back(std::move(entry));
    return after;
  }

  const TokenStream& m_stream;
  // The tokens' data, not the vector: reading through a vector reference reloads its data
  // pointer at every access (the facts' pushes could, for the compiler, have changed it).
  const Token* m_tokens;
  std::size_t m_count;
  std::span<const std::string_view> m_chain_roots;
  PythonFacts m_facts;
};

}  // namespace

PythonFacts extract_python_facts(const TokenStream& tokens, const PythonFactsOptions& options) {
  return FactsBuilder(tokens, options).run();
}

}  // namespace gpuport
