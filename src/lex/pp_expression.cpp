// #if expression evaluation: a shunting-yard evaluator over per-world three-valued integers, with
// object-like macros expanded by evaluating their bodies, bounded in depth and in tokens read.
#include "lex/pp_expression.h"

#include <array>
#include <cstring>
#include <limits>
#include <vector>

namespace gpuport {

namespace {

bool is_ident_byte(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '$' || c >= 0x80;
}

bool is_digit(unsigned char c) {
  return c >= '0' && c <= '9';
}

// ---- values --------------------------------------------------------------------------------

enum class ValKind : std::uint8_t { Known, Nonzero, Unknown };

struct Val {
  std::int64_t n = 0;
  ValKind kind = ValKind::Unknown;
};

constexpr Val known(std::int64_t n) {
  return {n, ValKind::Known};
}
constexpr Val unknown() {
  return {0, ValKind::Unknown};
}
constexpr Val nonzero() {
  return {0, ValKind::Nonzero};
}

enum class Truth : std::uint8_t { False, True, Unknown };

Truth truth_of(Val v) {
  if (v.kind == ValKind::Known) {
    return v.n != 0 ? Truth::True : Truth::False;
  }
  return v.kind == ValKind::Nonzero ? Truth::True : Truth::Unknown;
}

Val from_truth(Truth t) {
  if (t == Truth::Unknown) {
    return unknown();
  }
  return known(t == Truth::True ? 1 : 0);
}

using Vec = std::array<Val, k_world_count>;

Vec splat(Val v) {
  Vec out;
  out.fill(v);
  return out;
}

Val parse_number(std::string_view text) {
  std::uint64_t value = 0;
  std::size_t i = 0;
  unsigned base = 10;
  if (text.size() > 1 && text[0] == '0') {
    char x = text[1];
    if (x == 'x' || x == 'X') {
      base = 16;
      i = 2;
    } else if (x == 'b' || x == 'B') {
      base = 2;
      i = 2;
    } else {
      base = 8;
      i = 1;
    }
  }
  bool any_digit = base == 8;  // "0" alone and "0u" are octal zero
  for (; i < text.size(); ++i) {
    char c = text[i];
    if (c == '\'') {
      continue;
    }
    unsigned digit = 0;
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
      return unknown();
    }
    if (value > (std::numeric_limits<std::uint64_t>::max() - digit) / base) {
      return unknown();
    }
    value = value * base + digit;
    any_digit = true;
  }
  for (; i < text.size(); ++i) {
    char c = text[i];
    if (c != 'u' && c != 'U' && c != 'l' && c != 'L' && c != 'z' && c != 'Z') {
      return unknown();  // floats and malformed numbers
    }
  }
  if (!any_digit) {
    return unknown();
  }
  return known(static_cast<std::int64_t>(value));
}

// ---- condition tokens ----------------------------------------------------------------------

enum class CondKind : std::uint8_t { End, Ident, Number, CharLit, Punct, Error };

struct CondToken {
  CondKind kind = CondKind::End;
  std::string_view text;
};

class CondReader {
 public:
  explicit CondReader(std::string_view text) : m_text(text) {}

  CondToken next() {
    skip_blanks();
    if (m_pos >= m_text.size()) {
      return {CondKind::End, {}};
    }
    std::size_t start = m_pos;
    auto c = static_cast<unsigned char>(m_text[m_pos]);
    if (is_digit(c) || (c == '.' && m_pos + 1 < m_text.size() &&
                        is_digit(static_cast<unsigned char>(m_text[m_pos + 1])))) {
      ++m_pos;
      while (m_pos < m_text.size()) {
        auto d = static_cast<unsigned char>(m_text[m_pos]);
        if ((d == '+' || d == '-') && is_exponent(m_text[m_pos - 1])) {
          ++m_pos;
        } else if (is_ident_byte(d) || d == '.' ||
                   (d == '\'' && m_pos + 1 < m_text.size() &&
                    is_ident_byte(static_cast<unsigned char>(m_text[m_pos + 1])))) {
          ++m_pos;
        } else {
          break;
        }
      }
      return {CondKind::Number, m_text.substr(start, m_pos - start)};
    }
    if (is_ident_byte(c)) {
      while (m_pos < m_text.size() && is_ident_byte(static_cast<unsigned char>(m_text[m_pos]))) {
        ++m_pos;
      }
      std::string_view word = m_text.substr(start, m_pos - start);
      if (m_pos < m_text.size() && (m_text[m_pos] == '\'' || m_text[m_pos] == '"') &&
          (word == "L" || word == "u" || word == "U" || word == "u8")) {
        return quoted(start);
      }
      return {CondKind::Ident, word};
    }
    if (c == '\'' || c == '"') {
      return quoted(start);
    }
    static constexpr std::string_view k_two[] = {"<<", ">>", "<=", ">=", "==", "!=", "&&", "||"};
    if (m_pos + 1 < m_text.size()) {
      std::string_view two = m_text.substr(m_pos, 2);
      for (std::string_view op : k_two) {
        if (two == op) {
          m_pos += 2;
          return {CondKind::Punct, two};
        }
      }
    }
    ++m_pos;
    if (c != 0 && std::strchr("()!~-+*/%<>&^|?:,", c) != nullptr) {
      return {CondKind::Punct, m_text.substr(start, 1)};
    }
    return {CondKind::Error, m_text.substr(start, 1)};
  }

