// One spelling for the ways demanglers write the same C++ name, so nsys, Kineto (CUPTI /
// roctracer, which use the GNU demangler) and rocprof names of one kernel compare equal.
// docs/kernel-classes.md lists every rewrite.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "profile/name_tokens.h"

namespace gpuport {

class CanonicalSpelling {
 public:
  // Plans the rewrites of the whole token list in one pass; `tokens` must outlive this object.
  explicit CanonicalSpelling(const std::vector<NameToken>& tokens);

  // Appends the canonical spelling of tokens [begin, end) to `out`:
  //   `<unnamed>` -> `(anonymous namespace)`; `[lambda(float) (instance 1)]` ->
  //   `{lambda(float)#1}`;
  //   `(int)4` -> `4`, `(unsigned long)2` -> `2ul` (also u, l, ll, ull; `(bool)1` -> `true`);
  //   function parameter lists dropped (nsys writes dependent parameter types as `T2`, so they
  //   never compare), lambda signatures kept; `void` before a qualified name in a template
  //   argument dropped (nsys prints the return type of a function a lambda lives in);
  //   `const T` -> `T const`; `[abi:cxx11]` dropped; spaces: one after `,`, one between two
  //   words, one before `const`/`volatile` after `)`, none elsewhere (`char*`, `>>`, `T&`).
  void append(std::size_t begin, std::size_t end, std::string& out) const;

 private:
  struct Rewrite {
    std::int32_t resume = -1;     // continue at this token (> the current one) afterwards
    std::int32_t text = -1;       // index in m_texts of what to write instead of the token
    bool skip = false;            // write nothing for the token
    std::uint8_t qualifiers = 0;  // moved here from the front: 1 = const, 2 = volatile
  };
  void plan();
  void plan_nsys_lambda(std::size_t open);
  void plan_cast(std::size_t open);
  void plan_west_const(std::size_t at);
  std::int32_t add_text(std::string text);

  const std::vector<NameToken>& m_tokens;
  std::vector<Rewrite> m_rewrites;
  std::vector<std::string> m_texts;
};

}  // namespace gpuport
