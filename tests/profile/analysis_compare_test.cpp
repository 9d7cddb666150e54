// compare: classes side by side with B/A, kernels matched by normalized name, the rest per class.
#include <gtest/gtest.h>

#include "profile/analysis/compare.h"
#include "trace_builder.h"

namespace gpuport {
namespace {

using testing::TraceBuilder;

constexpr std::string_view k_copy =
    "void at::native::vectorized_elementwise_kernel<4, at::native::bfloat16_copy_kernel_cuda("
    "at::TensorIteratorBase&)::{lambda(c10::BFloat16)#1}, std::array<char*, 2ul> >(int, "
    "at::native::bfloat16_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda(c10::BFloat16)#1}, "
    "std::array<char*, 2ul>)";
constexpr std::string_view k_cublas =
    "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64_warpgroupsize1x1x1_execute_"
    "segment_k_off_kernel__5x_cublas";
constexpr std::string_view k_tensile =
    "Cijk_Alik_Bljk_B_BS_BH_Bias_HA_S_SAV_UserArgs_MT256x128x64_MI16x16x1_SN_LDSB1_ISA942_WG32_8_1";

Profile nvidia() {
  TraceBuilder builder;
  builder.device("NVIDIA H100 80GB HBM3", Vendor::Nvidia)
      .path("h100.json.gz")
      .kernel(k_cublas, 0, 8'000)
      .kernel(k_copy, 0, 1'000)
      .kernel(k_copy, 0, 1'000);
  return analyze_trace(builder.trace(), {});
}

Profile amd() {
  TraceBuilder builder;
  builder.device("AMD Instinct MI300X", Vendor::Amd)
      .path("mi300x.json.gz")
      .kernel(k_tensile, 0, 6'000)
      .kernel(k_tensile, 0, 6'000)
      .kernel(k_copy, 0, 3'000)
      .activity("Memcpy DtoD (Device -> Device)", 0, 500, -1, ActivityKind::Memcpy);
  return analyze_trace(builder.trace(), {});
}

TEST(Compare, TotalsAndPlatforms) {
  const Comparison cmp = compare_profiles(nvidia(), amd());
  EXPECT_EQ(cmp.a.vendor, Vendor::Nvidia);
  EXPECT_EQ(cmp.b.devices.at(0).name, "AMD Instinct MI300X");
  EXPECT_EQ(cmp.totals_a.kernel_ns, 10'000);
  EXPECT_EQ(cmp.totals_b.kernel_ns, 15'000);
  EXPECT_DOUBLE_EQ(*cmp.kernel_ratio, 1.5);
  EXPECT_DOUBLE_EQ(*cmp.gpu_ratio, 1.55);
}

TEST(Compare, ClassesSideBySideWithRatio) {
  const Comparison cmp = compare_profiles(nvidia(), amd());
  ASSERT_EQ(cmp.classes.size(), 3u);
  EXPECT_EQ(cmp.classes[0].klass, KernelClass::VendorBlas);
  EXPECT_EQ(cmp.classes[0].a_ns, 8'000);
  EXPECT_EQ(cmp.classes[0].b_ns, 12'000);
  EXPECT_DOUBLE_EQ(*cmp.classes[0].ratio, 1.5);
  EXPECT_DOUBLE_EQ(cmp.classes[0].a_share, 0.8);
  EXPECT_EQ(cmp.classes[1].klass, KernelClass::Framework);
  EXPECT_DOUBLE_EQ(*cmp.classes[1].ratio, 1.5);
  EXPECT_EQ(cmp.classes[2].klass, KernelClass::Memory);
  EXPECT_EQ(cmp.classes[2].a_ns, 0);
  EXPECT_FALSE(cmp.classes[2].ratio.has_value());  // A has no time there: no ratio
}

TEST(Compare, KernelsMatchByNormalizedNameAndTheRestIsListedPerClass) {
  const Comparison cmp = compare_profiles(nvidia(), amd());
  ASSERT_EQ(cmp.matched.size(), 1u);
  EXPECT_EQ(cmp.matched[0].a_ns, 2'000);
  EXPECT_EQ(cmp.matched[0].b_ns, 3'000);
  EXPECT_EQ(cmp.matched[0].a_calls, 2);
  EXPECT_EQ(cmp.matched[0].b_calls, 1);
  EXPECT_DOUBLE_EQ(*cmp.matched[0].ratio, 1.5);

  ASSERT_EQ(cmp.unmatched.size(), 2u);
  EXPECT_EQ(cmp.unmatched[0].klass, KernelClass::VendorBlas);
  ASSERT_EQ(cmp.unmatched[0].only_a.size(), 1u);
  EXPECT_EQ(cmp.unmatched[0].only_a[0].total_ns, 8'000);
  ASSERT_EQ(cmp.unmatched[0].only_b.size(), 1u);
  EXPECT_EQ(cmp.unmatched[0].only_b[0].calls, 2);
  EXPECT_EQ(cmp.unmatched[0].b_ns, 12'000);
  EXPECT_EQ(cmp.unmatched[1].klass, KernelClass::Memory);
  EXPECT_TRUE(cmp.unmatched[1].only_a.empty());
  EXPECT_EQ(cmp.unmatched[1].only_b[0].display, "Memcpy DtoD (Device -> Device)");
}

TEST(Compare, RawNamesThatNormalizeAlikeAreSummed) {
  // `void ` is dropped by the display form, so both spellings normalize to one kernel.
  TraceBuilder a;
  a.kernel("void my_kernel<4>(int)", 0, 10).kernel("my_kernel<4>(int)", 0, 20);
  TraceBuilder b;
  b.kernel("my_kernel<4>(int)", 0, 60);
  const Comparison cmp =
      compare_profiles(analyze_trace(a.trace(), {}), analyze_trace(b.trace(), {}));
  ASSERT_EQ(cmp.matched.size(), 1u);
  EXPECT_EQ(cmp.matched[0].a_ns, 30);
  EXPECT_EQ(cmp.matched[0].a_calls, 2);
  EXPECT_DOUBLE_EQ(*cmp.matched[0].ratio, 2.0);
  EXPECT_TRUE(cmp.unmatched.empty());
}

TEST(Compare, RatioOfNothingIsAbsent) {
  EXPECT_FALSE(ratio_of(5, 0).has_value());
  EXPECT_DOUBLE_EQ(*ratio_of(0, 5), 0.0);
}

}  // namespace
}  // namespace gpuport
