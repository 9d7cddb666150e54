// Steps: which ranges are steps, which kernels fall in each, nearest-rank percentiles, the p95 mix.
#include <gtest/gtest.h>

#include <vector>

#include "profile/analysis/kernel_table.h"
#include "profile/analysis/percentile.h"
#include "profile/analysis/step_mix.h"
#include "profile/analysis/steps.h"
#include "trace_builder.h"

namespace gpuport {
namespace {

using testing::TraceBuilder;

TEST(NearestRank, OneToTwenty) {
  std::vector<std::int64_t> values;
  for (int i = 1; i <= 20; ++i) {
    values.push_back(i);
  }
  EXPECT_EQ(nearest_rank(values, 50), 10);  // rank ceil(10) = 10
  EXPECT_EQ(nearest_rank(values, 95), 19);  // rank ceil(19) = 19
  EXPECT_EQ(nearest_rank(values, 99), 20);  // rank ceil(19.8) = 20
  EXPECT_EQ(nearest_rank(values, 100), 20);
  EXPECT_EQ(nearest_rank(values, 1), 1);
}

TEST(NearestRank, TextbookExampleAndEdges) {
  const std::vector<std::int64_t> values = {15, 20, 35, 40, 50};
  EXPECT_EQ(nearest_rank(values, 5), 15);
  EXPECT_EQ(nearest_rank(values, 30), 20);
  EXPECT_EQ(nearest_rank(values, 40), 20);
  EXPECT_EQ(nearest_rank(values, 50), 35);
  EXPECT_EQ(nearest_rank(values, 95), 50);
  EXPECT_EQ(nearest_rank(std::vector<std::int64_t>{7}, 99), 7);
  EXPECT_FALSE(nearest_rank(std::vector<std::int64_t>{}, 50).has_value());
}

TEST(Steps, GpuProjectedProfilerStepsArePreferredToCpuOnes) {
  TraceBuilder builder;
  builder.range("ProfilerStep#1", 0, 1'000, false)
      .range("ProfilerStep#1", 100, 1'200, true)
      .range("ProfilerStep#2", 1'300, 2'000, true)
      .range("## forward ##", 100, 900, true)
      .kernel("a", 50, 10)      // before the first GPU step
      .kernel("a", 100, 20)     // starts exactly at step 1
      .kernel("b", 1'199, 500)  // starts inside step 1, ends after it: all of it counts there
      .kernel("a", 1'200, 7)    // starts at step 1's end: in no step
      .kernel("b", 1'300, 30)
      .activity("Memset (Device)", 1'400, 5, -1, ActivityKind::Memset);
  const StepReport report = find_steps(builder.trace(), nullptr);

  EXPECT_EQ(report.source, StepSource::ProfilerStep);
  EXPECT_TRUE(report.on_gpu);
  ASSERT_EQ(report.steps.size(), 2u);
  EXPECT_EQ(report.steps[0].name, "ProfilerStep#1");
  EXPECT_EQ(report.steps[0].start_ns, 100);
  EXPECT_EQ(report.steps[0].duration_ns, 1'100);
  EXPECT_EQ(report.steps[0].kernel_ns, 520);
  EXPECT_EQ(report.steps[0].kernels, 2);
  EXPECT_EQ(report.steps[1].kernel_ns, 30);
  EXPECT_EQ(report.steps[1].gpu_ns, 35);
  EXPECT_EQ(report.steps[1].kernels, 1);
  EXPECT_EQ(report.step_of_activity, (std::vector<std::int32_t>{-1, 0, 0, -1, 1, 1}));
  EXPECT_EQ(report.p50_ns, 700);
  EXPECT_EQ(report.p95_ns, 1'100);
  EXPECT_TRUE(report.note.empty());
}

TEST(Steps, CpuProfilerStepsWhenTheTraceHasNoGpuOnes) {
  TraceBuilder builder;
  builder.range("ProfilerStep#7", 0, 1'000, false).kernel("a", 10, 10);
  const StepReport report = find_steps(builder.trace(), nullptr);
  EXPECT_EQ(report.source, StepSource::ProfilerStep);
  EXPECT_FALSE(report.on_gpu);
  ASSERT_EQ(report.steps.size(), 1u);
  EXPECT_EQ(report.steps[0].kernel_ns, 10);
}

TEST(Steps, NoStepsSaysWhyAndHowToGetThem) {
  TraceBuilder builder;
  builder.range("step[EXTEND bs=15 toks=15360]", 0, 1'000, false).kernel("a", 10, 10);
  const StepReport report = find_steps(builder.trace(), nullptr);
  EXPECT_EQ(report.source, StepSource::None);
  EXPECT_TRUE(report.steps.empty());
  EXPECT_FALSE(report.p95_ns.has_value());
  EXPECT_EQ(report.note, "no steps: the trace has no ProfilerStep#/NVTX ranges; use --step REGEX");
}

TEST(Steps, PatternSelectsRangesByName) {
  TraceBuilder builder;
  builder.range("step[EXTEND bs=15]", 0, 1'000, false)
      .range("step[DECODE bs=15]", 1'000, 1'200, false)
      .range("ProfilerStep#1", 0, 5'000, false)
      .kernel("a", 1'100, 10);
  auto pattern = StepPattern::compile(R"(^step\[)");
  ASSERT_TRUE(pattern.has_value());
  const StepReport report = find_steps(builder.trace(), &*pattern);
  EXPECT_EQ(report.source, StepSource::Pattern);
  EXPECT_EQ(report.pattern, R"(^step\[)");
  ASSERT_EQ(report.steps.size(), 2u);
  EXPECT_EQ(report.steps[1].name, "step[DECODE bs=15]");
  EXPECT_EQ(report.steps[1].kernel_ns, 10);

  auto nothing = StepPattern::compile("^decode$");
  const StepReport none = find_steps(builder.trace(), &*nothing);
  EXPECT_EQ(none.note, "no steps: no range name matches --step '^decode$'");
}

TEST(Steps, BadPatternIsAMessageNotAnException) {
  auto pattern = StepPattern::compile("step[");
  ASSERT_FALSE(pattern.has_value());
  EXPECT_FALSE(pattern.error().empty());
}

// std::regex matched recursively, one frame per character: `--step '.*Step'` over one 200 KB
// range name overflowed the stack and the process died (issue 27, item 10).
TEST(Steps, AHugeRangeNameIsMatchedWithoutRunningOutOfStack) {
  const std::string huge = std::string(200 * 1024, 'a') + "Step#7";
  TraceBuilder builder;
  builder.range(huge, 0, 1'000, false).range("decode", 1'000, 2'000, false).kernel("a", 10, 5);
  auto pattern = StepPattern::compile(".*Step#[0-9]+$");
  ASSERT_TRUE(pattern.has_value());
  EXPECT_TRUE(pattern->matches(huge));
  EXPECT_FALSE(pattern->matches(huge.substr(0, huge.size() - 2)));
  const StepReport report = find_steps(builder.trace(), &*pattern);
  ASSERT_EQ(report.steps.size(), 1u);
  EXPECT_EQ(report.steps[0].name.size(), huge.size());
}

TEST(Steps, NvtxInputsUseTheOutermostRanges) {
  TraceBuilder builder(TraceFormat::NsysSqlite);
  builder.range("iteration", 0, 1'000, false)
      .range("attention", 100, 200, false)  // nested: not a step
      .range("iteration", 1'000, 1'500, false)
      .range("iteration", 1'000, 1'500, false)  // the same span twice counts once
      .kernel("a", 1'200, 40);
  const StepReport report = find_steps(builder.trace(), nullptr);
  EXPECT_EQ(report.source, StepSource::Nvtx);
  ASSERT_EQ(report.steps.size(), 2u);
  EXPECT_EQ(report.steps[1].kernel_ns, 40);
}

TEST(Steps, KinetoRangesThatAreNotProfilerStepsAreNotSteps) {
  TraceBuilder builder(TraceFormat::KinetoJson);
  builder.range("iteration", 0, 1'000, false);
  EXPECT_EQ(find_steps(builder.trace(), nullptr).source, StepSource::None);
}

TEST(Steps, SummaryOnlyInputsHaveNoTimeline) {
  TraceBuilder builder(TraceFormat::RocprofStatsCsv);
  builder.summary("k", 1, 10);
  EXPECT_EQ(find_steps(builder.trace(), nullptr).note,
            "no steps: a summary-only input has per-kernel totals, no timeline");
}

// Twenty steps of 1000 ns, each with `steady` (400 ns); step 19 (the slowest, 3000 ns) also runs
// `spike` for 1500 ns and steady for 600 ns. Nearest rank: p95 = rank 19 of 20.
Trace twenty_steps() {
  TraceBuilder builder;
  std::int64_t start = 0;
  for (int i = 0; i < 20; ++i) {
    const bool slow = i == 19;
    const std::int64_t length = slow ? 3'000 : 1'000 + i;  // distinct durations
    builder.range("ProfilerStep#" + std::to_string(i), start, start + length, true);
    builder.kernel("steady", start, slow ? 600 : 400);
    if (slow) {
      builder.kernel("spike", start + 700, 1'500);
    }
    start += length;
  }
  return builder.take();
}

TEST(StepMix, SlowStepsBesideTypicalOnes) {
  const Trace trace = twenty_steps();
  const KernelTable kernels = build_kernel_table(trace, nullptr);
  const StepReport steps = find_steps(trace, nullptr);
  ASSERT_EQ(steps.steps.size(), 20u);
  // Sorted durations: 1000..1018, 3000. p95 = rank 19 = 1018; p99 = rank 20 = 3000.
  EXPECT_EQ(steps.p50_ns, 1'009);
  EXPECT_EQ(steps.p95_ns, 1'018);
  EXPECT_EQ(steps.p99_ns, 3'000);

  const auto mix = build_step_mix(trace, kernels, steps);
  ASSERT_TRUE(mix.has_value());
  EXPECT_EQ(mix->slow_from_ns, 1'018);
  EXPECT_EQ(mix->typical_from_ns, 1'004);  // p25 = rank 5
  EXPECT_EQ(mix->typical_to_ns, 1'014);    // p75 = rank 15
  EXPECT_EQ(mix->slow_steps, 2);           // 1018 and 3000
  EXPECT_EQ(mix->typical_steps, 11);       // 1004..1014
  EXPECT_EQ(mix->slow_step_ns, 2'009);
  EXPECT_EQ(mix->typical_step_ns, 1'009);

  ASSERT_EQ(mix->kernels.size(), 2u);
  const KernelRow& first = kernels.rows[static_cast<std::size_t>(mix->kernels[0].row)];
  EXPECT_EQ(first.name.raw, "spike");       // grew the most
  EXPECT_EQ(mix->kernels[0].slow_ns, 750);  // 1500 over two slow steps
  EXPECT_EQ(mix->kernels[0].typical_ns, 0);
  EXPECT_EQ(mix->kernels[1].slow_ns, 500);  // (400 + 600) / 2
  EXPECT_EQ(mix->kernels[1].typical_ns, 400);
  ASSERT_EQ(mix->classes.size(), 1u);  // both names are unclassified
  EXPECT_EQ(mix->classes[0].slow_ns, 1'250);
  EXPECT_EQ(mix->classes[0].typical_ns, 400);
}

TEST(StepMix, NeedsAtLeastTwoSteps) {
  TraceBuilder builder;
  builder.range("ProfilerStep#1", 0, 100, true).kernel("a", 0, 10);
  const Trace& trace = builder.trace();
  const KernelTable kernels = build_kernel_table(trace, nullptr);
  const StepReport steps = find_steps(trace, nullptr);
  EXPECT_FALSE(build_step_mix(trace, kernels, steps).has_value());
}

}  // namespace
}  // namespace gpuport
