// Structural checks every C/C++/CUDA token stream must pass; shared by tests and the fuzzer.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "lex/token.h"

namespace gpuport {

// Returns "" when `out` is consistent with `out.source`, else the first violation found.
inline std::string check_token_invariants(const TokenStream& out) {
  const std::string_view source = out.source;
  if (out.line_starts.empty() || out.line_starts[0] != 0) {
    return "line_starts must begin with 0";
  }
  std::size_t newlines = 0;
  for (char c : source) {
    newlines += c == '\n' ? 1 : 0;
  }
  if (out.line_starts.size() != newlines + 1) {
    return "line_starts must hold one entry per newline plus one";
  }
  for (std::size_t i = 1; i < out.line_starts.size(); ++i) {
    std::uint32_t start = out.line_starts[i];
    if (start <= out.line_starts[i - 1] || start > source.size() || source[start - 1] != '\n') {
      return "line_starts[" + std::to_string(i) + "] does not follow a newline";
    }
  }
  std::uint64_t previous_end = 0;
  std::uint32_t previous_line = 1;
  bool in_directive = false;
  for (std::size_t i = 0; i < out.tokens.size(); ++i) {
    const Token& token = out.tokens[i];
    auto where = [i] { return "token " + std::to_string(i) + ": "; };
    std::uint64_t end = std::uint64_t{token.offset} + token.length;
    if (end > source.size()) {
      return where() + "runs past the end of the source";
    }
    if (token.offset < previous_end) {
      return where() + "overlaps or precedes the previous token";
    }
    if (token.line < previous_line) {
      return where() + "line goes backwards";
    }
    if (token.line != out.line_of(token.offset)) {
      return where() + "line does not match line_starts";
    }
    if (out.column(token) != out.column_of(token.offset)) {
      return where() + "column(token) differs from column_of(offset)";
    }
    if (token.length == 0 && token.kind != TokenKind::DirectiveEnd) {
      return where() + "empty token";
    }
    if (token.kind == TokenKind::DirectiveStart) {
      if (in_directive || source[token.offset] != '#') {
        return where() + "bad DirectiveStart";
      }
      in_directive = true;
    }
    if (token.in_directive() != in_directive) {
      return where() + "k_token_in_directive does not match the directive bounds";
    }
    if (token.kind == TokenKind::DirectiveEnd) {
      if (!in_directive || token.length != 0 ||
          (token.offset != source.size() && source[token.offset] != '\n')) {
        return where() + "bad DirectiveEnd";
      }
      in_directive = false;
    }
    previous_end = end;
    previous_line = token.line;
  }
  if (in_directive) {
    return "directive without DirectiveEnd";
  }
  // The anchors are exactly the Identifier, Number, LaunchOpen and DirectiveStart tokens
  // outside dead code.
  std::size_t next_anchor = 0;
  for (std::size_t i = 0; i < out.tokens.size(); ++i) {
    const TokenKind kind = out.tokens[i].kind;
    const bool anchor = (kind == TokenKind::Identifier || kind == TokenKind::Number ||
                         kind == TokenKind::LaunchOpen || kind == TokenKind::DirectiveStart) &&
                        out.tokens[i].context != BranchContext::Dead;
    const bool listed = next_anchor < out.anchors.size() && out.anchors[next_anchor] == i;
    if (anchor != listed) {
      return "token " + std::to_string(i) + ": " +
             (anchor ? "missing from anchors" : "listed as an anchor");
    }
    next_anchor += listed ? 1 : 0;
  }
  if (next_anchor != out.anchors.size()) {
    return "anchors past the last token or out of order";
  }
  // first_hip_token names the first token in a HIP-only branch.
  std::uint32_t first_hip = TokenStream::k_no_token;
  for (std::size_t i = 0; i < out.tokens.size(); ++i) {
    if (out.tokens[i].context == BranchContext::Hip) {
      first_hip = static_cast<std::uint32_t>(i);
      break;
    }
  }
  if (out.first_hip_token != first_hip) {
    return "first_hip_token is " + std::to_string(out.first_hip_token) + ", the first HIP token " +
           std::to_string(first_hip);
  }
  // The regions cover the tokens in order, and each token has its region's context and path.
  if (out.regions.empty() || out.regions.front().first_token != 0) {
    return "regions must start at token 0";
  }
  for (std::size_t r = 0; r < out.regions.size(); ++r) {
    const BranchRegion& region = out.regions[r];
    const std::size_t end =
        r + 1 < out.regions.size() ? out.regions[r + 1].first_token : out.tokens.size();
    if (region.first_token > end || end > out.tokens.size()) {
      return "region " + std::to_string(r) + " out of order";
    }
    if ((region.context == BranchContext::Dead) != (region.may_true == 0) ||
        (region.context == BranchContext::Dead && region.on_path)) {
      return "region " + std::to_string(r) + ": dead code must be off the path";
    }
    for (std::size_t i = region.first_token; i < end; ++i) {
      const Token& token = out.tokens[i];
      if (token.context != region.context ||
          ((token.flags & k_token_off_path) != 0) == region.on_path) {
        return "token " + std::to_string(i) + ": context or path differs from its region's";
      }
    }
  }
  // Each recorded directive spans its DirectiveStart .. DirectiveEnd tokens.
  for (const DirectiveRecord& record : out.directives) {
    if (record.first_token >= record.end_token || record.end_token > out.tokens.size() ||
        out.tokens[record.first_token].kind != TokenKind::DirectiveStart ||
        out.tokens[record.end_token - 1].kind != TokenKind::DirectiveEnd ||
        out.tokens[record.first_token].line != record.line ||
        std::uint64_t{record.text_offset} + record.text_length > source.size()) {
      return "directive record at line " + std::to_string(record.line) + " is inconsistent";
    }
  }
  for (const LexDiagnostic& diagnostic : out.diagnostics) {
    if (diagnostic.line == 0 || diagnostic.line > out.line_starts.size() ||
        diagnostic.column == 0 || diagnostic.message.empty()) {
      return "diagnostic with a bad position: " + diagnostic.message;
    }
  }
  return {};
}

}  // namespace gpuport
