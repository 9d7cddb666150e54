// The open-loop schedule: reproducible from the seed, the requested mean rate exactly, gaps with
// the spread of their distribution, bounded by count or horizon.
#include "bench/load_plan.h"

#include <gtest/gtest.h>

#include <cmath>

namespace gpuport {
namespace {

// Coefficient of variation (standard deviation / mean) of the gaps.
double gap_cv(const std::vector<std::int64_t>& offsets) {
  std::vector<double> gaps;
  for (std::size_t i = 1; i < offsets.size(); ++i) {
    gaps.push_back(static_cast<double>(offsets[i] - offsets[i - 1]));
  }
  double mean = 0;
  for (double g : gaps) {
    mean += g;
  }
  mean /= static_cast<double>(gaps.size());
  double squares = 0;
  for (double g : gaps) {
    squares += (g - mean) * (g - mean);
  }
  return std::sqrt(squares / static_cast<double>(gaps.size())) / mean;
}

TEST(LoadPlan, SameSeedSameScheduleAndPinnedValues) {
  const auto a = arrival_offsets_ns(Arrival::poisson, 10, 1, 7, 1000, 0);
  const auto b = arrival_offsets_ns(Arrival::poisson, 10, 1, 7, 1000, 0);
  const auto c = arrival_offsets_ns(Arrival::poisson, 10, 1, 8, 1000, 0);
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
  ASSERT_EQ(a.size(), 1000u);
  EXPECT_EQ(a.front(), 0);
  // Pinned: the generator is our own, so these hold on every standard library.
  const auto pinned = arrival_offsets_ns(Arrival::poisson, 1, 1, 0, 4, 0);
  EXPECT_EQ(pinned, (std::vector<std::int64_t>{0, 515'441'044, 809'933'794, 3'112'781'111}));
}

TEST(LoadPlan, CountArrivalsSpanExactlyCountOverRate) {
  for (const Arrival arrival : {Arrival::poisson, Arrival::gamma, Arrival::constant}) {
    const auto offsets = arrival_offsets_ns(arrival, 50, 0.5, 1, 5000, 0);
    ASSERT_EQ(offsets.size(), 5000u);
    EXPECT_TRUE(std::is_sorted(offsets.begin(), offsets.end()));
    // The next (5001st) arrival would be at 100 s; the last one is within a few gaps of it.
    EXPECT_LT(offsets.back(), 100'000'000'000);
    EXPECT_GT(offsets.back(), 99'500'000'000);
  }
}

TEST(LoadPlan, GapSpreadFollowsTheDistribution) {
  EXPECT_NEAR(gap_cv(arrival_offsets_ns(Arrival::poisson, 100, 1, 3, 20'000, 0)), 1.0, 0.03);
  // Gamma with shape b has CV 1/sqrt(b): burstier below 1, smoother above.
  EXPECT_NEAR(gap_cv(arrival_offsets_ns(Arrival::gamma, 100, 0.25, 3, 20'000, 0)), 2.0, 0.08);
  EXPECT_NEAR(gap_cv(arrival_offsets_ns(Arrival::gamma, 100, 4, 3, 20'000, 0)), 0.5, 0.02);
  EXPECT_NEAR(gap_cv(arrival_offsets_ns(Arrival::constant, 100, 1, 3, 1000, 0)), 0.0, 1e-6);
  // Gamma with shape 1 is Poisson.
  EXPECT_EQ(arrival_offsets_ns(Arrival::gamma, 5, 1, 9, 100, 0),
            arrival_offsets_ns(Arrival::poisson, 5, 1, 9, 100, 0));
}

TEST(LoadPlan, ConstantGapsAreExact) {
  EXPECT_EQ(arrival_offsets_ns(Arrival::constant, 4, 1, 0, 3, 0),
            (std::vector<std::int64_t>{0, 250'000'000, 500'000'000}));
}

TEST(LoadPlan, HorizonBoundsTheSchedule) {
  const auto offsets = arrival_offsets_ns(Arrival::poisson, 200, 1, 5, 0, 60'000'000'000);
  EXPECT_EQ(offsets.size(), 12'000u);  // exactly rate × horizon: the schedule is rescaled
  EXPECT_LT(offsets.back(), 60'000'000'000);
  const auto constant = arrival_offsets_ns(Arrival::constant, 3, 1, 0, 0, 1'000'000'000);
  EXPECT_EQ(constant, (std::vector<std::int64_t>{0, 333'333'333, 666'666'667}));
}

TEST(LoadPlan, NonsenseInputsGiveAnEmptySchedule) {
  EXPECT_TRUE(arrival_offsets_ns(Arrival::poisson, 0, 1, 0, 10, 0).empty());
  EXPECT_TRUE(arrival_offsets_ns(Arrival::poisson, -1, 1, 0, 10, 0).empty());
  EXPECT_TRUE(arrival_offsets_ns(Arrival::poisson, NAN, 1, 0, 10, 0).empty());
  EXPECT_TRUE(arrival_offsets_ns(Arrival::poisson, 10, 1, 0, 0, 0).empty());
  EXPECT_EQ(arrival_offsets_ns(Arrival::gamma, 10, 0, 0, 10, 0).size(), 10u);  // shape 0: Poisson
}

}  // namespace
}  // namespace gpuport
