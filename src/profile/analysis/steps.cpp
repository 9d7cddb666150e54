#include "profile/analysis/steps.h"

#include <algorithm>

#include "profile/analysis/percentile.h"

namespace gpuport {

namespace {

constexpr std::string_view k_profiler_step = "ProfilerStep#";

// The ranges `wanted` accepts, GPU-projected ones if any are, else the CPU ones.
template <typename Wanted>
std::vector<const TraceRange*> select(const Trace& trace, Wanted wanted, bool& on_gpu) {
  std::vector<const TraceRange*> gpu;
  std::vector<const TraceRange*> cpu;
  for (const TraceRange& range : trace.ranges) {
    if (wanted(range)) {
      (range.on_gpu ? gpu : cpu).push_back(&range);
    }
  }
  on_gpu = !gpu.empty();
  return on_gpu ? gpu : cpu;
}

// Ranges not inside another range (a range equal to an earlier one counts once).
std::vector<const TraceRange*> outermost(const Trace& trace) {
  std::vector<const TraceRange*> sorted;
  for (const TraceRange& range : trace.ranges) {
    sorted.push_back(&range);
  }
  std::stable_sort(sorted.begin(), sorted.end(), [](const TraceRange* a, const TraceRange* b) {
    return a->start_ns != b->start_ns ? a->start_ns < b->start_ns : a->end_ns > b->end_ns;
  });
  std::vector<const TraceRange*> result;
  std::int64_t covered_to = 0;
  for (const TraceRange* range : sorted) {
    if (result.empty() || range->start_ns >= covered_to) {
      result.push_back(range);
      covered_to = range->end_ns;
    } else {
      covered_to = std::max(covered_to, range->end_ns);
    }
  }
  return result;
}

bool has_nvtx_ranges(TraceFormat format) {
  return format != TraceFormat::KinetoJson;
}

void assign_activities(const Trace& trace, StepReport& report) {
  report.step_of_activity.assign(trace.activities.size(), -1);
  std::vector<std::int64_t> starts;
  for (const Step& step : report.steps) {
    starts.push_back(step.start_ns);
  }
  for (std::size_t i = 0; i < trace.activities.size(); ++i) {
    const GpuActivity& activity = trace.activities[i];
    // The latest step that starts at or before the activity.
    const auto after = std::upper_bound(starts.begin(), starts.end(), activity.start_ns);
    if (after == starts.begin()) {
      continue;
    }
    const auto index = static_cast<std::size_t>(after - starts.begin() - 1);
    Step& step = report.steps[index];
    if (activity.start_ns >= step.start_ns + step.duration_ns) {
      continue;
    }
    report.step_of_activity[i] = static_cast<std::int32_t>(index);
    step.gpu_ns += activity.duration_ns;
    if (activity.kind == ActivityKind::Kernel) {
      step.kernel_ns += activity.duration_ns;
      step.kernels += 1;
    }
  }
}

}  // namespace

std::string_view step_source_name(StepSource source) {
  switch (source) {
    case StepSource::ProfilerStep:
      return "profiler-step";
    case StepSource::Nvtx:
      return "nvtx";
    case StepSource::Pattern:
      return "pattern";
    case StepSource::None:
      break;
  }
  return "none";
}

StepReport find_steps(const Trace& trace, const StepPattern* pattern) {
  StepReport report;
  std::vector<const TraceRange*> ranges;
  if (pattern != nullptr) {
    report.pattern = pattern->text();
    // Match each distinct name once: names repeat in every step.
    std::vector<std::int8_t> verdict(trace.names.size(), -1);
    ranges = select(
        trace,
        [&](const TraceRange& range) {
          std::int8_t& known = verdict[range.name];
          if (known < 0) {
            known = pattern->matches(trace.names[range.name]) ? 1 : 0;
          }
          return known == 1;
        },
        report.on_gpu);
    report.source = StepSource::Pattern;
  } else {
    ranges = select(
        trace,
        [&](const TraceRange& range) {
          return trace.names[range.name].starts_with(k_profiler_step);
        },
        report.on_gpu);
    report.source = StepSource::ProfilerStep;
    if (ranges.empty() && has_nvtx_ranges(trace.format)) {
      ranges = outermost(trace);
      report.source = StepSource::Nvtx;
      report.on_gpu = false;
    }
  }

  if (ranges.empty()) {
    report.source = StepSource::None;
    if (trace.summary_only()) {
      report.note = "no steps: a summary-only input has per-kernel totals, no timeline";
    } else if (pattern != nullptr) {
      report.note = "no steps: no range name matches --step '" + pattern->text() + "'";
    } else {
      report.note = "no steps: the trace has no ProfilerStep#/NVTX ranges; use --step REGEX";
    }
    return report;
  }

  std::stable_sort(ranges.begin(), ranges.end(), [](const TraceRange* a, const TraceRange* b) {
    return a->start_ns < b->start_ns;
  });
  for (const TraceRange* range : ranges) {
    Step step;
    step.name = std::string(trace.names[range->name]);
    step.start_ns = range->start_ns;
    step.duration_ns = std::max<std::int64_t>(0, range->end_ns - range->start_ns);
    report.steps.push_back(std::move(step));
  }
  assign_activities(trace, report);

  std::vector<std::int64_t> durations;
  for (const Step& step : report.steps) {
    durations.push_back(step.duration_ns);
  }
  std::sort(durations.begin(), durations.end());
  report.p50_ns = nearest_rank(durations, 50);
  report.p95_ns = nearest_rank(durations, 95);
  report.p99_ns = nearest_rank(durations, 99);
  return report;
}

}  // namespace gpuport
