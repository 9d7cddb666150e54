// The Profile: everything `gpuport profile` reports about one trace, computed once from the
// Trace and handed to the writers, which compute nothing.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "profile/analysis/class_table.h"
#include "profile/analysis/kernel_table.h"
#include "profile/analysis/step_mix.h"
#include "profile/analysis/steps.h"
#include "profile/source_join.h"
#include "profile/trace.h"

namespace gpuport {

// Which trace, from which platform.
struct TraceInfo {
  std::string path;
  TraceFormat format = TraceFormat::KinetoJson;
  Vendor vendor = Vendor::Unknown;
  std::vector<DeviceInfo> devices;
  bool summary_only = false;
};

// Sums over the whole trace. "GPU time" is the sum of activity durations (kernels, copies and
// fills), not the union of busy intervals: overlapping streams count twice.
struct ProfileTotals {
  std::int64_t gpu_ns = 0;
  std::int64_t kernel_ns = 0;  // kernels only (the profilers' "total kernel time")
  std::int64_t memory_ns = 0;  // memcpy/memset activities
  std::int64_t communication_ns = 0;
  std::int64_t compute_ns = 0;  // gpu_ns - communication_ns
  std::int64_t unknown_ns = 0;  // kernels no rule classified
  double unknown_share = 0;     // of GPU time
  std::int64_t kernel_calls = 0;
  std::int64_t memory_calls = 0;
  std::int64_t unique_kernels = 0;  // distinct kernel names (copies and fills not counted)
  std::int64_t own_code_kernels = 0;
  std::int64_t own_code_ns = 0;
};

// The scan join, when --source or --scan was given.
struct SourceJoinSummary {
  std::int64_t definitions = 0;  // kernels in the scan
  std::int64_t joined = 0;       // trace kernels matched to a definition
};

struct Profile {
  TraceInfo trace;
  ProfileTotals totals;
  KernelTable kernels;
  ClassTable classes;
  StepReport steps;
  std::optional<StepMix> step_mix;
  std::optional<SourceJoinSummary> source;
};

struct ProfileOptions {
  const SourceIndex* source = nullptr;  // definitions to join, or null
  const StepPattern* step = nullptr;    // --step, or null
};

Profile analyze_trace(const Trace& trace, const ProfileOptions& options);

TraceInfo trace_info(const Trace& trace);

}  // namespace gpuport
