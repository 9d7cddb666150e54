// GPU time per kernel class. Communication (NCCL/RCCL) often waits rather than computes, so the
// table also gives each other class's share of compute time: GPU time without communication.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "profile/analysis/kernel_table.h"
#include "profile/classify.h"

namespace gpuport {

struct ClassRow {
  KernelClass klass = KernelClass::Unknown;
  std::int64_t time_ns = 0;
  std::int64_t calls = 0;
  std::int64_t kernels = 0;  // distinct names
  double share = 0;          // of GPU time
  // Of compute time (GPU time without communication); absent for the communication row and
  // when there is no compute time.
  std::optional<double> compute_share;
};

struct ClassTable {
  std::vector<ClassRow> rows;  // classes with at least one kernel, longest first
  std::int64_t gpu_ns = 0;
  std::int64_t communication_ns = 0;
  std::int64_t compute_ns = 0;  // gpu_ns - communication_ns

  // The row of `klass`, or null when no kernel has it.
  const ClassRow* find(KernelClass klass) const;
};

ClassTable build_class_table(const KernelTable& kernels);

}  // namespace gpuport
