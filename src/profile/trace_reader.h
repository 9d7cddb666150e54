// read_trace(): opens a profiler output, detects its format from its content (or takes
// --input-format) and hands it to the reader for that format.
#pragma once

#include <optional>
#include <string>

#include <tl/expected.hpp>

#include "profile/trace.h"

namespace gpuport {

struct ReadOptions {
  std::optional<TraceFormat> format;  // --input-format; detected from the content when empty
};

tl::expected<Trace, TraceError> read_trace(const std::string& path, const ReadOptions& options);

// Every GPU activity of a read trace has a duration of at least 0, an end that fits the time
// type, and the durations add up without overflow: otherwise one line naming the activity.
// read_trace() applies it to every format; each reader also refuses what it can place.
tl::expected<void, TraceError> check_activity_times(const Trace& trace);

}  // namespace gpuport
