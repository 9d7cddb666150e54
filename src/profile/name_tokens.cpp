#include "profile/name_tokens.h"

#include <algorithm>
#include <array>

namespace gpuport {
namespace {

bool is_word_start(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$' || c >= 0x80;
}
bool is_word_char(unsigned char c) {
  return is_word_start(c) || (c >= '0' && c <= '9');
}
bool is_digit(unsigned char c) {
  return c >= '0' && c <= '9';
}
bool is_space(unsigned char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

// Operator names, longest symbols first so `operator<<=` is not read as `operator<`.
struct OperatorName {
  std::string_view symbol;
  std::string_view name;
};
constexpr OperatorName kOperators[] = {
    {"()", "operator()"},    {"[]", "operator[]"},   {"->*", "operator->*"},
    {"<=>", "operator<=>"},  {"<<=", "operator<<="}, {">>=", "operator>>="},
    {"->", "operator->"},    {"<<", "operator<<"},   {">>", "operator>>"},
    {"<=", "operator<="},    {">=", "operator>="},   {"==", "operator=="},
    {"!=", "operator!="},    {"&&", "operator&&"},   {"||", "operator||"},
    {"++", "operator++"},    {"--", "operator--"},   {"+=", "operator+="},
    {"-=", "operator-="},    {"*=", "operator*="},   {"/=", "operator/="},
    {"%=", "operator%="},    {"&=", "operator&="},   {"|=", "operator|="},
    {"^=", "operator^="},    {"+", "operator+"},     {"-", "operator-"},
    {"*", "operator*"},      {"/", "operator/"},     {"%", "operator%"},
    {"^", "operator^"},      {"&", "operator&"},     {"|", "operator|"},
    {"~", "operator~"},      {"!", "operator!"},     {"=", "operator="},
    {"<", "operator<"},      {">", "operator>"},     {",", "operator,"},
    {"\"\"", "operator\"\""}};

// After the word `operator` at `at`: the canonical operator name and where it ends, or nothing
// (a conversion operator such as `operator int` stays two words).
bool read_operator(std::string_view name, std::size_t at, std::string_view& text,
                   std::size_t& end) {
  std::size_t p = at;
  while (p < name.size() && is_space(static_cast<unsigned char>(name[p])))
    ++p;
  const std::string_view rest = name.substr(p);
  for (const OperatorName& op : kOperators) {
    if (rest.substr(0, op.symbol.size()) == op.symbol) {
      text = op.name;
      end = p + op.symbol.size();
      return true;
    }
  }
  for (const std::string_view word : {std::string_view("new"), std::string_view("delete")}) {
    if (rest.substr(0, word.size()) == word &&
        (rest.size() == word.size() ||
         !is_word_char(static_cast<unsigned char>(rest[word.size()])))) {
      const bool array = rest.substr(word.size(), 2) == "[]";
      if (word == "new")
        text = array ? "operator new[]" : "operator new";
      else
        text = array ? "operator delete[]" : "operator delete";
      end = p + word.size() + (array ? 2 : 0);
      return true;
    }
  }
  return false;
}

char closer_of(char open) {
  switch (open) {
    case '(':
      return ')';
    case '[':
      return ']';
    case '{':
      return '}';
    default:
      return '>';
  }
}

// Pairs brackets. Each stack entry remembers the nearest enclosing opener that is not `<`, so a
// `)` that closes a `(` across unclosed `<` (a comparison inside an expression) is found in O(1)
// and the `<` are demoted to plain punctuation.
void match_brackets(std::vector<NameToken>& tokens) {
  struct Open {
    std::int32_t index;
    std::int32_t outer_non_angle;  // stack position of the nearest non-`<` opener, or -1
  };
  std::vector<Open> stack;
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    NameToken& token = tokens[i];
    if (token.kind != NameTokenKind::Punct || token.text.size() != 1)
      continue;
    const char c = token.text[0];
    const auto here = static_cast<std::int32_t>(i);
    if (c == '(' || c == '[' || c == '{') {
      stack.push_back({here, static_cast<std::int32_t>(stack.size())});
    } else if (c == '<') {
      const NameToken* prev = i > 0 ? &tokens[i - 1] : nullptr;
      // `f<`, `operator()<`, and `f[abi:cxx11]<` (an ABI tag sits between name and arguments).
      const bool after_abi_tag = prev != nullptr && prev->kind == NameTokenKind::Punct &&
                                 prev->text == "]" && prev->match >= 0 &&
                                 tokens[static_cast<std::size_t>(prev->match) + 1].text == "abi";
      if (prev != nullptr && !token.space_before &&
          (prev->kind == NameTokenKind::Word || prev->kind == NameTokenKind::Operator ||
           after_abi_tag)) {
        const std::int32_t outer = stack.empty() ? -1 : stack.back().outer_non_angle;
        stack.push_back({here, outer});
      }
    } else if (c == '>') {
      if (!stack.empty() && tokens[static_cast<std::size_t>(stack.back().index)].text[0] == '<') {
        token.match = stack.back().index;
        tokens[static_cast<std::size_t>(stack.back().index)].match = here;
        stack.pop_back();
      }
    } else if (c == ')' || c == ']' || c == '}') {
      if (stack.empty())
        continue;
      const std::int32_t target = stack.back().outer_non_angle;
      if (target < 0)
        continue;
      NameToken& open =
          tokens[static_cast<std::size_t>(stack[static_cast<std::size_t>(target)].index)];
      if (closer_of(open.text[0]) != c)
        continue;
      stack.resize(static_cast<std::size_t>(target) +
                   1);  // unclosed `<` above it were not brackets
      token.match = stack.back().index;
      open.match = here;
      stack.pop_back();
    }
  }
}

}  // namespace

std::vector<NameToken> tokenize_name(std::string_view name) {
  std::vector<NameToken> tokens;
  tokens.reserve(name.size() / 3 + 1);
  bool space = false;
  std::size_t i = 0;
  while (i < name.size()) {
    const auto c = static_cast<unsigned char>(name[i]);
    if (is_space(c)) {
      space = true;
      ++i;
      continue;
    }
    NameToken token;
    token.space_before = space;
    token.offset = i;
    space = false;
    std::size_t end = i + 1;
    if (c == '(' && name.substr(i, 21) == "(anonymous namespace)") {
      token.kind = NameTokenKind::Anonymous;
      end = i + 21;
    } else if (c == '<' && name.substr(i, 9) == "<unnamed>") {
      token.kind = NameTokenKind::Anonymous;
      end = i + 9;
    } else if (c == ':' && i + 1 < name.size() && name[i + 1] == ':') {
      token.kind = NameTokenKind::Scope;
      end = i + 2;
    } else if (is_digit(c)) {
      token.kind = NameTokenKind::Number;
      while (end < name.size() &&
             (is_word_char(static_cast<unsigned char>(name[end])) || name[end] == '.'))
        ++end;
    } else if (is_word_start(c)) {
      token.kind = NameTokenKind::Word;
      while (end < name.size() && is_word_char(static_cast<unsigned char>(name[end])))
        ++end;
      std::string_view op;
      std::size_t op_end = 0;
      if (name.substr(i, end - i) == "operator" && read_operator(name, end, op, op_end)) {
        token.kind = NameTokenKind::Operator;
        token.text = op;
        tokens.push_back(token);
        i = op_end;
        continue;
      }
    } else {
      token.kind = NameTokenKind::Punct;
    }
    token.text = name.substr(i, end - i);
    tokens.push_back(token);
    i = end;
  }
  match_brackets(tokens);
  return tokens;
}

bool is_open_bracket(const NameToken& token) {
  if (token.kind != NameTokenKind::Punct || token.match < 0)
    return false;
  const char c = token.text[0];
  return c == '(' || c == '<' || c == '[' || c == '{';
}

bool is_close_bracket(const NameToken& token) {
  if (token.kind != NameTokenKind::Punct || token.match < 0)
    return false;
  const char c = token.text[0];
  return c == ')' || c == '>' || c == ']' || c == '}';
}

bool is_word(const NameToken& token, std::string_view text) {
  return token.kind == NameTokenKind::Word && token.text == text;
}

bool is_punct(const NameToken& token, char c) {
  return token.kind == NameTokenKind::Punct && token.text.size() == 1 && token.text[0] == c;
}

bool is_keyword(std::string_view word) {
  static constexpr std::array<std::string_view, 32> kKeywords{
      "void",    "bool",     "char",     "wchar_t",  "char8_t",    "char16_t",      "char32_t",
      "short",   "int",      "long",     "signed",   "unsigned",   "float",         "double",
      "auto",    "const",    "volatile", "restrict", "__restrict", "decltype",      "sizeof",
      "alignof", "noexcept", "throw",    "typeof",   "__typeof__", "__attribute__", "typename",
      "struct",  "class",    "enum",     "union"};
  return std::find(kKeywords.begin(), kKeywords.end(), word) != kKeywords.end();
}

}  // namespace gpuport