  std::size_t position() const { return m_pos; }
  void rewind(std::size_t pos) { m_pos = pos; }

 private:
  static bool is_exponent(char c) { return c == 'e' || c == 'E' || c == 'p' || c == 'P'; }

  CondToken quoted(std::size_t start) {
    while (m_pos < m_text.size() && m_text[m_pos] != '\'' && m_text[m_pos] != '"') {
      ++m_pos;  // the prefix
    }
    char quote = m_text[m_pos++];
    while (m_pos < m_text.size() && m_text[m_pos] != quote) {
      m_pos += m_text[m_pos] == '\\' ? 2 : 1;
    }
    if (m_pos >= m_text.size()) {
      m_pos = m_text.size();
      return {CondKind::Error, {}};
    }
    ++m_pos;
    return {quote == '\'' ? CondKind::CharLit : CondKind::Error,
            m_text.substr(start, m_pos - start)};
  }

  void skip_blanks() {
    while (m_pos < m_text.size()) {
      char c = m_text[m_pos];
      if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v') {
        ++m_pos;
      } else if (c == '\\' && m_pos + 1 < m_text.size() &&
                 (m_text[m_pos + 1] == '\n' || m_text[m_pos + 1] == '\r')) {
        m_pos += 2;
      } else if (c == '/' && m_pos + 1 < m_text.size() && m_text[m_pos + 1] == '/') {
        m_pos = m_text.size();
      } else if (c == '/' && m_pos + 1 < m_text.size() && m_text[m_pos + 1] == '*') {
        std::size_t close = m_text.find("*/", m_pos + 2);
        m_pos = close == std::string_view::npos ? m_text.size() : close + 2;
      } else {
        return;
      }
    }
  }

  std::string_view m_text;
  std::size_t m_pos = 0;
};

// ---- operators -----------------------------------------------------------------------------

enum class Op : std::uint8_t {
  LParen,
  Question,
  Cond,  // a `?` whose `:` has been seen
  Not,
  Compl,
  Neg,
  Pos,
  Mul,
  Div,
  Mod,
  Add,
  Sub,
  Shl,
  Shr,
  Lt,
  Le,
  Gt,
  Ge,
  Eq,
  Ne,
  BitAnd,
  BitXor,
  BitOr,
  And,
  Or,
  Comma,
};

int precedence(Op op) {
  switch (op) {
    case Op::LParen:
      return 0;
    case Op::Comma:
      return 2;
    case Op::Question:
    case Op::Cond:
      return 3;
    case Op::Or:
      return 4;
    case Op::And:
      return 5;
    case Op::BitOr:
      return 6;
    case Op::BitXor:
      return 7;
    case Op::BitAnd:
      return 8;
    case Op::Eq:
    case Op::Ne:
      return 9;
    case Op::Lt:
    case Op::Le:
    case Op::Gt:
    case Op::Ge:
      return 10;
    case Op::Shl:
    case Op::Shr:
      return 11;
    case Op::Add:
    case Op::Sub:
      return 12;
    case Op::Mul:
    case Op::Div:
    case Op::Mod:
      return 13;
    case Op::Not:
    case Op::Compl:
    case Op::Neg:
    case Op::Pos:
      return 14;
  }
  return 0;
}

bool is_unary(Op op) {
  return op == Op::Not || op == Op::Compl || op == Op::Neg || op == Op::Pos;
}

