// What makes slow steps slow: the mean GPU time per step of each class and kernel in the steps
// at or above p95 ("slow"), beside the typical steps (durations between p25 and p75, both
// nearest rank, inclusive).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "profile/analysis/kernel_table.h"
#include "profile/analysis/steps.h"

namespace gpuport {

struct ClassMix {
  KernelClass klass = KernelClass::Unknown;
  std::int64_t typical_ns = 0;  // mean per typical step
  std::int64_t slow_ns = 0;     // mean per slow step
};

struct KernelMix {
  std::int32_t row = 0;  // index into the kernel table
  std::int64_t typical_ns = 0;
  std::int64_t slow_ns = 0;
};

struct StepMix {
  std::int64_t slow_from_ns = 0;     // p95
  std::int64_t typical_from_ns = 0;  // p25
  std::int64_t typical_to_ns = 0;    // p75
  std::int64_t slow_steps = 0;
  std::int64_t typical_steps = 0;
  std::int64_t slow_step_ns = 0;     // mean wall duration of a slow step
  std::int64_t typical_step_ns = 0;  // of a typical step
  // Largest growth (slow - typical) first; entries with time in either group.
  std::vector<ClassMix> classes;
  std::vector<KernelMix> kernels;
};

// Nothing with fewer than two steps (one step is both slow and typical).
std::optional<StepMix> build_step_mix(const Trace& trace, const KernelTable& kernels,
                                      const StepReport& steps);

}  // namespace gpuport
