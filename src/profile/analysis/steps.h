// Steps: the ranges that delimit one iteration of the workload (ProfilerStep#N, NVTX ranges or
// ranges named by --step), the GPU time inside each, and nearest-rank percentiles of their
// durations.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "profile/analysis/step_pattern.h"
#include "profile/trace.h"

namespace gpuport {

enum class StepSource : std::uint8_t {
  None,
  ProfilerStep,  // Kineto `ProfilerStep#N` (GPU-projected ranges preferred)
  Nvtx,          // the outermost NVTX/roctx ranges of an nsys, rocprof or rocpd input
  Pattern,       // ranges whose name matches --step
};
std::string_view step_source_name(StepSource source);  // "none", "profiler-step", "nvtx", "pattern"

struct Step {
  std::string name;
  std::int64_t start_ns = 0;
  std::int64_t duration_ns = 0;  // wall time of the range
  std::int64_t gpu_ns = 0;       // kernels, copies and fills that start inside it
  std::int64_t kernel_ns = 0;    // kernels alone
  std::int64_t kernels = 0;      // kernel dispatches that start inside it
};

struct StepReport {
  StepSource source = StepSource::None;
  bool on_gpu = false;                 // the ranges are GPU-projected (gpu_user_annotation)
  std::string pattern;                 // --step, when given
  std::vector<Step> steps;             // by start time
  std::optional<std::int64_t> p50_ns;  // of step durations, nearest rank
  std::optional<std::int64_t> p95_ns;
  std::optional<std::int64_t> p99_ns;
  std::string note;  // why there are no steps (empty when there are)
  // For each trace activity, the index of the step it starts in, or -1.
  std::vector<std::int32_t> step_of_activity;
};

// `pattern` may be null (then ProfilerStep#, else NVTX for non-Kineto inputs).
StepReport find_steps(const Trace& trace, const StepPattern* pattern);

}  // namespace gpuport
