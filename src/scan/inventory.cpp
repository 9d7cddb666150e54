// Kernel definitions, launch callees and explicit instantiations, read from C/C++/CUDA tokens.
#include "scan/inventory.h"

#include <algorithm>
#include <array>
#include <utility>

namespace gpuport {

namespace {

constexpr std::size_t k_signature_limit = 160;  // tokens from the marker to the parameter list
constexpr std::size_t k_body_limit = 4u << 20;  // tokens in one body (bounded, not recursive)

struct Cursor {
  const TokenStream& ts;
  bool is(std::size_t i, TokenKind kind, std::string_view text) const {
    return i < ts.tokens.size() && ts.tokens[i].kind == kind && ts.text_is(ts.tokens[i], text);
  }
  bool punct(std::size_t i, std::string_view text) const { return is(i, TokenKind::Punct, text); }
  bool ident(std::size_t i) const {
    return i < ts.tokens.size() && ts.tokens[i].kind == TokenKind::Identifier;
  }
  std::string_view text(std::size_t i) const {
    return i < ts.tokens.size() ? ts.text(ts.tokens[i]) : std::string_view{};
  }
  std::size_t size() const { return ts.tokens.size(); }
  std::size_t next(std::size_t i) const {
    std::size_t j = i + 1;
    while (j < size() && ts.tokens[j].kind == TokenKind::Comment) {
      ++j;
    }
    return j;
  }
  std::size_t prev(std::size_t i) const {
    while (i > 0) {
      --i;
      if (ts.tokens[i].kind != TokenKind::Comment) {
        return i;
      }
    }
    return SIZE_MAX;
  }
  // Matching closer of the bracket at `open`, staying inside the directive that holds it and,
  // across #if alternatives, on the one path brace matching follows (k_token_off_path).
  std::size_t match(std::size_t open, std::string_view opener, std::string_view closer) const {
    bool directive = ts.tokens[open].in_directive();
    const bool on_path = ts.has_off_path && !ts.tokens[open].off_path();
    // Tokens of a directive (when the bracket is not in one) and of the path not followed.
    const std::uint8_t skip = static_cast<std::uint8_t>((directive ? 0 : k_token_in_directive) |
                                                        (on_path ? k_token_off_path : 0));
    long depth = 0;
    for (std::size_t j = open; j < size() && j < open + k_body_limit; ++j) {
      const Token& t = ts.tokens[j];
      if (directive && t.kind == TokenKind::DirectiveEnd) {
        return SIZE_MAX;
      }
      if (t.kind != TokenKind::Punct || (t.flags & skip) != 0) {
        continue;
      }
      if (ts.text_is(t, opener)) {
        ++depth;
      } else if (ts.text_is(t, closer) && --depth == 0) {
        return j;
      } else if (opener == "<" && ts.text_is(t, ">>")) {
        depth -= 2;
        if (depth <= 0) {
          return j;
        }
      } else if (opener == "<" &&
                 (ts.text_is(t, ";") || ts.text_is(t, "{") || ts.text_is(t, "}"))) {
        return SIZE_MAX;
      }
    }
    return SIZE_MAX;
  }
  // Matching `<` of the `>` (or `>>`) at `close`, walking back.
  std::size_t match_back_angle(std::size_t close) const {
    long depth = 0;
    for (std::size_t j = close + 1; j-- > 0 && j + 256 > close;) {
      if (ts.tokens[j].kind != TokenKind::Punct) {
        continue;
      }
      std::string_view p = ts.text(ts.tokens[j]);
      if (p == ">") {
        ++depth;
      } else if (p == ">>") {
        depth += 2;
      } else if (p == "<") {
        if (--depth == 0) {
          return j;
        }
      } else if (p == ";" || p == "{" || p == "}") {
        return SIZE_MAX;
      }
    }
    return SIZE_MAX;
  }
};

bool is_attribute_with_arguments(std::string_view name) {
  return name == "__launch_bounds__" || name == "__cluster_dims__" || name == "__maxnreg__" ||
         name == "__attribute__" || name == "alignas" || name == "__declspec" ||
         name == "__align__" || name == "__launch_bounds" || name == "__grid_constant__" ||
         name == "C10_LAUNCH_BOUNDS_1" || name == "C10_LAUNCH_BOUNDS_0";
}

std::string collapse_spaces(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  bool space = false;
  for (char c : text) {
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\\') {
      space = !out.empty();
      continue;
    }
    if (space) {
      out.push_back(' ');
      space = false;
    }
    out.push_back(c);
  }
  return out;
}

std::string slice(const TokenStream& ts, std::size_t first, std::size_t last) {
  const Token& a = ts.tokens[first];
  const Token& b = ts.tokens[last];
  std::size_t begin = a.offset;
  std::size_t end = static_cast<std::size_t>(b.offset) + b.length;
  if (end < begin || end > ts.source.size()) {
    return {};
  }
  return collapse_spaces(ts.source.substr(begin, end - begin));
}

// The end of a body: its matching brace, else the last `}` before the next non-macro
// `__global__` (a brace lost in #if branches) or before the end of the file (or directive),
// else the last token before that point.
std::size_t body_end(const Cursor& c, std::size_t open) {
  bool directive = c.ts.tokens[open].in_directive();
  const bool on_path = c.ts.has_off_path && !c.ts.tokens[open].off_path();
  const std::uint8_t skip = static_cast<std::uint8_t>((directive ? 0 : k_token_in_directive) |
                                                      (on_path ? k_token_off_path : 0));
  long depth = 0;
  std::size_t last_close = SIZE_MAX;
  std::size_t end = std::min(c.size(), open + k_body_limit);
  for (std::size_t j = open; j < end; ++j) {
    const Token& t = c.ts.tokens[j];
    if ((directive && t.kind == TokenKind::DirectiveEnd) ||
        (t.kind == TokenKind::Identifier && j > open && !t.in_directive() &&
         c.ts.text_is(t, "__global__"))) {
      return last_close != SIZE_MAX ? last_close : j - 1;
    }
    if ((t.flags & skip) != 0) {
      continue;  // a directive, or another #if alternative: not this body's braces
    }
    if (t.kind != TokenKind::Punct) {
      continue;
    }
    if (c.ts.text_is(t, "{")) {
      ++depth;
    } else if (c.ts.text_is(t, "}")) {
      last_close = j;
      if (--depth == 0) {
        return j;
      }
    }
  }
  return last_close != SIZE_MAX ? last_close : end - 1;
}

// First token of a name that ends at `last`: `ns::name`, `NAME ## _kernel`.
std::size_t name_start(const Cursor& c, std::size_t last) {
  std::size_t begin = last;
  for (int steps = 0; steps < 16; ++steps) {
    std::size_t joiner = c.prev(begin);
    if (joiner == SIZE_MAX || !(c.punct(joiner, "##") || c.punct(joiner, "::"))) {
      break;
    }
    std::size_t part = c.prev(joiner);
    if (part == SIZE_MAX || !c.ident(part)) {
      break;
    }
    begin = part;
  }
  return begin;
}

}  // namespace

