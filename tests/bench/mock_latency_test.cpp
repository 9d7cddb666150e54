// The mock server's latency model without sockets: the distributions' statistics, the capacity
// factor, stall windows and fault choice.
#include "bench/mock_latency.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

namespace gpuport {
namespace {

struct Moments {
  double mean = 0, stddev = 0, median = 0;
  std::int64_t min = 0;
};

Moments draw(const LatencyDistribution& distribution, int count, std::uint64_t seed = 1) {
  MockRandom random(seed);
  std::vector<double> samples;
  for (int i = 0; i < count; ++i) {
    samples.push_back(static_cast<double>(sample_latency_ns(distribution, random)));
  }
  Moments m;
  for (double s : samples) {
    m.mean += s;
  }
  m.mean /= count;
  for (double s : samples) {
    m.stddev += (s - m.mean) * (s - m.mean);
  }
  m.stddev = std::sqrt(m.stddev / count);
  std::sort(samples.begin(), samples.end());
  m.median = samples[samples.size() / 2];
  m.min = static_cast<std::int64_t>(samples.front());
  return m;
}

TEST(MockLatency, ConstantIsExact) {
  MockRandom random(3);
  const LatencyDistribution constant{LatencyDistribution::Kind::constant, 42'000'000, 0};
  for (int i = 0; i < 10; ++i) {
    EXPECT_EQ(sample_latency_ns(constant, random), 42'000'000);
  }
}

TEST(MockLatency, NormalHasItsMeanAndStddev) {
  // 20,000 draws: the sample mean is within 0.1 ms (>7 standard errors) of 50 ms.
  const Moments m = draw({LatencyDistribution::Kind::normal, 50'000'000, 10'000'000}, 20'000);
  EXPECT_NEAR(m.mean, 50e6, 0.1e6);
  EXPECT_NEAR(m.stddev, 10e6, 0.2e6);
  EXPECT_NEAR(m.median, 50e6, 0.3e6);
}

TEST(MockLatency, NormalIsCutAtZero) {
  const Moments m = draw({LatencyDistribution::Kind::normal, 1'000'000, 5'000'000}, 2'000);
  EXPECT_EQ(m.min, 0);
}

TEST(MockLatency, LognormalHasItsMeanStddevAndMedian) {
  // mean 200 ms, stddev 100 ms: sigma^2 = ln(1.25), median = 200 / sqrt(1.25) = 178.9 ms.
  const Moments m = draw({LatencyDistribution::Kind::lognormal, 200'000'000, 100'000'000}, 40'000);
  EXPECT_NEAR(m.mean, 200e6, 2e6);
  EXPECT_NEAR(m.stddev, 100e6, 4e6);
  EXPECT_NEAR(m.median, 200e6 / std::sqrt(1.25), 2e6);
  EXPECT_GT(m.min, 0);
}

TEST(MockLatency, SameSeedSameDraws) {
  const LatencyDistribution normal{LatencyDistribution::Kind::normal, 50'000'000, 10'000'000};
  MockRandom a(9), b(9), c(10);
  bool any_difference = false;
  for (int i = 0; i < 20; ++i) {
    const std::int64_t x = sample_latency_ns(normal, a);
    EXPECT_EQ(x, sample_latency_ns(normal, b));
    any_difference |= x != sample_latency_ns(normal, c);
  }
  EXPECT_TRUE(any_difference);
}

TEST(MockCapacity, FactorGrowsLinearlyAboveTheKnee) {
  const CapacityModel model{8, 0};
  EXPECT_DOUBLE_EQ(capacity_factor(model, 1), 1.0);
  EXPECT_DOUBLE_EQ(capacity_factor(model, 8), 1.0);
  EXPECT_DOUBLE_EQ(capacity_factor(model, 12), 1.5);
  EXPECT_DOUBLE_EQ(capacity_factor(model, 16), 2.0);
  EXPECT_DOUBLE_EQ(capacity_factor(model, 40), 5.0);
  EXPECT_DOUBLE_EQ(capacity_factor(CapacityModel{}, 1000), 1.0);
  EXPECT_EQ(scaled_latency_ns(10'000'000, model, 16), 20'000'000);
  EXPECT_EQ(scaled_latency_ns(10'000'000, model, 4), 10'000'000);
}

TEST(MockStall, HoldsWhatFallsInTheWindow) {
  const StallWindow once{2'000'000'000, 1'000'000'000, 0};
  EXPECT_EQ(stall_release_ns(once, 1'999'999'999), 1'999'999'999);
  EXPECT_EQ(stall_release_ns(once, 2'000'000'000), 3'000'000'000);
  EXPECT_EQ(stall_release_ns(once, 2'700'000'000), 3'000'000'000);
  EXPECT_EQ(stall_release_ns(once, 3'000'000'000), 3'000'000'000);
  EXPECT_EQ(stall_release_ns(once, 12'500'000'000), 12'500'000'000);
  EXPECT_EQ(stall_release_ns(StallWindow{}, 5), 5);
}

TEST(MockStall, RepeatsWithAPeriod) {
  const StallWindow repeated{1'000'000'000, 100'000'000, 5'000'000'000};
  EXPECT_EQ(stall_release_ns(repeated, 1'050'000'000), 1'100'000'000);
  EXPECT_EQ(stall_release_ns(repeated, 3'000'000'000), 3'000'000'000);
  EXPECT_EQ(stall_release_ns(repeated, 6'020'000'000), 6'100'000'000);
  EXPECT_EQ(stall_release_ns(repeated, 11'099'999'999), 11'100'000'000);
  EXPECT_EQ(stall_release_ns(repeated, 11'100'000'000), 11'100'000'000);
}

TEST(MockFaults, EveryNthRequest) {
  const std::vector<FaultRule> rules = {{FaultKind::http_500, 3, 0}};
  MockRandom random(1);
  std::vector<std::uint64_t> faulted;
  for (std::uint64_t n = 1; n <= 10; ++n) {
    if (choose_fault(rules, n, random)) {
      faulted.push_back(n);
    }
  }
  EXPECT_EQ(faulted, (std::vector<std::uint64_t>{3, 6, 9}));
}

TEST(MockFaults, FirstRuleThatFiresWins) {
  const std::vector<FaultRule> rules = {{FaultKind::http_429, 4, 0}, {FaultKind::http_500, 2, 0}};
  MockRandom random(1);
  EXPECT_EQ(choose_fault(rules, 2, random), FaultKind::http_500);
  EXPECT_EQ(choose_fault(rules, 4, random), FaultKind::http_429);
  EXPECT_EQ(choose_fault(rules, 5, random), std::nullopt);
}

TEST(MockFaults, ProbabilityIsHonouredAndSeeded) {
  const std::vector<FaultRule> rules = {{FaultKind::close_mid_stream, 0, 0.2}};
  MockRandom a(5), b(5);
  int hits = 0;
  for (std::uint64_t n = 1; n <= 10'000; ++n) {
    const auto fault = choose_fault(rules, n, a);
    EXPECT_EQ(fault, choose_fault(rules, n, b));
    hits += fault.has_value();
  }
  EXPECT_NEAR(hits, 2000, 150);  // binomial sd = 40
  const std::vector<FaultRule> never = {{FaultKind::http_500, 0, 0.0}};
  const std::vector<FaultRule> always = {{FaultKind::http_500, 0, 1.0}};
  EXPECT_FALSE(choose_fault(never, 1, a));
  EXPECT_TRUE(choose_fault(always, 1, a));
}

}  // namespace
}  // namespace gpuport
