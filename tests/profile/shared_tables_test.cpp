// The CSV and SQLite readers on the real public traces beside the project: kernel count, total
// kernel time to the nanosecond, unique names and the top five equal expected_answers.json.
#include <gtest/gtest.h>

#include "kernel_totals.h"
#include "profile/trace_reader.h"
#include "shared_traces.h"

namespace gpuport {
namespace {

void expect_answers(const std::filesystem::path& traces, const std::string& file,
                    TraceFormat format) {
  const nlohmann::json expected = testing::expected_answers(traces).at("files").at(file);
  auto trace = read_trace((traces / file).string(), {});
  ASSERT_TRUE(trace.has_value()) << trace.error().message;
  EXPECT_EQ(trace->format, format);
  const auto totals = testing::kernel_totals(*trace);
  EXPECT_EQ(totals.n_kernels, expected.at("n_kernels").get<std::int64_t>());
  EXPECT_EQ(totals.total_ns, expected.at("kernel_total").get<std::int64_t>());
  EXPECT_EQ(totals.by_total.size(), expected.at("n_unique").get<std::size_t>());
  const auto& top5 = expected.at("top5");
  ASSERT_GE(totals.by_total.size(), top5.size());
  for (std::size_t i = 0; i < top5.size(); ++i) {
    EXPECT_EQ(totals.by_total[i], (testing::NameTotal{top5[i].at("name").get<std::string>(),
                                                      top5[i].at("total").get<std::int64_t>(),
                                                      top5[i].at("count").get<std::int64_t>()}))
        << "rank " << i + 1;
  }
}

TEST(SharedTables, LlamaCppRocprofResultsCsv) {
  GPUPORT_REQUIRE_SHARED_TRACES(traces);
  expect_answers(traces, "llamacpp_r9700_rocprof_results.csv", TraceFormat::RocprofCsv);
}

TEST(SharedTables, LlamaCppRocprofStatsCsv) {
  GPUPORT_REQUIRE_SHARED_TRACES(traces);
  expect_answers(traces, "llamacpp_r9700_rocprof_results.stats.csv", TraceFormat::RocprofStatsCsv);
}

TEST(SharedTables, NvfuserNsysSqlite) {
  GPUPORT_REQUIRE_SHARED_TRACES(traces);
  expect_answers(traces, "nvfuser_h200_nsys_report1.sqlite", TraceFormat::NsysSqlite);
}

TEST(SharedTables, NvfuserNsysSqliteDetails) {
  GPUPORT_REQUIRE_SHARED_TRACES(traces);
  auto trace = read_trace((traces / "nvfuser_h200_nsys_report1.sqlite").string(), {});
  ASSERT_TRUE(trace.has_value()) << trace.error().message;
  EXPECT_EQ(trace->vendor, Vendor::Nvidia);
  ASSERT_EQ(trace->devices.size(), 1u);
  EXPECT_EQ(trace->devices[0].name, "NVIDIA H200");
  EXPECT_EQ(trace->devices[0].compute_major, 9);
  // Every activity's launch call is in the runtime table; the other 947 calls are not kept.
  std::size_t kernels = 0;
  for (const GpuActivity& activity : trace->activities)
    kernels += activity.kind == ActivityKind::Kernel ? 1 : 0;
  EXPECT_EQ(kernels, 19u);
  EXPECT_EQ(trace->launches.size(), 21u);  // 19 kernels, 1 copy, 1 fill
  EXPECT_EQ(trace->ranges.size(), 652u);
}

}  // namespace
}  // namespace gpuport
