// Kernel launch rewriting to hipLaunchKernelGGL, edit by edit, so the kernel name, the
// configuration expressions and the arguments keep their bytes (and their own renames).
#include "hipify/launch_rewrite.h"

#include <string>
#include <string_view>

namespace gpuport {

namespace {

constexpr std::size_t k_max_name_tokens = 256;

struct Launch {
  std::size_t name_first = 0;  // first token of the kernel expression
  std::size_t name_last = 0;
  bool templated = false;
  std::size_t open = 0;   // <<<
  std::size_t close = 0;  // >>>
  std::vector<TokenRange> config;
  std::size_t paren = 0;  // ( of the argument list
  bool empty_arguments = false;
};

bool is_hash(const TokenStream& ts, std::size_t i) {
  return is_punct(ts, i, "#") || is_punct(ts, i, "##");
}

// Keywords a statement may start with before `::k<<<...>>>`: not a namespace qualifier.
bool is_statement_keyword(std::string_view word) {
  return word == "return" || word == "else" || word == "do" || word == "case" ||
         word == "default" || word == "throw";
}

// Walks back over `name`, `ns::name`, `::name`, `name<T, 4>` and `(expr)`; returns the first
// token of the kernel expression, or k_no_token.
std::size_t kernel_expression_start(const TokenStream& ts, const BracketMatch& match,
                                    std::size_t last, bool& templated) {
  std::size_t i = last;
  if (is_punct(ts, i, ")")) {
    // A parenthesised callee, `(*fn)<<<...>>>`: find its opener.
    for (std::size_t j = i, steps = 0; j-- > 0 && steps < k_max_name_tokens; ++steps) {
      if (match.closing(j) == i) {
        std::size_t before = prev_code(ts, j);
        bool operand =
            before != k_no_token &&
            ((ts.tokens[before].kind == TokenKind::Identifier &&
              ts.text(ts.tokens[before]) != "return") ||
             is_punct(ts, before, ")") || is_punct(ts, before, "]") || is_punct(ts, before, ">"));
        return operand ? k_no_token : j;
      }
    }
    return k_no_token;
  }
  while (true) {
    if (is_punct(ts, i, ">") || is_punct(ts, i, ">>")) {
      // Template arguments: walk back to the matching '<'.
      int depth = 0;
      std::size_t steps = 0;
      for (;; --i) {
        if (++steps > k_max_name_tokens || ts.tokens[i].kind == TokenKind::Comment) {
          return k_no_token;
        }
        std::string_view t = ts.text(ts.tokens[i]);
        if (ts.tokens[i].kind == TokenKind::Punct) {
          if (t == ">") {
            depth += 1;
          } else if (t == ">>") {
            depth += 2;
          } else if (t == "<") {
            depth -= 1;
          } else if (t == ";" || t == "{" || t == "}" || t == "#" || t == "##") {
            return k_no_token;
          }
        } else if (ts.tokens[i].kind != TokenKind::Identifier &&
                   ts.tokens[i].kind != TokenKind::Number) {
          return k_no_token;
        }
        if (depth == 0 || i == 0) {
          break;
        }
      }
      if (depth != 0 || i == 0) {
        return k_no_token;
      }
      templated = true;
      i -= 1;  // the template's name
      if (ts.tokens[i].kind == TokenKind::Comment) {
        return k_no_token;
      }
    }
    if (ts.tokens[i].kind != TokenKind::Identifier) {
      return k_no_token;
    }
    // `ns::` or a leading `::` before the name.
    if (i == 0 || !is_punct(ts, i - 1, "::")) {
      return i;
    }
    const std::size_t colons = i - 1;
    // What precedes the `::`, comments skipped (`/* note */ ::k<<<...>>>` has a leading `::`).
    const std::size_t b = prev_code(ts, colons);
    if (b == k_no_token) {
      return colons;
    }
    const Token& before = ts.tokens[b];
    if (before.kind == TokenKind::Identifier && !is_statement_keyword(ts.text(before))) {
      i = b;
      continue;
    }
    // `Outer<T>::k`, `f()::k`: not a kernel name this pass can delimit. Else a leading `::`.
    bool operand =
        before.kind == TokenKind::Punct && (is_punct(ts, b, ">") || is_punct(ts, b, ">>") ||
                                            is_punct(ts, b, ")") || is_punct(ts, b, "]"));
    return operand ? k_no_token : colons;
  }
}

bool delimit(const TokenStream& ts, const BracketMatch& match, std::size_t open, Launch& launch) {
  launch.open = open;
  launch.close = match.closing(open);
  if (open == 0 || launch.close == k_no_token) {
    return false;
  }
  launch.name_last = open - 1;
  launch.name_first = kernel_expression_start(ts, match, launch.name_last, launch.templated);
  // `name##_kernel<<<...>>>`: the callee is assembled by a macro.
  if (launch.name_first == k_no_token || is_hash(ts, prev_code(ts, launch.name_first))) {
    return false;
  }
  launch.paren = launch.close + 1;
  if (!is_punct(ts, launch.paren, "(")) {
    return false;
  }
  std::size_t paren_close = match.closing(launch.paren);
  if (paren_close == k_no_token) {
    return false;
  }
  launch.empty_arguments = next_code(ts, launch.paren) == paren_close;
  launch.config = split_top_level(ts, match, open, launch.close, 5);
  if (launch.config.size() < 2 || launch.config.size() > 4) {
    return false;
  }
  // Every token of the rewritten gaps must be exactly the launch syntax: a comment there would
  // be lost, and # or ## means the parts are assembled by a macro.
  const bool in_directive = ts.tokens[open].in_directive();
  for (std::size_t i = launch.name_first; i <= launch.paren; ++i) {
    const Token& token = ts.tokens[i];
    if (token.kind == TokenKind::Comment || token.kind == TokenKind::DirectiveStart ||
        token.kind == TokenKind::DirectiveEnd || token.in_directive() != in_directive ||
        is_hash(ts, i)) {
      return false;
    }
  }
  for (const TokenRange& part : launch.config) {
    if (part.empty()) {
      return false;
    }
  }
  return ts.tokens[paren_close].in_directive() == in_directive;
}

// `dim3(...)` as a whole: no second wrapping.
bool is_dim3_call(const TokenStream& ts, const BracketMatch& match, const TokenRange& part) {
  return part.last > part.first && is_identifier(ts, part.first, "dim3") &&
         match.closing(part.first + 1) == part.last;
}

// The replacement of the gap between two kept parts: `prefix`, then `joiner` (or, when the gap
// spans lines, its line breaks and the indentation after the last one, so a multi-line launch
// keeps its line count), then `suffix`.
std::string gap_text(std::string_view prefix, std::string_view joiner, std::string_view suffix,
                     std::string_view gap) {
  std::string text(prefix);
  std::size_t indent_from = std::string_view::npos;
  for (std::size_t p = 0; p < gap.size(); ++p) {
    if (gap[p] != '\n') {
      continue;
    }
    std::size_t start = p;
    if (start > 0 && gap[start - 1] == '\r') {
      --start;
    }
    if (start > 0 && gap[start - 1] == '\\') {
      --start;  // a line splice inside a macro body
    }
    text.append(gap.substr(start, p + 1 - start));
    indent_from = p + 1;
  }
  if (indent_from == std::string_view::npos) {
    text += joiner;
  } else {
    std::size_t indent_end = indent_from;
    while (indent_end < gap.size() && (gap[indent_end] == ' ' || gap[indent_end] == '\t')) {
      ++indent_end;
    }
    text.append(gap.substr(indent_from, indent_end - indent_from));
  }
  text += suffix;
  return text;
}

void emit(FileTranslation& ft, const BracketMatch& match, const Launch& launch) {
  const TokenStream& ts = ft.ts;
  const auto& tok = ts.tokens;
  auto replace_gap = [&](std::uint32_t begin, std::uint32_t end, std::string_view prefix,
                         std::string_view joiner, std::string_view suffix) {
    std::string_view gap = ts.source.substr(begin, end - begin);
    ft.edits.replace(begin, end, ft.edits.own(gap_text(prefix, joiner, suffix, gap)));
  };
  const std::vector<TokenRange>& config = launch.config;
  bool wrap_grid = !is_dim3_call(ts, match, config[0]);
  bool wrap_block = !is_dim3_call(ts, match, config[1]);
  std::string_view dim3_open = "dim3(";

  ft.edits.insert(tok[launch.name_first].offset,
                  launch.templated ? "hipLaunchKernelGGL(HIP_KERNEL_NAME(" : "hipLaunchKernelGGL(");
  replace_gap(end_of(tok[launch.name_last]), tok[config[0].first].offset,
              launch.templated ? ")," : ",", " ", wrap_grid ? dim3_open : "");
  replace_gap(end_of(tok[config[0].last]), tok[config[1].first].offset, wrap_grid ? ")," : ",", " ",
              wrap_block ? dim3_open : "");
  std::string close = wrap_block ? ")" : "";
  if (config.size() >= 3) {
    replace_gap(end_of(tok[config[1].last]), tok[config[2].first].offset, close + ",", " ", "");
    close.clear();
  }
  if (config.size() == 4) {
    replace_gap(end_of(tok[config[2].last]), tok[config[3].first].offset, ",", " ", "");
  }
  // The shared-memory size and stream that were left out, then the arguments.
  close += config.size() == 2 ? ", 0, 0" : config.size() == 3 ? ", 0" : "";
  std::uint32_t after_paren = end_of(tok[launch.paren]);
  std::string_view joiner;
  if (!launch.empty_arguments) {
    close += ",";
    char next = after_paren < ts.source.size() ? ts.source[after_paren] : '\0';
    bool spaced = next == ' ' || next == '\t' || next == '\r' || next == '\n';
    joiner = spaced ? "" : " ";
  }
  replace_gap(end_of(tok[config.back().last]), after_paren, close, joiner, "");
}

}  // namespace

void rewrite_launches(FileTranslation& ft, const BracketMatch& match) {
  for (std::size_t open : ft.launches) {
    Launch launch;
    if (!delimit(ft.ts, match, open, launch)) {
      ++ft.stats.launches_not_rewritten;
      continue;
    }
    emit(ft, match, launch);
    ++ft.stats.launches_rewritten;
  }
}

}  // namespace gpuport
