// Groupings every writer shows (counts by tier, rule, reason, kind): grouping only, no analysis.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "scan/rules/catalog.h"
#include "scan/scan_result.h"

namespace gpuport {

inline constexpr std::size_t k_tier_count = 5;

struct RuleCount {
  const RuleInfo* rule = nullptr;
  std::uint16_t index = 0;  // into rule_catalog()
  std::uint64_t count = 0;
};

struct NameCount {
  std::string name;
  std::uint64_t count = 0;
  std::string first_file;
  std::uint32_t first_line = 0;
};

struct KernelTotals {
  std::uint64_t kernels = 0;
  std::uint64_t templated = 0;
  std::uint64_t via_macro = 0;
  std::uint64_t lines_of_code = 0;
  std::uint64_t with_ptx = 0;
  std::uint64_t with_wmma = 0;  // nvcuda::wmma or mma/wgmma/ldmatrix PTX
  std::uint64_t with_warp_intrinsics = 0;
};

// The rule a finding points at; nullptr for an index outside the catalog.
const RuleInfo* rule_of(const Finding& finding);

std::array<std::uint64_t, k_tier_count> findings_by_tier(const ScanResult& result);
std::optional<Tier> highest_tier(const ScanResult& result);
// Sorted by tier (highest first), then count (largest first), then id.
std::vector<RuleCount> findings_by_rule(const ScanResult& result);
KernelTotals kernel_totals(const ScanResult& result);
// Inline-PTX findings (ASM family, with a matched instruction) grouped by the instruction as the
// rule reported it, largest first; the first position of each.
std::vector<NameCount> ptx_sites_by_instruction(const ScanResult& result);
// In the order of the enums; only kinds that occur.
std::vector<NameCount> artifacts_by_kind(const ScanResult& result);
std::vector<NameCount> amd_path_by_kind(const ScanResult& result);
std::vector<NameCount> skipped_by_reason(const ScanResult& result);

// Kernels in the order the reports list them: most lines of code first, then file and line;
// the first `limit` of them.
std::vector<const Kernel*> kernels_by_size(const ScanResult& result, std::size_t limit = SIZE_MAX);

std::string_view context_name(BranchContext context);            // "neutral", "hip", "cuda_device"
std::string_view kernel_language_name(KernelLanguage language);  // "cuda", "cute_dsl", ...
std::string_view launch_kind_name(LaunchKind kind);              // "triple_chevron", ...
std::string_view artifact_kind_name(ArtifactKind kind);          // "tensorrt_engine", "cubin", ...
std::string_view amd_state_name(AmdBuildState state);  // "compiled", "excluded", "unknown"

// The #if line that excludes an item of `file` (null when the scan kept none for that line).
const GuardLine* find_guard(const ScanResult& result, std::string_view file, std::uint32_t line);
// The build line that leaves `file` out of the AMD build (null when no build file does).
const ExcludedSource* find_excluded_source(const ScanResult& result, std::string_view file);

// Findings per AMD-build state.
AmdBuildTally count_amd_build(const ScanResult& result);
// Findings per scope, in Scope order.
std::array<std::size_t, k_scope_count> findings_by_scope(const ScanResult& result);

// The code the AMD build leaves out, grouped by what leaves it out: one #if condition (the same
// `#ifdef NEW_MMA_AVAILABLE` wherever it stands) or one build line, with the product findings
// it holds and the first place it stands. Largest first.
struct ExcludedGroup {
  std::string text;  // the directive (comments and repeated blanks dropped), or the build line
  std::string file;  // of its first guard, or the build file
  std::uint32_t line = 0;
  bool build = false;      // a build file leaves whole sources out
  std::size_t places = 0;  // distinct guard lines (or build lines)
  std::size_t findings = 0;
  std::size_t with_alternative = 0;
};
std::vector<ExcludedGroup> excluded_groups(const ScanResult& result, std::size_t max);

// The highest tier among product findings the AMD build compiles or may compile (not those it
// leaves out), and how many such findings there are.
struct AmdView {
  std::optional<Tier> highest;
  std::size_t open = 0;      // compiled or unknown
  std::size_t excluded = 0;  // left out
  std::size_t excluded_with_alternative = 0;
  std::size_t outside_product = 0;
};
AmdView amd_view(const ScanResult& result);

// "2 compiled, 24 excluded (24 with an AMD alternative), 1 unknown"; empty when nothing is
// decided (a row of Python or config findings).
std::string amd_build_phrase(const AmdBuildTally& amd);
// Short feature tags of a kernel for the text and Markdown lists: "wmma warp ptx(mma.sync)".
std::string kernel_feature_tags(const KernelFeatures& features);

}  // namespace gpuport
