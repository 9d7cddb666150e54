#include "profile/analysis/kernel_table.h"

#include <algorithm>
#include <array>
#include <utility>

#include "profile/analysis/launch_join.h"

namespace gpuport {

namespace {

struct Accumulator {
  bool used = false;
  bool dispatches = false;  // false for summary rows
  ActivityKind kind = ActivityKind::Kernel;
  std::int64_t calls = 0;
  std::int64_t total_ns = 0;
  std::int64_t min_ns = 0;
  std::int64_t max_ns = 0;
  std::vector<std::pair<NameId, std::int64_t>> api_calls;  // usually one or two entries
};

void add_dispatch(Accumulator& acc, const GpuActivity& activity, std::optional<NameId> api) {
  if (!acc.used) {
    acc.used = true;
    acc.dispatches = true;
    acc.kind = activity.kind;
    acc.min_ns = activity.duration_ns;
    acc.max_ns = activity.duration_ns;
  }
  acc.calls += 1;
  acc.total_ns += activity.duration_ns;
  acc.min_ns = std::min(acc.min_ns, activity.duration_ns);
  acc.max_ns = std::max(acc.max_ns, activity.duration_ns);
  if (!api) {
    return;
  }
  for (auto& [id, count] : acc.api_calls) {
    if (id == *api) {
      ++count;
      return;
    }
  }
  acc.api_calls.emplace_back(*api, 1);
}

std::vector<LaunchCount> launch_counts(const Trace& trace, const Accumulator& acc) {
  std::vector<LaunchCount> counts;
  for (const auto& [id, calls] : acc.api_calls) {
    counts.push_back({std::string(trace.names[id]), launch_api_of(trace.names[id]), calls});
  }
  std::sort(counts.begin(), counts.end(), [](const LaunchCount& a, const LaunchCount& b) {
    return a.calls != b.calls ? a.calls > b.calls : a.api < b.api;
  });
  return counts;
}

// The launch kind behind most dispatches; the first kind in enum order wins a tie.
LaunchApi dominant_kind(const std::vector<LaunchCount>& counts) {
  constexpr std::size_t k_kinds = static_cast<std::size_t>(LaunchApi::Graph) + 1;
  std::array<std::int64_t, k_kinds> per_kind{};
  for (const LaunchCount& count : counts) {
    per_kind[static_cast<std::size_t>(count.kind)] += count.calls;
  }
  std::size_t best = 0;
  for (std::size_t kind = 1; kind < k_kinds; ++kind) {
    if (per_kind[kind] > per_kind[best]) {
      best = kind;
    }
  }
  return static_cast<LaunchApi>(best);
}

KernelRow make_row(const Trace& trace, NameId id, const Accumulator& acc,
                   const SourceIndex* source) {
  KernelRow row;
  row.name = parse_kernel_name(trace.names[id]);
  row.kind = acc.kind;
  row.calls = acc.calls;
  row.total_ns = acc.total_ns;
  if (acc.dispatches) {
    row.min_ns = acc.min_ns;
    row.max_ns = acc.max_ns;
  }
  row.launches = launch_counts(trace, acc);
  row.launch_api = dominant_kind(row.launches);
  if (row.kind == ActivityKind::Kernel) {
    row.classification = classify_kernel(row.name, row.launch_api);
  } else {
    row.classification.klass = KernelClass::Memory;
    row.classification.rule = "memory.activity";
  }
  if (source != nullptr && !source->empty() && row.kind == ActivityKind::Kernel) {
    const SourceMatch match = source->find(row.name);
    if (match.kernel != nullptr) {
      row.source = SourceLocation{match.kernel->name, match.kernel->file, match.kernel->line,
                                  match.candidates};
    }
  }
  return row;
}

}  // namespace

KernelTable build_kernel_table(const Trace& trace, const SourceIndex* source) {
  std::vector<Accumulator> by_name(trace.names.size());
  if (!trace.activities.empty()) {
    const LaunchJoin join(trace);
    for (const GpuActivity& activity : trace.activities) {
      add_dispatch(by_name[activity.name], activity, join.api_of(activity));
    }
  } else {
    for (const KernelSummary& summary : trace.summaries) {
      Accumulator& acc = by_name[summary.name];
      acc.used = true;
      acc.calls += summary.calls;
      acc.total_ns += summary.total_ns;
    }
  }

  std::vector<std::pair<NameId, KernelRow>> rows;
  std::int64_t gpu_ns = 0;
  for (NameId id = 0; id < by_name.size(); ++id) {
    if (by_name[id].used) {
      rows.emplace_back(id, make_row(trace, id, by_name[id], source));
      gpu_ns += by_name[id].total_ns;
    }
  }
  std::sort(rows.begin(), rows.end(), [](const auto& left, const auto& right) {
    const KernelRow& a = left.second;
    const KernelRow& b = right.second;
    if (a.total_ns != b.total_ns) {
      return a.total_ns > b.total_ns;
    }
    if (a.calls != b.calls) {
      return a.calls > b.calls;
    }
    return a.name.raw < b.name.raw;
  });

  KernelTable table;
  table.gpu_ns = gpu_ns;
  table.row_of_name.assign(trace.names.size(), -1);
  table.rows.reserve(rows.size());
  for (auto& [id, row] : rows) {
    row.share = gpu_ns > 0 ? static_cast<double>(row.total_ns) / static_cast<double>(gpu_ns) : 0.0;
    table.row_of_name[id] = static_cast<std::int32_t>(table.rows.size());
    table.rows.push_back(std::move(row));
  }
  return table;
}

}  // namespace gpuport
