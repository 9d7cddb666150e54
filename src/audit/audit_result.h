// The values `gpuport audit` produces: what went in, the hot kernels, the effort line items, the
// cost per platform and the verdict with its reasons. The renderers only read these; every number
// a report shows is computed by the audit layer and stored here. docs/estimate-model.md explains
// how each one is made.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "profile/classify.h"
#include "profile/trace.h"
#include "scan/coverage.h"
#include "scan/scan_result.h"
#include "scan/tier.h"

namespace gpuport {

// ---- Inputs ------------------------------------------------------------------------------------

struct AuditTraceInfo {
  std::string path;  // as given
  TraceFormat format = TraceFormat::KinetoJson;
  Vendor vendor = Vendor::Unknown;
  std::string gpu;  // the first device's name ("NVIDIA H100 80GB HBM3"), empty when unknown
  std::int64_t gpu_ns = 0;
  std::int64_t kernel_calls = 0;
  std::int64_t unique_kernels = 0;
  std::int64_t steps = 0;              // 0 when the trace has none
  std::optional<std::int64_t> p95_ns;  // of step durations
  std::int64_t joined_kernels = 0;     // trace kernels matched to a scanned definition
  std::string note;                    // e.g. why there are no steps; empty otherwise
};

// A config value the user's file set to something other than the shipped default.
struct ConfigOverride {
  std::string key;            // dotted: "effort.rewrite.ptx_kind_days"
  std::string default_value;  // as TOML would write it: "2.0", "\"H100\""
  std::string value;
  std::uint32_t line = 0;  // in the user's config file
};

struct AuditInputSummary {
  std::string repo;  // as given
  std::vector<AuditTraceInfo> traces;
  std::optional<std::string> config_path;  // none: only the shipped defaults
  std::vector<ConfigOverride> overrides;   // sorted by key
  std::uint64_t files_scanned = 0;
  std::uint64_t findings = 0;
  std::uint64_t scanned_kernels = 0;  // __global__ definitions in the repo
  std::uint64_t translatable_files = 0;
  std::uint64_t files_changed_by_translation = 0;  // of the dry-run
  std::string translation_rocm;  // the ROCm release the dry-run translated for ("6.2")
  // The scan found an AMD build in the project (HIP CMake, a shim header, a ROCm setup branch).
  bool amd_build_exists = false;
  // The findings by what they mean for the port (they add up to `findings`): priced port work
  // (product code the AMD build may compile); already handled for AMD (left out of the AMD
  // build, which compiles an alternative); CUDA-only without an AMD branch (left out, no
  // alternative: feature gaps); outside the product (tests, examples, vendored, generated).
  std::uint64_t port_work_findings = 0;
  std::uint64_t handled_for_amd_findings = 0;
  std::uint64_t cuda_only_findings = 0;
  std::uint64_t outside_product_findings = 0;
};

// ---- Scan
// ----------------------------------------------------------------------------------------

// A finding as the report lists it, with the anchor line items and reasons link to.
struct AuditFinding {
  std::string anchor;  // "finding-GP-ASM-001-csrc/x.cu-42" (rule id, file, line)
  std::string rule;    // "GP-ASM-001"
  Tier tier = Tier::Mechanical;
  std::string component;  // portability-table row it feeds
  std::string summary;    // the rule's one sentence
  std::string file;
  std::uint32_t line = 0;
  std::string excerpt;
  std::string detail;
  Scope scope = Scope::Product;
  AmdBuild amd;  // the scan's AMD-build state of its line

