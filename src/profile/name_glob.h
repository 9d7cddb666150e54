// Whole-string patterns for the kernel-class rules: `*` matches any run of bytes, `#` one or more
// decimal digits, every other byte itself. Matching simulates the pattern as a small automaton,
// so it takes O(name length x pattern length) whatever the input (std::regex backtracks and
// recurses on long names).
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

namespace gpuport {

class NameGlob {
 public:
  // `pattern` may hold at most 62 elements (`#` counts twice); longer patterns never match.
  explicit NameGlob(std::string_view pattern);
  bool matches(std::string_view text) const;
  bool valid() const { return m_valid; }

 private:
  enum class Element : std::uint8_t { Literal, AnyRun, Digit, DigitRun };
  std::uint64_t closure(std::uint64_t states) const;

  std::vector<Element> m_elements;
  std::vector<char> m_literals;
  bool m_valid = true;
};

}  // namespace gpuport
