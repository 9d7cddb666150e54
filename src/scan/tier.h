// Portability tiers and severities, ordered from cheapest to most expensive.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace gpuport {

enum class Tier : std::uint8_t { Framework, Config, Mechanical, Retune, Rewrite };
enum class Severity : std::uint8_t { Info, Low, Medium, High };

std::string_view tier_name(Tier tier);  // "framework", "config", ...
std::optional<Tier> parse_tier(std::string_view name);
std::string_view severity_name(Severity severity);  // "info", "low", "medium", "high"

}  // namespace gpuport
