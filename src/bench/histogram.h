// A log-linear latency histogram in the HdrHistogram layout: values in microseconds from 1 µs to
// 1 h at 3 significant digits (quantisation at most 1/1000 of the value). Two histograms merge
// exactly (bucket counts add), so results from several threads or client machines combine
// without losing percentiles.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <tl/expected.hpp>

namespace gpuport {

class LatencyHistogram {
 public:
  static constexpr std::int64_t k_lowest_us = 1;
  static constexpr std::int64_t k_highest_us = 3'600'000'000;  // 1 h
  static constexpr int k_significant_digits = 3;

  LatencyHistogram();

  // Values below 1 µs count as 1 µs; above 1 h as 1 h (and are counted in clamped()).
  void record(std::int64_t value_us);
  void record_n(std::int64_t value_us, std::uint64_t count);
  void merge(const LatencyHistogram& other);

  std::uint64_t count() const { return total_; }
  std::uint64_t clamped() const { return clamped_; }
  // Exact over the recorded (clamped) values, not bucket midpoints; 0 when empty.
  std::int64_t min_us() const;
  std::int64_t max_us() const;
  double mean_us() const;
  // Population standard deviation from the buckets (HdrHistogram's method); 0 when empty.
  double stddev_us() const;
  // The value at percentile `p` (0..100): the highest value equivalent to the bucket holding the
  // ceil(p/100 × count)-th smallest sample (HdrHistogram's getValueAtPercentile), capped at
  // max_us(). 0 when empty.
  std::int64_t percentile_us(double p) const;

  // Serialisation: the non-empty buckets as (bucket index, count), ascending by index, plus the
  // exact sum, min and max. from_parts() rejects an index out of range or totals that disagree.
  std::vector<std::pair<std::size_t, std::uint64_t>> nonzero_buckets() const;
  std::int64_t sum_us() const { return sum_; }
  static tl::expected<LatencyHistogram, std::string> from_parts(
      const std::vector<std::pair<std::size_t, std::uint64_t>>& buckets, std::int64_t sum_us,
      std::int64_t min_us, std::int64_t max_us, std::uint64_t clamped);
  // The lowest value that lands in bucket `index` (for readable dumps and tests).
  static std::int64_t bucket_lowest_us(std::size_t index);
  static std::size_t bucket_index(std::int64_t value_us);
  static std::size_t bucket_count();

 private:
  std::vector<std::uint64_t> counts_;
  std::uint64_t total_ = 0;
  std::uint64_t clamped_ = 0;
  std::int64_t sum_ = 0;
  std::int64_t min_ = 0;
  std::int64_t max_ = 0;
};

}  // namespace gpuport