bool binary_op(std::string_view text, Op& op) {
  struct Entry {
    std::string_view text;
    Op op;
  };
  static constexpr Entry k_ops[] = {
      {"*", Op::Mul},     {"/", Op::Div},         {"%", Op::Mod},       {"+", Op::Add},
      {"-", Op::Sub},     {"<<", Op::Shl},        {">>", Op::Shr},      {"<", Op::Lt},
      {"<=", Op::Le},     {">", Op::Gt},          {">=", Op::Ge},       {"==", Op::Eq},
      {"!=", Op::Ne},     {"&", Op::BitAnd},      {"^", Op::BitXor},    {"|", Op::BitOr},
      {"&&", Op::And},    {"||", Op::Or},         {",", Op::Comma},     {"and", Op::And},
      {"or", Op::Or},     {"bitand", Op::BitAnd}, {"bitor", Op::BitOr}, {"xor", Op::BitXor},
      {"not_eq", Op::Ne},
  };
  for (const Entry& entry : k_ops) {
    if (entry.text == text) {
      op = entry.op;
      return true;
    }
  }
  return false;
}

Val apply_unary(Op op, Val a) {
  if (op == Op::Not) {
    Truth t = truth_of(a);
    return t == Truth::Unknown ? unknown() : known(t == Truth::True ? 0 : 1);
  }
  if (op == Op::Pos) {
    return a;
  }
  if (a.kind != ValKind::Known) {
    return op == Op::Neg && a.kind == ValKind::Nonzero ? a : unknown();
  }
  auto u = static_cast<std::uint64_t>(a.n);
  return known(static_cast<std::int64_t>(op == Op::Neg ? 0 - u : ~u));
}

Val apply_binary(Op op, Val a, Val b) {
  if (op == Op::And || op == Op::Or) {
    Truth ta = truth_of(a);
    Truth tb = truth_of(b);
    Truth dominant = op == Op::And ? Truth::False : Truth::True;
    if (ta == dominant || tb == dominant) {
      return from_truth(dominant);
    }
    if (ta == Truth::Unknown || tb == Truth::Unknown) {
      return unknown();
    }
    return from_truth(op == Op::And ? Truth::True : Truth::False);
  }
  if (op == Op::Comma) {
    return b;
  }
  if (a.kind != ValKind::Known || b.kind != ValKind::Known) {
    bool a_zero = a.kind == ValKind::Known && a.n == 0;
    bool b_zero = b.kind == ValKind::Known && b.n == 0;
    if ((op == Op::Eq || op == Op::Ne) &&
        ((a.kind == ValKind::Nonzero && b_zero) || (b.kind == ValKind::Nonzero && a_zero))) {
      return known(op == Op::Ne ? 1 : 0);
    }
    if ((op == Op::Mul || op == Op::BitAnd) && (a_zero || b_zero)) {
      return known(0);
    }
    return unknown();
  }
  std::int64_t x = a.n;
  std::int64_t y = b.n;
  auto ux = static_cast<std::uint64_t>(x);
  auto uy = static_cast<std::uint64_t>(y);
  switch (op) {
    case Op::Mul:
      return known(static_cast<std::int64_t>(ux * uy));
    case Op::Div:
    case Op::Mod:
      if (y == 0 || (x == std::numeric_limits<std::int64_t>::min() && y == -1)) {
        return unknown();
      }
      return known(op == Op::Div ? x / y : x % y);
    case Op::Add:
      return known(static_cast<std::int64_t>(ux + uy));
    case Op::Sub:
      return known(static_cast<std::int64_t>(ux - uy));
    case Op::Shl:
    case Op::Shr:
      if (y < 0 || y >= 64) {
        return unknown();
      }
      return known(op == Op::Shl ? static_cast<std::int64_t>(ux << y) : x >> y);
    case Op::Lt:
      return known(x < y);
    case Op::Le:
      return known(x <= y);
    case Op::Gt:
      return known(x > y);
    case Op::Ge:
      return known(x >= y);
    case Op::Eq:
      return known(x == y);
    case Op::Ne:
      return known(x != y);
    case Op::BitAnd:
      return known(x & y);
    case Op::BitXor:
      return known(x ^ y);
    case Op::BitOr:
      return known(x | y);
    default:
      return unknown();
  }
}

Val apply_conditional(Val c, Val a, Val b) {
  Truth t = truth_of(c);
  if (t == Truth::True) {
    return a;
  }
  if (t == Truth::False) {
    return b;
  }
  if (a.kind == b.kind && a.n == b.n) {
    return a;
  }
  return unknown();
}

