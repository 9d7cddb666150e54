// The verdict rules, one test per branch, on hand-built effort and cost.
#include <gtest/gtest.h>

#include "audit/verdict.h"

namespace gpuport {
namespace {

struct Case {
  std::vector<EffortItem> items;
  EffortSummary effort;
  std::vector<AuditKernel> kernels;
  CostSummary cost;

  void add(EffortTier tier, const std::string& title, DayRange days) {
    EffortItem item;
    item.anchor = "item-" + std::to_string(items.size() + 1);
    item.tier = tier;
    item.title = title;
    item.days = days;
    items.push_back(item);
    EffortTierTotal& total = effort.tiers[static_cast<std::size_t>(tier)];
    total.items += 1;
    total.days.low += days.low;
    total.days.likely += days.likely;
    total.days.high += days.high;
    effort.total.low += days.low;
    effort.total.likely += days.likely;
    effort.total.high += days.high;
  }
  void kernel(const std::string& name, Hotness hotness, double share, bool own = true) {
    AuditKernel k;
    k.anchor = "kernel-" + std::to_string(kernels.size() + 1);
    k.name = name;
    k.hotness = hotness;
    k.share = share;
    k.own_code = own;
    kernels.push_back(k);
  }
  VerdictSummary decide() const {
    return decide_verdict({items, effort, kernels, cost, true}, VerdictConfig{5, 60});
  }
};

Case saving_case() {
  Case c;
  for (EffortTier tier :
       {EffortTier::Config, EffortTier::Mechanical, EffortTier::Retune, EffortTier::Rewrite}) {
    c.effort.tiers.push_back({tier, 0, {}});
  }
  c.cost.nvidia.gpu = "H100";
  c.cost.nvidia.cost_per_million = 96.94;
  c.cost.amd.gpu = "MI300X";
  c.cost.amd.cost_per_million = 55.28;
  c.cost.monthly_delta = 4166.67;
  c.cost.porting_cost = {5000, 10000, 20000};
  c.cost.payback_months = 2.4;
  c.cost.horizon_months = 12;
  return c;
}

// With an AMD build in the project, validating it is the answer while the work beside it is at
// most an engineer-week (validation_max_days) or half the validation, whichever is larger.
TEST(AuditVerdict, AnExistingAmdBuildWithLittleBesideItIsValidatedNotPorted) {
  for (const auto& [beside, kind] :
       {std::pair{7.0, VerdictKind::ExistingBuild}, std::pair{7.6, VerdictKind::BoundedProject}}) {
    Case c = saving_case();
    c.add(EffortTier::Mechanical, "Validate and benchmark the existing AMD build",
          {11.25, 15, 22.5});
    c.items.back().weight_key = "effort.existing_build.base_days";
    c.add(EffortTier::Retune, "GP-WARP-001 Warp size (wave64)", {beside / 2, beside, beside * 3});
    c.kernel("reduce_kernel", Hotness::Untraced, 0);
    const VerdictSummary verdict =
        decide_verdict({c.items, c.effort, c.kernels, c.cost, false}, VerdictConfig{5, 60, 0.5});
    EXPECT_EQ(verdict.kind, kind) << beside;
    if (kind == VerdictKind::ExistingBuild) {
      EXPECT_EQ(verdict.headline, "Validate the existing AMD build: 15–44 engineer-days");
      ASSERT_EQ(verdict.reasons.size(), 3u);
      EXPECT_EQ(verdict.reasons[0].text,
                "Validate and benchmark the existing AMD build: 15 days likely (11–23 days)");
      EXPECT_EQ(verdict.reasons[2].anchor, "cost");
    }
  }
  // Without an AMD build of its own, the same work is not this verdict.
  Case c = saving_case();
  c.add(EffortTier::Mechanical, "Validate on AMD: the test suite, numerics and a benchmark run",
        {1.5, 2, 3});
  c.add(EffortTier::Retune, "GP-WARP-001 Warp size (wave64)", {1, 2, 6});
  EXPECT_EQ(
      decide_verdict({c.items, c.effort, c.kernels, c.cost, true}, VerdictConfig{5, 60, 0.5}).kind,
      VerdictKind::ValidationPass);
  EXPECT_EQ(verdict_id(VerdictKind::ExistingBuild), "existing-amd-build");
}

// A kernel family the AMD build cannot compile is not in the total, so a reason names it.
TEST(AuditVerdict, AFeatureGapFamilyTakesTheSecondReason) {
  Case c = saving_case();
  c.add(EffortTier::Mechanical, "Validate and benchmark the existing AMD build", {4.9, 6.5, 9.8});
  c.items.back().weight_key = "effort.existing_build.base_days";
  c.add(EffortTier::Config, "GP-FW-014 Apex", {0.75, 1.5, 3});
  std::vector<FeatureGap> gaps(3);
  gaps[0].component = "Inline PTX";  // excluded findings: no folder, no port estimate
  for (std::size_t i = 1; i < 3; ++i) {
    gaps[i].component = "CUTLASS / CuTe";
    gaps[i].folder = i == 1 ? "hopper/" : "flash_attn/cute/";
    gaps[i].port_days = DayRange{16.75, i == 1 ? 44.66 : 48.69, 178.6};
  }
  const VerdictSummary verdict = decide_verdict(
      {c.items, c.effort, c.kernels, c.cost, false, &gaps}, VerdictConfig{5, 60, 0.5});
  EXPECT_EQ(verdict.kind, VerdictKind::ExistingBuild);
  ASSERT_EQ(verdict.reasons.size(), 3u);
  EXPECT_EQ(verdict.reasons[0].anchor, "item-1");
  EXPECT_EQ(verdict.reasons[1].anchor, "feature-gaps");
  EXPECT_EQ(verdict.reasons[1].text,
            "CUDA-only, and the AMD build cannot compile them: the kernel families in "
            "flash_attn/cute/ and hopper/ (CUTLASS/CuTe), a feature gap rather than port work; "
            "porting them anyway would take 49 and 45 days likely, not in the total");
  EXPECT_EQ(verdict.reasons[2].anchor, "cost");
}

TEST(AuditVerdict, NoSavingIsNotWorthItWhateverTheEffort) {
  Case c = saving_case();
  c.add(EffortTier::Config, "GP-DEPLOY-001 Docker base image", {0.125, 0.25, 0.5});
  c.add(EffortTier::Config, "GP-PKG-001 CUDA wheels", {0.0625, 0.125, 0.25});
  c.cost.monthly_delta = -1200;
  c.cost.amd.cost_per_million = 120.5;
  c.cost.payback_months.reset();
  const VerdictSummary verdict = c.decide();
  EXPECT_EQ(verdict.kind, VerdictKind::NotWorthIt);
  EXPECT_EQ(verdict.headline, "Not worth it at these prices: 0.2–0.8 engineer-days");
  ASSERT_EQ(verdict.reasons.size(), 3u);
  EXPECT_EQ(verdict.reasons[0].anchor, "cost");
  EXPECT_EQ(verdict.reasons[0].text,
            "AMD costs $120.50 per 1M requests on MI300X against $96.94 on H100, so there is no "
            "saving to pay back the port");
  EXPECT_EQ(verdict.reasons[1].anchor, "item-1");
  EXPECT_EQ(verdict.reasons[1].text,
            "GP-DEPLOY-001 Docker base image: 0.3 days likely (0.1–0.5 days)");
  EXPECT_EQ(verdict.reasons[2].anchor, "item-2");
}

TEST(AuditVerdict, PaybackBeyondTheHorizonIsNotWorthIt) {
  Case c = saving_case();
  c.add(EffortTier::Rewrite, "Redesign tensor-core code", {40, 80, 240});
  c.cost.porting_cost = {40000, 80000, 240000};
  c.cost.monthly_delta = 4000;
  c.cost.payback_months = 20;
  const VerdictSummary verdict = c.decide();
  EXPECT_EQ(verdict.kind, VerdictKind::NotWorthIt);
  EXPECT_EQ(verdict.reasons[0].text,
            "The saving of $4,000 a month ($55.28 per 1M requests on MI300X against $96.94 on "
            "H100) pays the $80,000 port back in 20.0 months, beyond the 12-month horizon");
  EXPECT_EQ(verdict.reasons.size(), 2u);
}

// Placeholder throughputs never decide: the same payback beyond the horizon is a bounded
// project whose cost reason asks how fast AMD must be, and the banner names the placeholder.
TEST(AuditVerdict, PlaceholderThroughputsAskTheCostQuestionInsteadOfDeciding) {
  Case c = saving_case();
  c.add(EffortTier::Rewrite, "Redesign tensor-core code", {10, 20, 60});
  c.cost.porting_cost = {10000, 20000, 60000};
  c.cost.monthly_delta = 1000;
  c.cost.payback_months = 20;
  c.cost.break_even_ratio = 1.99 / 3.49;
  c.cost.payback_ratio = 0.8123;
  c.cost.amd.throughput_rps = 10;
  c.cost.amd.throughput_assumed = true;
  const VerdictSummary verdict = c.decide();
  EXPECT_EQ(verdict.kind, VerdictKind::BoundedProject);
  EXPECT_FALSE(verdict.cost_decides);
  ASSERT_EQ(verdict.assumed.size(), 1u);
  EXPECT_EQ(verdict.assumed[0],
            "The MI300X throughput (10 req/s per replica) is a placeholder, not a measurement: the "
            "cost figures ask how fast AMD must be, they do not say it is worth it or not");
  ASSERT_EQ(verdict.reasons.size(), 2u);
  EXPECT_EQ(verdict.reasons[1].anchor, "cost");
  EXPECT_EQ(verdict.reasons[1].text,
            "At these prices AMD breaks even at 0.57x of NVIDIA's throughput and pays the $20,000 "
            "port back within 12 months at 0.81x: measure both with `gpuport bench` (the "
            "throughputs here are placeholders)");

  c.cost.amd.throughput_assumed = false;  // the team's number: now the cost decides
  EXPECT_EQ(c.decide().kind, VerdictKind::NotWorthIt);
  EXPECT_TRUE(c.decide().assumed.empty());
}

TEST(AuditVerdict, OnlyConfigItemsIsAConfigChange) {
  Case c = saving_case();
  c.add(EffortTier::Config, "GP-FW-003 ONNX Runtime", {0.25, 0.5, 1});
  c.add(EffortTier::Config, "GP-DEPLOY-001 Docker base image", {0.125, 0.25, 0.5});
  const VerdictSummary verdict = c.decide();
  EXPECT_EQ(verdict.kind, VerdictKind::ConfigChange);
  EXPECT_EQ(verdict.headline, "Config change: 0.4–1.5 engineer-days");
  EXPECT_EQ(verdict.days_low, 0.375);
  EXPECT_EQ(verdict.days_high, 1.5);
  ASSERT_EQ(verdict.reasons.size(), 3u);
  EXPECT_EQ(verdict.reasons[0].text, "Only config changes: 2 items, 0.8 days likely in all");
  EXPECT_EQ(verdict.reasons[0].anchor, "item-1");
  EXPECT_EQ(verdict.reasons[1].anchor, "item-1");
  EXPECT_EQ(verdict.reasons[2].text,
            "AMD saves $4,167 a month ($55.28 per 1M requests on MI300X against $96.94 on H100): "
            "the $10,000 port pays back in 2.4 months");
}

TEST(AuditVerdict, NoOwnKernelOnTheHotPathAndLittleWorkIsAValidationPass) {
  Case c = saving_case();
  c.add(EffortTier::Config, "GP-DEPLOY-001 Docker base image", {0.125, 0.25, 0.5});
  c.add(EffortTier::Mechanical, "Port and test small kernels", {1.5, 2, 3});
  c.add(EffortTier::Retune, "GP-WARP-001 Warp size (wave64)", {1, 2, 6});
  c.kernel("sm90_xmma_gemm", Hotness::Hot, 0.52, false);
  c.kernel("rotary_kernel", Hotness::Cold, 0.013);
  const VerdictSummary verdict = c.decide();
  EXPECT_EQ(verdict.kind, VerdictKind::ValidationPass);
  EXPECT_EQ(verdict.headline, "Validation pass: 2.6–9.5 engineer-days");
  ASSERT_EQ(verdict.reasons.size(), 3u);
  EXPECT_EQ(verdict.reasons[0].anchor, "kernel-2");
  EXPECT_EQ(verdict.reasons[0].text,
            "No kernel of the team's own is on the hot path: the hottest, rotary_kernel, takes "
            "1.3% of GPU time");
  EXPECT_EQ(verdict.reasons[1].anchor, "item-2");  // 2 days, listed before item-3's 2 days
  EXPECT_EQ(verdict.reasons[2].anchor, "cost");
}

TEST(AuditVerdict, AHotOwnKernelMakesItAProject) {
  Case c = saving_case();
  c.add(EffortTier::Mechanical, "Port and test small kernels", {1.5, 2, 3});
  c.add(EffortTier::Retune, "Tune rms_norm_kernel on AMD", {1.25, 2.5, 7.5});
  c.kernel("rms_norm_kernel", Hotness::Hot, 0.13);
  const VerdictSummary verdict = c.decide();
  EXPECT_EQ(verdict.kind, VerdictKind::BoundedProject);
  EXPECT_EQ(verdict.headline, "Bounded project: 2.8–11 engineer-days");
  ASSERT_EQ(verdict.reasons.size(), 3u);
  EXPECT_EQ(verdict.reasons[0].anchor, "item-2");
  EXPECT_EQ(verdict.reasons[0].text, "Tune rms_norm_kernel on AMD: 2.5 days likely (1.3–7.5 days)");
  EXPECT_EQ(verdict.reasons[1].anchor, "item-1");
  EXPECT_EQ(verdict.reasons[2].anchor, "cost");
}

TEST(AuditVerdict, MoreThanTheBoundIsAMajorProject) {
  Case c = saving_case();
  c.add(EffortTier::Rewrite, "Replace CUTLASS/CuTe in gemm_kernel", {30, 60, 180});
  c.add(EffortTier::Retune, "Tune gemm_kernel on AMD", {1, 2, 6});
  c.kernel("gemm_kernel", Hotness::Hot, 0.4);
  const VerdictSummary verdict = c.decide();
  EXPECT_EQ(verdict.kind, VerdictKind::MajorProject);
  EXPECT_EQ(verdict.headline, "Major project: 31–186 engineer-days");
  EXPECT_EQ(verdict.reasons[0].anchor, "item-1");
}

TEST(AuditVerdict, WithoutATraceScannedKernelsMayBeHot) {
  Case c = saving_case();
  c.add(EffortTier::Mechanical, "Port and test small kernels", {0.5, 1, 3});
  c.kernel("rotary_kernel", Hotness::Untraced, 0);
  EXPECT_EQ(c.decide().kind, VerdictKind::BoundedProject);
}

TEST(AuditVerdict, NamesAndDays) {
  EXPECT_EQ(verdict_name(VerdictKind::ValidationPass), "validation pass");
  EXPECT_EQ(verdict_id(VerdictKind::NotWorthIt), "not-worth-it");
  EXPECT_EQ(format_days(0), "0");
  EXPECT_EQ(format_days(0.375), "0.4");
  EXPECT_EQ(format_days(0.25), "0.3");
  EXPECT_EQ(format_days(10.5), "11");
  EXPECT_EQ(format_days(2), "2");
  EXPECT_EQ(format_days(9.94), "9.9");
  EXPECT_EQ(format_days(9.96), "10");
  EXPECT_EQ(format_days(111.487), "111");
}

TEST(AuditVerdict, WithoutATraceOrOwnKernelsTheReasonSaysWhatTheRepositoryHolds) {
  Case c = saving_case();
  c.add(EffortTier::Mechanical, "Validate on AMD: the test suite, numerics and a benchmark run",
        {2.25, 3, 4.5});
  const VerdictSummary traced = c.decide();
  EXPECT_EQ(traced.kind, VerdictKind::ValidationPass);
  EXPECT_EQ(traced.reasons[0].text,
            "The traces run no kernel of the team's own: the hot path is library and framework "
            "code, which runs on AMD as it is");
  const VerdictSummary untraced =
      decide_verdict({c.items, c.effort, c.kernels, c.cost, false}, VerdictConfig{5, 60});
  EXPECT_EQ(untraced.kind, VerdictKind::ValidationPass);
  EXPECT_EQ(untraced.reasons[0].text,
            "The repository defines no CUDA kernel of its own: its GPU work is library and "
            "framework code, which runs on AMD as it is");
}

}  // namespace
}  // namespace gpuport
