// libFuzzer target: arbitrary bytes read as rocprofv3 JSON output. Aborts when an accepted
// trace has an activity without a resolved name or no kernel at all.
#include <cstdint>
#include <cstdlib>
#include <string>

#include "profile/byte_stream.h"
#include "profile/readers/readers.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  gpuport::ByteStream in = gpuport::ByteStream::from_memory("fuzz.json", bytes);
  auto trace = gpuport::read_json_trace(in, gpuport::TraceFormat::Rocprofv3Json);
  if (!trace) {
    const std::string& message = trace.error().message;
    if (message.rfind("fuzz.json: ", 0) != 0 || message.find('\n') != std::string::npos)
      std::abort();
    return 0;
  }
  if (trace->format != gpuport::TraceFormat::Rocprofv3Json || trace->activities.empty())
    std::abort();
  for (const gpuport::GpuActivity& activity : trace->activities) {
    if (activity.name >= trace->names.size() ||
        activity.device >= static_cast<std::int32_t>(trace->devices.size()) ||
        activity.duration_ns < 0) {
      std::abort();  // a record that ends before it starts is refused, never a negative time
    }
  }
  return 0;
}
