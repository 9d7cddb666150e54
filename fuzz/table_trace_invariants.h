// What a CSV or SQLite trace reader must guarantee for any input: either a one-line error that
// names the file, or a trace with kernels whose ids and times are consistent.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string>

#include <tl/expected.hpp>

#include "profile/trace.h"

namespace gpuport::fuzzing {

[[noreturn]] inline void fail(const char* what, const std::string& detail) {
  std::fprintf(stderr, "invariant violated: %s: %s\n", what, detail.c_str());
  std::abort();
}

inline void check_trace_result(const tl::expected<Trace, TraceError>& result,
                               const std::string& path) {
  if (!result) {
    const std::string& message = result.error().message;
    if (message.rfind(path + ": ", 0) != 0)
      fail("error does not start with the path", message);
    if (message.find('\n') != std::string::npos || message.find('\r') != std::string::npos)
      fail("error is not one line", message);
    return;
  }
  const Trace& trace = *result;
  if (trace.path != path)
    fail("path", trace.path);
  bool kernel = !trace.summaries.empty();
  for (const GpuActivity& activity : trace.activities) {
    if (activity.duration_ns < 0)
      fail("negative duration", std::to_string(activity.duration_ns));
    if (activity.name >= trace.names.size())
      fail("activity name id out of range", std::to_string(activity.name));
    if (activity.device < -1 || activity.stream < -1)
      fail("negative device or stream", std::to_string(activity.device));
    kernel = kernel || activity.kind == ActivityKind::Kernel;
  }
  for (const KernelSummary& summary : trace.summaries) {
    if (summary.calls < 0 || summary.total_ns < 0 || summary.name >= trace.names.size())
      fail("bad summary", std::to_string(summary.total_ns));
  }
  for (const LaunchCall& launch : trace.launches) {
    if (launch.api >= trace.names.size())
      fail("launch name id out of range", std::to_string(launch.api));
  }
  for (const TraceRange& range : trace.ranges) {
    if (range.end_ns <= range.start_ns || range.name >= trace.names.size())
      fail("bad range", std::to_string(range.start_ns));
  }
  if (!kernel)
    fail("a trace without kernels was accepted", path);
}

}  // namespace gpuport::fuzzing
