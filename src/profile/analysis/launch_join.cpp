#include "profile/analysis/launch_join.h"

namespace gpuport {

LaunchJoin::LaunchJoin(const Trace& trace) {
  m_api_by_correlation.reserve(trace.launches.size());
  for (const LaunchCall& call : trace.launches) {
    if (call.correlation >= 0) {
      // The first call wins: a correlation id belongs to one launch.
      m_api_by_correlation.emplace(call.correlation, call.api);
    }
  }
}

std::optional<NameId> LaunchJoin::api_of(const GpuActivity& activity) const {
  if (activity.correlation < 0) {
    return std::nullopt;
  }
  const auto found = m_api_by_correlation.find(activity.correlation);
  if (found == m_api_by_correlation.end()) {
    return std::nullopt;
  }
  return found->second;
}

}  // namespace gpuport
