#include "profile/analysis/step_pattern.h"

namespace gpuport {

tl::expected<StepPattern, std::string> StepPattern::compile(const std::string& text) {
  try {
    std::regex regex(text, std::regex::ECMAScript | std::regex::optimize);
    return StepPattern(text, std::move(regex));
  } catch (const std::regex_error& error) {
    return tl::unexpected(std::string(error.what()));
  }
}

bool StepPattern::matches(std::string_view name) const {
  try {
    return std::regex_search(name.begin(), name.end(), m_regex);
  } catch (const std::regex_error&) {
    return false;  // too complex for this name: not a step
  }
}

}  // namespace gpuport
