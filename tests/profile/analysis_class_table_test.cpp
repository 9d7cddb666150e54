// The class table: time and shares per class, communication apart from compute.
#include <gtest/gtest.h>

#include "profile/analysis/class_table.h"
#include "trace_builder.h"

namespace gpuport {
namespace {

using testing::TraceBuilder;

constexpr std::string_view k_nccl = "ncclDevKernel_Generic_1(ncclDevKernelArgsStorage<4096ul>)";
constexpr std::string_view k_aten =
    "at::native::vectorized_elementwise_kernel<4, float>(int, float)";
constexpr std::string_view k_tensile =
    "Cijk_Alik_Bljk_BBS_BH_Bias_HA_S_SAV_UserArgs_MT128x256x32_MI16x16x1_SN_LDSB1_ISA942_WG16_16_1";

TEST(ClassTable, SharesOfGpuTimeAndOfComputeTime) {
  TraceBuilder builder;
  builder.kernel(k_nccl, 0, 6'000)
      .kernel(k_tensile, 0, 3'000)
      .kernel(k_aten, 0, 500)
      .kernel(k_aten, 0, 500)
      .activity("Memcpy HtoD (Host -> Device)", 0, 0, -1, ActivityKind::Memcpy);
  const ClassTable table = build_class_table(build_kernel_table(builder.trace(), nullptr));

  EXPECT_EQ(table.gpu_ns, 10'000);
  EXPECT_EQ(table.communication_ns, 6'000);
  EXPECT_EQ(table.compute_ns, 4'000);
  ASSERT_EQ(table.rows.size(), 4u);
  EXPECT_EQ(table.rows[0].klass, KernelClass::Communication);
  EXPECT_DOUBLE_EQ(table.rows[0].share, 0.6);
  EXPECT_FALSE(table.rows[0].compute_share.has_value());
  EXPECT_EQ(table.rows[1].klass, KernelClass::VendorBlas);
  EXPECT_DOUBLE_EQ(table.rows[1].share, 0.3);
  EXPECT_DOUBLE_EQ(*table.rows[1].compute_share, 0.75);
  EXPECT_EQ(table.rows[2].klass, KernelClass::Framework);
  EXPECT_EQ(table.rows[2].calls, 2);
  EXPECT_EQ(table.rows[2].kernels, 1);
  EXPECT_DOUBLE_EQ(*table.rows[2].compute_share, 0.25);
  // A zero-length copy still shows its class: it happened.
  EXPECT_EQ(table.rows[3].klass, KernelClass::Memory);
  EXPECT_EQ(table.rows[3].time_ns, 0);
  EXPECT_NE(table.find(KernelClass::Memory), nullptr);
  EXPECT_EQ(table.find(KernelClass::Jit), nullptr);
}

TEST(ClassTable, OnlyCommunicationLeavesNoComputeShare) {
  TraceBuilder builder;
  builder.kernel(k_nccl, 0, 10);
  const ClassTable table = build_class_table(build_kernel_table(builder.trace(), nullptr));
  EXPECT_EQ(table.compute_ns, 0);
  ASSERT_EQ(table.rows.size(), 1u);
  EXPECT_FALSE(table.rows[0].compute_share.has_value());
}

TEST(ClassTable, EmptyTraceHasNoRows) {
  const ClassTable table = build_class_table(build_kernel_table(Trace{}, nullptr));
  EXPECT_TRUE(table.rows.empty());
  EXPECT_EQ(table.gpu_ns, 0);
}

}  // namespace
}  // namespace gpuport
