#include "bench/mock_latency.h"

#include <algorithm>
#include <cmath>

namespace gpuport {

namespace {

std::int64_t to_ns(double value) {
  if (!(value > 0)) {
    return 0;  // also NaN
  }
  return static_cast<std::int64_t>(std::min(value, 9.0e18));
}

}  // namespace

std::int64_t sample_latency_ns(const LatencyDistribution& distribution, MockRandom& random) {
  const double mean = static_cast<double>(distribution.mean_ns);
  const double stddev = static_cast<double>(distribution.stddev_ns);
  switch (distribution.kind) {
    case LatencyDistribution::Kind::constant:
      return distribution.mean_ns;
    case LatencyDistribution::Kind::normal:
      return to_ns(std::round(mean + stddev * random.standard_normal()));
    case LatencyDistribution::Kind::lognormal: {
      if (mean <= 0) {
        return 0;
      }
      const double variance = std::log1p((stddev / mean) * (stddev / mean));
      const double mu = std::log(mean) - variance / 2;
      return to_ns(std::round(std::exp(mu + std::sqrt(variance) * random.standard_normal())));
    }
  }
  return 0;
}

double capacity_factor(const CapacityModel& capacity, std::int64_t active) {
  if (capacity.knee <= 0 || active <= capacity.knee) {
    return 1.0;
  }
  return 1.0 + static_cast<double>(active - capacity.knee) / static_cast<double>(capacity.knee);
}

std::int64_t scaled_latency_ns(std::int64_t base_ns, const CapacityModel& capacity,
                               std::int64_t active) {
  const double factor = capacity_factor(capacity, active);
  if (factor == 1.0) {
    return base_ns;
  }
  return to_ns(std::round(static_cast<double>(base_ns) * factor));
}

std::int64_t stall_release_ns(const StallWindow& stall, std::int64_t due_ns) {
  if (stall.duration_ns <= 0 || due_ns < stall.at_ns) {
    return due_ns;
  }
  std::int64_t start = stall.at_ns;
  if (stall.every_ns > 0) {
    start += (due_ns - stall.at_ns) / stall.every_ns * stall.every_ns;
  }
  const std::int64_t end = start + stall.duration_ns;
  return due_ns < end ? end : due_ns;
}

std::optional<FaultKind> choose_fault(const std::vector<FaultRule>& rules,
                                      std::uint64_t request_number, MockRandom& random) {
  for (const FaultRule& rule : rules) {
    if (rule.every > 0) {
      if (request_number % rule.every == 0) {
        return rule.kind;
      }
    } else if (random.uniform01() < rule.probability) {
      return rule.kind;
    }
  }
  return std::nullopt;
}

}  // namespace gpuport