  // Product code the AMD build may compile: priced (Finding::is_port_work).
  bool is_port_work() const {
    return scope == Scope::Product && amd.state != AmdBuildState::Excluded;
  }
};

// Engineer-days: the low, likely and high ends of an estimate.
struct DayRange {
  double low = 0;
  double likely = 0;
  double high = 0;
};

// A CUDA-only feature the AMD build does without: product findings of one component that the
// AMD build leaves out with no branch of its own in their place, or a folder of code the AMD
// build cannot compile (a CUTLASS/CuTe kernel family in a project that builds for AMD). Listed,
// not in the total; a folder feature carries what bringing it to AMD would take.
struct FeatureGap {
  std::string component;       // "Inline PTX"
  std::string amd_equivalent;  // what the AMD side offers, from the portability row
  std::uint64_t findings = 0;
  std::string first_anchor;  // the first finding, for links
  std::string file;          // where the first one is
  std::uint32_t line = 0;
  std::string folder;                 // "hopper/" for a folder feature; empty otherwise
  std::optional<DayRange> port_days;  // porting it anyway, when priced
  std::string port_basis;             // how port_days is made
  bool port_widened = false;          // port_days depends on hotness (widened without a trace)
};

// ---- Profile
// -------------------------------------------------------------------------------------

enum class Hotness : std::uint8_t {
  Hot,       // share of GPU time at or above the threshold, or in the p95 steps
  Cold,      // below the threshold and not in the p95 steps: zero tuning days
  Untraced,  // no trace: scanned kernel priced from the scan alone
};

struct SourceRef {
  std::string file;  // relative to the repo
  std::uint32_t line = 0;
};

struct AuditKernel {
  std::string anchor;     // "kernel-3" (1-based, in this list's order)
  std::string name;       // display name (demangled, shortened as the profile shows it)
  std::string raw_name;   // as the trace (or the scan) spells it
  std::size_t trace = 0;  // index into inputs.traces; unused when Untraced
  KernelClass klass = KernelClass::Unknown;
  std::string owner;
  bool own_code = false;
  double share = 0;  // of the trace's GPU time, 0..1
  std::int64_t total_ns = 0;
  std::int64_t calls = 0;
  std::optional<SourceRef> source;  // the scanned definition it joined to
  Hotness hotness = Hotness::Cold;
  std::string why;  // "6.3 % of GPU time (threshold 2 %)", "0.4 % < 2 %, not in the p95 steps"
  std::vector<std::string> finding_anchors;  // retune/rewrite findings inside its definition
  double tuning_days_low = 0;
  double tuning_days_likely = 0;
  double tuning_days_high = 0;
};

struct ClassTime {
  KernelClass klass = KernelClass::Unknown;
  std::int64_t time_ns = 0;
  double share = 0;              // of the trace's GPU time
  std::int64_t own_code_ns = 0;  // of time_ns, in kernels classified as the team's own code
};

struct TraceClassTime {
  std::size_t trace = 0;  // index into inputs.traces
  std::int64_t gpu_ns = 0;
  std::int64_t own_code_ns = 0;
  std::vector<ClassTime> classes;  // longest first
};

// ---- Effort
// --------------------------------------------------------------------------------------

enum class EffortTier : std::uint8_t { Config, Mechanical, Retune, Rewrite };

enum class EffortUnit : std::uint8_t { Days, Hours };

// What a line item is traceable to.
struct EvidenceLink {
  enum class Kind : std::uint8_t { Finding, Kernel, File, Api };
  Kind kind = Kind::Finding;
  std::string anchor;  // into the report: "finding-...", "kernel-3"; empty for File/Api
  std::string label;   // "GP-ASM-001 csrc/x.cu:42", "flash_fwd_kernel", "cudaGraphExecUpdate"
  std::string rule;    // Finding only
  std::string file;    // Finding, File, Api
  std::uint32_t line = 0;
};

struct EffortItem {
  std::string anchor;  // "item-12" (1-based, in this list's order)
  EffortTier tier = EffortTier::Mechanical;
  std::string title;
  std::vector<EvidenceLink> evidence;
  double quantity = 0;                 // sites, files, kernels, lines of code, ...
  std::string quantity_unit;           // "sites", "files", "kernels", "unsupported APIs", ...
  EffortUnit unit = EffortUnit::Days;  // of `per_unit`
  double per_unit = 0;                 // the config weight applied to one unit
  double hotness = 1;                  // weight for hot (1), cold or untraced rewrite items
  std::string basis;                   // how it was computed: "3 sites × 2 d × hot 1.0"
  std::string weight_key;  // the config key of `per_unit`: "effort.rewrite.ptx_kind_days"
  DayRange days;           // always in days (hours / 8)
  // Priced by how hot its code is (tuning, rewrite sites): the only items whose range a missing
  // trace widens.
  bool priced_by_hotness = false;
};

struct EffortTierTotal {
  EffortTier tier = EffortTier::Mechanical;
  std::uint32_t items = 0;
  DayRange days;
};

enum class MagnitudeState : std::uint8_t {
  NotChecked,  // no kernel code in scope, or too little port work to judge by its size
  Plausible,   // the implied rate is inside the documented range
  TooHigh,     // fewer kernel lines per engineer-day than the range: the estimate may be high
  TooLow,      // more than the range (and no AMD build to validate): it may be low
};

// The estimate against the size of the code it prices: kernel lines in scope per likely
// engineer-day of port work (everything but validation and config), checked against a
// documented plausible range (docs/estimate-model.md, *Magnitude check*).
struct MagnitudeCheck {
  std::uint64_t kernels = 0;       // port-work kernels (product code the AMD build may compile)
  std::uint64_t kernel_lines = 0;  // their lines of code
  double port_days = 0;            // likely days beside validation and config
  std::optional<double> lines_per_day;  // kernel_lines / port_days, when checked
  double plausible_low = 0;             // lines per engineer-day
  double plausible_high = 0;
  MagnitudeState state = MagnitudeState::NotChecked;
  std::string text;  // one sentence for people
};

struct EffortSummary {
  std::vector<EffortTierTotal> tiers;  // Config, Mechanical, Retune, Rewrite (all four, always)
  DayRange total;
  MagnitudeCheck magnitude;
  double hours_per_day = 8;  // effort.hours_per_day: a tiny item is shown in hours
};

// ---- Cost
// ----------------------------------------------------------------------------------------

// Where a platform's throughput came from when a `gpuport bench` result supplied it
// (`gpuport audit --bench-nvidia/--bench-amd`) instead of the config's throughput_rps.
struct ThroughputSource {
  std::string file;            // the bench result as given on the command line
  bool slo_qualified = false;  // its throughput_at_slo; false: request_throughput, no SLO run
  std::string slo;             // the SLO the result was judged against; empty: none
  std::string load;            // "concurrency 32", "rate 12 req/s"
  std::string model;
  std::string note;  // the sentence the reports print about it
};

struct PlatformCost {
  Vendor vendor = Vendor::Nvidia;
  std::string gpu;                // "H100", "MI300X"
  double gpu_price_per_hour = 0;  // dollars
  std::uint32_t gpus_per_replica = 1;
  double throughput_rps = 0;        // sustained requests/s per replica at the p95 SLO
  bool throughput_assumed = false;  // the shipped placeholder, not the team's number
  double cost_per_million = 0;      // dollars per 1M requests
  double monthly_cost = 0;          // at inputs' monthly volume
  std::optional<ThroughputSource> throughput_source;  // set when a bench result gave it
};

struct CostSummary {
  PlatformCost nvidia;
  PlatformCost amd;
  double monthly_requests = 0;
  double monthly_delta = 0;  // nvidia.monthly_cost - amd.monthly_cost: > 0 is a saving on AMD
  double day_rate = 0;       // dollars per engineer-day
  DayRange porting_cost;     // effort total × day rate, dollars
  std::optional<double> payback_months;  // likely porting cost / monthly delta; none: no saving
  double horizon_months = 0;             // the payback horizon of the config
  // AMD throughput as a fraction of NVIDIA's at which AMD's cost per request equals NVIDIA's.
  double break_even_ratio = 0;
  // The fraction at which the saving pays the likely porting cost back within the horizon; none
  // when no ratio can (monthly volume 0).
  std::optional<double> payback_ratio;
};

// ---- Verdict
// -------------------------------------------------------------------------------------

enum class VerdictKind : std::uint8_t {
  ConfigChange,    // only config items
  ExistingBuild,   // the project builds for AMD; validating that build is most of the work
  ValidationPass,  // no own kernels on the hot path, mechanical work within the config's bound
  BoundedProject,  // likely effort within the config's bound
  MajorProject,
  NotWorthIt,  // no saving, or payback beyond the horizon, at these prices
};

struct VerdictReason {
  std::string text;  // one sentence
  // Evidence: "kernel-3", "item-12", "finding-...", or a report section: "cost" (the cost and
  // payback block), "kernels" (the hot-kernel table).
  std::string anchor;
  double weight = 0;  // why it ranks where it does (days, or dollars per month for cost)
};

struct VerdictSummary {
  VerdictKind kind = VerdictKind::MajorProject;
  std::string headline;  // "Bounded project: 12–31 engineer-days"
  double days_low = 0;   // the N–M range shown with the verdict
  double days_high = 0;
  std::vector<VerdictReason> reasons;  // at most three, weightiest first
  // Inputs the verdict rests on that nobody measured or set (placeholder throughputs): shown
  // with the verdict, not only in a table.
  std::vector<std::string> assumed;
  // Both throughputs came from the team (its config or `gpuport bench` results): only then can
  // the cost decide the verdict.
  bool cost_decides = false;
  // "3 product files were not read (3 unreadable)": the verdict rests on part of the code.
  std::string incomplete;
};

// ---- What to measure before committing
// -------------------------------------------------------------------------------------

// A kind of library or framework work on the hot path: unpriced (AMD's counterpart is tuned by
// its maintainers), so only a measurement says whether it holds on AMD.
struct MeasureStep {
  KernelClass klass = KernelClass::Unknown;
  std::string what;             // "cuBLAS / cuBLASLt GEMMs"
  double share = 0;             // of GPU time, 0..1 (the largest over the traces)
  std::string amd_counterpart;  // "hipBLASLt / rocBLAS"
  std::string how;              // what to compare in the measurement of MeasurePlan::first
  std::string anchor;           // its hottest kernel's row: "kernel-4"; empty when none listed
};

struct MeasurePlan {
  std::string first;               // the measurement every step reads: bench and profile on AMD
  std::vector<MeasureStep> steps;  // largest share first
  std::string largest_risk;        // one sentence naming the largest unpriced risk
};

// ---- Coverage
// ------------------------------------------------------------------------------------

struct TraceCoverage {
  bool traced = false;
  // Without a trace, every item's low is multiplied by low_factor (< 1) and its high by
  // high_factor (> 1); both are 1 with a trace.
  double low_factor = 1;
  double high_factor = 1;
  // "no trace: estimated from the scan alone, every kernel priced as possibly hot at ×0.5, and
  // the ranges of what depends on hotness widened by ×0.75 low / ×2 high"; empty
  // with a trace.
  std::string note;
};

// ---- The result
// ----------------------------------------------------------------------------------

struct AuditResult {
  AuditInputSummary inputs;
  std::vector<Component> portability;    // the scan's component rows, as `gpuport scan` shows them
  std::vector<AuditFinding> findings;    // every finding of the scan, in scan order
  std::vector<FeatureGap> feature_gaps;  // by findings, most first; then by component
  std::vector<AuditKernel> kernels;      // hot first (by share), then cold, then untraced
  std::vector<TraceClassTime> class_time;  // one per trace, in inputs.traces order
  std::vector<EffortItem> items;           // by tier, then days (largest first)
  EffortSummary effort;
  CostSummary cost;
  VerdictSummary verdict;
  MeasurePlan measure_first;  // the hot library work to measure on AMD, and the largest risk
  TraceCoverage coverage;
  // Product files the scan could not read (unreadable, over --max-filesize): the estimate leaves
  // them out, and the verdict says it is incomplete.
  ScanCoverage source_coverage;
  double hot_threshold = 0.02;        // share of GPU time
  std::vector<std::string> warnings;  // one line each: unreadable files, unjoined kernels, ...
};

}  // namespace gpuport
