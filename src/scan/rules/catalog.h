// The rule catalog: one row per rule, the single source of ids, tiers, messages and weights.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "scan/tier.h"

namespace gpuport {

struct RuleInfo {
  std::string_view id;         // GP-<FAMILY>-NNN, stable forever
  std::string_view family;     // WARP, ASM, MMA, TYPE, MEM, EXEC, DEV, LIB, FW, BUILD, DEPLOY, ART
  std::string_view component;  // row of the portability table it feeds: "Inline PTX", "PyTorch"
  Tier tier = Tier::Mechanical;
  Severity severity = Severity::Medium;
  double effort_hours = 0;   // per occurrence, before any per-component cap
  std::string_view summary;  // one sentence; also the first line of docs/rules/<id>.md
  std::string_view fix;      // what the porter does
};

// Short names for the catalog rows that each family file writes as tables
// (`using namespace catalog_rows;` in the file, never in a header).
namespace catalog_rows {
inline constexpr Tier k_fw = Tier::Framework;
inline constexpr Tier k_cfg = Tier::Config;
inline constexpr Tier k_mech = Tier::Mechanical;
inline constexpr Tier k_ret = Tier::Retune;
inline constexpr Tier k_rw = Tier::Rewrite;
inline constexpr Severity k_info = Severity::Info;
inline constexpr Severity k_low = Severity::Low;
inline constexpr Severity k_med = Severity::Medium;
inline constexpr Severity k_high = Severity::High;
}  // namespace catalog_rows

// All rules, sorted by id.
std::span<const RuleInfo> rule_catalog();
// nullptr when unknown.
const RuleInfo* find_rule(std::string_view id);
// Index into rule_catalog(); rule ids are looked up once, findings carry the index.
std::uint16_t rule_index(std::string_view id);

// What a component of the stack is on AMD, for the portability table.
struct ComponentInfo {
  std::string_view name;            // "PyTorch", "TensorRT", "Inline PTX", ...
  std::string_view amd_status;      // "supported", "partial", "none", "needs rework"
  std::string_view amd_equivalent;  // "ROCm wheels (torch==X+rocmY)", "MIGraphX", ...
  std::string_view cost;            // "image swap + validation", "weeks per kernel", ...
};
std::span<const ComponentInfo> component_catalog();
const ComponentInfo* find_component(std::string_view name);

}  // namespace gpuport
