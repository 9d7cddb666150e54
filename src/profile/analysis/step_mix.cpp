#include "profile/analysis/step_mix.h"

#include <algorithm>

#include "profile/analysis/percentile.h"

namespace gpuport {

namespace {

enum class Group : std::uint8_t { Neither, Typical, Slow, Both };

std::int64_t mean(std::int64_t total, std::int64_t count) {
  return count > 0 ? (total + count / 2) / count : 0;
}

template <typename Entry>
void order_by_growth(std::vector<Entry>& entries) {
  std::stable_sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
    const std::int64_t growth_a = a.slow_ns - a.typical_ns;
    const std::int64_t growth_b = b.slow_ns - b.typical_ns;
    return growth_a != growth_b ? growth_a > growth_b : a.slow_ns > b.slow_ns;
  });
}

}  // namespace

std::optional<StepMix> build_step_mix(const Trace& trace, const KernelTable& kernels,
                                      const StepReport& steps) {
  if (steps.steps.size() < 2 || !steps.p95_ns) {
    return std::nullopt;
  }
  std::vector<std::int64_t> durations;
  for (const Step& step : steps.steps) {
    durations.push_back(step.duration_ns);
  }
  std::sort(durations.begin(), durations.end());
  StepMix mix;
  mix.slow_from_ns = *steps.p95_ns;
  mix.typical_from_ns = *nearest_rank(durations, 25);
  mix.typical_to_ns = *nearest_rank(durations, 75);

  std::vector<Group> group_of_step;
  std::int64_t slow_wall = 0;
  std::int64_t typical_wall = 0;
  for (const Step& step : steps.steps) {
    const bool slow = step.duration_ns >= mix.slow_from_ns;
    const bool typical =
        step.duration_ns >= mix.typical_from_ns && step.duration_ns <= mix.typical_to_ns;
    group_of_step.push_back(slow && typical ? Group::Both
                            : slow          ? Group::Slow
                            : typical       ? Group::Typical
                                            : Group::Neither);
    if (slow) {
      ++mix.slow_steps;
      slow_wall += step.duration_ns;
    }
    if (typical) {
      ++mix.typical_steps;
      typical_wall += step.duration_ns;
    }
  }
  mix.slow_step_ns = mean(slow_wall, mix.slow_steps);
  mix.typical_step_ns = mean(typical_wall, mix.typical_steps);

  constexpr std::size_t k_classes = static_cast<std::size_t>(KernelClass::Unknown) + 1;
  std::vector<std::int64_t> class_slow(k_classes);
  std::vector<std::int64_t> class_typical(k_classes);
  std::vector<std::int64_t> row_slow(kernels.rows.size());
  std::vector<std::int64_t> row_typical(kernels.rows.size());
  for (std::size_t i = 0; i < trace.activities.size(); ++i) {
    const std::int32_t step = steps.step_of_activity[i];
    if (step < 0) {
      continue;
    }
    const Group group = group_of_step[static_cast<std::size_t>(step)];
    if (group == Group::Neither) {
      continue;
    }
    const GpuActivity& activity = trace.activities[i];
    const std::int32_t row = kernels.row_of_name[activity.name];
    if (row < 0) {
      continue;
    }
    const auto row_index = static_cast<std::size_t>(row);
    const auto klass = static_cast<std::size_t>(kernels.rows[row_index].classification.klass);
    if (group == Group::Slow || group == Group::Both) {
      class_slow[klass] += activity.duration_ns;
      row_slow[row_index] += activity.duration_ns;
    }
    if (group == Group::Typical || group == Group::Both) {
      class_typical[klass] += activity.duration_ns;
      row_typical[row_index] += activity.duration_ns;
    }
  }

  for (std::size_t klass = 0; klass < k_classes; ++klass) {
    if (class_slow[klass] > 0 || class_typical[klass] > 0) {
      mix.classes.push_back({static_cast<KernelClass>(klass),
                             mean(class_typical[klass], mix.typical_steps),
                             mean(class_slow[klass], mix.slow_steps)});
    }
  }
  for (std::size_t row = 0; row < kernels.rows.size(); ++row) {
    if (row_slow[row] > 0 || row_typical[row] > 0) {
      mix.kernels.push_back({static_cast<std::int32_t>(row),
                             mean(row_typical[row], mix.typical_steps),
                             mean(row_slow[row], mix.slow_steps)});
    }
  }
  order_by_growth(mix.classes);
  order_by_growth(mix.kernels);
  return mix;
}

}  // namespace gpuport
