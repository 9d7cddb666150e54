// What to measure before committing: library work on the hot path, by share, with its AMD
// counterpart; the largest unpriced risk named; and what a missing trace leaves unknown.
#include <gtest/gtest.h>

#include "audit/measure_first.h"

namespace gpuport {
namespace {

TraceClassTime trace(std::int64_t gpu_ns, std::vector<ClassTime> classes) {
  TraceClassTime out;
  out.gpu_ns = gpu_ns;
  out.classes = std::move(classes);
  return out;
}

AuditKernel kernel(const std::string& anchor, KernelClass klass, bool own) {
  AuditKernel out;
  out.anchor = anchor;
  out.klass = klass;
  out.own_code = own;
  return out;
}

TEST(MeasureFirst, HotLibraryWorkByShareWithItsAmdCounterpartAndHottestKernel) {
  const std::vector<TraceClassTime> traces = {
      trace(1000, {{KernelClass::VendorBlas, 500, 0.5, 0},
                   {KernelClass::Unknown, 300, 0.3, 300},  // the team's own kernels
                   {KernelClass::Communication, 150, 0.15, 0},
                   {KernelClass::Jit, 40, 0.04, 30},  // 1 % is library: below the threshold
                   {KernelClass::Memory, 10, 0.01, 0}})};
  const std::vector<AuditKernel> kernels = {kernel("kernel-1", KernelClass::Unknown, true),
                                            kernel("kernel-2", KernelClass::VendorBlas, false),
                                            kernel("kernel-3", KernelClass::Communication, false)};
  const MeasurePlan plan = plan_measurements(traces, kernels, 0.02);
  ASSERT_EQ(plan.steps.size(), 2u);
  EXPECT_EQ(plan.steps[0].what, "cuBLAS / cuBLASLt GEMMs");
  EXPECT_DOUBLE_EQ(plan.steps[0].share, 0.5);
  EXPECT_EQ(plan.steps[0].amd_counterpart, "hipBLASLt / rocBLAS");
  EXPECT_EQ(plan.steps[0].anchor, "kernel-2");
  EXPECT_EQ(plan.steps[1].what, "NCCL collectives");
  EXPECT_EQ(plan.steps[1].amd_counterpart, "RCCL");
  EXPECT_EQ(plan.steps[1].anchor, "kernel-3");
  EXPECT_EQ(plan.largest_risk,
            "50.0% of GPU time is in cuBLAS / cuBLASLt GEMMs, priced at zero because hipBLASLt / "
            "rocBLAS is AMD's to tune: if it is slower on AMD, no engineering in this estimate "
            "recovers it. Measure it before committing");
  EXPECT_NE(plan.first.find("gpuport bench"), std::string::npos);
}

TEST(MeasureFirst, TheLargestShareOverSeveralTracesCounts) {
  const std::vector<TraceClassTime> traces = {trace(1000, {{KernelClass::Attention, 100, 0.1, 0}}),
                                              trace(1000, {{KernelClass::Attention, 400, 0.4, 0}})};
  const MeasurePlan plan = plan_measurements(traces, {}, 0.02);
  ASSERT_EQ(plan.steps.size(), 1u);
  EXPECT_DOUBLE_EQ(plan.steps[0].share, 0.4);
  EXPECT_TRUE(plan.steps[0].anchor.empty());
}

TEST(MeasureFirst, OwnCodeOnlyOrNoTraceSaysSo) {
  const MeasurePlan own =
      plan_measurements({trace(1000, {{KernelClass::Unknown, 900, 0.9, 900}})}, {}, 0.02);
  EXPECT_TRUE(own.steps.empty());
  EXPECT_EQ(own.largest_risk,
            "No library or framework work reaches the hot threshold: the hot path is the team's "
            "own code, which the estimate prices");
  const MeasurePlan none = plan_measurements({}, {}, 0.02);
  EXPECT_TRUE(none.steps.empty());
  EXPECT_TRUE(none.largest_risk.starts_with("No trace: which code is hot is unknown"));
}

}  // namespace
}  // namespace gpuport
