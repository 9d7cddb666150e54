// `--step REGEX`: which range names delimit steps (ECMAScript syntax, matched anywhere in the
// name). Compiling never throws; a bad pattern comes back as a message.
#pragma once

#include <regex>
#include <string>
#include <string_view>

#include <tl/expected.hpp>

namespace gpuport {

class StepPattern {
 public:
  static tl::expected<StepPattern, std::string> compile(const std::string& text);
  bool matches(std::string_view name) const;
  const std::string& text() const { return m_text; }

 private:
  StepPattern(std::string text, std::regex regex)
      : m_text(std::move(text)), m_regex(std::move(regex)) {}
  std::string m_text;
  std::regex m_regex;
};

}  // namespace gpuport
