#include "profile/analysis/profile.h"

namespace gpuport {

TraceInfo trace_info(const Trace& trace) {
  return {trace.path, trace.format, trace.vendor, trace.devices, trace.summary_only()};
}

Profile analyze_trace(const Trace& trace, const ProfileOptions& options) {
  Profile profile;
  profile.trace = trace_info(trace);
  profile.kernels = build_kernel_table(trace, options.source);
  profile.classes = build_class_table(profile.kernels);
  profile.steps = find_steps(trace, options.step);
  profile.step_mix = build_step_mix(trace, profile.kernels, profile.steps);

  ProfileTotals& totals = profile.totals;
  totals.gpu_ns = profile.kernels.gpu_ns;
  totals.communication_ns = profile.classes.communication_ns;
  totals.compute_ns = profile.classes.compute_ns;
  for (const KernelRow& row : profile.kernels.rows) {
    if (row.kind == ActivityKind::Kernel) {
      totals.kernel_ns += row.total_ns;
      totals.kernel_calls += row.calls;
      totals.unique_kernels += 1;
    } else {
      totals.memory_ns += row.total_ns;
      totals.memory_calls += row.calls;
    }
    if (row.classification.klass == KernelClass::Unknown) {
      totals.unknown_ns += row.total_ns;
    }
    if (row.classification.own_code) {
      totals.own_code_kernels += 1;
      totals.own_code_ns += row.total_ns;
    }
  }
  if (totals.gpu_ns > 0) {
    totals.unknown_share =
        static_cast<double>(totals.unknown_ns) / static_cast<double>(totals.gpu_ns);
  }
  if (options.source != nullptr) {
    SourceJoinSummary join;
    join.definitions = static_cast<std::int64_t>(options.source->size());
    for (const KernelRow& row : profile.kernels.rows) {
      if (row.source) {
        ++join.joined;
      }
    }
    profile.source = join;
  }
  return profile;
}

}  // namespace gpuport
