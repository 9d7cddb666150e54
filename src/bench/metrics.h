// Turns request records into a BenchMeasurement: histograms of every latency series, token and
// request totals, goodput against an SLO, errors by kind. One recorder per thread; merge() joins
// them exactly.
#pragma once

#include <cstdint>

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

}  // namespace gpuport
