// Small pieces the CSV and SQLite readers share: per-name summary rows, ids narrowed to the
// trace model's 32 bits, and the final "has kernels" check.
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "profile/trace.h"

namespace gpuport {

// Adds up summary rows per name (nsys cuda_gpu_kern_gb_sum has one row per name and launch shape).
class SummaryBuilder {
 public:
  explicit SummaryBuilder(Trace& trace) : m_trace(trace) {}

  // False when the name's call count or total no longer fits 64 bits.
  bool add(std::string_view name, std::int64_t calls, std::int64_t total_ns) {
    const NameId id = m_trace.names.intern(name);
    if (id >= m_row_of.size())
      m_row_of.resize(id + 1, kNone);
    if (m_row_of[id] == kNone) {
      m_row_of[id] = m_trace.summaries.size();
      m_trace.summaries.push_back(KernelSummary{id, calls, total_ns});
      return true;
    }
    KernelSummary& row = m_trace.summaries[m_row_of[id]];
    return !__builtin_add_overflow(row.calls, calls, &row.calls) &&
           !__builtin_add_overflow(row.total_ns, total_ns, &row.total_ns);
  }

 private:
  static constexpr std::size_t kNone = std::numeric_limits<std::size_t>::max();
  Trace& m_trace;
  std::vector<std::size_t> m_row_of;  // by NameId: index into summaries
};

// Device, stream and queue ids in [0, 2^31) are kept; anything else (rocprofv3 prints queue
// handles such as 139690710949888) is folded into 31 bits, which keeps distinct handles distinct
// in practice. -1 stays "absent".
inline std::int32_t to_id32(std::int64_t id) {
  if (id >= -1 && id <= std::numeric_limits<std::int32_t>::max())
    return static_cast<std::int32_t>(id);
  const auto bits = static_cast<std::uint64_t>(id);
  return static_cast<std::int32_t>((bits ^ (bits >> 31) ^ (bits >> 62)) & 0x7fffffffu);
}

// The error every reader returns for a file without a single kernel.
inline bool has_kernels(const Trace& trace) {
  if (!trace.summaries.empty())
    return true;
  for (const GpuActivity& activity : trace.activities) {
    if (activity.kind == ActivityKind::Kernel)
      return true;
  }
  return false;
}

inline TraceError no_kernels_error(const std::string& path) {
  return TraceError{path + ": no GPU kernels in it"};
}

}  // namespace gpuport
