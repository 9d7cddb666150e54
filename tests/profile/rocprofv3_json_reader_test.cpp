// The rocprofv3 JSON reader on a small hand-written results file.
#include <gtest/gtest.h>

#include <string>

#include "json_test_util.h"
#include "profile/trace_reader.h"

namespace gpuport {
namespace {

using testing::json_fixture_path;
using testing::kernel_totals_by_name;
using testing::read_file;
using testing::read_json_text;

const char* const k_nccl = "ncclDevKernel_Generic_1(ncclDevKernelArgsStorage<4096ul>)";

TEST(Rocprofv3JsonReaderTest, DispatchesAreNamedThroughKernelSymbolsListedAfterThem) {
  auto trace = read_trace(json_fixture_path("rocprofv3_small.json"), {});
  ASSERT_TRUE(trace.has_value()) << trace.error().message;
  EXPECT_EQ(trace->format, TraceFormat::Rocprofv3Json);
  EXPECT_EQ(trace->vendor, Vendor::Amd);
  const auto totals = kernel_totals_by_name(*trace);
  ASSERT_EQ(totals.size(), 2u);
  EXPECT_EQ(totals.at(k_nccl).count, 2);
  EXPECT_EQ(totals.at(k_nccl).total_ns, 2500 + 333);
  // An empty formatted name falls back to the demangled one.
  EXPECT_EQ(totals.at("void foo<int>(int*)").total_ns, 100);
}

TEST(Rocprofv3JsonReaderTest, ActivityFieldsAndDevices) {
  auto trace = read_trace(json_fixture_path("rocprofv3_small.json"), {});
  ASSERT_TRUE(trace.has_value()) << trace.error().message;
  ASSERT_EQ(trace->activities.size(), 4u);
  const GpuActivity& first = trace->activities[0];
  EXPECT_EQ(first.start_ns, 1000);
  EXPECT_EQ(first.duration_ns, 2500);
  EXPECT_EQ(first.correlation, 1);
  EXPECT_EQ(first.device, 0);  // the first GPU agent
  EXPECT_EQ(first.stream, 0);
  EXPECT_EQ(trace->activities[1].device, 1);
  EXPECT_EQ(trace->activities[1].stream, 3);
  const GpuActivity& copy = trace->activities[3];
  EXPECT_EQ(copy.kind, ActivityKind::Memcpy);
  EXPECT_EQ(trace->names[copy.name], "MEMORY_COPY_HOST_TO_DEVICE");
  EXPECT_EQ(copy.duration_ns, 40);
  EXPECT_EQ(copy.device, 1);  // its destination agent
  ASSERT_EQ(trace->devices.size(), 2u);
  EXPECT_EQ(trace->devices[0].name, "AMD Instinct MI300X");
  EXPECT_EQ(trace->devices[1].name, "gfx942");  // no product name
  EXPECT_EQ(trace->devices[0].warp_size, 64);
  EXPECT_EQ(trace->devices[0].compute_major, 9);
  EXPECT_EQ(trace->devices[0].compute_minor, 4);
}

TEST(Rocprofv3JsonReaderTest, GzipAndSmallChunksReadTheSame) {
  const std::string text = read_file(json_fixture_path("rocprofv3_small.json"));
  auto trace = read_json_text("r.json.gz", testing::gzip_text(text));
  ASSERT_TRUE(trace.has_value()) << trace.error().message;
  EXPECT_EQ(testing::total_kernel_ns(*trace), 2933);
}

TEST(Rocprofv3JsonReaderTest, AnUnknownKernelIdIsAnErrorNamingTheRecord) {
  auto trace = read_json_text("r.json", R"({"rocprofiler-sdk-tool": [{"buffer_records":
{"kernel_dispatch": [{"start_timestamp": 1, "end_timestamp": 2, "dispatch_info": {"kernel_id": 4}}]},
"kernel_symbols": [{"kernel_id": 3, "formatted_kernel_name": "k"}]}]})");
  ASSERT_FALSE(trace.has_value());
  EXPECT_EQ(
      trace.error().message,
      "r.json: byte 66: kernel_dispatch names kernel_id 4, which kernel_symbols does not list");
}

TEST(Rocprofv3JsonReaderTest, OlderFlatDispatchRecords) {
  auto trace = read_json_text("r.json", R"({"rocprofiler-sdk-tool": [{"kernel_symbols":
[{"kernel_id": 3, "kernel_name": "raw.kd"}], "buffer_records": {"kernel_dispatch": [
{"start_timestamp": "10", "end_timestamp": 25, "kernel_id": 3, "queue_id": {"handle": 2}}]}}]})");
  ASSERT_TRUE(trace.has_value()) << trace.error().message;
  ASSERT_EQ(trace->activities.size(), 1u);
  EXPECT_EQ(trace->names[trace->activities[0].name], "raw.kd");
  EXPECT_EQ(trace->activities[0].duration_ns, 15);
  EXPECT_EQ(trace->activities[0].stream, 2);  // the queue when there is no stream
}

// end - start was taken as it came: a record that ends before it starts was a negative time in
// every total (issue 27, item 8).
TEST(Rocprofv3JsonReaderTest, ARecordThatEndsBeforeItStartsIsAnError) {
  auto trace = read_json_text("r.json", R"({"rocprofiler-sdk-tool": [{"buffer_records":
{"kernel_dispatch": [{"start_timestamp": 900, "end_timestamp": 100, "dispatch_info": {"kernel_id": 4}}]}}]})");
  ASSERT_FALSE(trace.has_value());
  EXPECT_EQ(trace.error().message,
            "r.json: byte 66: a kernel_dispatch record that ends before it starts");
}

TEST(Rocprofv3JsonReaderTest, ARecordWithoutTimestampsIsAnError) {
  auto trace = read_json_text("r.json", R"({"rocprofiler-sdk-tool": [{"buffer_records":
{"kernel_dispatch": [{"start_timestamp": 1, "dispatch_info": {"kernel_id": 4}}]}}]})");
  ASSERT_FALSE(trace.has_value());
  EXPECT_EQ(trace.error().message,
            "r.json: byte 66: a kernel_dispatch record without integer start_timestamp and "
            "end_timestamp");
}

}  // namespace
}  // namespace gpuport
