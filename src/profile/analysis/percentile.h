// Percentiles by the nearest-rank method: the p-th percentile of N sorted values is the value at
// rank ceil(p/100 * N) (1-based). It is always one of the values, never an interpolation.
#pragma once

#include <cstdint>
#include <optional>
#include <span>

namespace gpuport {

// `sorted` ascending; `percent` in 1..100. Empty input: nothing.
std::optional<std::int64_t> nearest_rank(std::span<const std::int64_t> sorted, int percent);

}  // namespace gpuport
