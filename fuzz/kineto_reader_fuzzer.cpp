// libFuzzer target: arbitrary bytes read as a Kineto trace (and as whatever JSON trace they
// look like). Aborts when a trace is accepted that breaks the reader's promises.
#include <cstdint>
#include <cstdlib>
#include <string>

#include "profile/byte_stream.h"
#include "profile/readers/readers.h"

namespace {

void check(const tl::expected<gpuport::Trace, gpuport::TraceError>& trace) {
  if (!trace) {
    // One line that names the input.
    const std::string& message = trace.error().message;
    if (message.rfind("fuzz.json: ", 0) != 0 || message.find('\n') != std::string::npos)
      std::abort();
    return;
  }
  bool has_kernel = false;
  for (const gpuport::GpuActivity& activity : trace->activities) {
    if (activity.name >= trace->names.size())
      std::abort();
    std::int64_t end = 0;  // the reader refuses negative and overflowing times
    if (activity.duration_ns < 0 ||
        __builtin_add_overflow(activity.start_ns, activity.duration_ns, &end))
      std::abort();
    has_kernel = has_kernel || activity.kind == gpuport::ActivityKind::Kernel;
  }
  for (const gpuport::LaunchCall& launch : trace->launches) {
    if (launch.api >= trace->names.size() || launch.correlation < 0)
      std::abort();
  }
  if (!has_kernel)
    std::abort();  // a trace without kernels must be refused
  for (const gpuport::TraceRange& range : trace->ranges) {
    if (range.end_ns < range.start_ns)
      std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  gpuport::ByteStream forced = gpuport::ByteStream::from_memory("fuzz.json", bytes);
  check(gpuport::read_json_trace(forced, gpuport::TraceFormat::KinetoJson));
  gpuport::ByteStream detected = gpuport::ByteStream::from_memory("fuzz.json", bytes);
  check(gpuport::read_json_trace(detected, std::nullopt));
  return 0;
}
