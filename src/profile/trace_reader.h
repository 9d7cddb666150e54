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

}  // namespace gpuport
