// Detection of the JSON formats and the one-line refusals of read_json_trace / read_trace.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "json_test_util.h"
#include "profile/trace_reader.h"

namespace gpuport {
namespace {

using testing::gzip_text;
using testing::json_fixture_path;
using testing::read_file;
using testing::read_json_text;

const char* const k_one_kernel =
    R"({"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 1, "dur": 2})";

std::string error_of(const std::string& bytes, std::optional<TraceFormat> forced = std::nullopt) {
  auto trace = read_json_text("t.json", bytes, forced);
  return trace ? std::string("(read)") : trace.error().message;
}

TEST(JsonTraceTest, DetectedByTheFirstDecisiveKeyInAnyOrder) {
  const std::string kineto_late = std::string(R"({"metadata": {"rocprofiler-sdk-tool": 1},)") +
                                  R"("schemaVersion": 1, "traceEvents": [)" + k_one_kernel + "]}";
  auto trace = read_json_text("t.json", kineto_late);
  ASSERT_TRUE(trace.has_value()) << trace.error().message;
  EXPECT_EQ(trace->format, TraceFormat::KinetoJson);

  // rocprofv3 first: a traceEvents key after it is not read.
  const std::string both =
      std::string(R"({"rocprofiler-sdk-tool": [{"kernel_symbols":)") +
      R"([{"kernel_id": 1, "formatted_kernel_name": "r"}], "buffer_records":)" +
      R"({"kernel_dispatch": [{"start_timestamp": 5, "end_timestamp": 9,)" +
      R"("kernel_id": 1}]}}], "traceEvents": [)" + k_one_kernel + "]}";
  trace = read_json_text("t.json", both);
  ASSERT_TRUE(trace.has_value()) << trace.error().message;
  EXPECT_EQ(trace->format, TraceFormat::Rocprofv3Json);
  ASSERT_EQ(trace->activities.size(), 1u);
  EXPECT_EQ(trace->names[trace->activities[0].name], "r");

  // A forced format reads its own key even when the other comes first.
  trace = read_json_text("t.json", both, TraceFormat::KinetoJson);
  ASSERT_TRUE(trace.has_value()) << trace.error().message;
  EXPECT_EQ(trace->format, TraceFormat::KinetoJson);
  EXPECT_EQ(trace->names[trace->activities[0].name], "k");
}

TEST(JsonTraceTest, NotAProfilerTrace) {
  EXPECT_EQ(error_of(R"({"name": "package.json", "version": "1.0"})"),
            "t.json: not a profiler trace (no traceEvents or rocprofiler-sdk-tool key)");
  EXPECT_EQ(error_of(R"("just a string")"),
            "t.json: not a profiler trace (no traceEvents or rocprofiler-sdk-tool key)");
  EXPECT_EQ(error_of(R"({"traceEvents": []})", TraceFormat::Rocprofv3Json),
            "t.json: not a rocprofv3 JSON trace (no rocprofiler-sdk-tool key)");
  EXPECT_EQ(error_of(R"({"rocprofiler-sdk-tool": []})", TraceFormat::KinetoJson),
            "t.json: not a Kineto trace (no traceEvents key)");
  EXPECT_EQ(error_of("[]", TraceFormat::Rocprofv3Json),
            "t.json: not a rocprofv3 JSON trace (no rocprofiler-sdk-tool key)");
  EXPECT_EQ(error_of("[]", TraceFormat::NsysSqlite), "t.json: a JSON file, not nsys-sqlite");
}

TEST(JsonTraceTest, EmptyTraces) {
  EXPECT_EQ(error_of(R"({"traceEvents": []})"), "t.json: no events in the trace");
  EXPECT_EQ(error_of("[ ]"), "t.json: no events in the trace");
  EXPECT_EQ(error_of(R"({"rocprofiler-sdk-tool": [{"buffer_records": {"kernel_dispatch": []}}]})"),
            "t.json: no events in the trace");
  EXPECT_EQ(error_of(R"({"rocprofiler-sdk-tool": []})"), "t.json: no events in the trace");
}

TEST(JsonTraceTest, TracesWithoutKernels) {
  EXPECT_EQ(error_of(R"({"traceEvents": [{"ph": "X", "cat": "cpu_op", "name": "aten::mm", "ts": 1,
      "dur": 2}, {"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy", "ts": 1, "dur": 2},
      {"ph": "M", "name": "process_name"}]})"),
            "t.json: no GPU kernel events in 3 events");
  EXPECT_EQ(error_of(R"({"rocprofiler-sdk-tool": [{"buffer_records": {"kernel_dispatch": [],
      "hip_api": [{"operation": 1}, {"operation": 2}]}}]})"),
            "t.json: no GPU kernel events in 2 events");
  EXPECT_EQ(error_of(R"({"traceEvents": [{"ph": "X", "cat": "cpu_op", "name": "x", "ts": 1}]})"),
            "t.json: no GPU kernel events in 1 event");
}

TEST(JsonTraceTest, TruncatedAndInvalidJson) {
  const std::string text = read_file(json_fixture_path("kineto_cuda.json"));
  const std::string cut = text.substr(0, 2000);
  EXPECT_EQ(error_of(cut), "t.json: byte 2000: the file ends inside a string (truncated JSON?)");
  // Cut between two events, after the comma.
  const std::size_t between = text.find("},\n", 3000) + 2;
  const std::string at = std::to_string(between);
  EXPECT_EQ(error_of(text.substr(0, between)),
            "t.json: byte " + at + ": the file ends inside an array (truncated JSON?)");
  EXPECT_EQ(error_of(gzip_text(text.substr(0, between))),
            "t.json: byte " + at + ": the file ends inside an array (truncated JSON?)");
  EXPECT_EQ(error_of(R"({"traceEvents": [)" + std::string(k_one_kernel) + "]"),
            "t.json: byte 98: the file ends inside an object (truncated JSON?)");
  EXPECT_EQ(error_of(R"({"traceEvents" [1]})"),
            "t.json: byte 15: expected ':' after an object key");
  EXPECT_EQ(error_of(R"({"traceEvents": [1]})"),
            "t.json: byte 17: expected an event object in traceEvents");
  EXPECT_EQ(error_of(R"({"traceEvents": [)" + std::string(k_one_kernel) + "]} trailing"),
            "t.json: byte 100: unexpected data after the JSON value, found 't'");
}

TEST(JsonTraceTest, TruncatedGzipNamesTheCompressedOffset) {
  const std::string packed = gzip_text(read_file(json_fixture_path("kineto_cuda.json")));
  const std::string message = error_of(packed.substr(0, packed.size() - 20));
  EXPECT_EQ(message.rfind("t.json: compressed byte ", 0), 0u) << message;
  EXPECT_NE(message.find("truncated gzip stream"), std::string::npos) << message;
}

TEST(JsonTraceTest, ReadTraceSendsJsonFilesHereWithForcedFormats) {
  const std::string path = json_fixture_path("kineto_bare_array.json");
  auto trace = read_trace(path, {TraceFormat::KinetoJson});
  ASSERT_TRUE(trace.has_value()) << trace.error().message;
  EXPECT_EQ(trace->path, path);
  trace = read_trace(path, {TraceFormat::Rocprofv3Json});
  ASSERT_FALSE(trace.has_value());
  EXPECT_EQ(trace.error().message,
            path + ": not a rocprofv3 JSON trace (no rocprofiler-sdk-tool key)");
}

}  // namespace
}  // namespace gpuport