// ---- the evaluator -------------------------------------------------------------------------

// One evaluation of a condition. A macro body is evaluated by a nested call of `expression`
// on the same stacks (above the caller's entries), so the depth of C++ recursion is bounded by
// the expansion depth, and memory by max_stack.
class Evaluator {
 public:
  Evaluator(const MacroResolver& resolver, WorldMask worlds, const ExpressionLimits& limits)
      : m_resolver(resolver), m_worlds(worlds), m_limits(limits) {}

  // False when the text does not parse or a limit was exceeded.
  bool expression(std::string_view text, Vec& result) {
    CondReader reader(text);
    const std::size_t value_base = m_values.size();
    const std::size_t op_base = m_ops.size();
    bool ok = run(reader, value_base, op_base);
    if (ok && m_values.size() == value_base + 1) {
      result = m_values.back();
    } else {
      ok = false;
    }
    m_values.resize(value_base);
    m_ops.resize(op_base);
    return ok;
  }

  // `defined NAME` for the first identifier of `text` (#ifdef and #ifndef).
  bool defined_of_first_identifier(std::string_view text, Vec& result) {
    CondReader reader(text);
    CondToken token = reader.next();
    if (token.kind != CondKind::Ident) {
      return false;
    }
    result = defined_value(token.text);
    return true;
  }

 private:
  bool run(CondReader& reader, std::size_t value_base, std::size_t op_base) {
    bool expect_operand = true;
    while (true) {
      CondToken token = reader.next();
      if (token.kind == CondKind::Error || ++m_tokens > m_limits.max_tokens) {
        return false;
      }
      if (expect_operand) {
        if (!operand(reader, token, expect_operand)) {
          return false;
        }
        continue;
      }
      if (token.kind == CondKind::End) {
        break;
      }
      if (!operator_token(token, expect_operand, value_base, op_base)) {
        return false;
      }
    }
    while (m_ops.size() > op_base) {
      if (!reduce(value_base)) {
        return false;
      }
    }
    return true;
  }

  bool operand(CondReader& reader, const CondToken& token, bool& expect_operand) {
    switch (token.kind) {
      case CondKind::Number:
        expect_operand = false;
        return push_value(splat(parse_number(token.text)));
      case CondKind::CharLit:
        expect_operand = false;
        return push_value(splat(unknown()));
      case CondKind::Ident:
        if (token.text == "not") {
          return push_op(Op::Not);
        }
        if (token.text == "compl") {
          return push_op(Op::Compl);
        }
        expect_operand = false;
        if (token.text == "defined") {
          return defined_operand(reader);
        }
        return identifier_operand(reader, token.text);
      case CondKind::Punct:
        switch (token.text[0]) {
          case '(':
            return push_op(Op::LParen);
          case '!':
            return push_op(Op::Not);
          case '~':
            return push_op(Op::Compl);
          case '-':
            return push_op(Op::Neg);
          case '+':
            return push_op(Op::Pos);
          default:
            return false;
        }
      default:
        return false;
    }
  }

  Vec defined_value(std::string_view name) {
    Vec v = splat(unknown());
    MacroResolution resolved[k_world_count];
    m_resolver.resolve_worlds(name, m_worlds, resolved);
    for (std::size_t w = 0; w < k_world_count; ++w) {
      if ((m_worlds & (1u << w)) == 0) {
        continue;
      }
      const MacroResolution& r = resolved[w];
      switch (r.kind) {
        case MacroResolution::Kind::Undefined:
          v[w] = known(0);
          break;
        case MacroResolution::Kind::Unknown:
          v[w] = unknown();
          break;
        default:
          v[w] = known(1);
          break;
      }
    }
    return v;
  }

  bool defined_operand(CondReader& reader) {
    CondToken token = reader.next();
    bool paren = token.kind == CondKind::Punct && token.text == "(";
    if (paren) {
      token = reader.next();
    }
    if (token.kind != CondKind::Ident) {
      return false;
    }
    if (paren) {
      CondToken close = reader.next();
      if (close.kind != CondKind::Punct || close.text != ")") {
        return false;
      }
    }
    return push_value(defined_value(token.text));
  }

