// libFuzzer target: the Python lexer and facts, the notebook reader and every config reader
// on the same bytes, aborting when an invariant of their output breaks.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "lex/config_reader.h"
#include "lex/notebook.h"
#include "lex/python_lexer.h"

namespace {

using namespace gpuport;

void check(bool condition) {
  if (!condition) {
    std::abort();
  }
}

std::uint32_t count_lines(std::string_view text) {
  return static_cast<std::uint32_t>(std::count(text.begin(), text.end(), '\n')) + 1;
}

// Tokens are ordered, do not overlap, stay inside the source and know their line.
void check_stream(const TokenStream& stream, std::string_view source) {
  check(stream.source.data() == source.data() && stream.source.size() == source.size());
  check(!stream.line_starts.empty() && stream.line_starts[0] == 0);
  check(stream.line_starts.size() == count_lines(source));
  for (std::size_t i = 1; i < stream.line_starts.size(); ++i) {
    check(stream.line_starts[i] > stream.line_starts[i - 1]);
    check(source[stream.line_starts[i] - 1] == '\n');
  }
  std::uint64_t previous_end = 0;
  std::uint32_t previous_line = 1;
  for (const Token& token : stream.tokens) {
    check(token.offset >= previous_end);
    check(std::uint64_t{token.offset} + token.length <= source.size());
    check(token.line >= previous_line);
    check(token.line == stream.line_of(token.offset));
    check(stream.column(token) == stream.column_of(token.offset));
    check(token.kind == TokenKind::Newline || token.length > 0);
    previous_end = std::uint64_t{token.offset} + token.length;
    previous_line = token.line;
  }
  for (const LexDiagnostic& diagnostic : stream.diagnostics) {
    check(diagnostic.line >= 1 && diagnostic.line <= stream.line_starts.size());
    check(diagnostic.column >= 1 && !diagnostic.message.empty());
  }
  // The anchors are exactly the identifiers, the strings and the `@` operators, in order.
  std::size_t next_anchor = 0;
  for (std::size_t i = 0; i < stream.tokens.size(); ++i) {
    const Token& token = stream.tokens[i];
    const bool anchor = token.kind == TokenKind::Identifier || token.kind == TokenKind::String ||
                        (token.kind == TokenKind::Punct && stream.text(token) == "@");
    const bool listed = next_anchor < stream.anchors.size() && stream.anchors[next_anchor] == i;
    check(anchor == listed);
    next_anchor += listed ? 1 : 0;
  }
  check(next_anchor == stream.anchors.size());
}

void check_facts(const PythonFacts& facts, const TokenStream& stream) {
  const std::size_t lines = stream.line_starts.size();
  for (const PythonImport& entry : facts.imports) {
    check(!entry.module.empty() && entry.line >= 1 && entry.line <= lines);
  }
  for (const auto* list : {&facts.decorators, &facts.attribute_chains}) {
    for (const PythonDotted& entry : *list) {
      check(!entry.name.empty() && entry.line >= 1 && entry.line <= lines && entry.column >= 1);
    }
  }
  for (const PythonDotted& entry : facts.attribute_chains) {
    check(entry.name.find('.') != std::string::npos);
  }
}

void check_notebook(std::string_view json) {
  auto result = extract_notebook_code(json);
  const std::uint32_t json_lines = count_lines(json);
  if (!result) {
    check(result.error().line >= 1 && result.error().line <= json_lines);
    check(result.error().column >= 1 && result.error().column <= json.size() + 1);
    check(!result.error().message.empty());
    return;
  }
  const NotebookCode& code = *result;
  check(code.python.empty() || code.python.back() == '\n');
  check(code.file_line.size() == count_lines(code.python) - 1);
  std::uint32_t previous = 1;
  for (std::uint32_t line : code.file_line) {
    check(line >= previous && line <= json_lines);
    previous = line;
  }
  TokenStream stream;
  lex_python(code.python, stream);
  check_stream(stream, code.python);
  for (const Token& token : stream.tokens) {
    // Every code line maps back into the notebook (the final zero-length Newline may sit on
    // the empty line after the last '\n').
    if (token.length > 0) {
      check(token.line >= 1 && token.line <= code.file_line.size());
    }
  }
  check_facts(extract_python_facts(stream), stream);
}

void check_config(std::string_view source) {
  const std::uint32_t lines = count_lines(source);
  for (Language language : {Language::CMake, Language::Packaging, Language::Docker, Language::Shell,
                            Language::Yaml, Language::Other}) {
    std::uint32_t previous = 0;
    for (const ConfigLine& line : read_config_lines(source, language)) {
      check(line.line > previous && line.line <= lines);
      check(!line.text.empty());
      check(line.text.front() != ' ' && line.text.back() != ' ');
      check(line.text.find('\n') == std::string::npos);
      previous = line.line;
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view source(reinterpret_cast<const char*>(data), size);
  TokenStream stream;
  lex_python(source, stream);
  check_stream(stream, source);
  check_facts(extract_python_facts(stream), stream);
  check_notebook(source);
  check_config(source);
  return 0;
}
