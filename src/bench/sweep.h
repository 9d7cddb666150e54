// Load sweeps: run one level after another (concurrencies or rates) and stop once the server
// saturates. Each level's SLO verdict is metrics.h's meets_slo(); apply_slo() then picks the
// throughput at the SLO.
#pragma once

#include <functional>
#include <vector>

#include "bench/bench_result.h"
#include "bench/load_runner.h"
#include "bench/slo.h"

namespace gpuport {

// The first level is never saturated unless nothing completed. After it, a concurrency level
// saturates when its request throughput is under 1.05 × the best before it; a rate level when
// it achieved under 90 % of the offered rate.
bool is_saturated(LoadMode mode, double load, const BenchMeasurement& measurement,
                  double best_throughput_before, bool first_level);

struct SweepCallbacks {
  LoadCallbacks load;  // prepare is called with an index that keeps counting across levels
  std::function<void(const SweepPoint&)> on_level;  // optional: a level finished
  std::function<void(double load)> on_level_start;  // optional
};

struct SweepOutcome {
  std::vector<SweepPoint> points;
  bool interrupted = false;
};

// Runs `base` at each of `levels` (the concurrency in closed loop, the rate in open loop; the
// arrival seed is base.seed + the level's position). Stops after a saturated level or Ctrl-C.
SweepOutcome run_sweep(HttpClient& client, const LoadOptions& base,
                       const std::vector<double>& levels, const Slo& slo,
                       const SweepCallbacks& callbacks);

}  // namespace gpuport
