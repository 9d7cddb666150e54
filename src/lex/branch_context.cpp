// #if condition classifier: a fixed-stack three-valued preprocessor-expression evaluator.
#include "lex/branch_context.h"

#include <cstring>
#include <limits>

namespace gpuport {
namespace {

// ---- platform macros -------------------------------------------------------------------------

bool is_ident_byte(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '$' || c >= 0x80;
}

bool is_digit(unsigned char c) {
  return c >= '0' && c <= '9';
}

// __gfx942__, __gfx90a__, __gfx1100__, __GFX9__, __GFX11__.
bool is_amd_arch_macro(std::string_view name) {
  if (name.size() < 8 || name.substr(name.size() - 2) != "__") {
    return false;
  }
  std::string_view head = name.substr(0, 5);
  if (head != "__gfx" && head != "__GFX") {
    return false;
  }
  return is_digit(static_cast<unsigned char>(name[5]));
}

}  // namespace

PlatformMacro classify_platform_macro(std::string_view name) {
  if (name.size() < 3 || name.size() > 128) {
    return PlatformMacro::None;
  }
  if (name == "__CUDA_ARCH__") {
    return PlatformMacro::CudaArch;
  }
  if (name == "__CUDACC__" || name == "__NVCC__" || name == "__CUDA_ARCH_LIST__") {
    return PlatformMacro::CudaCompiler;
  }
  if (name == "__CUDACC_RTC__") {
    return PlatformMacro::CudaRtc;
  }
  if (name == "__HIPCC__" || is_amd_arch_macro(name)) {
    return PlatformMacro::Hip;
  }
  bool hip = false;
  bool nvidia = false;
  std::size_t pos = 0;
  while (pos < name.size()) {
    std::size_t end = name.find('_', pos);
    if (end == std::string_view::npos) {
      end = name.size();
    }
    std::string_view segment = name.substr(pos, end - pos);
    if (segment == "HIP" || segment == "ROCM" || segment == "AMDGCN") {
      hip = true;
    } else if (segment == "NVIDIA" || segment == "NVCC") {
      nvidia = true;
    }
    pos = end + 1;
  }
  return hip && !nvidia ? PlatformMacro::Hip : PlatformMacro::None;
}

namespace {

// ---- values --------------------------------------------------------------------------------

enum class ValKind : std::uint8_t { Known, Nonzero, Unknown };

struct Val {
  ValKind kind = ValKind::Unknown;
  std::int64_t n = 0;
};

constexpr Val known(std::int64_t n) {
  return {ValKind::Known, n};
}
constexpr Val unknown() {
  return {ValKind::Unknown, 0};
}
constexpr Val nonzero() {
  return {ValKind::Nonzero, 0};
}

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
  return {v, v, v, v};
}

constexpr std::size_t k_amd = static_cast<std::size_t>(World::Amd);
constexpr std::size_t k_cuda_host = static_cast<std::size_t>(World::CudaHost);
constexpr std::size_t k_cuda_device = static_cast<std::size_t>(World::CudaDevice);

// The value of `name` (as an operand, or under `defined`) in each world.
Vec macro_value(std::string_view name, bool defined_test) {
  Val present = defined_test ? known(1) : nonzero();
  Vec v = splat(known(0));
  switch (classify_platform_macro(name)) {
    case PlatformMacro::None:
      if (!defined_test && (name == "true" || name == "false")) {
        return splat(known(name == "true" ? 1 : 0));
      }
      return splat(unknown());
    case PlatformMacro::Hip:
      v[k_amd] = present;
      return v;
    case PlatformMacro::CudaArch:
      v[k_cuda_device] = present;
      return v;
    case PlatformMacro::CudaCompiler:
      v[k_cuda_host] = present;
      v[k_cuda_device] = present;
      return v;
    case PlatformMacro::CudaRtc:
      v[k_cuda_device] = unknown();
      return v;
  }
  return splat(unknown());
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
    if (std::strchr("()!~-+*/%<>&^|?:,", c) != nullptr && c != 0) {
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

// ---- the evaluator --------------------------------------------------------------------------

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

class Evaluator {
 public:
  explicit Evaluator(std::string_view text) : m_reader(text) {}

  // False when the expression cannot be parsed.
  bool run(Vec& result) {
    bool expect_operand = true;
    while (true) {
      CondToken token = m_reader.next();
      if (token.kind == CondKind::Error) {
        return false;
      }
      if (expect_operand) {
        if (!operand(token, expect_operand)) {
          return false;
        }
        continue;
      }
      if (token.kind == CondKind::End) {
        break;
      }
      if (!operator_token(token, expect_operand)) {
        return false;
      }
    }
    while (m_op_count > 0) {
      if (!reduce()) {
        return false;
      }
    }
    if (m_value_count != 1) {
      return false;
    }
    result = m_values[0];
    return true;
  }

  bool defined_of_first_identifier(Vec& result) {
    CondToken token = m_reader.next();
    if (token.kind != CondKind::Ident) {
      return false;
    }
    result = macro_value(token.text, true);
    return true;
  }

 private:
  static constexpr std::size_t k_capacity = 64;

  bool operand(const CondToken& token, bool& expect_operand) {
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
          return defined_operand();
        }
        return identifier_operand(token.text);
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

  bool defined_operand() {
    CondToken token = m_reader.next();
    bool paren = token.kind == CondKind::Punct && token.text == "(";
    if (paren) {
      token = m_reader.next();
    }
    if (token.kind != CondKind::Ident) {
      return false;
    }
    if (paren) {
      CondToken close = m_reader.next();
      if (close.kind != CondKind::Punct || close.text != ")") {
        return false;
      }
    }
    return push_value(macro_value(token.text, true));
  }

  // A name, or a function-like macro call such as __has_include(<x.h>) (value unknown).
  bool identifier_operand(std::string_view name) {
    std::size_t save = m_reader.position();
    CondToken token = m_reader.next();
    if (token.kind != CondKind::Punct || token.text != "(") {
      m_reader.rewind(save);
      return push_value(macro_value(name, false));
    }
    std::size_t depth = 1;
    while (depth > 0) {
      token = m_reader.next();
      if (token.kind == CondKind::End) {
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

  bool operator_token(const CondToken& token, bool& expect_operand) {
    if (token.kind == CondKind::Punct && token.text == ")") {
      while (m_op_count > 0 && m_ops[m_op_count - 1] != Op::LParen) {
        if (!reduce()) {
          return false;
        }
      }
      if (m_op_count == 0) {
        return false;
      }
      --m_op_count;
      return true;
    }
    if (token.kind == CondKind::Punct && token.text == "?") {
      while (m_op_count > 0 && precedence(m_ops[m_op_count - 1]) > precedence(Op::Question)) {
        if (!reduce()) {
          return false;
        }
      }
      expect_operand = true;
      return push_op(Op::Question);
    }
    if (token.kind == CondKind::Punct && token.text == ":") {
      while (m_op_count > 0 && m_ops[m_op_count - 1] != Op::Question) {
        if (m_ops[m_op_count - 1] == Op::LParen || !reduce()) {
          return false;
        }
      }
      if (m_op_count == 0) {
        return false;
      }
      m_ops[m_op_count - 1] = Op::Cond;
      expect_operand = true;
      return true;
    }
    Op op{};
    if ((token.kind != CondKind::Punct && token.kind != CondKind::Ident) ||
        !binary_op(token.text, op)) {
      return false;
    }
    while (m_op_count > 0 && m_ops[m_op_count - 1] != Op::LParen &&
           precedence(m_ops[m_op_count - 1]) >= precedence(op)) {
      if (!reduce()) {
        return false;
      }
    }
    expect_operand = true;
    return push_op(op);
  }

  bool reduce() {
    Op op = m_ops[--m_op_count];
    if (op == Op::LParen || op == Op::Question) {
      return false;
    }
    if (is_unary(op)) {
      if (m_value_count < 1) {
        return false;
      }
      Vec& a = m_values[m_value_count - 1];
      for (std::size_t w = 0; w < k_world_count; ++w) {
        a[w] = apply_unary(op, a[w]);
      }
      return true;
    }
    std::size_t arity = op == Op::Cond ? 3 : 2;
    if (m_value_count < arity) {
      return false;
    }
    Vec* args = &m_values[m_value_count - arity];
    for (std::size_t w = 0; w < k_world_count; ++w) {
      args[0][w] = op == Op::Cond ? apply_conditional(args[0][w], args[1][w], args[2][w])
                                  : apply_binary(op, args[0][w], args[1][w]);
    }
    m_value_count -= arity - 1;
    return true;
  }

  bool push_value(const Vec& value) {
    if (m_value_count == k_capacity) {
      return false;
    }
    m_values[m_value_count++] = value;
    return true;
  }

  bool push_op(Op op) {
    if (m_op_count == k_capacity) {
      return false;
    }
    m_ops[m_op_count++] = op;
    return true;
  }

  CondReader m_reader;
  std::array<Vec, k_capacity> m_values{};
  std::array<Op, k_capacity> m_ops{};
  std::size_t m_value_count = 0;
  std::size_t m_op_count = 0;
};

WorldTruth to_truth(const Vec& v) {
  WorldTruth out;
  for (std::size_t w = 0; w < k_world_count; ++w) {
    out.value[w] = truth_of(v[w]);
  }
  return out;
}

Truth truth_and(Truth a, Truth b) {
  if (a == Truth::False || b == Truth::False) {
    return Truth::False;
  }
  return a == Truth::True && b == Truth::True ? Truth::True : Truth::Unknown;
}

Truth truth_not(Truth a) {
  if (a == Truth::Unknown) {
    return a;
  }
  return a == Truth::True ? Truth::False : Truth::True;
}

}  // namespace

WorldTruth evaluate_condition(std::string_view directive_name, std::string_view condition_text) {
  Evaluator evaluator(condition_text);
  Vec value{};
  bool negate = directive_name == "ifndef" || directive_name == "elifndef";
  bool ok = false;
  if (negate || directive_name == "ifdef" || directive_name == "elifdef") {
    ok = evaluator.defined_of_first_identifier(value);
  } else {
    ok = evaluator.run(value);
  }
  if (!ok) {
    return WorldTruth::all(Truth::Unknown);
  }
  WorldTruth truth = to_truth(value);
  if (negate) {
    for (Truth& t : truth.value) {
      t = truth_not(t);
    }
  }
  return truth;
}

BranchContext classify_branch(const WorldTruth& taken) {
  bool elsewhere = taken[World::Host] != Truth::False || taken[World::CudaHost] != Truth::False ||
                   taken[World::CudaDevice] != Truth::False;
  if (taken[World::Amd] == Truth::False) {
    return elsewhere ? BranchContext::CudaDevice : BranchContext::Neutral;
  }
  return elsewhere ? BranchContext::Neutral : BranchContext::Hip;
}

BranchContext classify_condition(std::string_view directive_name, std::string_view condition_text) {
  return classify_branch(evaluate_condition(directive_name, condition_text));
}

BranchContext ConditionalChain::begin(const WorldTruth& condition) {
  m_none_taken = WorldTruth::all(Truth::True);
  return next(condition);
}

BranchContext ConditionalChain::next(const WorldTruth& condition) {
  WorldTruth taken;
  for (std::size_t w = 0; w < k_world_count; ++w) {
    taken.value[w] = truth_and(m_none_taken.value[w], condition.value[w]);
    m_none_taken.value[w] = truth_and(m_none_taken.value[w], truth_not(condition.value[w]));
  }
  return classify_branch(taken);
}

BranchContext ConditionalChain::otherwise() {
  WorldTruth taken = m_none_taken;
  m_none_taken = WorldTruth::all(Truth::False);
  return classify_branch(taken);
}

}  // namespace gpuport