std::optional<FunctionShape> read_function(const TokenStream& ts, std::size_t marker) {
  Cursor c{ts};
  if (marker >= c.size()) {
    return std::nullopt;
  }
  bool directive = ts.tokens[marker].in_directive();
  FunctionShape shape;
  std::size_t j = c.next(marker);
  std::size_t limit = std::min(c.size(), marker + k_signature_limit);
  while (j < limit) {
    const Token& t = ts.tokens[j];
    if (t.kind == TokenKind::DirectiveEnd || (!directive && t.in_directive())) {
      if (directive) {
        return std::nullopt;
      }
      j = c.next(j);
      continue;
    }
    std::string_view text = ts.text(t);
    if (t.kind == TokenKind::Identifier && is_attribute_with_arguments(text) &&
        c.punct(c.next(j), "(")) {
      std::size_t close = c.match(c.next(j), "(", ")");
      if (close == SIZE_MAX) {
        return std::nullopt;
      }
      j = c.next(close);
      continue;
    }
    if (t.kind == TokenKind::Identifier && text == "operator") {
      shape.name_begin = j;
      std::size_t k = c.next(j);
      if (c.punct(k, "(") && c.punct(c.next(k), ")")) {
        k = c.next(c.next(k));
      }
      while (k < limit && !c.punct(k, "(") && !c.punct(k, ";") && !c.punct(k, "{")) {
        k = c.next(k);
      }
      if (!c.punct(k, "(")) {
        return std::nullopt;
      }
      shape.name_end = k;
      shape.params_open = k;
      break;
    }
    if (t.kind == TokenKind::Punct) {
      if (text == "<") {
        std::size_t close = c.match(j, "<", ">");
        if (close == SIZE_MAX) {
          return std::nullopt;
        }
        j = c.next(close);
        continue;
      }
      if (text == "[" && c.punct(c.next(j), "[")) {
        std::size_t close = c.match(j, "[", "]");
        if (close == SIZE_MAX) {
          return std::nullopt;
        }
        j = c.next(close);
        continue;
      }
      if (text == "(") {
        std::size_t before = c.prev(j);
        if (before != SIZE_MAX && before != marker && c.ident(before) &&
            !is_attribute_with_arguments(c.text(before))) {
          shape.name_begin = name_start(c, before);
          shape.name_end = before + 1;
        }
        shape.params_open = j;
        break;
      }
      if (text == ";" || text == "=" || text == "{" || text == "}" || text == ",") {
        return std::nullopt;  // a variable, not a function
      }
    }
    j = c.next(j);
  }
  if (shape.params_open == SIZE_MAX) {
    return std::nullopt;
  }
  shape.params_close = c.match(shape.params_open, "(", ")");
  if (shape.params_close == SIZE_MAX) {
    return std::nullopt;
  }
  std::size_t k = c.next(shape.params_close);
  std::size_t tail_limit = std::min(c.size(), shape.params_close + 64);
  while (k < tail_limit) {
    const Token& t = ts.tokens[k];
    if (t.kind == TokenKind::DirectiveEnd) {
      if (directive) {
        return shape;  // a signature-only macro: the body follows the macro's invocation
      }
      k = c.next(k);
      continue;
    }
    if (!directive && t.in_directive()) {
      k = c.next(k);
      continue;
    }
    std::string_view text = ts.text(t);
    if (t.kind == TokenKind::Punct) {
      if (text == "{") {
        shape.body_open = k;
        shape.body_close = body_end(c, k);
        return shape;
      }
      if (text == ";" || text == "=" || text == "," || text == ")" || text == "}") {
        return shape;  // a declaration
      }
      if (text == "(") {
        std::size_t close = c.match(k, "(", ")");
        if (close == SIZE_MAX) {
          return shape;
        }
        k = c.next(close);
        continue;
      }
    }
    k = c.next(k);
  }
  return shape;
}

