// Token navigation for the rewriting passes: neighbours that skip comments, bracket partners and
// top-level comma splitting.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "lex/token.h"

namespace gpuport {

inline constexpr std::size_t k_no_token = static_cast<std::size_t>(-1);

inline bool is_punct(const TokenStream& ts, std::size_t i, std::string_view text) {
  return i < ts.tokens.size() && ts.tokens[i].kind == TokenKind::Punct &&
         ts.text(ts.tokens[i]) == text;
}
inline bool is_identifier(const TokenStream& ts, std::size_t i, std::string_view text) {
  return i < ts.tokens.size() && ts.tokens[i].kind == TokenKind::Identifier &&
         ts.text(ts.tokens[i]) == text;
}
inline std::uint32_t end_of(const Token& token) {
  return token.offset + token.length;
}

// The name of a directive from its DirectiveStart text: "#  include" -> "include".
inline std::string_view directive_name(std::string_view directive_start) {
  directive_start.remove_prefix(1);  // '#'
  while (!directive_start.empty() &&
         (directive_start.front() == ' ' || directive_start.front() == '\t')) {
    directive_start.remove_prefix(1);
  }
  return directive_start;
}

// The nearest token before / after `i` that is not a comment; k_no_token when none.
std::size_t prev_code(const TokenStream& ts, std::size_t i);
std::size_t next_code(const TokenStream& ts, std::size_t i);

// Partners of (), [], {} and <<< >>>, computed in one pass with a stack. Brackets inside a
// directive pair only with brackets of the same directive.
class BracketMatch {
 public:
  explicit BracketMatch(const TokenStream& ts);
  // The closing partner of an opening bracket token; k_no_token when unmatched.
  std::size_t closing(std::size_t open) const {
    return open < m_partner.size() && m_partner[open] != k_unmatched ? m_partner[open] : k_no_token;
  }

 private:
  static constexpr std::uint32_t k_unmatched = UINT32_MAX;
  std::vector<std::uint32_t> m_partner;
};

// Tokens [first, last] of one comma-separated part, comments at either end left out;
// empty() when the part holds only comments or nothing.
struct TokenRange {
  std::size_t first = 1;
  std::size_t last = 0;
  bool empty() const { return first > last; }
};

// The parts between the bracket `open` and its partner `close`, split at commas outside nested
// brackets; stops after `max_parts` parts. Angle brackets are not brackets here: callers reject
// parts that hold `<` or `>` where that matters.
std::vector<TokenRange> split_top_level(const TokenStream& ts, const BracketMatch& match,
                                        std::size_t open, std::size_t close,
                                        std::size_t max_parts = SIZE_MAX);

// The number of arguments of the call whose `(` is token `open`, counted at top-level commas
// without a BracketMatch (0 for `()`); nullopt when the list does not close before a `;` or a
// preprocessor directive boundary, or `open` is no `(`.
std::optional<std::size_t> count_arguments(const TokenStream& ts, std::size_t open);

}  // namespace gpuport
