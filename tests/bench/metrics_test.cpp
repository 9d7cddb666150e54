// MetricsRecorder and the SLO judgement: the vLLM definitions of TTFT, TPOT, ITL and E2EL on
// records with known times, the intended-time (CO-corrected) series, errors by kind, goodput.
#include "bench/metrics.h"

#include <gtest/gtest.h>

namespace gpuport {
namespace {

constexpr std::int64_t k_ms = 1'000'000;  // ns

// A streamed request: sent `lag_ms` after its intended time, first token after `ttft_ms`, then
// `tokens - 1` more chunks `itl_ms` apart, one token each, counts from usage.
RequestRecord streamed(std::uint64_t index, std::int64_t intended_ms, std::int64_t lag_ms,
                       std::int64_t ttft_ms, std::int64_t itl_ms, std::int64_t tokens) {
  RequestRecord r;
  r.index = index;
  r.intended_ns = intended_ms * k_ms;
  r.sent_ns = r.intended_ns + lag_ms * k_ms;
  r.first_byte_ns = r.sent_ns + ttft_ms * k_ms / 2;
  r.first_token_ns = r.sent_ns + ttft_ms * k_ms;
  r.last_token_ns = r.first_token_ns;
  for (std::int64_t i = 1; i < tokens; ++i) {
    r.itl_ns.push_back(itl_ms * k_ms);
    r.last_token_ns += itl_ms * k_ms;
  }
  r.done_ns = r.last_token_ns + 3 * k_ms;  // the usage chunk and [DONE] come later
  r.http_status = 200;
  r.prompt_tokens = 100;
  r.prompt_tokens_from_usage = true;
  r.output_tokens = tokens;
  r.output_tokens_from_usage = true;
  r.content_chunks = static_cast<std::uint32_t>(tokens);
  return r;
}

RequestRecord failed(RequestError error, int status, std::string detail) {
  RequestRecord r;
  r.error = error;
  r.http_status = status;
  r.error_detail = std::move(detail);
  r.done_ns = 5 * k_ms;
  return r;
}

TEST(Metrics, VllmDefinitionsOnKnownRequests) {
  MetricsRecorder recorder;
  recorder.record(streamed(0, 0, 0, 100, 20, 11));  // e2el 100 + 10 × 20 = 300 ms
  recorder.record(streamed(1, 10, 5, 200, 10, 1));  // one token: no TPOT, no ITL
  const BenchMeasurement m = recorder.finish(2.0, 2);
  EXPECT_EQ(m.completed, 2u);
  EXPECT_EQ(m.failed, 0u);
  EXPECT_EQ(m.total_input_tokens, 200);
  EXPECT_EQ(m.total_output_tokens, 12);
  EXPECT_FALSE(m.tokens_estimated);
  EXPECT_DOUBLE_EQ(m.request_throughput, 1.0);
  EXPECT_DOUBLE_EQ(m.output_throughput, 6.0);
  EXPECT_DOUBLE_EQ(m.total_token_throughput, 106.0);
  EXPECT_EQ(m.max_concurrent_requests, 2u);
  EXPECT_FALSE(m.request_goodput.has_value());

  const BenchHistograms& h = m.histograms;
  EXPECT_EQ(h.ttft.count(), 2u);
  EXPECT_EQ(h.ttft.min_us(), 100'000);
  EXPECT_EQ(h.ttft.max_us(), 200'000);
  EXPECT_EQ(h.e2el.min_us(), 200'000);  // ends at the last content chunk, not [DONE]
  EXPECT_EQ(h.e2el.max_us(), 300'000);
  EXPECT_EQ(h.tpot.count(), 1u);
  EXPECT_EQ(h.tpot.min_us(), 20'000);  // (300 − 100) / (11 − 1)
  EXPECT_EQ(h.itl.count(), 10u);
  EXPECT_EQ(h.itl.max_us(), 20'000);
  // From the intended send time: the second request's 5 ms of lag are added.
  EXPECT_EQ(h.ttft_intended.max_us(), 205'000);
  EXPECT_EQ(h.e2el_intended.min_us(), 205'000);
  EXPECT_EQ(h.schedule_lag.count(), 2u);
  EXPECT_EQ(h.schedule_lag.max_us(), 5'000);
  EXPECT_EQ(h.schedule_lag.min_us(), 1);  // 0 lag counts as the histogram's 1 µs floor
}

// Coordinated omission on injected times: 300 requests intended 10 ms apart, one in flight at
// a time, each 1 ms at the server except request 50, which takes 1 s. The requests behind it
// are sent late, when the slot frees: timed from the actual send they are fast (p99 1 ms), from
// the intended send about 100 of them are late (p99 near 1 s).
TEST(Metrics, UncorrectedP99HidesAStallThatTheCorrectedP99Shows) {
  MetricsRecorder recorder;
  std::int64_t free_at_ms = 0;
  for (std::int64_t i = 0; i < 300; ++i) {
    const std::int64_t intended_ms = i * 10;
    const std::int64_t sent_ms = std::max(intended_ms, free_at_ms);
    const std::int64_t server_ms = i == 50 ? 1000 : 1;
    recorder.record(streamed(static_cast<std::uint64_t>(i), intended_ms, sent_ms - intended_ms,
                             server_ms, 0, 1));
    free_at_ms = sent_ms + server_ms + 3;  // + the usage chunk and [DONE]
  }
  const BenchMeasurement m = recorder.finish(3.0, 1);
  const BenchHistograms& h = m.histograms;
  ASSERT_EQ(h.e2el.count(), 300u);
  EXPECT_LT(h.e2el.percentile_us(99), 5'000);  // 4 ms: the stall is 1 request in 300
  EXPECT_GE(h.e2el.max_us(), 1'000'000);       // the one that was in it
  EXPECT_GE(h.e2el_intended.percentile_us(99), 900'000);
  EXPECT_GE(h.schedule_lag.percentile_us(99), 900'000);
}

TEST(Metrics, WarmupIsIgnoredAndErrorsAreCountedByKind) {
  MetricsRecorder recorder;
  RequestRecord warm = streamed(0, 0, 0, 100, 10, 5);
  warm.warmup = true;
  recorder.record(warm);
  recorder.record(failed(RequestError::http_status, 429, "HTTP 429 Too Many Requests"));
  recorder.record(failed(RequestError::http_status, 429, "HTTP 429 Too Many Requests"));
  recorder.record(failed(RequestError::http_status, 500, "HTTP 500 Internal Server Error"));
  recorder.record(failed(RequestError::connect, 0, "connection refused"));
  recorder.record(failed(RequestError::protocol, 200, "malformed SSE"));
  recorder.record(failed(RequestError::cancelled, 0, "interrupted"));
  const BenchMeasurement m = recorder.finish(1.0, 1);
  EXPECT_EQ(m.completed, 0u);
  EXPECT_EQ(m.failed, 5u);  // cancelled requests are not the server's failures
  EXPECT_EQ(m.errors, (std::map<std::string, std::uint64_t>{
                          {"http_status", 3}, {"connect", 1}, {"protocol", 1}, {"cancelled", 1}}));
  EXPECT_EQ(m.http_status_counts, (std::map<int, std::uint64_t>{{429, 2}, {500, 1}}));
  EXPECT_EQ(m.error_samples, (std::vector<std::string>{"HTTP 429 Too Many Requests",
                                                       "HTTP 500 Internal Server Error",
                                                       "connection refused", "malformed SSE"}));
  EXPECT_EQ(m.histograms.ttft.count(), 0u);
  EXPECT_DOUBLE_EQ(m.request_throughput, 0.0);
}

TEST(Metrics, GoodputCountsRequestsMeetingEveryTerm) {
  MetricsRecorder recorder(*parse_slo("p95_ttft=150ms,p99_tpot=25ms"));
  recorder.record(streamed(0, 0, 0, 100, 20, 11));   // good
  recorder.record(streamed(1, 0, 0, 100, 30, 11));   // TPOT 30 ms: not good
  recorder.record(streamed(2, 0, 60, 100, 10, 11));  // TTFT 160 ms from the intended time
  recorder.record(streamed(3, 0, 0, 140, 25, 2));    // good, on the limits
  const BenchMeasurement m = recorder.finish(4.0, 4);
  EXPECT_EQ(m.good_requests, 2u);
  ASSERT_TRUE(m.request_goodput.has_value());
  EXPECT_DOUBLE_EQ(*m.request_goodput, 0.5);
}

TEST(Metrics, EstimatedTokenCountsAreFlagged) {
  MetricsRecorder recorder;
  RequestRecord r = streamed(0, 0, 0, 10, 10, 3);
  r.output_tokens_from_usage = false;
  recorder.record(r);
  EXPECT_TRUE(recorder.finish(1, 1).tokens_estimated);
}

TEST(Metrics, MergedRecordersEqualOneRecorderOfAllRequests) {
  MetricsRecorder a, b, all;
  for (std::uint64_t i = 0; i < 200; ++i) {
    const RequestRecord r = i % 7 == 0 ? failed(RequestError::timeout, 0, "timed out")
                                       : streamed(i, static_cast<std::int64_t>(i), i % 3,
                                                  50 + static_cast<std::int64_t>(i), 5 + i % 11,
                                                  1 + static_cast<std::int64_t>(i % 9));
    (i % 2 == 0 ? a : b).record(r);
    all.record(r);
  }
  a.merge(b);
  const BenchMeasurement merged = a.finish(10, 8);
  const BenchMeasurement direct = all.finish(10, 8);
  EXPECT_EQ(merged.completed, direct.completed);
  EXPECT_EQ(merged.failed, direct.failed);
  EXPECT_EQ(merged.errors, direct.errors);
  EXPECT_EQ(merged.total_output_tokens, direct.total_output_tokens);
  EXPECT_EQ(merged.histograms.itl.nonzero_buckets(), direct.histograms.itl.nonzero_buckets());
  EXPECT_EQ(merged.histograms.e2el_intended.nonzero_buckets(),
            direct.histograms.e2el_intended.nonzero_buckets());
  EXPECT_EQ(summarize(merged.histograms.ttft).p99_ms, summarize(direct.histograms.ttft).p99_ms);
}

TEST(Metrics, SummarizeReportsMilliseconds) {
  LatencyHistogram histogram;
  for (std::int64_t v = 1; v <= 10'000; ++v) {
    histogram.record(v * 100);  // 0.1 .. 1000 ms
  }
  const SeriesSummary s = summarize(histogram);
  EXPECT_EQ(s.count, 10'000u);
  EXPECT_NEAR(s.mean_ms, 500.05, 1e-9);
  EXPECT_NEAR(s.p50_ms, 500.0, 0.5);
  EXPECT_NEAR(s.p99_ms, 990.0, 0.99);
  EXPECT_NEAR(s.p999_ms, 999.0, 0.999);
  EXPECT_EQ(s.median_ms, s.p50_ms);
  EXPECT_EQ(s.min_ms, 0.1);
  EXPECT_EQ(s.max_ms, 1000.0);
  EXPECT_EQ(summarize(LatencyHistogram()).p99_ms, 0.0);
}

BenchMeasurement measurement_with(std::int64_t ttft_base_ms, std::uint64_t completed,
                                  std::uint64_t failed_count, double duration) {
  MetricsRecorder recorder;
  for (std::uint64_t i = 0; i < completed; ++i) {
    recorder.record(streamed(i, 0, 0, ttft_base_ms + static_cast<std::int64_t>(i % 100), 10, 5));
  }
  for (std::uint64_t i = 0; i < failed_count; ++i) {
    recorder.record(failed(RequestError::http_status, 429, "HTTP 429"));
  }
  return recorder.finish(duration, 1);
}

TEST(Metrics, SloChecksUseThePercentileAndCountFailuresAsMisses) {
  const Slo slo = *parse_slo("p95_ttft=200ms");
  // TTFT 150..249 ms: p95 is 244 ms (to the histogram's 1/1000).
  auto checks = check_slo(measurement_with(150, 100, 0, 1), slo);
  ASSERT_EQ(checks.size(), 1u);
  EXPECT_NEAR(checks[0].measured_us, 244'000, 244);
  EXPECT_FALSE(checks[0].met);
  // TTFT 50..149 ms meets it; 5 % failures still do, 6 % do not.
  EXPECT_TRUE(meets_slo(measurement_with(50, 95, 5, 1), slo));
  checks = check_slo(measurement_with(50, 94, 6, 1), slo);
  EXPECT_TRUE(checks[0].failures_exceed);
  EXPECT_FALSE(checks[0].met);
  EXPECT_FALSE(meets_slo(BenchMeasurement{}, slo));
  EXPECT_FALSE(meets_slo(measurement_with(50, 10, 0, 1), Slo{}));
}

TEST(Metrics, ApplySloPicksTheHighestThroughputLevelThatMetIt) {
  BenchResult result;
  result.config.mode = LoadMode::rate;
  for (const auto& [load, ttft, duration] : std::vector<std::tuple<double, std::int64_t, double>>{
           {1, 50, 100}, {2, 60, 50}, {4, 80, 25}, {8, 400, 20}}) {
    SweepPoint point;
    point.load = load;
    point.measurement = measurement_with(ttft, 100, 0, duration);
    result.sweep.push_back(point);
  }
  apply_slo(result, *parse_slo("p95_ttft=200ms"));
  EXPECT_EQ(result.sweep[2].slo_met, true);
  EXPECT_EQ(result.sweep[3].slo_met, false);
  ASSERT_TRUE(result.throughput_at_slo.has_value());
  EXPECT_DOUBLE_EQ(*result.throughput_at_slo, 4.0);  // 100 requests in 25 s
  EXPECT_EQ(result.load_at_slo, 4.0);
  EXPECT_DOUBLE_EQ(result.measurement.request_throughput, 4.0);

  apply_slo(result, Slo{});
  EXPECT_FALSE(result.throughput_at_slo.has_value());
  EXPECT_FALSE(result.sweep[0].slo_met.has_value());
  EXPECT_DOUBLE_EQ(result.measurement.request_throughput, 5.0);  // the last level
}

TEST(Metrics, ApplySloOnASingleRun) {
  BenchResult result;
  result.config.concurrency = 16;
  result.measurement = measurement_with(50, 100, 0, 10);
  apply_slo(result, *parse_slo("p99_ttft=1s"));
  EXPECT_EQ(result.throughput_at_slo, 10.0);
  EXPECT_EQ(result.load_at_slo, 16.0);
  apply_slo(result, *parse_slo("p99_ttft=10ms"));
  EXPECT_FALSE(result.throughput_at_slo.has_value());
}

}  // namespace
}  // namespace gpuport
