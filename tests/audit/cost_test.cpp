// The cost formulas on hand-computed numbers.
#include <gtest/gtest.h>

#include "audit/cost.h"

namespace gpuport {
namespace {

// NVIDIA: $3.60/h × 2 GPUs at 20 req/s -> $100 per 1M requests.
// AMD:    $1.80/h × 1 GPU  at 10 req/s -> $50 per 1M requests.
CostConfig hand_config() {
  CostConfig config;
  config.day_rate = 1000;
  config.monthly_requests = 1e8;
  config.payback_horizon_months = 12;
  config.nvidia = {"H100", 3.6, 2, 20, false, std::nullopt};
  config.amd = {"MI300X", 1.8, 1, 10, true, std::nullopt};
  return config;
}

TEST(AuditCost, CostPerMillionRequests) {
  EXPECT_DOUBLE_EQ(cost_per_million(3.6, 2, 20), 100.0);  // 7.2 $/h / 72,000 req/h × 1e6
  EXPECT_DOUBLE_EQ(cost_per_million(1.8, 1, 10), 50.0);
  EXPECT_DOUBLE_EQ(cost_per_million(3.49, 1, 10), 3.49 / 36000 * 1e6);  // 96.94…
}

TEST(AuditCost, PaybackMonthsOnlyWithASaving) {
  EXPECT_DOUBLE_EQ(*payback_months(20000, 5000), 4.0);
  EXPECT_DOUBLE_EQ(*payback_months(0, 5000), 0.0);
  EXPECT_FALSE(payback_months(20000, 0));
  EXPECT_FALSE(payback_months(20000, -5000));
}

TEST(AuditCost, BreakEvenRatioIsTheRatioOfReplicaPrices) {
  const CostConfig config = hand_config();
  // (1.8 × 1) / (3.6 × 2): AMD breaks even at a quarter of NVIDIA's throughput.
  EXPECT_DOUBLE_EQ(break_even_ratio(config.nvidia, config.amd), 0.25);
}

TEST(AuditCost, PaybackRatioPaysThePortBackWithinTheHorizon) {
  const CostConfig config = hand_config();
  // NVIDIA costs $10,000 a month; paying $20,000 back in 12 months leaves $8,333.33 a month for
  // AMD: 1e8 × 1.8 / (20 × 3600 × 8,333.33) = 0.3 (6 req/s: $83.33 per 1M, $8,333.33 a month).
  EXPECT_NEAR(*payback_ratio(config.nvidia, config.amd, 1e8, 20000, 12), 0.3, 1e-12);
  // Free porting: the payback ratio is the break-even ratio.
  EXPECT_NEAR(*payback_ratio(config.nvidia, config.amd, 1e8, 0, 12), 0.25, 1e-12);
  // $120,000 a year of porting eats all of NVIDIA's $10,000 a month: no AMD throughput pays it.
  EXPECT_FALSE(payback_ratio(config.nvidia, config.amd, 1e8, 120000, 12));
  EXPECT_FALSE(payback_ratio(config.nvidia, config.amd, 0, 20000, 12));
}

TEST(AuditCost, SummaryOfAHandComputedCase) {
  const CostSummary cost = estimate_cost(hand_config(), DayRange{10, 20, 45});
  EXPECT_EQ(cost.nvidia.vendor, Vendor::Nvidia);
  EXPECT_EQ(cost.nvidia.gpu, "H100");
  EXPECT_EQ(cost.nvidia.gpus_per_replica, 2u);
  EXPECT_FALSE(cost.nvidia.throughput_assumed);
  EXPECT_TRUE(cost.amd.throughput_assumed);
  EXPECT_DOUBLE_EQ(cost.nvidia.cost_per_million, 100.0);
  EXPECT_DOUBLE_EQ(cost.amd.cost_per_million, 50.0);
  EXPECT_DOUBLE_EQ(cost.nvidia.monthly_cost, 10000.0);
  EXPECT_DOUBLE_EQ(cost.amd.monthly_cost, 5000.0);
  EXPECT_DOUBLE_EQ(cost.monthly_delta, 5000.0);
  EXPECT_DOUBLE_EQ(cost.porting_cost.low, 10000.0);
  EXPECT_DOUBLE_EQ(cost.porting_cost.likely, 20000.0);
  EXPECT_DOUBLE_EQ(cost.porting_cost.high, 45000.0);
  EXPECT_DOUBLE_EQ(*cost.payback_months, 4.0);
  EXPECT_EQ(cost.horizon_months, 12.0);
  EXPECT_DOUBLE_EQ(cost.break_even_ratio, 0.25);
  EXPECT_NEAR(*cost.payback_ratio, 0.3, 1e-12);
}

TEST(AuditCost, AMoreExpensiveAmdHasNoPayback) {
  CostConfig config = hand_config();
  config.amd.throughput_rps = 2;  // $250 per 1M requests
  const CostSummary cost = estimate_cost(config, DayRange{1, 2, 3});
  EXPECT_DOUBLE_EQ(cost.amd.cost_per_million, 250.0);
  EXPECT_DOUBLE_EQ(cost.monthly_delta, -15000.0);
  EXPECT_FALSE(cost.payback_months);
}

}  // namespace
}  // namespace gpuport
