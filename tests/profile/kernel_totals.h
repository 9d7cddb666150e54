// Per-name kernel totals of a Trace, computed here (not by the analysis layer) so reader tests
// can compare counts and nanosecond totals with what a profiler file says.
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "profile/trace.h"

namespace gpuport::testing {

struct NameTotal {
  std::string name;
  std::int64_t total_ns = 0;
  std::int64_t count = 0;
  bool operator==(const NameTotal&) const = default;
};

inline std::ostream& operator<<(std::ostream& out, const NameTotal& row) {
  return out << "{" << row.name << ", " << row.total_ns << " ns, " << row.count << "}";
}

struct KernelTotals {
  std::int64_t n_kernels = 0;
  std::int64_t total_ns = 0;
  std::vector<NameTotal> by_total;  // largest total first; ties by name
};

// Kernel activities (copies and fills excluded) or, for summary-only inputs, the summaries.
inline KernelTotals kernel_totals(const Trace& trace) {
  std::map<std::string, NameTotal> by_name;
  KernelTotals totals;
  auto add = [&](NameId id, std::int64_t count, std::int64_t total_ns) {
    NameTotal& row = by_name[std::string(trace.names[id])];
    row.name = trace.names[id];
    row.count += count;
    row.total_ns += total_ns;
    totals.n_kernels += count;
    totals.total_ns += total_ns;
  };
  for (const GpuActivity& activity : trace.activities) {
    if (activity.kind == ActivityKind::Kernel)
      add(activity.name, 1, activity.duration_ns);
  }
  for (const KernelSummary& summary : trace.summaries)
    add(summary.name, summary.calls, summary.total_ns);
  for (auto& [name, row] : by_name)
    totals.by_total.push_back(row);
  std::stable_sort(totals.by_total.begin(), totals.by_total.end(),
                   [](const NameTotal& a, const NameTotal& b) { return a.total_ns > b.total_ns; });
  return totals;
}

}  // namespace gpuport::testing
