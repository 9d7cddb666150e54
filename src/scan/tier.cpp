// Names of tiers and severities as they appear in every output.
#include "scan/tier.h"

#include <array>

namespace gpuport {

namespace {
constexpr std::array<std::string_view, 5> k_tier_names = {"framework", "config", "mechanical",
                                                          "retune", "rewrite"};
constexpr std::array<std::string_view, 4> k_severity_names = {"info", "low", "medium", "high"};
}  // namespace

std::string_view tier_name(Tier tier) {
  return k_tier_names[static_cast<std::size_t>(tier)];
}

std::optional<Tier> parse_tier(std::string_view name) {
  for (std::size_t i = 0; i < k_tier_names.size(); ++i) {
    if (k_tier_names[i] == name) {
      return static_cast<Tier>(i);
    }
  }
  return std::nullopt;
}

std::string_view severity_name(Severity severity) {
  return k_severity_names[static_cast<std::size_t>(severity)];
}

}  // namespace gpuport
