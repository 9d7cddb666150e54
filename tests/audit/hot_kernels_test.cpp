// Hot and cold kernels from a small Kineto trace of the bundled example (4 steps; the last, the
// p95 step, runs masked_softmax_kernel 8 times longer), joined to the example's definitions.
#include <gtest/gtest.h>

#include "audit/hot_kernels.h"
#include "profile/trace_reader.h"

namespace gpuport {
namespace {

constexpr const char* k_trace = GPUPORT_SOURCE_DIR "/tests/fixtures/audit/serving_h100_kineto.json";

Kernel definition(const std::string& name, const std::string& file, std::uint32_t line) {
  Kernel kernel;
  kernel.name = name;
  kernel.file = file;
  kernel.line = line;
  return kernel;
}

struct Fixture {
  ScanResult scan;
  Profile profile;

  Fixture() {
    scan.kernels = {definition("dequant_int4_kernel", "csrc/dequant_rotary.cu", 39),
                    definition("rotary_kernel", "csrc/dequant_rotary.cu", 81),
                    definition("rms_norm_kernel", "csrc/fused_norm.cu", 44),
                    definition("masked_softmax_kernel", "csrc/fused_norm.cu", 68),
                    definition("unused_kernel", "csrc/unused.cu", 7)};
    std::vector<SourceKernel> kernels;
    for (const Kernel& kernel : scan.kernels) {
      kernels.push_back({kernel.name, kernel.file, kernel.line});
    }
    const SourceIndex index(std::move(kernels));
    auto trace = read_trace(k_trace, ReadOptions{});
    EXPECT_TRUE(trace) << trace.error().message;
    ProfileOptions options;
    options.source = &index;
    profile = analyze_trace(*trace, options);
  }
  std::vector<AuditKernel> select(double threshold, bool p95) const {
    return select_kernels(std::span<const Profile>(&profile, 1), scan, HotConfig{threshold, p95});
  }
};

std::string summary(const AuditKernel& kernel) {
  const char* hotness = kernel.hotness == Hotness::Hot    ? "hot"
                        : kernel.hotness == Hotness::Cold ? "cold"
                                                          : "untraced";
  return kernel.anchor + " " + hotness + (kernel.own_code ? " own " : " lib ") +
         (kernel.source ? kernel.source->file + ":" + std::to_string(kernel.source->line) : "-");
}

TEST(AuditHotKernels, ShareOrP95StepsMakeAKernelHot) {
  Fixture fixture;
  const std::vector<AuditKernel> kernels = fixture.select(0.02, true);
  std::vector<std::string> rows;
  for (const AuditKernel& kernel : kernels) {
    rows.push_back(summary(kernel));
  }
  EXPECT_EQ(rows, (std::vector<std::string>{
                      "kernel-1 hot lib -",                           // cuBLAS, 52.0 %
                      "kernel-2 hot own csrc/dequant_rotary.cu:39",   // 19.5 %
                      "kernel-3 hot own csrc/fused_norm.cu:44",       // 13.0 %
                      "kernel-4 hot lib -",                           // ATen add, 6.5 %
                      "kernel-5 hot lib -",                           // Triton, 5.2 %
                      "kernel-6 hot own csrc/fused_norm.cu:68",       // 1.8 %, p95 5.1 %
                      "kernel-7 cold own csrc/dequant_rotary.cu:81",  // 1.3 %
                      "kernel-8 cold own csrc/unused.cu:7",           // in no trace
                  }));
  EXPECT_EQ(kernels[0].owner, "cuBLAS");
  EXPECT_EQ(kernels[0].klass, KernelClass::VendorBlas);
  EXPECT_EQ(kernels[0].total_ns, 160000);
  EXPECT_EQ(kernels[0].calls, 4);
  EXPECT_EQ(kernels[0].why,
            "52.0% of GPU time, at or above the 2% threshold; cuBLAS code, not the team's: its "
            "AMD counterpart is tuned by its maintainers");
  EXPECT_EQ(kernels[1].why, "19.5% of GPU time, at or above the 2% threshold");
  EXPECT_EQ(kernels[1].name,
            "dequant_int4_kernel(__nv_bfloat16*, unsigned int const*, __nv_bfloat16 const*, int, "
            "int, int)");
  // masked_softmax_kernel: 5.5 µs of 307.5 µs, but 4 µs of the 79 µs of the p95 step.
  EXPECT_EQ(kernels[5].total_ns, 5500);
  EXPECT_EQ(kernels[5].why,
            "1.8% of GPU time, but 5.1% of the p95 steps' GPU time, at or above the 2% "
            "threshold");
  EXPECT_EQ(kernels[6].why,
            "1.3% of GPU time, below the 2% threshold, and 1.3% of the p95 steps': cold, no "
            "tuning days");
  EXPECT_EQ(kernels[7].why, "in no trace (0% of GPU time): cold, no tuning days");
  EXPECT_EQ(kernels[7].name, "unused_kernel");
}

TEST(AuditHotKernels, WithoutTheP95RuleTheSoftmaxIsCold) {
  Fixture fixture;
  const std::vector<AuditKernel> kernels = fixture.select(0.02, false);
  ASSERT_EQ(kernels.size(), 8u);
  EXPECT_EQ(summary(kernels[5]), "kernel-6 cold own csrc/fused_norm.cu:68");
  EXPECT_EQ(kernels[5].why, "1.8% of GPU time, below the 2% threshold: cold, no tuning days");
}

TEST(AuditHotKernels, AHigherThresholdLeavesOnlyTheGemmHot) {
  Fixture fixture;
  const std::vector<AuditKernel> kernels = fixture.select(0.25, true);
  int hot = 0;
  for (const AuditKernel& kernel : kernels) {
    hot += kernel.hotness == Hotness::Hot ? 1 : 0;
  }
  EXPECT_EQ(hot, 1);
  EXPECT_EQ(kernels[0].owner, "cuBLAS");
  // Cold library kernels are not listed; the cold own kernels are, with the reason.
  EXPECT_EQ(kernels.size(), 6u);
  EXPECT_EQ(kernels[1].why,
            "19.5% of GPU time, below the 25% threshold, and 19.0% of the p95 steps': cold, "
            "no tuning days");
}

TEST(AuditHotKernels, WithoutATraceEveryScannedKernelIsUntraced) {
  Fixture fixture;
  const std::vector<AuditKernel> kernels =
      select_kernels(std::span<const Profile>(), fixture.scan, HotConfig{0.02, true});
  ASSERT_EQ(kernels.size(), 5u);
  for (const AuditKernel& kernel : kernels) {
    EXPECT_EQ(kernel.hotness, Hotness::Untraced);
    EXPECT_EQ(kernel.why, "no trace: whether it is hot is unknown");
  }
  EXPECT_EQ(summary(kernels[0]), "kernel-1 untraced own csrc/dequant_rotary.cu:39");
}

TEST(AuditHotKernels, ClassTimeKeepsTheOwnCodePart) {
  Fixture fixture;
  const TraceClassTime time = class_time(fixture.profile, 0);
  EXPECT_EQ(time.gpu_ns, 307500);
  EXPECT_EQ(time.own_code_ns, 109500);  // the four example kernels: 60 + 40 + 5.5 + 4 µs
  ASSERT_EQ(time.classes.size(), 5u);
  EXPECT_EQ(time.classes[0].klass, KernelClass::VendorBlas);
  EXPECT_EQ(time.classes[0].time_ns, 160000);
  EXPECT_EQ(time.classes[0].own_code_ns, 0);
  EXPECT_EQ(time.classes[1].klass, KernelClass::Unknown);
  EXPECT_EQ(time.classes[1].time_ns, 109500);
  EXPECT_EQ(time.classes[1].own_code_ns, 109500);
}

}  // namespace
}  // namespace gpuport
