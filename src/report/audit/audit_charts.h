// The HTML report's charts, as chart values made from an AuditResult (the SVG comes from
// svg_chart.h). Titles are fixed so tests and readers can find each chart.
#pragma once

#include "audit/audit_result.h"
#include "report/audit/svg_chart.h"

namespace gpuport {

inline constexpr std::string_view k_gpu_time_chart_title = "GPU time by class";
inline constexpr std::string_view k_effort_chart_title = "Effort by tier";
inline constexpr std::string_view k_cost_chart_title = "Cost per 1M requests";
inline constexpr std::string_view k_payback_chart_title = "Cumulative saving vs porting cost";

// One bar per class, the team's own code stacked first in the accent colour. `title_suffix`
// tells several traces apart (empty for one).
BarChart gpu_time_chart(const TraceClassTime& trace, std::size_t index,
                        const std::string& title_suffix);
// Config, Mechanical, Retune, Rewrite and the total: low to high with a tick at likely.
RangeChart effort_chart(const EffortSummary& effort);
// NVIDIA and AMD.
BarChart cost_chart(const CostSummary& cost);
// The cumulative saving by month against the likely and high porting cost, the break-even month
// marked. Covers at least the payback horizon (and 12 months), and the break-even month with a
// quarter to spare, up to 10 years.
LineChart payback_chart(const CostSummary& cost);

}  // namespace gpuport
