// The kernel table: grouping by exact name, totals to the nanosecond, shares, launch APIs,
// memory rows and summary-only inputs.
#include <gtest/gtest.h>

#include "profile/analysis/kernel_table.h"
#include "profile/analysis/profile.h"
#include "trace_builder.h"

namespace gpuport {
namespace {

using testing::TraceBuilder;

TEST(KernelTable, GroupsByExactNameWithTotalsToTheNanosecond) {
  TraceBuilder builder;
  builder.kernel("gemm_a", 0, 18'112)
      .kernel("elementwise", 20'000, 1'001)
      .kernel("gemm_a", 30'000, 18'113)
      .kernel("elementwise", 50'000, 999)
      .kernel("elementwise ", 60'000, 5);  // a trailing space is a different name
  const KernelTable table = build_kernel_table(builder.trace(), nullptr);

  ASSERT_EQ(table.rows.size(), 3u);
  EXPECT_EQ(table.gpu_ns, 38'230);
  const KernelRow& gemm = table.rows[0];
  EXPECT_EQ(gemm.name.raw, "gemm_a");
  EXPECT_EQ(gemm.calls, 2);
  EXPECT_EQ(gemm.total_ns, 36'225);
  EXPECT_EQ(gemm.min_ns, 18'112);
  EXPECT_EQ(gemm.max_ns, 18'113);
  EXPECT_EQ(gemm.mean_ns(), 18'113);  // 18112.5 rounds up
  EXPECT_DOUBLE_EQ(gemm.share, 36'225.0 / 38'230.0);
  EXPECT_EQ(table.rows[1].name.raw, "elementwise");
  EXPECT_EQ(table.rows[1].total_ns, 2'000);
  EXPECT_EQ(table.rows[1].mean_ns(), 1'000);
  EXPECT_EQ(table.rows[2].name.raw, "elementwise ");
  EXPECT_EQ(table.rows[2].total_ns, 5);
}

TEST(KernelTable, TiesAreOrderedByCallsThenName) {
  TraceBuilder builder;
  builder.kernel("b", 0, 10).kernel("a", 0, 10).kernel("c", 0, 5).kernel("c", 0, 5);
  const KernelTable table = build_kernel_table(builder.trace(), nullptr);
  ASSERT_EQ(table.rows.size(), 3u);
  EXPECT_EQ(table.rows[0].name.raw, "c");
  EXPECT_EQ(table.rows[1].name.raw, "a");
  EXPECT_EQ(table.rows[2].name.raw, "b");
}

TEST(KernelTable, RowOfNameMapsEveryActivityNameAndNothingElse) {
  TraceBuilder builder;
  builder.launch(1, "cudaLaunchKernel").kernel("small", 0, 1, 1).kernel("large", 0, 100);
  const Trace& trace = builder.trace();
  const KernelTable table = build_kernel_table(trace, nullptr);
  ASSERT_EQ(table.row_of_name.size(), trace.names.size());
  EXPECT_EQ(table.row_of_name[trace.activities[0].name], 1);
  EXPECT_EQ(table.row_of_name[trace.activities[1].name], 0);
  EXPECT_EQ(table.row_of_name[trace.launches[0].api], -1);
}

TEST(KernelTable, CountsLaunchApisPerKernelAndPicksTheDominantKind) {
  TraceBuilder builder;
  builder.launch(1, "cudaLaunchKernel")
      .launch(2, "cudaLaunchKernel")
      .launch(3, "cuLaunchKernel")
      .launch(4, "cudaLaunchKernel_v7000")
      .kernel("k", 0, 10, 1)
      .kernel("k", 10, 10, 2)
      .kernel("k", 20, 10, 3)
      .kernel("k", 30, 10, 4)
      .kernel("k", 40, 10, 99)   // no launch with this correlation
      .kernel("k", 50, 10, -1);  // no correlation at all
  const KernelTable table = build_kernel_table(builder.trace(), nullptr);
  ASSERT_EQ(table.rows.size(), 1u);
  const KernelRow& row = table.rows[0];
  ASSERT_EQ(row.launches.size(), 3u);
  EXPECT_EQ(row.launches[0].api, "cudaLaunchKernel");
  EXPECT_EQ(row.launches[0].calls, 2);
  EXPECT_EQ(row.launches[0].kind, LaunchApi::Runtime);
  EXPECT_EQ(row.launches[1].api, "cuLaunchKernel");
  EXPECT_EQ(row.launches[1].kind, LaunchApi::Module);
  EXPECT_EQ(row.launches[2].api, "cudaLaunchKernel_v7000");
  EXPECT_EQ(row.launch_api, LaunchApi::Runtime);  // 3 runtime launches beat 1 module launch
}

TEST(KernelTable, KernelWithoutLaunchesHasUnknownLaunchApi) {
  TraceBuilder builder;
  builder.kernel("k", 0, 10, 5);
  const KernelTable table = build_kernel_table(builder.trace(), nullptr);
  EXPECT_TRUE(table.rows[0].launches.empty());
  EXPECT_EQ(table.rows[0].launch_api, LaunchApi::Unknown);
}

TEST(KernelTable, CopiesAndFillsAreRowsOfClassMemory) {
  TraceBuilder builder;
  builder.kernel("k", 0, 300)
      .activity("Memcpy HtoD (Host -> Device)", 0, 100, -1, ActivityKind::Memcpy)
      .activity("Memset (Device)", 0, 50, -1, ActivityKind::Memset)
      .activity("Memset (Device)", 0, 50, -1, ActivityKind::Memset);
  const KernelTable table = build_kernel_table(builder.trace(), nullptr);
  ASSERT_EQ(table.rows.size(), 3u);
  EXPECT_EQ(table.gpu_ns, 500);
  // Equal totals: the row with more calls comes first.
  EXPECT_EQ(table.rows[1].kind, ActivityKind::Memset);
  EXPECT_EQ(table.rows[1].calls, 2);
  EXPECT_EQ(table.rows[1].classification.klass, KernelClass::Memory);
  EXPECT_EQ(table.rows[2].kind, ActivityKind::Memcpy);
  EXPECT_EQ(table.rows[2].classification.klass, KernelClass::Memory);
  EXPECT_DOUBLE_EQ(table.rows[0].share, 0.6);
}

TEST(KernelTable, SummaryOnlyInputsGiveCallsAndTotalsOnly) {
  TraceBuilder builder(TraceFormat::RocprofStatsCsv);
  builder.summary("mul_mat_q", 442, 598'069'423).summary("soft_max_f32", 64, 9'384'759);
  const KernelTable table = build_kernel_table(builder.trace(), nullptr);
  ASSERT_EQ(table.rows.size(), 2u);
  EXPECT_EQ(table.rows[0].calls, 442);
  EXPECT_EQ(table.rows[0].total_ns, 598'069'423);
  EXPECT_FALSE(table.rows[0].min_ns.has_value());
  EXPECT_FALSE(table.rows[0].max_ns.has_value());
  EXPECT_EQ(table.gpu_ns, 607'454'182);
}

TEST(KernelTable, JoinsDefinitionsFromTheScan) {
  TraceBuilder builder;
  builder.launch(1, "cudaLaunchKernel").kernel("void rmsnorm_kernel<float>(float*, int)", 0, 10, 1);
  const SourceIndex index({{"rmsnorm_kernel", "csrc/rmsnorm.cu", 42}});
  const Profile profile = analyze_trace(builder.trace(), {&index, nullptr});
  const KernelRow& row = profile.kernels.rows[0];
  ASSERT_TRUE(row.source.has_value());
  EXPECT_EQ(row.source->file, "csrc/rmsnorm.cu");
  EXPECT_EQ(row.source->line, 42u);
  EXPECT_EQ(row.source->candidates, 1u);
  ASSERT_TRUE(profile.source.has_value());
  EXPECT_EQ(profile.source->definitions, 1);
  EXPECT_EQ(profile.source->joined, 1);
}

TEST(ProfileTotals, SeparateKernelMemoryUnknownAndOwnCode) {
  TraceBuilder builder;
  builder.kernel("ncclDevKernel_Generic_1(ncclDevKernelArgsStorage<4096ul>)", 0, 600)
      .kernel("at::native::vectorized_elementwise_kernel<4, float>(int, float)", 0, 300)
      .activity("Memcpy DtoD (Device -> Device)", 0, 100, -1, ActivityKind::Memcpy);
  const Profile profile = analyze_trace(builder.trace(), {});
  EXPECT_EQ(profile.totals.gpu_ns, 1'000);
  EXPECT_EQ(profile.totals.kernel_ns, 900);
  EXPECT_EQ(profile.totals.memory_ns, 100);
  EXPECT_EQ(profile.totals.kernel_calls, 2);
  EXPECT_EQ(profile.totals.memory_calls, 1);
  EXPECT_EQ(profile.totals.unique_kernels, 2);
  EXPECT_EQ(profile.totals.communication_ns, 600);
  EXPECT_EQ(profile.totals.compute_ns, 400);
  EXPECT_FALSE(profile.source.has_value());
}

TEST(ProfileTotals, UnknownShareIsUnclassifiedTimeOverGpuTime) {
  TraceBuilder builder;
  builder.kernel("totally_custom_kernel_xyz", 0, 250)
      .kernel("at::native::vectorized_elementwise_kernel<4, float>(int, float)", 0, 750);
  const Profile profile = analyze_trace(builder.trace(), {});
  ASSERT_EQ(profile.kernels.rows[1].classification.klass, KernelClass::Unknown);
  EXPECT_EQ(profile.totals.unknown_ns, 250);
  EXPECT_DOUBLE_EQ(profile.totals.unknown_share, 0.25);
}

}  // namespace
}  // namespace gpuport
