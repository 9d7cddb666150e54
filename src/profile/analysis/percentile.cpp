#include "profile/analysis/percentile.h"

#include <algorithm>

namespace gpuport {

std::optional<std::int64_t> nearest_rank(std::span<const std::int64_t> sorted, int percent) {
  if (sorted.empty()) {
    return std::nullopt;
  }
  const auto count = static_cast<std::uint64_t>(sorted.size());
  const auto p = static_cast<std::uint64_t>(std::clamp(percent, 1, 100));
  // ceil(p * N / 100) in integers, so 95 % of 20 is exactly rank 19.
  const std::uint64_t rank = std::max<std::uint64_t>(1, (p * count + 99) / 100);
  return sorted[rank - 1];
}

}  // namespace gpuport
