// Where the parts of a tokenized kernel name are: a return type to drop (`void `, SFINAE
// `std::enable_if<…>::type `), the qualified function name with its template arguments, and the
// top-level parameter list.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "profile/name_tokens.h"

namespace gpuport {

// One `::`-separated part of the function name: a word, an operator name, an anonymous namespace
// or a lambda group (`{lambda()#1}`); its template arguments are not part of it.
struct NameComponent {
  std::size_t begin = 0;  // token range
  std::size_t end = 0;
};

struct NameLayout {
  static constexpr std::size_t npos = static_cast<std::size_t>(-1);

  std::vector<NameComponent> components;  // empty: not a C++ function name (`Memcpy HtoD (…)`)
  std::size_t name_begin = 0;             // first token of the name (after the return type)
  std::size_t name_end = 0;               // one past the name (its template arguments included)
  std::size_t params = npos;              // the top-level parameter list's `(`
  std::size_t template_open = npos;       // the `<` of the function's own template arguments
  bool return_type_dropped = false;       // the tokens before name_begin are `void` or SFINAE
};

NameLayout layout_name(const std::vector<NameToken>& tokens);

// `(` at `open` begins a parameter list: it directly follows a function name or its template
// arguments (`f(`, `f<int>(`, `operator()(`), not a keyword, a cast or a lambda's own signature.
bool is_parameter_list(const std::vector<NameToken>& tokens, std::size_t open);

}  // namespace gpuport
