// The JSON reader family: tells a Kineto trace from rocprofv3 output by the first top-level key
// that decides it (traceEvents or rocprofiler-sdk-tool; Kineto writes metadata keys before and
// after traceEvents), reads the file in one streaming pass and hands each member to its reader.
#include <string_view>

#include "profile/json/json_reader.h"
#include "profile/readers/kineto_reader.h"
#include "profile/readers/readers.h"
#include "profile/readers/rocprofv3_json_reader.h"

namespace gpuport {
namespace {

constexpr std::string_view k_kineto_key = "traceEvents";
constexpr std::string_view k_rocprofv3_key = "rocprofiler-sdk-tool";

TraceError not_a_trace(const std::string& path, std::optional<TraceFormat> forced) {
  if (forced == TraceFormat::KinetoJson)
    return TraceError{path + ": not a Kineto trace (no traceEvents key)"};
  if (forced == TraceFormat::Rocprofv3Json)
    return TraceError{path + ": not a rocprofv3 JSON trace (no rocprofiler-sdk-tool key)"};
  return TraceError{path + ": not a profiler trace (no traceEvents or rocprofiler-sdk-tool key)"};
}

}  // namespace

tl::expected<Trace, TraceError> read_json_trace(ByteStream& in, std::optional<TraceFormat> forced) {
  if (forced && forced != TraceFormat::KinetoJson && forced != TraceFormat::Rocprofv3Json) {
    return tl::unexpected(
        TraceError{in.path() + ": a JSON file, not " + std::string(format_name(*forced))});
  }
  json::JsonReader json(in);
  Trace trace;
  trace.path = in.path();
  KinetoReader kineto(json, trace);
  Rocprofv3JsonReader rocprofv3(json, trace);
  std::optional<TraceFormat> format;  // decided by the first decisive key

  const json::ValueKind top = json.peek();
  if (top == json::ValueKind::Array && forced != TraceFormat::Rocprofv3Json) {
    format = TraceFormat::KinetoJson;  // a bare array of events
    kineto.read_events();
  } else if (top == json::ValueKind::Object) {
    json.enter_object();
    std::string_view key;
    while (json.next_key(key)) {
      if (!format && key == k_kineto_key && forced != TraceFormat::Rocprofv3Json) {
        format = TraceFormat::KinetoJson;
        kineto.read_events();
      } else if (!format && key == k_rocprofv3_key && forced != TraceFormat::KinetoJson) {
        format = TraceFormat::Rocprofv3Json;
        rocprofv3.read_tool_array();
      } else if (format != TraceFormat::Rocprofv3Json && key != k_kineto_key) {
        kineto.read_member(key);
      } else {
        json.skip_value();
      }
    }
  } else if (top != json::ValueKind::None) {
    json.skip_value();
  }
  json.finish();
  if (json.failed())
    return tl::unexpected(json.error());
  if (!format)
    return tl::unexpected(not_a_trace(trace.path, forced));
  auto finished = *format == TraceFormat::KinetoJson ? kineto.finish() : rocprofv3.finish();
  if (!finished)
    return tl::unexpected(finished.error());
  return trace;
}

}  // namespace gpuport
