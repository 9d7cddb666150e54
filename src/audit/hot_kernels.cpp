// Hot and cold kernels from the profiles, and scanned kernels no trace ran.
#include "audit/hot_kernels.h"

#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>

namespace gpuport {

namespace {

std::string percent(double share) {
  return fmt::format("{:.1f}%", share * 100);
}
std::string threshold_text(double threshold) {
  return fmt::format("{:g}%", threshold * 100);
}

// Mean GPU time per slow (p95) step of each kernel row, and of all kernels together.
struct SlowSteps {
  std::map<std::int32_t, std::int64_t> by_row;
  std::int64_t total = 0;
};

SlowSteps slow_steps(const Profile& profile) {
  SlowSteps slow;
  if (!profile.step_mix) {
    return slow;
  }
  for (const ClassMix& mix : profile.step_mix->classes) {
    slow.total += mix.slow_ns;
  }
  for (const KernelMix& mix : profile.step_mix->kernels) {
    slow.by_row[mix.row] += mix.slow_ns;
  }
  return slow;
}

std::string library_note(const KernelRow& row) {
  const std::string who = row.classification.owner.empty()
                              ? std::string(class_name(row.classification.klass))
                              : row.classification.owner;
  return "; " + who + " code, not the team's: its AMD counterpart is tuned by its maintainers";
}

AuditKernel traced_kernel(const KernelRow& row, std::size_t trace, const SlowSteps& slow,
                          std::int32_t row_index, const HotConfig& hot, bool& listed) {
  AuditKernel kernel;
  kernel.name = row.name.display;
  kernel.raw_name = row.name.raw;
  kernel.trace = trace;
  kernel.klass = row.classification.klass;
  kernel.owner = row.classification.owner;
  kernel.own_code = row.classification.own_code || row.source.has_value();
  kernel.share = row.share;
  kernel.total_ns = row.total_ns;
  kernel.calls = row.calls;
  if (row.source) {
    kernel.source = SourceRef{row.source->file, row.source->line};
  }
  const bool by_share = row.share >= hot.threshold;
  std::optional<double> slow_share;
  if (hot.include_p95_steps && slow.total > 0) {
    auto it = slow.by_row.find(row_index);
    slow_share = it == slow.by_row.end()
                     ? 0.0
                     : static_cast<double>(it->second) / static_cast<double>(slow.total);
  }
  const bool by_p95 = slow_share && *slow_share >= hot.threshold;
  kernel.hotness = by_share || by_p95 ? Hotness::Hot : Hotness::Cold;
  const std::string limit = threshold_text(hot.threshold);
  if (by_share) {
    kernel.why = percent(row.share) + " of GPU time, at or above the " + limit + " threshold";
  } else if (by_p95) {
    kernel.why = percent(row.share) + " of GPU time, but " + percent(*slow_share) +
                 " of the p95 steps' GPU time, at or above the " + limit + " threshold";
  } else {
    kernel.why = percent(row.share) + " of GPU time, below the " + limit + " threshold";
    if (slow_share) {
      kernel.why += ", and " + percent(*slow_share) + " of the p95 steps'";
    }
    kernel.why += ": cold, no tuning days";
  }
  if (kernel.hotness == Hotness::Hot && !kernel.own_code) {
    kernel.why += library_note(row);
  }
  listed = kernel.hotness == Hotness::Hot || kernel.own_code;
  return kernel;
}

bool hotter(const AuditKernel& a, const AuditKernel& b) {
  if (a.hotness != b.hotness) {
    return a.hotness < b.hotness;  // Hot, Cold, Untraced
  }
  if (a.share != b.share) {
    return a.share > b.share;
  }
  if (a.trace != b.trace) {
    return a.trace < b.trace;
  }
  return a.raw_name < b.raw_name;
}

}  // namespace

std::vector<AuditKernel> select_kernels(std::span<const Profile> profiles, const ScanResult& scan,
                                        const HotConfig& hot) {
  std::vector<AuditKernel> traced;
  std::set<std::pair<std::string, std::uint32_t>> joined;
  for (std::size_t t = 0; t < profiles.size(); ++t) {
    const Profile& profile = profiles[t];
    const SlowSteps slow = slow_steps(profile);
    for (std::size_t r = 0; r < profile.kernels.rows.size(); ++r) {
      const KernelRow& row = profile.kernels.rows[r];
      if (row.kind != ActivityKind::Kernel) {
        continue;
      }
      bool listed = false;
      AuditKernel kernel = traced_kernel(row, t, slow, static_cast<std::int32_t>(r), hot, listed);
      if (!listed) {
        continue;
      }
      if (kernel.source) {
        joined.emplace(kernel.source->file, kernel.source->line);
      }
      traced.push_back(std::move(kernel));
    }
  }
  std::stable_sort(traced.begin(), traced.end(), hotter);

  // Scanned kernels no trace ran (or, with no trace, all of them), in file and line order.
  for (const Kernel& definition : scan.kernels) {
    if (joined.count({definition.file, definition.line}) > 0) {
      continue;
    }
    AuditKernel kernel;
    kernel.name = definition.name;
    kernel.raw_name = definition.name;
    kernel.own_code = true;
    kernel.source = SourceRef{definition.file, definition.line};
    if (profiles.empty()) {
      kernel.hotness = Hotness::Untraced;
      kernel.why = "no trace: whether it is hot is unknown";
    } else {
      kernel.hotness = Hotness::Cold;
      kernel.why = "in no trace (0% of GPU time): cold, no tuning days";
    }
    traced.push_back(std::move(kernel));
  }
  for (std::size_t i = 0; i < traced.size(); ++i) {
    traced[i].anchor = "kernel-" + std::to_string(i + 1);
  }
  return traced;
}

TraceClassTime class_time(const Profile& profile, std::size_t trace) {
  TraceClassTime out;
  out.trace = trace;
  out.gpu_ns = profile.classes.gpu_ns;
  std::map<KernelClass, std::int64_t> own;
  for (const KernelRow& row : profile.kernels.rows) {
    if (row.classification.own_code || row.source) {
      own[row.classification.klass] += row.total_ns;
      out.own_code_ns += row.total_ns;
    }
  }
  for (const ClassRow& row : profile.classes.rows) {
    ClassTime time;
    time.klass = row.klass;
    time.time_ns = row.time_ns;
    time.share = row.share;
    time.own_code_ns = own[row.klass];
    out.classes.push_back(time);
  }
  return out;
}

}  // namespace gpuport
