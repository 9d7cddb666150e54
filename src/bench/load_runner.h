// One load level of a bench run: closed loop (N requests always in flight) or open loop (the
// seeded arrival schedule, optionally capped at N in flight), with warm-up, a duration or
// request-count bound, Ctrl-C, per-request records and the measurement.
//
// Intended send times: in closed loop, the moment the slot freed; in open loop, the schedule's
// offset. A request the cap holds back keeps its intended time, so the wait shows in
// schedule_lag and the *_intended series (coordinated omission corrected, as wrk2).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "bench/bench_result.h"
#include "bench/http_client.h"
#include "bench/openai_protocol.h"
#include "bench/request_record.h"
#include "bench/slo.h"

namespace gpuport {

struct LoadOptions {
  ApiKind api = ApiKind::completions;
  bool stream = true;
  LoadMode mode = LoadMode::concurrency;
  std::int64_t concurrency = 1;  // closed loop: in flight; open loop: cap, 0 = none
  double rate = 0;               // open loop, requests/s
  Arrival arrival = Arrival::poisson;
  double burstiness = 1.0;
  std::uint64_t seed = 0;
  // Bounds of the measured part (one of them, or both: whichever comes first). Warm-up comes
  // before and is not measured.
  std::int64_t duration_ns = 0;
  std::uint64_t requests = 0;
  std::int64_t warmup_ns = 0;
  std::uint64_t warmup_requests = 0;
  std::int64_t timeout_ns = 600'000'000'000;
  // A slot whose request could not connect waits this long before its next one, so a server
  // that is down is not hammered in a tight loop.
  std::int64_t connect_retry_ns = 100'000'000;
  // Credentials sent with each request (secrets_of): removed from whatever the server sends
  // back before it reaches a record.
  std::vector<std::string> secrets;
};

struct PreparedRequest {
  std::string body;
  std::int64_t prompt_tokens = 0;  // the estimate used when the server reports no usage
};

struct ProgressSnapshot {
  double elapsed_s = 0;
  double planned_s = 0;  // warm-up + duration; 0 when only --requests bounds the run
  std::uint64_t sent = 0;
  std::uint64_t planned_requests = 0;  // 0 when only --duration bounds the run
  std::uint64_t completed = 0;
  std::uint64_t failed = 0;
  std::uint64_t in_flight = 0;
  bool warming_up = false;
  bool stopping = false;  // interrupted or past the bound: waiting for requests in flight
};

struct LoadCallbacks {
  // Builds the index-th request (0-based over the whole run, warm-up included).
  std::function<PreparedRequest(std::uint64_t index)> prepare;
  std::function<void(const RequestRecord&)> on_record;       // optional: JSONL
  std::function<void(const ProgressSnapshot&)> on_progress;  // optional: about twice a second
};

struct LoadOutcome {
  BenchMeasurement measurement;
  bool interrupted = false;  // Ctrl-C: in-flight requests counted as cancelled
};

// Runs one level on `client` (whose loop it drives) and returns when every request sent has
// ended. Ctrl-C stops sending, cancels what is in flight and returns the partial measurement.
LoadOutcome run_load(HttpClient& client, const LoadOptions& options, const Slo& slo,
                     const LoadCallbacks& callbacks);

}  // namespace gpuport
