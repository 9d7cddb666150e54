// Comment-skipping neighbours, bracket matching and argument splitting over a token stream.
#include "hipify/token_walk.h"

#include <algorithm>

namespace gpuport {

namespace {

enum class Bracket : std::uint8_t { None, Paren, Square, Brace, Launch };

struct BracketSide {
  Bracket bracket = Bracket::None;
  bool opens = false;
};

BracketSide bracket_of(const TokenStream& ts, const Token& token) {
  if (token.kind == TokenKind::LaunchOpen) {
    return {Bracket::Launch, true};
  }
  if (token.kind == TokenKind::LaunchClose) {
    return {Bracket::Launch, false};
  }
  if (token.kind != TokenKind::Punct || token.length != 1) {
    return {};
  }
  switch (ts.source[token.offset]) {
    case '(':
      return {Bracket::Paren, true};
    case ')':
      return {Bracket::Paren, false};
    case '[':
      return {Bracket::Square, true};
    case ']':
      return {Bracket::Square, false};
    case '{':
      return {Bracket::Brace, true};
    case '}':
      return {Bracket::Brace, false};
    default:
      return {};
  }
}

}  // namespace

std::size_t prev_code(const TokenStream& ts, std::size_t i) {
  i = std::min(i, ts.tokens.size());  // from past the end (k_no_token too): the last token
  while (i > 0) {
    --i;
    if (ts.tokens[i].kind != TokenKind::Comment) {
      return i;
    }
  }
  return k_no_token;
}

std::size_t next_code(const TokenStream& ts, std::size_t i) {
  for (++i; i < ts.tokens.size(); ++i) {
    if (ts.tokens[i].kind != TokenKind::Comment) {
      return i;
    }
  }
  return k_no_token;
}

BracketMatch::BracketMatch(const TokenStream& ts) : m_partner(ts.tokens.size(), k_unmatched) {
  struct Open {
    std::uint32_t token;
    Bracket bracket;
  };
  std::vector<Open> stack;
  std::size_t floor = 0;  // inside a directive, brackets below this belong to the code around it
  for (std::size_t i = 0; i < ts.tokens.size(); ++i) {
    const Token& token = ts.tokens[i];
    if (token.kind == TokenKind::DirectiveStart) {
      floor = stack.size();
      continue;
    }
    if (token.kind == TokenKind::DirectiveEnd) {
      stack.resize(floor);
      floor = 0;
      continue;
    }
    BracketSide side = bracket_of(ts, token);
    if (side.bracket == Bracket::None) {
      continue;
    }
    if (side.opens) {
      stack.push_back({static_cast<std::uint32_t>(i), side.bracket});
      continue;
    }
    // A closer pairs with the nearest open bracket of its kind; brackets left open in between
    // stay unmatched. A closer with no such opener is ignored.
    for (std::size_t depth = stack.size(); depth > floor; --depth) {
      if (stack[depth - 1].bracket == side.bracket) {
        m_partner[stack[depth - 1].token] = static_cast<std::uint32_t>(i);
        stack.resize(depth - 1);
        break;
      }
    }
  }
}

std::vector<TokenRange> split_top_level(const TokenStream& ts, const BracketMatch& match,
                                        std::size_t open, std::size_t close,
                                        std::size_t max_parts) {
  std::vector<TokenRange> parts;
  TokenRange part;
  auto finish = [&](std::size_t separator) {
    // Trim comments at both ends of [part.first, separator).
    std::size_t first = part.first;
    std::size_t last = separator;  // one past the end
    while (first < last && ts.tokens[first].kind == TokenKind::Comment) {
      ++first;
    }
    while (last > first && ts.tokens[last - 1].kind == TokenKind::Comment) {
      --last;
    }
    parts.push_back(first < last ? TokenRange{first, last - 1} : TokenRange{});
  };
  part.first = open + 1;
  for (std::size_t i = open + 1; i < close && parts.size() < max_parts; ++i) {
    std::size_t partner = match.closing(i);
    if (partner != k_no_token && partner < close) {
      i = partner;
      continue;
    }
    if (is_punct(ts, i, ",")) {
      finish(i);
      part.first = i + 1;
    }
  }
  if (parts.size() < max_parts) {
    finish(close);
  }
  return parts;
}

}  // namespace gpuport

namespace gpuport {

std::optional<std::size_t> count_arguments(const TokenStream& ts, std::size_t open) {
  if (!is_punct(ts, open, "(")) {
    return std::nullopt;
  }
  const bool directive = ts.tokens[open].in_directive();
  std::size_t depth = 0;
  std::size_t commas = 0;
  bool empty = true;
  for (std::size_t i = open + 1; i < ts.tokens.size(); ++i) {
    const Token& token = ts.tokens[i];
    if (token.kind == TokenKind::DirectiveStart ||
        (token.kind == TokenKind::DirectiveEnd && directive)) {
      return std::nullopt;  // the call runs across a directive: arguments not countable here
    }
    if (token.kind == TokenKind::Comment || token.kind == TokenKind::DirectiveEnd) {
      continue;
    }
    const std::string_view text = ts.text(token);
    if (token.kind == TokenKind::Punct) {
      if (text == "(" || text == "[" || text == "{") {
        ++depth;
      } else if (text == ")" || text == "]" || text == "}") {
        if (depth == 0) {
          return text == ")" ? std::optional<std::size_t>(empty ? 0 : commas + 1) : std::nullopt;
        }
        --depth;
      } else if (text == ";") {
        return std::nullopt;
      } else if (text == "," && depth == 0) {
        ++commas;
      }
    }
    empty = false;
  }
  return std::nullopt;
}

}  // namespace gpuport