Kernel make_kernel(const SharedString& path, const TokenStream& ts, std::size_t marker,
                   const FunctionShape& shape) {
  Cursor c{ts};
  Kernel kernel;
  kernel.file = path;
  const Token& global = ts.tokens[marker];
  kernel.via_macro = global.in_directive();
  kernel.context = global.context;
  if (shape.name_begin != SIZE_MAX && shape.name_end != SIZE_MAX &&
      shape.name_end > shape.name_begin) {
    kernel.name = slice(ts, shape.name_begin, shape.name_end - 1);
    kernel.line = ts.tokens[shape.name_begin].line;
  } else {
    kernel.line = global.line;
  }
  if (shape.body_close != SIZE_MAX) {
    kernel.lines_of_code = ts.tokens[shape.body_close].line - global.line + 1;
  }
  // A `template <...>` head right before the marker (storage specifiers may sit between).
  std::size_t j = c.prev(marker);
  while (j != SIZE_MAX) {
    std::string_view text = c.text(j);
    bool specifier = c.ident(j) && (text == "static" || text == "inline" || text == "extern" ||
                                    text == "__inline__" || text == "__forceinline__" ||
                                    text == "__noinline__" || text == "__host__");
    if (specifier || ts.tokens[j].kind == TokenKind::String) {
      j = c.prev(j);
      continue;
    }
    break;
  }
  if (j != SIZE_MAX && (c.punct(j, ">") || c.punct(j, ">>"))) {
    std::size_t open = c.match_back_angle(j);
    if (open != SIZE_MAX) {
      std::size_t head = c.prev(open);
      kernel.is_template = head != SIZE_MAX && c.text(head) == "template";
    }
  }
  return kernel;
}

