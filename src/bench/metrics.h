// Turns request records into a BenchMeasurement: histograms of every latency series, token and
// request totals, goodput against an SLO, errors by kind. One recorder per thread; merge() joins
// them exactly.
#pragma once

#include <cstdint>
#include <vector>

#include "bench/bench_result.h"
#include "bench/request_record.h"
#include "bench/slo.h"

namespace gpuport {

class MetricsRecorder {
 public:
  explicit MetricsRecorder(Slo slo = {});

  // Warm-up records are ignored. A failed request counts in failed/errors only.
  void record(const RequestRecord& request);
  void merge(const MetricsRecorder& other);

  // Fills in throughputs from `duration_s` (the measured window) and the peak concurrency the
  // caller tracked.
  BenchMeasurement finish(double duration_s, std::uint64_t max_concurrent_requests) const;

 private:
  Slo slo_;
  BenchMeasurement m_;
};

// Summary numbers of one series as the vLLM keys report them, in milliseconds.
struct SeriesSummary {
  double mean_ms = 0, median_ms = 0, std_ms = 0;
  double p50_ms = 0, p90_ms = 0, p95_ms = 0, p99_ms = 0, p999_ms = 0;
  double min_ms = 0, max_ms = 0;
  std::uint64_t count = 0;
};
SeriesSummary summarize(const LatencyHistogram& histogram);

// One SLO term judged on a measurement. TTFT and E2EL terms use the latency from the intended
// send time (ttft_intended, e2el_intended: what a user arriving on schedule saw); TPOT and ITL
// have no intended variant. Failed requests count as slower than any limit, so a term at pNN is
// missed when more than (100 - NN) % of the requests failed, however fast the others were.
struct SloCheck {
  SloTerm term;
  std::int64_t measured_us = 0;  // the completed requests' percentile; 0 when there were none
  bool failures_exceed = false;  // too many failed requests for this percentile
  bool met = false;
};
std::vector<SloCheck> check_slo(const BenchMeasurement& measurement, const Slo& slo);
bool meets_slo(const BenchMeasurement& measurement, const Slo& slo);

// Fills in the SLO outcome of a result from its measurements: each sweep level's slo_met, and
// throughput_at_slo / load_at_slo (the level with the highest request throughput among those
// that met the SLO; for a single run, its own throughput when it met the SLO). For a sweep,
// `measurement` becomes that level's (the last level's when none met it or there is no SLO).
void apply_slo(BenchResult& result, const Slo& slo);

}  // namespace gpuport
