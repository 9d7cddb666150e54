// Imports, decorators and attribute chains of a Python file, taken from its tokens in one pass.
#include <algorithm>
#include <optional>

#include "lex/python_lexer.h"

namespace gpuport {
namespace {

class FactsBuilder {
 public:
  explicit FactsBuilder(const TokenStream& stream) : m_stream(stream) {
    // Comments carry no syntax: work on the other tokens only.
    m_sig.reserve(stream.tokens.size());
    for (std::uint32_t i = 0; i < stream.tokens.size(); ++i) {
      if (stream.tokens[i].kind != TokenKind::Comment) {
        m_sig.push_back(i);
      }
    }
    m_facts.imports.reserve(16);
    m_facts.decorators.reserve(8);
    m_facts.attribute_chains.reserve(std::min<std::size_t>(m_sig.size() / 8 + 8, 4096));
  }

  PythonFacts run() {
    const std::size_t n = m_sig.size();
    bool at_statement_start = true;
    std::size_t i = 0;
    while (i < n) {
      const Token& token = tok(i);
      if (token.kind == TokenKind::Newline || is_punct(i, ";")) {
        at_statement_start = true;
        ++i;
        continue;
      }
      const bool statement_start = at_statement_start;
      at_statement_start = false;
      if (is_name(i, "import")) {
        i = parse_import(i + 1);
        continue;
      }
      if (is_name(i, "from")) {
        if (std::optional<std::size_t> next = parse_from_import(i + 1)) {
          i = *next;
          continue;
        }
      }
      if (statement_start && is_punct(i, "@") && is_ident(i + 1)) {
        i = parse_decorator(i + 1);
        continue;
      }
      if (token.kind == TokenKind::Identifier && !(i > 0 && is_punct(i - 1, "."))) {
        i = parse_chain(i);
        continue;
      }
      ++i;
    }
    return std::move(m_facts);
  }

 private:
  const Token& tok(std::size_t i) const { return m_stream.tokens[m_sig[i]]; }
  std::string_view text(std::size_t i) const { return m_stream.text(tok(i)); }
  bool is_ident(std::size_t i) const {
    return i < m_sig.size() && tok(i).kind == TokenKind::Identifier;
  }
  bool is_name(std::size_t i, std::string_view name) const {
    return is_ident(i) && text(i) == name;
  }
  bool is_punct(std::size_t i, std::string_view punct) const {
    return i < m_sig.size() && tok(i).kind == TokenKind::Punct && text(i) == punct;
  }

  // Reads `name(.name)*` from i into out; returns the index after it (i when there is none).
  std::size_t read_dotted(std::size_t i, std::string& out) const {
    if (!is_ident(i)) {
      return i;
    }
    out.append(text(i));
    std::size_t j = i + 1;
    while (is_punct(j, ".") && is_ident(j + 1)) {
      out.push_back('.');
      out.append(text(j + 1));
      j += 2;
    }
    return j;
  }

  // Skips `as alias` if present.
  std::size_t skip_alias(std::size_t i) const {
    if (is_name(i, "as") && is_ident(i + 1)) {
      return i + 2;
    }
    return i;
  }

  // `import a.b [as x], c ...` from the first name; stops at the first token that does not fit.
  std::size_t parse_import(std::size_t i) {
    while (true) {
      PythonImport entry;
      const std::size_t next = read_dotted(i, entry.module);
      if (next == i) {
        return i;
      }
      entry.line = tok(i).line;
      m_facts.imports.push_back(std::move(entry));
      i = skip_alias(next);
      if (!is_punct(i, ",")) {
        return i;
      }
      ++i;
    }
  }

  // `from [dots]module import names`; nullopt when the tokens are not an import (`yield from`).
  std::optional<std::size_t> parse_from_import(std::size_t i) {
    std::string module;
    while (is_punct(i, ".") || is_punct(i, "...")) {
      module.append(text(i));
      ++i;
    }
    if (!is_name(i, "import")) {
      i = read_dotted(i, module);
    }
    if (module.empty() || !is_name(i, "import")) {
      return std::nullopt;
    }
    ++i;
    const bool parenthesized = is_punct(i, "(");
    if (parenthesized) {
      ++i;
    }
    while (true) {
      if (is_ident(i) || is_punct(i, "*")) {
        PythonImport entry;
        entry.module = module;
        entry.name = std::string(text(i));
        entry.line = tok(i).line;
        m_facts.imports.push_back(std::move(entry));
        i = skip_alias(i + 1);
      }
      if (!is_punct(i, ",")) {
        break;
      }
      ++i;
    }
    if (parenthesized && is_punct(i, ")")) {
      ++i;
    }
    return i;
  }

  // After '@' at the start of a logical line: the decorator's dotted name.
  std::size_t parse_decorator(std::size_t i) {
    PythonDotted entry;
    const std::size_t next = read_dotted(i, entry.name);
    entry.line = tok(i).line;
    entry.column = m_stream.column(tok(i));
    m_facts.decorators.push_back(std::move(entry));
    return next;
  }

  // A maximal `a.b.c` chain from i (an identifier not preceded by '.').
  std::size_t parse_chain(std::size_t i) {
    std::size_t j = i + 1;
    while (is_punct(j, ".") && is_ident(j + 1)) {
      j += 2;
    }
    if (j == i + 1) {
      return j;
    }
    PythonDotted entry;
    read_dotted(i, entry.name);
    entry.line = tok(i).line;
    entry.column = m_stream.column(tok(i));
    m_facts.attribute_chains.push_back(std::move(entry));
    return j;
  }

  const TokenStream& m_stream;
  std::vector<std::uint32_t> m_sig;
  PythonFacts m_facts;
};

}  // namespace

PythonFacts extract_python_facts(const TokenStream& tokens) { return FactsBuilder(tokens).run(); }

}  // namespace gpuport
