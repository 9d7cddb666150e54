#include "bench/sweep.h"

#include "bench/metrics.h"

#include <algorithm>
#include <cmath>

namespace gpuport {

namespace {

constexpr double k_saturation_gain = 1.05;
constexpr double k_rate_achieved_share = 0.90;

}  // namespace

bool is_saturated(LoadMode mode, double load, const BenchMeasurement& measurement,
                  double best_throughput_before, bool first_level) {
  if (measurement.completed == 0) {
    return true;
  }
  if (mode == LoadMode::rate) {
    return measurement.request_throughput < k_rate_achieved_share * load;
  }
  return !first_level &&
         measurement.request_throughput < k_saturation_gain * best_throughput_before;
}

SweepOutcome run_sweep(HttpClient& client, const LoadOptions& base,
                       const std::vector<double>& levels, const Slo& slo,
                       const SweepCallbacks& callbacks) {
  SweepOutcome outcome;
  std::uint64_t next_index = 0;
  LoadCallbacks load_callbacks = callbacks.load;
  load_callbacks.prepare = [&](std::uint64_t) { return callbacks.load.prepare(next_index++); };
  double best = 0;
  for (std::size_t i = 0; i < levels.size(); ++i) {
    LoadOptions options = base;
    options.seed = base.seed + i;
    if (base.mode == LoadMode::concurrency) {
      options.concurrency = static_cast<std::int64_t>(std::llround(levels[i]));
    } else {
      options.rate = levels[i];
    }
    if (callbacks.on_level_start) {
      callbacks.on_level_start(levels[i]);
    }
    LoadOutcome level = run_load(client, options, slo, load_callbacks);
    SweepPoint point;
    point.load = levels[i];
    point.measurement = std::move(level.measurement);
    if (!slo.empty()) {
      point.slo_met = meets_slo(point.measurement, slo);
    }
    point.saturated =
        !level.interrupted && is_saturated(base.mode, levels[i], point.measurement, best, i == 0);
    best = std::max(best, point.measurement.request_throughput);
    outcome.points.push_back(std::move(point));
    if (callbacks.on_level) {
      callbacks.on_level(outcome.points.back());
    }
    if (level.interrupted) {
      outcome.interrupted = true;
      break;
    }
    if (outcome.points.back().saturated) {
      break;
    }
  }
  return outcome;
}

}  // namespace gpuport
