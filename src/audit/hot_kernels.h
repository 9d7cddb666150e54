// Which kernels are on the hot path: a share of GPU time at or above the threshold, or of the
// p95 steps' GPU time. Lists every hot kernel, every own-code kernel of the traces (hot or not),
// and every kernel the scan found that no trace ran.
#pragma once

#include <span>
#include <vector>

#include "audit/audit_result.h"
#include "audit/config.h"
#include "profile/analysis/profile.h"
#include "scan/scan_result.h"

namespace gpuport {

// `profiles[i]` is the profile of inputs.traces[i] (joined to `scan`'s kernels). With no
// profiles, every scanned kernel is listed as Untraced. Sorted: hot (by share), cold trace
// kernels (by share), then scanned kernels no trace ran (by file and line); anchors follow that
// order. Tuning days are left at zero (the effort model sets them).
std::vector<AuditKernel> select_kernels(std::span<const Profile> profiles, const ScanResult& scan,
                                        const HotConfig& hot);

// GPU time by class for one trace, with the own-code part of each class.
TraceClassTime class_time(const Profile& profile, std::size_t trace);

}  // namespace gpuport
