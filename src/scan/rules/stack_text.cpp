// Small ASCII text helpers shared by the stack rule families, and line-based findings.
#include <algorithm>

#include "scan/rules/catalog.h"
#include "scan/rules/stack_rules.h"

namespace gpuport {

namespace {

bool is_name_char(char c, bool dash_is_name) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         (dash_is_name && c == '-');
}

}  // namespace

std::size_t find_word(std::string_view hay, std::string_view needle, std::size_t from) {
  if (needle.empty()) {
    return std::string_view::npos;
  }
  const bool dash = needle.find('-') != std::string_view::npos;
  const bool check_before = is_name_char(needle.front(), dash) || needle.front() == '-';
  const bool check_after = is_name_char(needle.back(), dash);
  std::size_t pos = hay.find(needle, from);
  while (pos != std::string_view::npos) {
    const bool before_ok = !check_before || pos == 0 || !is_name_char(hay[pos - 1], true);
    const std::size_t end = pos + needle.size();
    const bool after_ok = !check_after || end >= hay.size() || !is_name_char(hay[end], dash);
    if (before_ok && after_ok) {
      return pos;
    }
    pos = hay.find(needle, pos + 1);
  }
  return std::string_view::npos;
}

std::string_view python_string_content(std::string_view text) {
  std::size_t i = 0;
  while (i < text.size() && text[i] != '"' && text[i] != '\'') {
    ++i;  // prefix letters: r, b, u, f, rb, ...
  }
  if (i >= text.size()) {
    return {};
  }
  const char quote = text[i];
  std::size_t quote_len = 1;
  if (text.size() >= i + 3 && text[i + 1] == quote && text[i + 2] == quote) {
    quote_len = 3;
  }
  std::string_view body = text.substr(i + quote_len);
  // Unterminated strings have no closing quotes; strip them only when present.
  if (body.size() >= quote_len && std::all_of(body.end() - static_cast<std::ptrdiff_t>(quote_len),
                                              body.end(), [&](char c) { return c == quote; })) {
    body.remove_suffix(quote_len);
  }
  return body;
}

std::string_view base_name(std::string_view path) {
  const std::size_t slash = path.find_last_of('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

bool holds_cuda_kernel_source(std::string_view content) {
  std::size_t pos = find_word(content, "__global__");
  while (pos != std::string_view::npos) {
    std::string_view after = content.substr(pos + 10, 80);
    if (find_word(after, "void") != std::string_view::npos) {
      return true;
    }
    pos = find_word(content, "__global__", pos + 10);
  }
  return false;
}

}  // namespace gpuport
