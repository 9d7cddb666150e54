// The HdrHistogram bucket layout for 1 µs .. 1 h at 3 significant digits: 2048 sub-buckets of
// width 1 up to 2047 µs, then each power-of-two range split into 1024 sub-buckets twice as wide as
// the previous range's. The counts index is HdrHistogram's, so saved bucket indexes mean the same
// value ranges as theirs.
#include "bench/histogram.h"

#include <algorithm>
#include <bit>
#include <cmath>

namespace gpuport {

namespace {

constexpr int k_sub_bucket_count_magnitude = 11;  // ceil(log2(2 × 10^3))
constexpr int k_sub_bucket_half_count_magnitude = k_sub_bucket_count_magnitude - 1;
constexpr std::int64_t k_sub_bucket_count = std::int64_t{1} << k_sub_bucket_count_magnitude;
constexpr std::int64_t k_sub_bucket_half_count = k_sub_bucket_count / 2;
constexpr std::int64_t k_sub_bucket_mask = k_sub_bucket_count - 1;
constexpr int k_leading_zero_count_base = 64 - k_sub_bucket_count_magnitude;

int bucket_of(std::int64_t value) {
  return k_leading_zero_count_base -
         std::countl_zero(static_cast<std::uint64_t>(value | k_sub_bucket_mask));
}

std::int64_t clamp_value(std::int64_t value_us) {
  return std::clamp(value_us, LatencyHistogram::k_lowest_us, LatencyHistogram::k_highest_us);
}

std::int64_t range_size(std::size_t index) {
  const int bucket = static_cast<int>(index >> k_sub_bucket_half_count_magnitude) - 1;
  return std::int64_t{1} << std::max(bucket, 0);
}

std::int64_t highest_equivalent(std::size_t index) {
  return LatencyHistogram::bucket_lowest_us(index) + range_size(index) - 1;
}

std::int64_t median_equivalent(std::size_t index) {
  return LatencyHistogram::bucket_lowest_us(index) + range_size(index) / 2;
}

// ceil(p/100 × count) without the float noise that turns 99.9 % of 10000 into 9991.
std::uint64_t rank_at(double p, std::uint64_t count) {
  const double exact = p / 100.0 * static_cast<double>(count);
  const double nearest = std::round(exact);
  const double rank =
      std::abs(exact - nearest) <= 1e-9 * std::max(1.0, exact) ? nearest : std::ceil(exact);
  return std::clamp<std::uint64_t>(static_cast<std::uint64_t>(rank), 1, count);
}

}  // namespace

std::size_t LatencyHistogram::bucket_index(std::int64_t value_us) {
  const std::int64_t value = clamp_value(value_us);
  const int bucket = bucket_of(value);
  const std::int64_t sub_bucket = value >> bucket;
  return static_cast<std::size_t>(
      (static_cast<std::int64_t>(bucket + 1) << k_sub_bucket_half_count_magnitude) +
      (sub_bucket - k_sub_bucket_half_count));
}

std::int64_t LatencyHistogram::bucket_lowest_us(std::size_t index) {
  int bucket = static_cast<int>(index >> k_sub_bucket_half_count_magnitude) - 1;
  std::int64_t sub_bucket =
      static_cast<std::int64_t>(index & (k_sub_bucket_half_count - 1)) + k_sub_bucket_half_count;
  if (bucket < 0) {
    sub_bucket -= k_sub_bucket_half_count;
    bucket = 0;
  }
  return sub_bucket << bucket;
}

std::size_t LatencyHistogram::bucket_count() {
  static const std::size_t count = bucket_index(k_highest_us) + 1;
  return count;
}

LatencyHistogram::LatencyHistogram() : counts_(bucket_count(), 0) {}

void LatencyHistogram::record(std::int64_t value_us) {
  record_n(value_us, 1);
}

void LatencyHistogram::record_n(std::int64_t value_us, std::uint64_t count) {
  if (count == 0) {
    return;
  }
  const std::int64_t value = clamp_value(value_us);
  if (value_us > k_highest_us) {
    clamped_ += count;
  }
  counts_[bucket_index(value)] += count;
  min_ = total_ == 0 ? value : std::min(min_, value);
  max_ = total_ == 0 ? value : std::max(max_, value);
  total_ += count;
  sum_ += value * static_cast<std::int64_t>(count);
}

void LatencyHistogram::merge(const LatencyHistogram& other) {
  if (other.total_ == 0) {
    return;
  }
  for (std::size_t i = 0; i < counts_.size(); ++i) {
    counts_[i] += other.counts_[i];
  }
  min_ = total_ == 0 ? other.min_ : std::min(min_, other.min_);
  max_ = total_ == 0 ? other.max_ : std::max(max_, other.max_);
  total_ += other.total_;
  clamped_ += other.clamped_;
  sum_ += other.sum_;
}

std::int64_t LatencyHistogram::min_us() const {
  return min_;
}
std::int64_t LatencyHistogram::max_us() const {
  return max_;
}

double LatencyHistogram::mean_us() const {
  return total_ == 0 ? 0.0 : static_cast<double>(sum_) / static_cast<double>(total_);
}

double LatencyHistogram::stddev_us() const {
  if (total_ == 0) {
    return 0.0;
  }
  const double mean = mean_us();
  double squares = 0;
  for (std::size_t i = 0; i < counts_.size(); ++i) {
    if (counts_[i] != 0) {
      const double deviation = static_cast<double>(median_equivalent(i)) - mean;
      squares += deviation * deviation * static_cast<double>(counts_[i]);
    }
  }
  return std::sqrt(squares / static_cast<double>(total_));
}

std::int64_t LatencyHistogram::percentile_us(double p) const {
  if (total_ == 0) {
    return 0;
  }
  if (!(p > 0)) {  // also NaN
    return min_;
  }
  const std::uint64_t rank = rank_at(std::min(p, 100.0), total_);
  std::uint64_t seen = 0;
  for (std::size_t i = 0; i < counts_.size(); ++i) {
    seen += counts_[i];
    if (seen >= rank) {
      return std::clamp(highest_equivalent(i), min_, max_);
    }
  }
  return max_;
}

std::vector<std::pair<std::size_t, std::uint64_t>> LatencyHistogram::nonzero_buckets() const {
  std::vector<std::pair<std::size_t, std::uint64_t>> buckets;
  for (std::size_t i = 0; i < counts_.size(); ++i) {
    if (counts_[i] != 0) {
      buckets.emplace_back(i, counts_[i]);
    }
  }
  return buckets;
}

tl::expected<LatencyHistogram, std::string> LatencyHistogram::from_parts(
    const std::vector<std::pair<std::size_t, std::uint64_t>>& buckets, std::int64_t sum_us,
    std::int64_t min_us, std::int64_t max_us, std::uint64_t clamped) {
  LatencyHistogram histogram;
  std::size_t previous = 0;
  // The sum of the values must lie between the sums of each bucket's lowest and highest values.
  long double lowest_sum = 0;
  long double highest_sum = 0;
  for (std::size_t i = 0; i < buckets.size(); ++i) {
    const auto [index, count] = buckets[i];
    if (index >= bucket_count()) {
      return tl::unexpected("bucket index " + std::to_string(index) + " is out of range (0.." +
                            std::to_string(bucket_count() - 1) + ")");
    }
    if (i > 0 && index <= previous) {
      return tl::unexpected(std::string("bucket indexes are not strictly ascending"));
    }
    if (count == 0) {
      return tl::unexpected("bucket " + std::to_string(index) + " has a count of 0");
    }
    if (histogram.total_ + count < histogram.total_) {
      return tl::unexpected(std::string("bucket counts overflow"));
    }
    previous = index;
    histogram.counts_[index] = count;
    histogram.total_ += count;
    lowest_sum += static_cast<long double>(bucket_lowest_us(index)) * count;
    highest_sum += static_cast<long double>(highest_equivalent(index)) * count;
  }
  if (histogram.total_ == 0) {
    if (sum_us != 0 || min_us != 0 || max_us != 0 || clamped != 0) {
      return tl::unexpected(
          std::string("an empty histogram must have sum, min, max and clamped 0"));
    }
    return histogram;
  }
  if (min_us < k_lowest_us || max_us > k_highest_us || min_us > max_us ||
      bucket_index(min_us) != buckets.front().first ||
      bucket_index(max_us) != buckets.back().first) {
    return tl::unexpected(std::string("min and max do not fall in the first and last buckets"));
  }
  if (sum_us < lowest_sum || sum_us > highest_sum) {
    return tl::unexpected(std::string("sum does not agree with the buckets"));
  }
  if (clamped > histogram.total_ || (clamped > 0 && max_us != k_highest_us)) {
    return tl::unexpected(std::string("clamped count does not agree with the buckets"));
  }
  histogram.sum_ = sum_us;
  histogram.min_ = min_us;
  histogram.max_ = max_us;
  histogram.clamped_ = clamped;
  return histogram;
}

}  // namespace gpuport
