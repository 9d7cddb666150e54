// LatencyHistogram: percentiles of known sample sets, the bucket layout, exact merges, and the
// checks from_parts() makes on saved histograms.
#include "bench/histogram.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

namespace gpuport {
namespace {

LatencyHistogram one_to(std::int64_t n) {
  LatencyHistogram histogram;
  for (std::int64_t v = 1; v <= n; ++v) {
    histogram.record(v);
  }
  return histogram;
}

// The nearest-rank percentile of sorted samples: the ceil(p/100 × n)-th smallest.
std::int64_t nearest_rank(const std::vector<std::int64_t>& sorted, double p) {
  const auto rank = static_cast<std::size_t>(std::ceil(p / 100.0 * sorted.size() - 1e-9));
  return sorted[std::max<std::size_t>(rank, 1) - 1];
}

TEST(LatencyHistogram, PercentilesOfOneToTenThousandAreWithinOneThousandth) {
  const LatencyHistogram histogram = one_to(10'000);
  EXPECT_EQ(histogram.count(), 10'000u);
  for (const auto& [p, expected] : std::vector<std::pair<double, double>>{
           {50, 5000}, {90, 9000}, {95, 9500}, {99, 9900}, {99.9, 9990}, {100, 10000}}) {
    const auto value = static_cast<double>(histogram.percentile_us(p));
    EXPECT_GE(value, expected) << "p" << p;
    EXPECT_LE(value, expected * 1.001) << "p" << p;
  }
  // The exact values the layout gives: 5000 sits in a 4 µs wide bucket 5000..5003.
  EXPECT_EQ(histogram.percentile_us(50), 5003);
  EXPECT_EQ(histogram.percentile_us(99.9), 9991);
  EXPECT_EQ(histogram.percentile_us(100), 10'000);
}

TEST(LatencyHistogram, ValuesUpTo2047AreExact) {
  const LatencyHistogram histogram = one_to(2000);
  EXPECT_EQ(histogram.percentile_us(50), 1000);
  EXPECT_EQ(histogram.percentile_us(99), 1980);
  EXPECT_EQ(histogram.percentile_us(99.9), 1998);
  EXPECT_EQ(histogram.percentile_us(0), 1);
}

TEST(LatencyHistogram, MinMaxMeanAreExactAndStddevMatchesThePopulationFormula) {
  const LatencyHistogram histogram = one_to(1000);
  EXPECT_EQ(histogram.min_us(), 1);
  EXPECT_EQ(histogram.max_us(), 1000);
  EXPECT_DOUBLE_EQ(histogram.mean_us(), 500.5);
  EXPECT_EQ(histogram.sum_us(), 500'500);
  // Population standard deviation of 1..n is sqrt((n² − 1) / 12).
  EXPECT_NEAR(histogram.stddev_us(), std::sqrt((1000.0 * 1000.0 - 1) / 12), 0.01);
}

TEST(LatencyHistogram, EmptyHistogramReportsZeros) {
  const LatencyHistogram histogram;
  EXPECT_EQ(histogram.count(), 0u);
  EXPECT_EQ(histogram.percentile_us(99), 0);
  EXPECT_EQ(histogram.min_us(), 0);
  EXPECT_EQ(histogram.max_us(), 0);
  EXPECT_EQ(histogram.mean_us(), 0.0);
  EXPECT_EQ(histogram.stddev_us(), 0.0);
  EXPECT_TRUE(histogram.nonzero_buckets().empty());
}

TEST(LatencyHistogram, ValuesOutsideOneMicrosecondToOneHourAreClamped) {
  LatencyHistogram histogram;
  histogram.record(0);
  histogram.record(-5);
  histogram.record(LatencyHistogram::k_highest_us + 1);
  histogram.record(INT64_MAX);
  EXPECT_EQ(histogram.count(), 4u);
  EXPECT_EQ(histogram.clamped(), 2u);
  EXPECT_EQ(histogram.min_us(), 1);
  EXPECT_EQ(histogram.max_us(), LatencyHistogram::k_highest_us);
  EXPECT_EQ(histogram.percentile_us(100), LatencyHistogram::k_highest_us);
}

TEST(LatencyHistogram, BucketLayoutIsHdrHistograms) {
  // 22 power-of-two ranges of 1024 sub-buckets after the first 2048: the last index holds 1 h.
  EXPECT_EQ(LatencyHistogram::bucket_count(), 23'221u);
  EXPECT_EQ(LatencyHistogram::bucket_index(1), 1u);
  EXPECT_EQ(LatencyHistogram::bucket_index(2047), 2047u);
  EXPECT_EQ(LatencyHistogram::bucket_index(2048), 2048u);
  EXPECT_EQ(LatencyHistogram::bucket_index(2049), 2048u);  // 2 µs wide from 2048
  EXPECT_EQ(LatencyHistogram::bucket_index(4096), 3072u);
  EXPECT_EQ(LatencyHistogram::bucket_lowest_us(3072), 4096);
  EXPECT_EQ(LatencyHistogram::bucket_lowest_us(2049), 2050);
  // Every bucket is narrower than 1/1000 of its lowest value once past the exact range.
  for (std::size_t i = 2048; i < LatencyHistogram::bucket_count(); i += 97) {
    const std::int64_t low = LatencyHistogram::bucket_lowest_us(i);
    const std::int64_t width = LatencyHistogram::bucket_lowest_us(i + 1) - low;
    EXPECT_LE(width * 1000, low) << i;
    EXPECT_EQ(LatencyHistogram::bucket_index(low), i);
    EXPECT_EQ(LatencyHistogram::bucket_index(low + width - 1), i);
  }
}

TEST(LatencyHistogram, RandomSamplesStayWithinOneThousandthOfTheExactPercentile) {
  std::mt19937_64 generator(42);
  std::lognormal_distribution<double> latency(std::log(50'000.0), 1.0);
  std::vector<std::int64_t> samples;
  LatencyHistogram histogram;
  for (int i = 0; i < 20'000; ++i) {
    const auto value = std::max<std::int64_t>(1, static_cast<std::int64_t>(latency(generator)));
    samples.push_back(value);
    histogram.record(value);
  }
  std::sort(samples.begin(), samples.end());
  for (double p : {50.0, 90.0, 95.0, 99.0, 99.9}) {
    const double exact = static_cast<double>(nearest_rank(samples, p));
    const double measured = static_cast<double>(histogram.percentile_us(p));
    EXPECT_GE(measured, exact) << "p" << p;
    EXPECT_LE(measured, exact * 1.001) << "p" << p;
  }
}

TEST(LatencyHistogram, MergeEqualsTheHistogramOfTheUnion) {
  LatencyHistogram a;
  LatencyHistogram b;
  LatencyHistogram both;
  for (std::int64_t v = 1; v < 300'000; v += 7) {
    (v % 3 == 0 ? a : b).record(v);
    both.record(v);
  }
  a.merge(b);
  EXPECT_EQ(a.nonzero_buckets(), both.nonzero_buckets());
  EXPECT_EQ(a.count(), both.count());
  EXPECT_EQ(a.sum_us(), both.sum_us());
  EXPECT_EQ(a.min_us(), both.min_us());
  EXPECT_EQ(a.max_us(), both.max_us());
  EXPECT_EQ(a.percentile_us(99), both.percentile_us(99));

  LatencyHistogram empty;
  empty.merge(both);
  EXPECT_EQ(empty.min_us(), 1);
  EXPECT_EQ(empty.nonzero_buckets(), both.nonzero_buckets());
}

TEST(LatencyHistogram, RecordNCountsAsNRecords) {
  LatencyHistogram histogram;
  histogram.record_n(100, 3);
  histogram.record_n(200, 0);
  histogram.record(300);
  EXPECT_EQ(histogram.count(), 4u);
  EXPECT_EQ(histogram.sum_us(), 600);
  EXPECT_EQ(histogram.percentile_us(75), 100);
  EXPECT_EQ(histogram.max_us(), 300);
}

TEST(LatencyHistogram, FromPartsRoundTrips) {
  LatencyHistogram original = one_to(5000);
  original.record(LatencyHistogram::k_highest_us + 10);
  const auto copy =
      LatencyHistogram::from_parts(original.nonzero_buckets(), original.sum_us(), original.min_us(),
                                   original.max_us(), original.clamped());
  ASSERT_TRUE(copy.has_value()) << copy.error();
  EXPECT_EQ(copy->nonzero_buckets(), original.nonzero_buckets());
  EXPECT_EQ(copy->count(), original.count());
  EXPECT_EQ(copy->clamped(), 1u);
  EXPECT_EQ(copy->percentile_us(99.9), original.percentile_us(99.9));
}

TEST(LatencyHistogram, FromPartsRejectsInconsistentParts) {
  using Buckets = std::vector<std::pair<std::size_t, std::uint64_t>>;
  EXPECT_EQ(LatencyHistogram::from_parts(Buckets{{23'221, 1}}, 1, 1, 1, 0).error(),
            "bucket index 23221 is out of range (0..23220)");
  EXPECT_EQ(LatencyHistogram::from_parts(Buckets{{5, 1}, {5, 1}}, 10, 5, 5, 0).error(),
            "bucket indexes are not strictly ascending");
  EXPECT_EQ(LatencyHistogram::from_parts(Buckets{{5, 0}}, 0, 5, 5, 0).error(),
            "bucket 5 has a count of 0");
  EXPECT_EQ(LatencyHistogram::from_parts(Buckets{{5, 2}}, 11, 5, 5, 0).error(),
            "sum does not agree with the buckets");
  EXPECT_EQ(LatencyHistogram::from_parts(Buckets{{5, 1}, {9, 1}}, 14, 5, 8, 0).error(),
            "min and max do not fall in the first and last buckets");
  EXPECT_EQ(LatencyHistogram::from_parts(Buckets{}, 3, 0, 0, 0).error(),
            "an empty histogram must have sum, min, max and clamped 0");
  EXPECT_EQ(LatencyHistogram::from_parts(Buckets{{5, 1}}, 5, 5, 5, 1).error(),
            "clamped count does not agree with the buckets");
  EXPECT_TRUE(LatencyHistogram::from_parts(Buckets{}, 0, 0, 0, 0).has_value());
}

}  // namespace
}  // namespace gpuport
