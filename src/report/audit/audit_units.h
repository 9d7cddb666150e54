// How the audit writers spell the audit's enums and numbers, so HTML, Markdown and JSON show the
// same values the same way.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "audit/audit_result.h"
#include "audit/verdict.h"  // format_days() and verdict_id(), shared with the verdict's text

namespace gpuport {

// JSON and table spellings: "config", "mechanical", "retune", "rewrite".
std::string_view effort_tier_key(EffortTier tier);
// "Config", "Mechanical", "Retune", "Rewrite".
std::string_view effort_tier_title(EffortTier tier);
std::string_view effort_unit_key(EffortUnit unit);  // "days", "hours"
std::string_view hotness_key(Hotness hotness);      // "hot", "cold", "untraced"
// "Config change", "Validation pass", "Bounded project", "Major project", "Not worth it".
std::string_view verdict_title(VerdictKind kind);
std::string_view evidence_kind_key(EvidenceLink::Kind kind);  // "finding", "kernel", "file", "api"

// What a finding is for the port: "port work", "handled for AMD (guard line 67)", "CUDA-only",
// or the scope of code outside the product ("test", "vendored").
std::string port_role(const AuditFinding& finding);

// "3 / 5 / 9 days" (low / likely / high).
std::string format_day_range(const DayRange& range);
// An effort cell: days as format_days() shows them, but under a tenth of a day in hours
// ("0.5 h"), so that a tiny item never reads "0 / 0 / 0".
std::string format_effort(double days, double hours_per_day);
// A kernel's tuning days "low / likely / high", or "-" when it gets none (cold, or not the
// team's code).
std::string format_tuning(const AuditKernel& kernel);

// A kernel's class as people read it: the team's own unclassified kernels are "own code", not
// "unknown"; other unclassified ones are "unclassified".
std::string_view kernel_class_label(KernelClass klass, bool own_code);
// A row of the GPU-time-by-class table: its own share decides the label of the unknown class.
std::string_view class_time_label(const ClassTime& entry);

// "not-checked", "plausible", "too-high", "too-low"
std::string_view magnitude_state_key(MagnitudeState state);
// The check flags the estimate (too high or too low): shown with the verdict.
bool flags_the_estimate(const MagnitudeCheck& check);
// Dollars: "$0.42", "$347.20" below $1,000; "$12,345" from there; "-$1,200" below zero.
std::string format_dollars(double dollars);
// "7.3 months"; "never" when there is no payback.
std::string format_months(std::optional<double> months);
// "0.85x" (a throughput ratio, AMD / NVIDIA).
std::string format_throughput_ratio(double ratio);
// "12.5 req/s".
std::string format_rps(double rps);
// "1.2M", "350k", "900" requests.
std::string format_requests(double requests);
// A quantity: "3", "2.5".
std::string format_quantity(double quantity);
// A quantity and its unit, the unit's plural "s" dropped for exactly one: "3 sites", "1 site",
// "1 unsupported API".
std::string format_amount(double quantity, std::string_view unit);
// "NVIDIA H100", "AMD MI300X".
std::string platform_label(const PlatformCost& platform);

// Rounding for JSON: days and dollars to the cent (2 decimals).
double round2(double value);

}  // namespace gpuport
