// The result of a `gpuport bench` run: the configuration, the measurement (vLLM-compatible
// summary numbers plus the histograms they come from), and, for a sweep, one measurement per
// load level. Written as JSON (docs/bench-json.md), read back by `bench compare`, `bench merge`
// and `gpuport audit --bench-nvidia/--bench-amd`.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "bench/histogram.h"
#include "bench/openai_protocol.h"

namespace gpuport {

inline constexpr int k_bench_schema_version = 1;

enum class LoadMode { concurrency, rate };
enum class Arrival { poisson, gamma, constant };

struct BenchConfig {
  std::string url;  // as given, with any user:password removed
  ApiKind api = ApiKind::completions;
  std::string model;
  bool stream = true;
  LoadMode mode = LoadMode::concurrency;
  std::int64_t concurrency = 0;  // closed loop: requests in flight; rate mode: cap (0 = none)
  double rate = 0;               // rate mode: requests/s
  Arrival arrival = Arrival::poisson;
  double burstiness = 1.0;  // gamma shape; 1 = Poisson
  std::uint64_t seed = 0;
  std::int64_t input_tokens = 0;   // synthetic prompt length; 0 with a dataset
  std::int64_t output_tokens = 0;  // max_tokens
  std::string dataset;             // JSONL path, empty for synthetic prompts
  double duration_s = 0;           // requested; 0 when --requests bounds the run
  std::int64_t requests = 0;       // requested; 0 when --duration bounds the run
  double warmup_s = 0;
  std::string slo;           // canonical Slo::to_string(), empty when none
  std::int64_t clients = 1;  // client processes merged into this result
};

// Latency series, all in microseconds in the histograms, reported in ms.
//   ttft, tpot, itl, e2el: from the actual send time (vLLM's definitions);
//   ttft_intended, e2el_intended: from the schedule's intended send time (coordinated-omission
//     corrected, as wrk2);
//   schedule_lag: actual minus intended send time, the client's own health.
struct BenchHistograms {
  LatencyHistogram ttft, tpot, itl, e2el, ttft_intended, e2el_intended, schedule_lag;
};

struct BenchMeasurement {
  double duration_s = 0;  // first intended send (after warm-up) to last completion
  std::uint64_t completed = 0;
  std::uint64_t failed = 0;
  std::map<std::string, std::uint64_t> errors;      // request_error_name -> count
  std::map<int, std::uint64_t> http_status_counts;  // non-2xx statuses seen
  std::vector<std::string> error_samples;           // up to 10 distinct one-line details
  std::int64_t total_input_tokens = 0;
  std::int64_t total_output_tokens = 0;
  bool tokens_estimated = false;          // some counts came from estimate_tokens, not usage
  double request_throughput = 0;          // completed / duration
  std::optional<double> request_goodput;  // completed within every SLO term / duration
  double output_throughput = 0;
  double total_token_throughput = 0;
  std::uint64_t max_concurrent_requests = 0;
  std::uint64_t good_requests = 0;  // met every SLO term (0 without an SLO)
  BenchHistograms histograms;
};

struct SweepPoint {
  double load = 0;  // the concurrency or rate of this level
  BenchMeasurement measurement;
  std::optional<bool> slo_met;  // unset without an SLO
  bool saturated = false;       // throughput stopped growing with load: the sweep stopped here
};

struct BenchResult {
  int schema_version = k_bench_schema_version;
  std::string tool_version;
  std::string date;  // UTC, ISO 8601
  BenchConfig config;
  // A single run's measurement; for a sweep, the highest load that met the SLO (or the last
  // level when no SLO was given).
  BenchMeasurement measurement;
  std::vector<SweepPoint> sweep;
  // Highest request throughput among levels that met the SLO; unset without an SLO or when none
  // met it.
  std::optional<double> throughput_at_slo;
  std::optional<double> load_at_slo;
  // Ctrl-C ended the run early: the numbers cover what finished before it, and requests then in
  // flight count as `cancelled` errors.
  bool interrupted = false;
};

}  // namespace gpuport
