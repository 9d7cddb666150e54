#include "profile/name_layout.h"

namespace gpuport {
namespace {

bool is_close(const NameToken& token, char c) {
  return is_punct(token, c) && token.match >= 0;
}

std::size_t match_of(const NameToken& token) {
  return static_cast<std::size_t>(token.match);
}

// `[abi:cxx11]` after a name (the GNU demangler prints ABI tags this way).
bool is_abi_tag_close(const std::vector<NameToken>& tokens, std::size_t close) {
  if (!is_close(tokens[close], ']'))
    return false;
  const std::size_t open = match_of(tokens[close]);
  return open + 2 < close && is_word(tokens[open + 1], "abi") && is_punct(tokens[open + 2], ':');
}

bool is_name_word(const NameToken& token) {
  return token.kind == NameTokenKind::Word && !is_keyword(token.text);
}

// The first parameter list outside every bracket: template arguments and lambda groups are
// skipped whole, so the walk is linear.
std::size_t find_top_level_params(const std::vector<NameToken>& tokens) {
  std::size_t i = 0;
  while (i < tokens.size()) {
    if (is_open_bracket(tokens[i])) {
      if (tokens[i].text[0] == '(' && is_parameter_list(tokens, i))
        return i;
      i = match_of(tokens[i]) + 1;
      continue;
    }
    ++i;
  }
  return NameLayout::npos;
}

// A return type kernels can have: `void`, or a SFINAE type that resolves to it.
bool is_droppable_return_type(const std::vector<NameToken>& tokens, std::size_t end) {
  if (end == 1 && is_word(tokens[0], "void"))
    return true;
  for (std::size_t i = 0; i < end; ++i) {
    if (is_word(tokens[i], "enable_if") || is_word(tokens[i], "enable_if_t"))
      return true;
  }
  return false;
}

}  // namespace

bool is_parameter_list(const std::vector<NameToken>& tokens, std::size_t open) {
  const NameToken& paren = tokens[open];
  if (!is_punct(paren, '(') || paren.match < 0 || paren.space_before || open == 0)
    return false;
  const NameToken& prev = tokens[open - 1];
  if (prev.kind == NameTokenKind::Operator)
    return true;
  if (is_close(prev, '>') || is_abi_tag_close(tokens, open - 1))
    return true;
  if (!is_name_word(prev))
    return false;
  // `{lambda(float)#1}` and nsys's `[lambda(float) (instance 1)]`: the signature names the lambda.
  const bool lambda = prev.text == "lambda" && open >= 2 &&
                      (is_punct(tokens[open - 2], '{') || is_punct(tokens[open - 2], '['));
  return !lambda;
}

NameLayout layout_name(const std::vector<NameToken>& tokens) {
  NameLayout layout;
  layout.params = find_top_level_params(tokens);
  const std::size_t end = layout.params == NameLayout::npos ? tokens.size() : layout.params;
  layout.name_end = end;

  // Walk back from the end of the name over `head<args>` components joined by `::`. Components
  // other than the last may be functions with their parameters (`f(int)::{lambda()#1}`).
  std::vector<NameComponent> reversed;
  std::size_t pos = end;
  bool global_scope = false;
  while (true) {
    std::size_t p = pos;
    if (!reversed.empty()) {
      while (p > 0 && (is_word(tokens[p - 1], "const") || is_word(tokens[p - 1], "volatile")))
        --p;
      if (p > 0 && is_close(tokens[p - 1], ')') &&
          is_parameter_list(tokens, match_of(tokens[p - 1])))
        p = match_of(tokens[p - 1]);
    }
    while (p > 0 && is_abi_tag_close(tokens, p - 1))
      p = match_of(tokens[p - 1]);
    std::size_t template_open = NameLayout::npos;
    if (p > 0 && is_close(tokens[p - 1], '>')) {
      template_open = match_of(tokens[p - 1]);
      p = template_open;
    }
    while (p > 0 && is_abi_tag_close(tokens, p - 1))
      p = match_of(tokens[p - 1]);
    if (p == 0)
      break;
    const NameToken& head = tokens[p - 1];
    NameComponent component;
    if (is_name_word(head) || head.kind == NameTokenKind::Operator ||
        head.kind == NameTokenKind::Anonymous) {
      component = {p - 1, p};
    } else if (is_close(head, '}') || is_close(head, ']')) {
      component = {match_of(head), p};
    } else {
      break;
    }
    if (reversed.empty())
      layout.template_open = template_open;
    reversed.push_back(component);
    pos = component.begin;
    if (pos > 0 && tokens[pos - 1].kind == NameTokenKind::Scope) {
      if (pos == 1) {  // a leading `::` (global scope)
        global_scope = true;
        break;
      }
      --pos;
      continue;
    }
    break;
  }
  if (reversed.empty()) {
    layout.name_begin = 0;
    layout.template_open = NameLayout::npos;
    return layout;
  }
  layout.components.assign(reversed.rbegin(), reversed.rend());
  layout.name_begin = global_scope ? 0 : layout.components.front().begin;
  const std::size_t begin = layout.name_begin;
  layout.return_type_dropped =
      begin > 0 && tokens[begin].space_before && is_droppable_return_type(tokens, begin);
  return layout;
}

}  // namespace gpuport
