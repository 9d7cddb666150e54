#include "profile/name_glob.h"

namespace gpuport {
namespace {

constexpr std::size_t kMaxElements = 62;

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

}  // namespace

NameGlob::NameGlob(std::string_view pattern) {
  for (const char c : pattern) {
    if (c == '*') {
      m_elements.push_back(Element::AnyRun);
      m_literals.push_back(0);
    } else if (c == '#') {  // one digit, then any more
      m_elements.push_back(Element::Digit);
      m_literals.push_back(0);
      m_elements.push_back(Element::DigitRun);
      m_literals.push_back(0);
    } else {
      m_elements.push_back(Element::Literal);
      m_literals.push_back(c);
    }
  }
  m_valid = m_elements.size() <= kMaxElements;
}

// Runs may match nothing: a state before one also stands after it.
std::uint64_t NameGlob::closure(std::uint64_t states) const {
  for (std::size_t p = 0; p < m_elements.size(); ++p) {
    if ((states >> p & 1) &&
        (m_elements[p] == Element::AnyRun || m_elements[p] == Element::DigitRun)) {
      states |= std::uint64_t{1} << (p + 1);
    }
  }
  return states;
}

bool NameGlob::matches(std::string_view text) const {
  if (!m_valid)
    return false;
  const std::size_t m = m_elements.size();
  std::uint64_t states = closure(1);
  for (const char c : text) {
    std::uint64_t next = 0;
    for (std::size_t p = 0; p < m; ++p) {
      if (!(states >> p & 1))
        continue;
      switch (m_elements[p]) {
        case Element::Literal:
          if (m_literals[p] == c)
            next |= std::uint64_t{1} << (p + 1);
          break;
        case Element::Digit:
          if (is_digit(c))
            next |= std::uint64_t{1} << (p + 1);
          break;
        case Element::AnyRun:
          next |= std::uint64_t{1} << p;
          break;
        case Element::DigitRun:
          if (is_digit(c))
            next |= std::uint64_t{1} << p;
          break;
      }
    }
    states = closure(next);
    if (states == 0)
      return false;
  }
  return (states >> m & 1) != 0;
}

}  // namespace gpuport