std::string chevron_callee(const TokenStream& ts, std::size_t launch) {
  Cursor c{ts};
  std::size_t end = c.prev(launch);
  if (end == SIZE_MAX) {
    return {};
  }
  std::size_t j = end;
  if (c.punct(j, ">") || c.punct(j, ">>")) {
    std::size_t open = c.match_back_angle(j);
    if (open == SIZE_MAX || open == 0) {
      return {};
    }
    j = c.prev(open);
  }
  if (j == SIZE_MAX || !c.ident(j)) {
    return slice(ts, end, end);
  }
  return slice(ts, name_start(c, j), end);
}

std::string argument_callee(const TokenStream& ts, std::size_t begin, std::size_t end) {
  Cursor c{ts};
  end = std::min(end, c.size());
  for (std::size_t j = begin; j < end; ++j) {
    if (!c.ident(j)) {
      continue;
    }
    std::string_view text = c.text(j);
    if (text.ends_with("_cast") && c.punct(c.next(j), "<")) {
      std::size_t close = c.match(c.next(j), "<", ">");
      if (close == SIZE_MAX) {
        break;
      }
      j = close;
      continue;
    }
    if (text == "void" || text == "const" || text == "volatile" || text == "char" ||
        text == "unsigned" || text == "CUfunction" || text == "uintptr_t") {
      continue;
    }
    std::size_t last = j;
    for (;;) {
      std::size_t k = c.next(last);
      if (k >= end) {
        break;
      }
      if (c.punct(k, "::") && c.ident(c.next(k)) && c.next(k) < end) {
        last = c.next(k);
      } else if (c.punct(k, "<")) {
        std::size_t close = c.match(k, "<", ">");
        if (close == SIZE_MAX || close >= end) {
          break;
        }
        last = close;
      } else {
        break;
      }
    }
    return slice(ts, j, last);
  }
  if (begin < end) {
    return slice(ts, begin, end - 1);
  }
  return {};
}

bool is_explicit_instantiation(const TokenStream& ts, std::size_t i) {
  Cursor c{ts};
  std::size_t after = c.next(i);
  if (after >= c.size() || c.punct(after, "<")) {
    return false;
  }
  std::size_t before = c.prev(i);
  if (before != SIZE_MAX) {
    std::string_view p = c.text(before);
    if (p == "extern" || p == "." || p == "->" || p == "::" || p == "typename") {
      return false;
    }
  }
  return c.ident(after);
}

std::optional<std::uint64_t> scalar_type_size(std::string_view type) {
  static constexpr std::array<std::pair<std::string_view, std::uint64_t>, 56> k_sizes{{
      {"__half", 2},         {"__half2", 4},       {"__nv_bfloat16", 2},
      {"__nv_bfloat162", 4}, {"bool", 1},          {"char", 1},
      {"char2", 2},          {"char4", 4},         {"double", 8},
      {"double2", 16},       {"double4", 32},      {"float", 4},
      {"float2", 8},         {"float3", 12},       {"float4", 16},
      {"half", 2},           {"half2", 4},         {"int", 4},
      {"int16_t", 2},        {"int2", 8},          {"int3", 12},
      {"int32_t", 4},        {"int4", 16},         {"int64_t", 8},
      {"int8_t", 1},         {"long", 8},          {"long long", 8},
      {"longlong2", 16},     {"nv_bfloat16", 2},   {"nv_bfloat162", 4},
      {"short", 2},          {"short2", 4},        {"short4", 8},
      {"signed char", 1},    {"size_t", 8},        {"uchar2", 2},
      {"uchar4", 4},         {"uint", 4},          {"uint16_t", 2},
      {"uint2", 8},          {"uint3", 12},        {"uint32_t", 4},
      {"uint4", 16},         {"uint64_t", 8},      {"uint8_t", 1},
      {"ulonglong2", 16},    {"unsigned", 4},      {"unsigned char", 1},
      {"unsigned int", 4},   {"unsigned long", 8}, {"unsigned long long", 8},
      {"unsigned short", 2}, {"ushort2", 4},       {"ushort4", 8},
      {"long double", 16},   {"int8", 1},
  }};
  for (const auto& [name, bytes] : k_sizes) {
    if (name == type) {
      return bytes;
    }
  }
  return std::nullopt;
}

void add_distinct(std::vector<std::string>& list, std::string_view value) {
  if (std::find(list.begin(), list.end(), value) == list.end()) {
    list.emplace_back(value);
  }
}

}  // namespace gpuport
