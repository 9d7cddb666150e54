// The kernel table: every kernel (and copy/fill) of a trace grouped by its exact name, with its
// calls, times, share of GPU time, class, owner, launch API and, given a scan, its definition.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "profile/classify.h"
#include "profile/kernel_name.h"
#include "profile/source_join.h"
#include "profile/trace.h"

namespace gpuport {

// How many of a kernel's dispatches one host API launched (joined through the correlation id).
struct LaunchCount {
  std::string api;  // as the trace spells it: "cudaLaunchKernel", "hipExtModuleLaunchKernel"
  LaunchApi kind = LaunchApi::Unknown;
  std::int64_t calls = 0;
};

// Where the scanned repository defines a kernel.
struct SourceLocation {
  std::string name;  // as the scan reports it
  std::string file;  // relative to the scanned root
  std::uint32_t line = 0;
  std::uint32_t candidates = 0;  // definitions with that name (> 1: the first is shown)
};

struct KernelRow {
  KernelName name;  // name.raw is the grouping key
  ActivityKind kind = ActivityKind::Kernel;
  std::int64_t calls = 0;
  std::int64_t total_ns = 0;
  std::optional<std::int64_t> min_ns;  // absent for summary-only inputs (stats CSVs)
  std::optional<std::int64_t> max_ns;
  double share = 0;  // of GPU time (kernels, copies and fills together)
  Classification classification;
  LaunchApi launch_api = LaunchApi::Unknown;  // the kind that launched most dispatches
  std::vector<LaunchCount> launches;          // most calls first; empty when none correlated
  std::optional<SourceLocation> source;

  // Mean duration, rounded to the nearest nanosecond.
  std::int64_t mean_ns() const { return calls > 0 ? (total_ns + calls / 2) / calls : 0; }
};

struct KernelTable {
  std::vector<KernelRow> rows;  // by total time (longest first), then calls, then name
  // rows index of each NameId of the trace, -1 for names that are no activity (launch APIs,
  // ranges).
  std::vector<std::int32_t> row_of_name;
  std::int64_t gpu_ns = 0;  // sum of every row's total
};

// Groups the trace's activities (or, for summary-only inputs, its summaries) by exact name.
// Each unique name is parsed and classified once; `source` (may be null) joins definitions.
KernelTable build_kernel_table(const Trace& trace, const SourceIndex* source);

}  // namespace gpuport
