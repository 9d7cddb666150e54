#include "profile/name_canonical.h"

#include <array>
#include <string_view>

#include "profile/name_layout.h"

namespace gpuport {
namespace {

constexpr std::string_view kAnonymous = "(anonymous namespace)";

bool is_ident(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '$' || c >= 0x80;
}

bool is_qualifier(std::string_view word) {
  return word == "const" || word == "volatile";
}

// Writes one piece with the canonical spacing against what precedes it.
void write_piece(std::string& out, std::string_view piece) {
  if (piece.empty())
    return;
  if (!out.empty()) {
    const auto a = static_cast<unsigned char>(out.back());
    const auto b = static_cast<unsigned char>(piece.front());
    bool space = false;
    if (a == ',')
      space = true;
    else if (is_qualifier(piece) || piece == "noexcept")
      space = is_ident(a) || a == ')' || a == ']' || a == '>';
    else
      space = is_ident(a) && is_ident(b);
    if (space)
      out += ' ';
  }
  out += piece;
}

bool is_type_word(std::string_view word) {
  static constexpr std::array<std::string_view, 14> kTypeWords{
      "void",  "bool", "char", "wchar_t", "char8_t",  "char16_t", "char32_t",
      "short", "int",  "long", "signed",  "unsigned", "float",    "double"};
  for (const std::string_view w : kTypeWords) {
    if (w == word)
      return true;
  }
  return false;
}

bool all_digits(std::string_view text) {
  if (text.empty())
    return false;
  for (const char c : text) {
    if (c < '0' || c > '9')
      return false;
  }
  return true;
}

// The literal suffix the GNU demangler writes for an integer of `type`; false for types it
// writes as a cast too (`(char)65`, `(short)1`).
bool literal_suffix(std::string_view type, std::string_view& suffix) {
  struct Entry {
    std::string_view type;
    std::string_view suffix;
  };
  static constexpr std::array<Entry, 6> kSuffixes{{{"int", ""},
                                                   {"unsigned int", "u"},
                                                   {"long", "l"},
                                                   {"unsigned long", "ul"},
                                                   {"long long", "ll"},
                                                   {"unsigned long long", "ull"}}};
  for (const Entry& e : kSuffixes) {
    if (e.type == type) {
      suffix = e.suffix;
      return true;
    }
  }
  return false;
}

}  // namespace

CanonicalSpelling::CanonicalSpelling(const std::vector<NameToken>& tokens)
    : m_tokens(tokens), m_rewrites(tokens.size()) {
  plan();
}

std::int32_t CanonicalSpelling::add_text(std::string text) {
  m_texts.push_back(std::move(text));
  return static_cast<std::int32_t>(m_texts.size() - 1);
}

void CanonicalSpelling::plan() {
  const std::size_t n = m_tokens.size();
  for (std::size_t i = 0; i < n; ++i) {
    const NameToken& t = m_tokens[i];
    const Rewrite& planned = m_rewrites[i];
    if (planned.resume >= 0 || planned.text >= 0 || planned.skip)
      continue;
    if (is_punct(t, '(') && t.match >= 0) {
      if (is_parameter_list(m_tokens, i))
        m_rewrites[i] = {t.match + 1, -1, true, 0};
      else
        plan_cast(i);
    } else if (is_punct(t, '[') && t.match >= 0 && i + 1 < n) {
      if (is_word(m_tokens[i + 1], "lambda"))
        plan_nsys_lambda(i);
      else if (is_word(m_tokens[i + 1], "abi") && i + 2 < n && is_punct(m_tokens[i + 2], ':'))
        m_rewrites[i] = {t.match + 1, -1, true, 0};
    } else if (t.kind == NameTokenKind::Word && (t.text == "void" || is_qualifier(t.text))) {
      const bool starts_argument =
          i > 0 && (is_punct(m_tokens[i - 1], ',') ||
                    (is_open_bracket(m_tokens[i - 1]) && m_tokens[i - 1].text[0] != '{'));
      if (!starts_argument || i + 1 >= n)
        continue;
      const NameToken& next = m_tokens[i + 1];
      if (t.text == "void") {
        // nsys: `normal_and_transform<…, void at::native::normal_kernel<…>(…)::[lambda…]>`.
        if (!is_punct(m_tokens[i - 1], '(') &&
            ((next.kind == NameTokenKind::Word && !is_keyword(next.text)) ||
             next.kind == NameTokenKind::Anonymous || next.kind == NameTokenKind::Scope)) {
          m_rewrites[i].skip = true;
        }
      } else {
        plan_west_const(i);
      }
    }
  }
}

// nsys `[lambda(ARGS) (instance N)]` -> `{lambda(ARGS)#N}`.
void CanonicalSpelling::plan_nsys_lambda(std::size_t open) {
  const auto close = static_cast<std::size_t>(m_tokens[open].match);
  if (close < open + 4 || !is_punct(m_tokens[close - 1], ')') || m_tokens[close - 1].match < 0)
    return;
  const auto instance_open = static_cast<std::size_t>(m_tokens[close - 1].match);
  if (instance_open <= open + 1 || instance_open + 3 != close - 1 ||
      !is_word(m_tokens[instance_open + 1], "instance") ||
      m_tokens[instance_open + 2].kind != NameTokenKind::Number) {
    return;
  }
  m_rewrites[open].text = add_text("{");
  Rewrite& instance = m_rewrites[instance_open];
  instance.text = add_text("#" + std::string(m_tokens[instance_open + 2].text) + "}");
  instance.resume = static_cast<std::int32_t>(close + 1);
}

// `(int)4` -> `4`, `(unsigned long)2` -> `2ul`, `(bool)1` -> `true`: how the GNU demangler writes
// integer template arguments, which nsys writes as casts.
void CanonicalSpelling::plan_cast(std::size_t open) {
  const auto close = static_cast<std::size_t>(m_tokens[open].match);
  if (close <= open + 1 || close - open - 1 > 3)
    return;
  std::string type;
  for (std::size_t i = open + 1; i < close; ++i) {
    if (m_tokens[i].kind != NameTokenKind::Word || !is_type_word(m_tokens[i].text))
      return;
    if (!type.empty())
      type += ' ';
    type += m_tokens[i].text;
  }
  std::size_t at = close + 1;
  std::string literal;
  if (at < m_tokens.size() && is_punct(m_tokens[at], '-')) {
    literal = "-";
    ++at;
  }
  if (at >= m_tokens.size() || m_tokens[at].kind != NameTokenKind::Number ||
      !all_digits(m_tokens[at].text)) {
    return;
  }
  const std::string_view digits = m_tokens[at].text;
  std::string_view suffix;
  if (type == "bool" && literal.empty() && (digits == "0" || digits == "1")) {
    literal = digits == "1" ? "true" : "false";
  } else if (literal_suffix(type, suffix)) {
    literal.append(digits);
    literal.append(suffix);
  } else {
    return;
  }
  m_rewrites[open].text = add_text(std::move(literal));
  m_rewrites[open].resume = static_cast<std::int32_t>(at + 1);
}

// `const T` -> `T const` (nsys writes west const, the GNU demangler east const).
void CanonicalSpelling::plan_west_const(std::size_t at) {
  const std::size_t n = m_tokens.size();
  std::size_t j = at + 1;
  if (m_tokens[j].kind == NameTokenKind::Word && is_type_word(m_tokens[j].text)) {
    while (j < n && m_tokens[j].kind == NameTokenKind::Word && is_type_word(m_tokens[j].text))
      ++j;
  } else {
    if (m_tokens[j].kind == NameTokenKind::Scope)
      ++j;
    while (j < n) {
      const NameToken& t = m_tokens[j];
      if (!((t.kind == NameTokenKind::Word && !is_keyword(t.text)) ||
            t.kind == NameTokenKind::Anonymous))
        break;
      ++j;
      if (j < n && is_punct(m_tokens[j], '<') && m_tokens[j].match >= 0)
        j = static_cast<std::size_t>(m_tokens[j].match) + 1;
      if (j < n && m_tokens[j].kind == NameTokenKind::Scope) {
        ++j;
        continue;
      }
      break;
    }
  }
  if (j == at + 1 || m_tokens[j - 1].kind == NameTokenKind::Scope)
    return;
  if (j < n) {
    const NameToken& after = m_tokens[j];
    if (!(is_punct(after, ',') || is_punct(after, '>') || is_punct(after, '*') ||
          is_punct(after, '&') || is_punct(after, ')')))
      return;
  }
  m_rewrites[at].skip = true;
  m_rewrites[j - 1].qualifiers |= m_tokens[at].text == "const" ? 1 : 2;
}

void CanonicalSpelling::append(std::size_t begin, std::size_t end, std::string& out) const {
  std::size_t i = begin;
  while (i < end && i < m_tokens.size()) {
    const NameToken& t = m_tokens[i];
    const Rewrite& r = m_rewrites[i];
    if (r.text >= 0)
      write_piece(out, m_texts[static_cast<std::size_t>(r.text)]);
    else if (r.skip)
      ;
    else if (t.kind == NameTokenKind::Anonymous)
      write_piece(out, kAnonymous);
    else
      write_piece(out, t.text);
    if (r.qualifiers & 1)
      write_piece(out, "const");
    if (r.qualifiers & 2)
      write_piece(out, "volatile");
    i = r.resume > static_cast<std::int32_t>(i) ? static_cast<std::size_t>(r.resume) : i + 1;
  }
}

}  // namespace gpuport
