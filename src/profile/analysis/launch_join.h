// Joining GPU activities to the host calls that launched them, through the correlation id.
#pragma once

#include <cstdint>
#include <optional>
#include <unordered_map>
#include <vector>

#include "profile/trace.h"

namespace gpuport {

class LaunchJoin {
 public:
  explicit LaunchJoin(const Trace& trace);
  // The API name of the call that launched `activity`, if the trace holds it.
  std::optional<NameId> api_of(const GpuActivity& activity) const;

 private:
  std::unordered_map<std::int64_t, NameId> m_api_by_correlation;
};

}  // namespace gpuport
