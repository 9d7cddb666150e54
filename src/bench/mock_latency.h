// The mock server's latency model: drawing TTFT and ITL from their distributions, the capacity
// factor that stretches them as more requests generate at once, and the stall windows that hold
// every response byte back. Pure functions of their inputs, so they are tested without a socket.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "bench/mock_options.h"
#include "bench/mock_random.h"

namespace gpuport {

// One draw in ns, never negative. lognormal takes the mean and standard deviation of the samples:
// sigma^2 = ln(1 + (stddev/mean)^2), mu = ln(mean) - sigma^2/2 (so the median is exp(mu)).
std::int64_t sample_latency_ns(const LatencyDistribution& distribution, MockRandom& random);

// 1 + max(0, active - knee) / knee; 1 when knee is 0.
double capacity_factor(const CapacityModel& capacity, std::int64_t active);

// `base_ns` stretched by the capacity factor at `active`.
std::int64_t scaled_latency_ns(std::int64_t base_ns, const CapacityModel& capacity,
                               std::int64_t active);

// When an event due at `due_ns` (from the server's start) may happen: `due_ns` itself, or the
// end of the stall window it falls in.
std::int64_t stall_release_ns(const StallWindow& stall, std::int64_t due_ns);

// The fault for generation request number `request_number` (1-based), if any: the first rule
// that fires. Probability rules draw from `random` (one draw per probability rule, in order).
std::optional<FaultKind> choose_fault(const std::vector<FaultRule>& rules,
                                      std::uint64_t request_number, MockRandom& random);

}  // namespace gpuport
