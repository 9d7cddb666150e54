#include "profile/analysis/step_pattern.h"

#include <re2/re2.h>

namespace gpuport {

tl::expected<StepPattern, std::string> StepPattern::compile(const std::string& text) {
  RE2::Options options;
  options.set_log_errors(false);  // the error comes back as the message, not on stderr
  auto regex = std::make_shared<const RE2>(text, options);
  if (!regex->ok()) {
    return tl::unexpected(regex->error());
  }
  return StepPattern(text, std::move(regex));
}

bool StepPattern::matches(std::string_view name) const {
  return RE2::PartialMatch(re2::StringPiece(name.data(), name.size()), *m_regex);
}

}  // namespace gpuport
