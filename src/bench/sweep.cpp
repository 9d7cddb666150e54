#include "bench/sweep.h"

#include <algorithm>
#include <cmath>

namespace gpuport {

namespace {

constexpr double k_max_failed_share = 0.01;
constexpr double k_saturation_gain = 1.05;
constexpr double k_rate_achieved_share = 0.90;

const LatencyHistogram* series_for_slo(const BenchHistograms& histograms,
                                       const std::string& metric) {
  if (metric == "ttft") {
    return &histograms.ttft_intended;
  }
  if (metric == "e2el") {
    return &histograms.e2el_intended;
  }
  if (metric == "tpot") {
    return &histograms.tpot;
  }
  if (metric == "itl") {
    return &histograms.itl;
  }
  return nullptr;
}

}  // namespace

bool meets_slo(const BenchMeasurement& measurement, const Slo& slo) {
  if (measurement.completed == 0) {
    return false;
  }
  const double total = static_cast<double>(measurement.completed + measurement.failed);
  if (static_cast<double>(measurement.failed) > k_max_failed_share * total) {
    return false;
  }
  for (const SloTerm& term : slo.terms) {
    const LatencyHistogram* series = series_for_slo(measurement.histograms, term.metric);
    if (series == nullptr) {
      return false;
    }
    // A series with no samples (TPOT of one-token answers) does not break the SLO.
    if (series->count() > 0 && series->percentile_us(term.percentile) > term.limit_us) {
      return false;
    }
  }
  return true;
}

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

void summarize_levels(BenchResult& result, const Slo& slo, double load) {
  result.throughput_at_slo.reset();
  result.load_at_slo.reset();
  if (result.sweep.empty()) {
    if (!slo.empty() && meets_slo(result.measurement, slo)) {
      result.throughput_at_slo = result.measurement.request_throughput;
      result.load_at_slo = load;
    }
    return;
  }
  const SweepPoint* chosen = &result.sweep.back();
  const SweepPoint* highest_met = nullptr;
  for (const SweepPoint& point : result.sweep) {
    if (point.slo_met.value_or(false)) {
      if (highest_met == nullptr || point.load > highest_met->load) {
        highest_met = &point;
      }
      if (!result.throughput_at_slo ||
          point.measurement.request_throughput > *result.throughput_at_slo) {
        result.throughput_at_slo = point.measurement.request_throughput;
        result.load_at_slo = point.load;
      }
    }
  }
  if (highest_met != nullptr) {
    chosen = highest_met;
  }
  result.measurement = chosen->measurement;
}

}  // namespace gpuport