  // A name (its value in each world, macro bodies evaluated), or a call of a function-like
  // macro such as __has_include(<x.h>), whose value is unknown.
  bool identifier_operand(CondReader& reader, std::string_view name) {
    std::size_t save = reader.position();
    CondToken token = reader.next();
    if (token.kind == CondKind::Punct && token.text == "(") {
      std::size_t depth = 1;
      while (depth > 0) {
        token = reader.next();
        if (token.kind == CondKind::End || ++m_tokens > m_limits.max_tokens) {
          return false;
        }
        if (token.kind == CondKind::Punct && token.text == "(") {
          ++depth;
        } else if (token.kind == CondKind::Punct && token.text == ")") {
          --depth;
        }
      }
      return push_value(splat(unknown()));
    }
    reader.rewind(save);
    Vec v = splat(unknown());
    // Worlds whose value is a macro body, grouped by that body: most names have one definition
    // for every world that defines them, so a body is evaluated once, not once per world.
    WorldMask pending = 0;
    std::array<std::string_view, k_world_count> bodies{};
    MacroResolution resolved[k_world_count];
    m_resolver.resolve_worlds(name, m_worlds, resolved);
    for (std::size_t w = 0; w < k_world_count; ++w) {
      if ((m_worlds & (1u << w)) == 0) {
        continue;
      }
      const MacroResolution& r = resolved[w];
      switch (r.kind) {
        case MacroResolution::Kind::Undefined:
          v[w] = known(0);
          break;
        case MacroResolution::Kind::Value:
          v[w] = known(r.value);
          break;
        case MacroResolution::Kind::Nonzero:
          v[w] = nonzero();
          break;
        case MacroResolution::Kind::Body:
          bodies[w] = r.body;
          pending |= static_cast<WorldMask>(1u << w);
          break;
        default:
          v[w] = unknown();
          break;
      }
    }
    while (pending != 0) {
      std::size_t first = static_cast<std::size_t>(__builtin_ctz(pending));
      std::string_view body = bodies[first];
      WorldMask group = 0;
      for (std::size_t w = first; w < k_world_count; ++w) {
        const auto bit = static_cast<WorldMask>(1u << w);
        if ((pending & bit) != 0 && bodies[w].data() == body.data() &&
            bodies[w].size() == body.size()) {
          group |= bit;
        }
      }
      pending = static_cast<WorldMask>(pending & ~group);
      Vec expanded{};
      if (!expand(name, body, group, expanded)) {
        continue;  // unknown in those worlds (already)
      }
      for (std::size_t w = 0; w < k_world_count; ++w) {
        if ((group & (1u << w)) != 0) {
          v[w] = expanded[w];
        }
      }
    }
    return push_value(v);
  }

  // The value of a macro body in the worlds of `group`; false (unknown) for a body that is not
  // an expression on its own, a macro that expands to itself, or a limit reached.
  bool expand(std::string_view name, std::string_view body, WorldMask group, Vec& out) {
    if (m_expanding.size() >= m_limits.max_expansion_depth) {
      return false;
    }
    for (std::string_view open : m_expanding) {
      if (open == name) {
        return false;
      }
    }
    if (body.empty()) {
      return false;  // `#define FLAG` used as a value: an error in a real #if
    }
    m_expanding.push_back(name);
    const WorldMask saved = m_worlds;
    m_worlds = group;
    bool ok = expression(body, out);
    m_worlds = saved;
    m_expanding.pop_back();
    return ok && m_tokens <= m_limits.max_tokens;
  }

  bool operator_token(const CondToken& token, bool& expect_operand, std::size_t value_base,
                      std::size_t op_base) {
    if (token.kind == CondKind::Punct && token.text == ")") {
      while (m_ops.size() > op_base && m_ops.back() != Op::LParen) {
        if (!reduce(value_base)) {
          return false;
        }
      }
      if (m_ops.size() == op_base) {
        return false;
      }
      m_ops.pop_back();
      return true;
    }
    if (token.kind == CondKind::Punct && token.text == "?") {
      while (m_ops.size() > op_base && precedence(m_ops.back()) > precedence(Op::Question)) {
        if (!reduce(value_base)) {
          return false;
        }
      }
      expect_operand = true;
      return push_op(Op::Question);
    }
    if (token.kind == CondKind::Punct && token.text == ":") {
      while (m_ops.size() > op_base && m_ops.back() != Op::Question) {
        if (m_ops.back() == Op::LParen || !reduce(value_base)) {
          return false;
        }
      }
      if (m_ops.size() == op_base) {
        return false;
      }
      m_ops.back() = Op::Cond;
      expect_operand = true;
      return true;
    }
    Op op{};
    if ((token.kind != CondKind::Punct && token.kind != CondKind::Ident) ||
        !binary_op(token.text, op)) {
      return false;
    }
    while (m_ops.size() > op_base && m_ops.back() != Op::LParen &&
           precedence(m_ops.back()) >= precedence(op)) {
      if (!reduce(value_base)) {
        return false;
      }
    }
    expect_operand = true;
    return push_op(op);
  }

