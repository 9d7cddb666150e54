// Token helpers and the pass state shared by the C/C++/CUDA rule families.
#include "scan/rules/source_rules.h"

#include <algorithm>
#include <cstring>

namespace gpuport::source_rules {

namespace {

bool is_cuda_path(std::string_view path) {
  return path.ends_with(".cu") || path.ends_with(".cuh") || path.ends_with(".cu.jinja") ||
         path.ends_with(".cuh.jinja");
}

bool is_declaration_keyword(std::string_view word) {
  // Identifiers that may precede a call expression (everything else before `name(` is a type).
  return word == "return" || word == "else" || word == "do" || word == "case" || word == "throw" ||
         word == "co_return" || word == "co_await" || word == "co_yield" || word == "sizeof" ||
         word == "decltype" || word == "noexcept" || word == "and" || word == "or" || word == "not";
}

}  // namespace

void SourceScratch::clear() {
  device_functions.clear();
  kernel_calls.clear();
  helper_calls.clear();
  kernel_macros.clear();
  kernel_expansions.clear();
  helpers_by_name.clear();
  pending_calls.clear();
  visited_helpers.clear();
}

SourceContext::SourceContext(const SharedString& file_path, const TokenStream& stream,
                             FileAnalysis& analysis, SourceScratch& scratch)
    : path(file_path),
      ts(stream),
      tok(stream.tokens),
      out(analysis),
      cuda_file(is_cuda_path(file_path)),
      device_functions(scratch.device_functions),
      kernel_calls(scratch.kernel_calls),
      helper_calls(scratch.helper_calls),
      kernel_macros(scratch.kernel_macros),
      kernel_expansions(scratch.kernel_expansions) {
  scratch.clear();
}

void SourceContext::add(std::string_view rule, std::size_t i, std::string detail) {
  if (i >= tok.size() || tok[i].context == BranchContext::Hip) {
    return;
  }
  add_finding(out, rule, path, ts, tok[i], std::move(detail));
}

void SourceContext::add_once_per_line(int slot, std::string_view rule, std::size_t i,
                                      std::string detail) {
  if (i >= tok.size() || last_line_fired[slot] == tok[i].line) {
    return;
  }
  last_line_fired[slot] = tok[i].line;
  add(rule, i, std::move(detail));
}

void SourceContext::add_sign(AmdPathKind sign_kind, std::size_t i, std::string detail) {
  if (i >= tok.size()) {
    return;
  }
  out.amd_path.push_back({sign_kind, path, tok[i].line, std::move(detail)});
}

std::size_t next_code(const SourceContext& ctx, std::size_t i) {
  std::size_t j = i + 1;
  while (j < ctx.size() && ctx.tok[j].kind == TokenKind::Comment) {
    ++j;
  }
  return j < ctx.size() ? j : ctx.size();
}

std::size_t prev_code(const SourceContext& ctx, std::size_t i) {
  if (i == SIZE_MAX) {
    return SIZE_MAX;  // the "none" of a previous call: nothing before it either
  }
  std::size_t j = std::min(i, ctx.size());
  while (j > 0) {
    --j;
    if (ctx.tok[j].kind != TokenKind::Comment) {
      return j;
    }
  }
  return SIZE_MAX;
}

std::size_t match_forward(const SourceContext& ctx, std::size_t open, std::size_t limit) {
  if (open >= ctx.size()) {
    return SIZE_MAX;
  }
  std::string_view opener = ctx.text(open);
  std::string_view closer = opener == "(" ? ")" : opener == "[" ? "]" : opener == "{" ? "}" : ">";
  bool angle = opener == "<";
  bool directive = ctx.tok[open].in_directive();
  long depth = 0;
  std::size_t end = std::min(ctx.size(), open + limit);
  for (std::size_t j = open; j < end; ++j) {
    const Token& t = ctx.tok[j];
    if (directive && t.kind == TokenKind::DirectiveEnd) {
      return SIZE_MAX;
    }
    if (t.kind != TokenKind::Punct) {
      continue;
    }
    if (ctx.ts.text_is(t, opener)) {
      ++depth;
    } else if (ctx.ts.text_is(t, closer)) {
      if (--depth == 0) {
        return j;
      }
    } else if (angle && ctx.ts.text_is(t, ">>")) {
      depth -= 2;
      if (depth <= 0) {
        return j;
      }
    } else if (angle &&
               (ctx.ts.text_is(t, ";") || ctx.ts.text_is(t, "{") || ctx.ts.text_is(t, "}"))) {
      return SIZE_MAX;  // not a template argument list
    }
  }
  return SIZE_MAX;
}

bool ends_with_type_suffix(std::string_view name) {
  return name.ends_with("_t");
}

bool is_call(const SourceContext& ctx, std::size_t i) {
  std::size_t open = next_code(ctx, i);
  if (!ctx.is_punct(open, "(")) {
    return false;
  }
  std::size_t inner = next_code(ctx, open);
  if (ctx.is_punct(inner, "*") || ctx.is_punct(inner, "&") || ctx.is_punct(inner, "^")) {
    // function-pointer type: cublasStatus_t (*fn)(...), (CUBLASAPI *fn)(...)
    std::size_t name = next_code(ctx, inner);
    if (ctx.kind(name) == TokenKind::Identifier && ctx.is_punct(next_code(ctx, name), ")") &&
        ctx.is_punct(next_code(ctx, next_code(ctx, name)), "(")) {
      return false;
    }
  }
  if (ends_with_type_suffix(ctx.text(i))) {
    return false;
  }
  std::size_t before = prev_code(ctx, i);
  if (before == SIZE_MAX) {
    return true;
  }
  TokenKind kind = ctx.kind(before);
  std::string_view word = ctx.text(before);
  if (kind == TokenKind::DirectiveStart) {
    return false;  // `#define cudaMalloc(...)`: the macro being defined
  }
  if (kind == TokenKind::Identifier && !is_declaration_keyword(word)) {
    return false;  // `cudaError_t cudaMalloc(...)`: a declaration
  }
  if (kind == TokenKind::Punct && (word == "." || word == "->" || word == "~")) {
    return false;  // a member with the same name
  }
  if (kind == TokenKind::Punct && (word == "*" || word == "&")) {
    // `CUBLASAPI *cublasCreate(`: pointer-returning declaration, when a type precedes
    std::size_t type = prev_code(ctx, before);
    if (type != SIZE_MAX && ctx.kind(type) == TokenKind::Identifier &&
        !is_declaration_keyword(ctx.text(type))) {
      // `a * cudaFoo(` in an expression is rare; a declaration is the usual reading.
      return false;
    }
  }
  return true;
}

std::vector<std::pair<std::size_t, std::size_t>> call_arguments(const SourceContext& ctx,
                                                                std::size_t open) {
  std::vector<std::pair<std::size_t, std::size_t>> args;
  std::size_t close = match_forward(ctx, open);
  if (close == SIZE_MAX) {
    return args;
  }
  args.reserve(8);  // one allocation for nearly every call, not one per doubling
  long depth = 0;
  std::size_t begin = open + 1;
  for (std::size_t j = open + 1; j < close; ++j) {
    if (ctx.kind(j) != TokenKind::Punct) {
      continue;
    }
    std::string_view p = ctx.text(j);
    if (p == "(" || p == "[" || p == "{") {
      ++depth;
    } else if (p == ")" || p == "]" || p == "}") {
      --depth;
    } else if (p == "," && depth == 0) {
      args.emplace_back(begin, j);
      begin = j + 1;
    }
  }
  if (begin < close || !args.empty()) {
    args.emplace_back(begin, close);
  }
  return args;
}

std::optional<std::uint64_t> integer_value(std::string_view text) {
  if (text.empty() || text.size() > 40 || text[0] < '0' || text[0] > '9') {
    return std::nullopt;
  }
  unsigned base = 10;
  std::size_t i = 0;
  if (text.size() > 1 && text[0] == '0') {
    if (text[1] == 'x' || text[1] == 'X') {
      base = 16;
      i = 2;
    } else if (text[1] == 'b' || text[1] == 'B') {
      base = 2;
      i = 2;
    } else {
      base = 8;
      i = 1;
    }
  }
  std::uint64_t value = 0;
  bool digits = base == 8;  // a lone "0" is octal zero
  for (; i < text.size(); ++i) {
    char c = text[i];
    unsigned digit = 0;
    if (c == '\'') {
      continue;
    }
    if (c >= '0' && c <= '9') {
      digit = static_cast<unsigned>(c - '0');
    } else if (base == 16 && c >= 'a' && c <= 'f') {
      digit = static_cast<unsigned>(c - 'a' + 10);
    } else if (base == 16 && c >= 'A' && c <= 'F') {
      digit = static_cast<unsigned>(c - 'A' + 10);
    } else {
      break;
    }
    if (digit >= base) {
      return std::nullopt;
    }
    if (value > (UINT64_MAX - digit) / base) {
      return std::nullopt;
    }
    value = value * base + digit;
    digits = true;
  }
  // Only integer suffixes may follow (u, l, z in any case); a '.', 'e' or 'f' makes it floating.
  for (; i < text.size(); ++i) {
    char c = static_cast<char>(text[i] | 0x20);
    if (c != 'u' && c != 'l' && c != 'z') {
      return std::nullopt;
    }
  }
  return digits ? std::optional<std::uint64_t>(value) : std::nullopt;
}

std::optional<std::uint64_t> constant_value(const SourceContext& ctx, std::size_t begin,
                                            std::size_t end) {
  // Sum of products of literals, with parenthesised sub-expressions: enough for `96 * 1024`,
  // `(128 + 8) * 64`. Bounded iteration, no recursion.
  constexpr int k_max_depth = 8;
  std::uint64_t sums[k_max_depth] = {};
  std::uint64_t products[k_max_depth] = {1, 1, 1, 1, 1, 1, 1, 1};
  int depth = 0;
  bool expect_operand = true;
  if (begin >= end) {
    return std::nullopt;
  }
  for (std::size_t j = begin; j < end && j < ctx.size(); ++j) {
    TokenKind kind = ctx.kind(j);
    std::string_view t = ctx.text(j);
    if (kind == TokenKind::Comment) {
      continue;
    }
    if (expect_operand) {
      if (kind == TokenKind::Number) {
        auto v = integer_value(t);
        if (!v || *v > (1ull << 40)) {
          return std::nullopt;
        }
        products[depth] *= *v;
        if (products[depth] > (1ull << 48)) {
          return std::nullopt;
        }
        expect_operand = false;
      } else if (kind == TokenKind::Punct && t == "(" && depth + 1 < k_max_depth) {
        ++depth;
        sums[depth] = 0;
        products[depth] = 1;
      } else {
        return std::nullopt;
      }
      continue;
    }
    if (kind != TokenKind::Punct) {
      return std::nullopt;
    }
    if (t == "*") {
      expect_operand = true;
    } else if (t == "+") {
      sums[depth] += products[depth];
      products[depth] = 1;
      expect_operand = true;
    } else if (t == ")" && depth > 0) {
      std::uint64_t inner = sums[depth] + products[depth];
      --depth;
      products[depth] *= inner;
      if (products[depth] > (1ull << 48)) {
        return std::nullopt;
      }
    } else {
      return std::nullopt;
    }
  }
  if (expect_operand || depth != 0) {
    return std::nullopt;
  }
  return sums[0] + products[0];
}

std::string_view string_body(std::string_view literal) {
  std::size_t quote = literal.find('"');
  if (quote == std::string_view::npos) {
    return {};
  }
  std::string_view prefix = literal.substr(0, quote);
  std::string_view rest = literal.substr(quote + 1);
  if (prefix.find('R') != std::string_view::npos) {
    std::size_t paren = rest.find('(');
    if (paren == std::string_view::npos) {
      return {};
    }
    std::string_view delimiter = rest.substr(0, paren);
    rest = rest.substr(paren + 1);
    // closing: )delimiter"
    std::size_t close = rest.rfind('"');
    if (close != std::string_view::npos && close >= delimiter.size() + 1) {
      return rest.substr(0, close - delimiter.size() - 1);
    }
    return rest;
  }
  if (!rest.empty() && rest.back() == '"') {
    rest.remove_suffix(1);
  }
  return rest;
}

void HandlerTable::add(std::string_view name, Handler handler, std::string_view rule) {
  if (name.empty()) {
    return;
  }
  const std::size_t length_bit = std::min<std::size_t>(name.size(), 63);
  m_first_lengths[static_cast<unsigned char>(name.front())] |= 1ull << length_bit;
  m_last_lengths[static_cast<unsigned char>(name.back())] |= 1ull << length_bit;
  if ((m_used + 1) * 2 > m_slots.size()) {
    std::vector<Slot> old = std::move(m_slots);
    m_slots.assign(std::max<std::size_t>(64, old.size() * 2), Slot{});
    m_used = 0;
    for (const Slot& slot : old) {
      if (!slot.name.empty()) {
        insert(slot.name, slot.entry);
      }
    }
  }
  insert(name, HandlerEntry{handler, rule});
}

// A later add() of the same name replaces the entry.
void HandlerTable::insert(std::string_view name, const HandlerEntry& entry) {
  const std::size_t mask = m_slots.size() - 1;
  for (std::size_t slot = hash(name) & mask;; slot = (slot + 1) & mask) {
    Slot& candidate = m_slots[slot];
    if (candidate.name.empty()) {
      candidate = Slot{name, entry};
      ++m_used;
      return;
    }
    if (candidate.name == name) {
      candidate.entry = entry;
      return;
    }
  }
}

// The first and last eight bytes and the length, mixed by multiplication.
std::size_t HandlerTable::hash(std::string_view name) {
  std::uint64_t head = 0;
  std::uint64_t tail = 0;
  std::memcpy(&head, name.data(), std::min<std::size_t>(name.size(), 8));
  if (name.size() > 8) {
    std::memcpy(&tail, name.data() + name.size() - 8, 8);
  }
  const std::uint64_t mixed =
      (head ^ (tail * 0x9E3779B97F4A7C15ull) ^ name.size()) * 0xFF51AFD7ED558CCDull;
  return static_cast<std::size_t>(mixed >> 32);
}

void on_call(SourceContext& ctx, std::size_t i, std::string_view rule) {
  if (is_call(ctx, i)) {
    ctx.add(rule, i, std::string(ctx.text(i)));
  }
}

void on_name(SourceContext& ctx, std::size_t i, std::string_view rule) {
  ctx.add(rule, i, std::string(ctx.text(i)));
}

}  // namespace gpuport::source_rules
