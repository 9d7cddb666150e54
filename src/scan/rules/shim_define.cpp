#include "scan/rules/shim_define.h"

#include <string_view>

namespace gpuport {

namespace {

std::size_t next_code(const TokenStream& ts, std::size_t i) {
  std::size_t j = i + 1;
  while (j < ts.tokens.size() && ts.tokens[j].kind == TokenKind::Comment) {
    ++j;
  }
  return j;
}

bool is_cuda_name(std::string_view name) {
  return name.starts_with("cu") || name.starts_with("CU") || name.starts_with("__shfl") ||
         name.starts_with("nccl") || name.starts_with("__nv");
}

bool is_hip_name(std::string_view name, std::string_view from) {
  return name.starts_with("hip") || name.starts_with("HIP") || name.starts_with("roc") ||
         name.starts_with("rccl") || name.starts_with("__hip") ||
         (from.starts_with("__shfl") && name.starts_with("__shfl"));
}

}  // namespace

bool is_shim_define(const TokenStream& ts, std::size_t directive) {
  const std::size_t size = ts.tokens.size();
  const std::size_t name = next_code(ts, directive);
  if (name >= size || ts.tokens[name].kind != TokenKind::Identifier) {
    return false;
  }
  const std::string_view from = ts.text(ts.tokens[name]);
  if (!is_cuda_name(from)) {
    return false;
  }
  std::size_t to = next_code(ts, name);
  // A function-like macro: its parameter list, then the replacement.
  if (to < size && ts.tokens[to].kind == TokenKind::Punct && ts.text(ts.tokens[to]) == "(" &&
      ts.tokens[to].offset == ts.tokens[name].offset + ts.tokens[name].length) {
    constexpr std::size_t k_longest_parameter_list = 64;
    std::size_t close = to + 1;
    while (close < size && close < to + k_longest_parameter_list &&
           ts.tokens[close].kind != TokenKind::DirectiveEnd &&
           !(ts.tokens[close].kind == TokenKind::Punct && ts.text(ts.tokens[close]) == ")")) {
      ++close;
    }
    if (close >= size || ts.tokens[close].kind != TokenKind::Punct ||
        ts.text(ts.tokens[close]) != ")") {
      return false;
    }
    to = next_code(ts, close);
  }
  return to < size && ts.tokens[to].kind == TokenKind::Identifier &&
         is_hip_name(ts.text(ts.tokens[to]), from);
}

std::size_t count_shim_defines(const TokenStream& ts) {
  std::size_t count = 0;
  for (std::size_t i = 0; i < ts.tokens.size(); ++i) {
    const Token& token = ts.tokens[i];
    if (token.kind == TokenKind::DirectiveStart) {
      const std::string_view text = ts.text(token);
      // "#define", "# define": the directive's name is its last word.
      if (text.ends_with("define") && is_shim_define(ts, i)) {
        ++count;
      }
    }
  }
  return count;
}

}  // namespace gpuport