  bool reduce(std::size_t value_base) {
    Op op = m_ops.back();
    m_ops.pop_back();
    if (op == Op::LParen || op == Op::Question) {
      return false;
    }
    const std::size_t available = m_values.size() - value_base;
    if (is_unary(op)) {
      if (available < 1) {
        return false;
      }
      Vec& a = m_values.back();
      for (Val& lane : a) {
        lane = apply_unary(op, lane);
      }
      return true;
    }
    std::size_t arity = op == Op::Cond ? 3 : 2;
    if (available < arity) {
      return false;
    }
    Vec* args = &m_values[m_values.size() - arity];
    for (std::size_t w = 0; w < k_world_count; ++w) {
      args[0][w] = op == Op::Cond ? apply_conditional(args[0][w], args[1][w], args[2][w])
                                  : apply_binary(op, args[0][w], args[1][w]);
    }
    m_values.resize(m_values.size() - (arity - 1));
    return true;
  }

  bool push_value(const Vec& value) {
    if (m_values.size() + m_ops.size() >= m_limits.max_stack) {
      return false;
    }
    m_values.push_back(value);
    return true;
  }

  bool push_op(Op op) {
    if (m_values.size() + m_ops.size() >= m_limits.max_stack) {
      return false;
    }
    m_ops.push_back(op);
    return true;
  }

  const MacroResolver& m_resolver;
  WorldMask m_worlds;
  const ExpressionLimits& m_limits;
  std::size_t m_tokens = 0;
  std::vector<Vec> m_values;
  std::vector<Op> m_ops;
  std::vector<std::string_view> m_expanding;
};

TruthMask to_mask(const Vec& v, WorldMask worlds) {
  TruthMask out;
  for (std::size_t w = 0; w < k_world_count; ++w) {
    const auto bit = static_cast<WorldMask>(1u << w);
    if ((worlds & bit) == 0) {
      continue;
    }
    switch (truth_of(v[w])) {
      case Truth::True:
        out.may_true |= bit;
        break;
      case Truth::False:
        out.may_false |= bit;
        break;
      case Truth::Unknown:
        out.may_true |= bit;
        out.may_false |= bit;
        break;
    }
  }
  return out;
}

}  // namespace

TruthMask evaluate_condition(Directive directive, std::string_view text,
                             const MacroResolver& resolver, WorldMask worlds,
                             const ExpressionLimits& limits, bool* evaluated) {
  if (evaluated != nullptr) {
    *evaluated = true;
  }
  if (worlds == 0) {
    return {};
  }
  Evaluator evaluator(resolver, worlds, limits);
  Vec value{};
  const bool negate = directive == Directive::Ifndef || directive == Directive::Elifndef;
  bool ok = false;
  if (negate || directive == Directive::Ifdef || directive == Directive::Elifdef) {
    ok = evaluator.defined_of_first_identifier(text, value);
  } else {
    ok = evaluator.expression(text, value);
  }
  if (!ok) {
    if (evaluated != nullptr) {
      *evaluated = false;
    }
    return TruthMask::all_unknown(worlds);
  }
  TruthMask truth = to_mask(value, worlds);
  return negate ? truth_not(truth) : truth;
}

MacroResolution PlatformResolver::resolve(std::string_view name, World world) const {
  PlatformMacro kind = classify_platform_macro(name);
  PlatformValue value = platform_value(name, kind, world);
  switch (value.kind) {
    case PlatformValue::Kind::Undefined:
      return {MacroResolution::Kind::Undefined, 0, {}};
    case PlatformValue::Kind::Value:
      return {MacroResolution::Kind::Value, value.value, {}};
    case PlatformValue::Kind::Nonzero:
      return {MacroResolution::Kind::Nonzero, 0, {}};
    case PlatformValue::Kind::Unknown:
      break;
  }
  return {MacroResolution::Kind::Unknown, 0, {}};
}

}  // namespace gpuport
