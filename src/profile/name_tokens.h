// Tokens of a demangled C++ name (any demangler's spelling), with matched brackets, so the name's
// structure (return type, qualified name, template arguments, parameter lists) can be walked in
// linear time. Arbitrary bytes are accepted: unmatched brackets are plain punctuation.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace gpuport {

enum class NameTokenKind : std::uint8_t {
  Word,       // identifier or keyword (`at`, `unsigned`, `lambda`)
  Number,     // a literal starting with a digit (`4`, `2ul`)
  Anonymous,  // `(anonymous namespace)` or nsys's `<unnamed>`
  Operator,   // `operator()`, `operator<<`, `operator new`... (spaces inside removed)
  Scope,      // `::`
  Punct,      // any other single byte; brackets among them carry `match`
};

struct NameToken {
  NameTokenKind kind = NameTokenKind::Punct;
  bool space_before = false;  // whitespace separated it from the previous token
  std::string_view text;      // a view of the tokenized string (or a constant for Operator)
  std::size_t offset = 0;     // where the token starts in the tokenized string
  std::int32_t match = -1;    // index of the matching bracket for ( ) < > [ ] { }, else -1
};

// The tokens of `name`. `<` opens a template argument list only after a word or an operator
// name; `>` closes one only when a `<` is the innermost open bracket, so expressions such as
// `(((8)>(0)))` inside template arguments do not unbalance the nesting.
std::vector<NameToken> tokenize_name(std::string_view name);

bool is_open_bracket(const NameToken& token);   // a matched ( < [ {
bool is_close_bracket(const NameToken& token);  // a matched ) > ] }
bool is_word(const NameToken& token, std::string_view text);
bool is_punct(const NameToken& token, char c);

// Words that are part of a type or an expression, never a function name: `(` after them is not a
// parameter list (`void (int)`, `decltype(x)`).
bool is_keyword(std::string_view word);

}  // namespace gpuport
