#include "report/audit/audit_charts.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "report/audit/audit_units.h"
#include "report/profile/profile_units.h"

namespace gpuport {

BarChart gpu_time_chart(const TraceClassTime& trace, std::size_t index,
                        const std::string& title_suffix) {
  BarChart chart;
  chart.id = fmt::format("chart-gpu-time-{}", index + 1);
  chart.title = std::string(k_gpu_time_chart_title) + title_suffix;
  for (const ClassTime& klass : trace.classes) {
    Bar bar;
    bar.label = std::string(class_time_label(klass));
    bar.value = static_cast<double>(klass.time_ns);
    bar.accent = static_cast<double>(klass.own_code_ns);
    bar.value_text =
        fmt::format("{} ({})", format_duration(klass.time_ns), format_share(klass.share));
    if (klass.own_code_ns > 0) {
      bar.value_text += fmt::format(", own {}", format_duration(klass.own_code_ns));
    }
    chart.bars.push_back(std::move(bar));
  }
  return chart;
}

RangeChart effort_chart(const EffortSummary& effort) {
  RangeChart chart;
  chart.id = "chart-effort";
  chart.title = std::string(k_effort_chart_title);
  chart.axis_label = "engineer-days (bar: low to high; tick: likely)";
  for (const EffortTierTotal& tier : effort.tiers) {
    chart.bars.push_back({std::string(effort_tier_title(tier.tier)), tier.days.low,
                          tier.days.likely, tier.days.high, format_day_range(tier.days),
                          Tone::Base});
  }
  chart.bars.push_back({"Total", effort.total.low, effort.total.likely, effort.total.high,
                        format_day_range(effort.total), Tone::Accent});
  return chart;
}

BarChart cost_chart(const CostSummary& cost) {
  BarChart chart;
  chart.id = "chart-cost";
  chart.title = std::string(k_cost_chart_title);
  for (const PlatformCost* platform : {&cost.nvidia, &cost.amd}) {
    Bar bar;
    bar.label = platform_label(*platform);
    bar.value = platform->cost_per_million;
    bar.value_text = format_dollars(platform->cost_per_million);
    if (platform->throughput_assumed) {
      bar.value_text += " (assumed throughput)";
    }
    bar.tone = platform == &cost.amd ? Tone::Second : Tone::Base;
    chart.bars.push_back(std::move(bar));
  }
  return chart;
}

LineChart payback_chart(const CostSummary& cost) {
  LineChart chart;
  chart.id = "chart-payback";
  chart.title = std::string(k_payback_chart_title);
  chart.x_label = "months after the move";
  chart.y_label = "USD";
  double months = std::max(12.0, std::ceil(cost.horizon_months));
  if (cost.payback_months && std::isfinite(*cost.payback_months)) {
    months = std::max(months, std::ceil(*cost.payback_months * 1.25));
  }
  months = std::min(months, 120.0);
  LineSeries saving{"cumulative saving", {}, Tone::Second, false};
  for (int month = 0; month <= static_cast<int>(months); ++month) {
    saving.points.push_back({static_cast<double>(month), cost.monthly_delta * month});
  }
  chart.series.push_back(std::move(saving));
  chart.series.push_back({"porting (likely)",
                          {{0, cost.porting_cost.likely}, {months, cost.porting_cost.likely}},
                          Tone::Accent,
                          false});
  chart.series.push_back({"porting (high)",
                          {{0, cost.porting_cost.high}, {months, cost.porting_cost.high}},
                          Tone::Muted,
                          true});
  if (cost.payback_months && std::isfinite(*cost.payback_months) &&
      *cost.payback_months <= months) {
    chart.marker = LineMarker{*cost.payback_months,
                              fmt::format("payback: {}", format_months(cost.payback_months))};
  }
  return chart;
}

}  // namespace gpuport
