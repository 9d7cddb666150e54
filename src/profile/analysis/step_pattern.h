// `--step REGEX`: which range names delimit steps (RE2 syntax, matched anywhere in the name).
// RE2 matches in time linear in the name and without recursion: std::regex overflowed the
// stack on one 200 KB range name. Compiling never throws; a bad pattern comes back as a message.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include <tl/expected.hpp>

namespace re2 {
class RE2;
}

namespace gpuport {

class StepPattern {
 public:
  static tl::expected<StepPattern, std::string> compile(const std::string& text);
  bool matches(std::string_view name) const;
  const std::string& text() const { return m_text; }

 private:
  StepPattern(std::string text, std::shared_ptr<const re2::RE2> regex)
      : m_text(std::move(text)), m_regex(std::move(regex)) {}
  std::string m_text;
  std::shared_ptr<const re2::RE2> m_regex;  // shared: a compiled RE2 cannot be copied
};

}  // namespace gpuport
