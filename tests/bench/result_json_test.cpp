// Bench result JSON: the vLLM-compatible keys users grep for, exact round trips, errors with
// file:line:column, and merges whose histograms equal the histogram of all samples.
#include "bench/result_json.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <sstream>

#include "bench/json_value.h"
#include "bench/metrics.h"

namespace gpuport {
namespace {

constexpr std::int64_t k_ms = 1'000'000;

RequestRecord request(std::uint64_t index, std::int64_t ttft_ms, std::int64_t itl_ms,
                      std::int64_t tokens) {
  RequestRecord r;
  r.index = index;
  r.intended_ns = static_cast<std::int64_t>(index) * 10 * k_ms;
  r.sent_ns = r.intended_ns + (index % 4) * k_ms;
  r.first_token_ns = r.sent_ns + ttft_ms * k_ms;
  r.last_token_ns = r.first_token_ns;
  for (std::int64_t i = 1; i < tokens; ++i) {
    r.itl_ns.push_back(itl_ms * k_ms);
    r.last_token_ns += itl_ms * k_ms;
  }
  r.done_ns = r.last_token_ns + k_ms;
  r.prompt_tokens = 512;
  r.prompt_tokens_from_usage = true;
  r.output_tokens = tokens;
  r.output_tokens_from_usage = true;
  return r;
}

BenchResult sample_result(std::uint64_t first, std::uint64_t count, const std::string& slo = "") {
  MetricsRecorder recorder(slo.empty() ? Slo{} : *parse_slo(slo));
  for (std::uint64_t i = first; i < first + count; ++i) {
    if (i % 10 == 9) {
      RequestRecord r;
      r.error = RequestError::http_status;
      r.http_status = 429;
      r.error_detail = "HTTP 429 \"slow down\"";
      recorder.record(r);
    } else {
      recorder.record(request(i, 80 + static_cast<std::int64_t>(i % 50), 10 + i % 7, 16));
    }
  }
  BenchResult result;
  result.tool_version = "0.1.0";
  result.date = "2026-12-03T10:00:00Z";
  result.config.url = "http://127.0.0.1:8000/v1/completions";
  result.config.model = "meta-llama/Llama-3.1-8B-Instruct";
  result.config.concurrency = 32;
  result.config.input_tokens = 512;
  result.config.output_tokens = 16;
  result.config.duration_s = 120;
  result.config.seed = 42;
  result.config.slo = slo.empty() ? "" : parse_slo(slo)->to_string();
  result.measurement = recorder.finish(10.0, 32);
  apply_slo(result, slo.empty() ? Slo{} : *parse_slo(slo));
  return result;
}

TEST(ResultJson, HasTheVllmKeysAndOurHistograms) {
  const std::string text = bench_result_to_json(sample_result(0, 100, "p90_ttft=1s"));
  const auto json = nlohmann::json::parse(text);
  EXPECT_EQ(json["schema_version"], 1);
  EXPECT_EQ(json["completed"], 90);
  EXPECT_EQ(json["failed"], 10);
  EXPECT_EQ(json["request_throughput"], 9.0);
  EXPECT_EQ(json["request_goodput"], 9.0);
  EXPECT_EQ(json["output_throughput"], 144.0);
  EXPECT_EQ(json["total_input_tokens"], 90 * 512);
  EXPECT_EQ(json["model_id"], "meta-llama/Llama-3.1-8B-Instruct");
  EXPECT_EQ(json["request_rate"], "inf");
  EXPECT_EQ(json["max_concurrency"], 32);
  EXPECT_EQ(json["errors"]["http_status"], 10);
  EXPECT_EQ(json["http_status_counts"]["429"], 10);
  EXPECT_EQ(json["error_samples"][0], "HTTP 429 \"slow down\"");
  for (const char* key :
       {"mean_ttft_ms", "median_ttft_ms", "std_ttft_ms", "p50_ttft_ms", "p90_ttft_ms",
        "p95_ttft_ms", "p99_ttft_ms", "p99.9_ttft_ms", "p99_tpot_ms", "p99.9_itl_ms",
        "mean_e2el_ms", "p99_e2el_intended_ms", "p99_schedule_lag_ms", "max_ttft_ms"}) {
    EXPECT_TRUE(json.contains(key)) << key;
  }
  // TTFT is 80..128 ms; p99 within the histogram's 1/1000.
  EXPECT_NEAR(json["p99_ttft_ms"].get<double>(), 128.0, 0.128);
  EXPECT_EQ(json["min_ttft_ms"], 80.0);
  EXPECT_EQ(json["p99.9_itl_ms"], 16.0);
  EXPECT_EQ(json["mean_tpot_ms"], json["mean_itl_ms"]);  // one token per chunk here
  EXPECT_EQ(json["histograms"]["ttft"]["count"], 90);
  EXPECT_EQ(json["histograms"]["itl"]["count"], 90 * 15);
  EXPECT_EQ(json["throughput_at_slo"], 9.0);
  EXPECT_EQ(json["load_at_slo"], 32.0);
  EXPECT_EQ(json["config"]["slo"], "p90_ttft=1000ms");
  EXPECT_TRUE(json["sweep"].is_array());
}

TEST(ResultJson, RoundTripIsExact) {
  BenchResult result = sample_result(0, 300, "p95_e2el=400ms");
  result.config.mode = LoadMode::rate;
  result.config.rate = 12.5;
  result.config.arrival = Arrival::gamma;
  result.config.burstiness = 0.5;
  result.config.api = ApiKind::chat;
  result.config.dataset = "prompts \xff.jsonl";
  for (double load : {5.0, 12.5}) {
    SweepPoint point;
    point.load = load;
    point.measurement = sample_result(0, static_cast<std::uint64_t>(load * 10)).measurement;
    point.saturated = load > 10;
    result.sweep.push_back(point);
  }
  apply_slo(result, *parse_slo("p95_e2el=400ms"));
  const std::string text = bench_result_to_json(result);
  const auto back = bench_result_from_json(text, "r.json");
  ASSERT_TRUE(back.has_value()) << back.error();
  EXPECT_EQ(bench_result_to_json(*back), text);
  EXPECT_EQ(back->config.mode, LoadMode::rate);
  EXPECT_EQ(back->config.arrival, Arrival::gamma);
  EXPECT_EQ(back->config.api, ApiKind::chat);
  EXPECT_EQ(back->config.dataset, "prompts \xEF\xBF\xBD.jsonl");  // invalid UTF-8 replaced
  EXPECT_EQ(back->measurement.histograms.itl.nonzero_buckets(),
            result.measurement.histograms.itl.nonzero_buckets());
  EXPECT_EQ(back->measurement.histograms.e2el.sum_us(),
            result.measurement.histograms.e2el.sum_us());
  ASSERT_EQ(back->sweep.size(), 2u);
  EXPECT_EQ(back->sweep[1].saturated, true);
  EXPECT_EQ(back->sweep[0].slo_met, result.sweep[0].slo_met);
  EXPECT_EQ(back->throughput_at_slo, result.throughput_at_slo);
}

std::string read_error(const std::string& text) {
  auto result = bench_result_from_json(text, "h100.json");
  return result ? "(read)" : result.error();
}

std::string with(std::string text, const std::string& from, const std::string& to) {
  const std::size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return text.replace(at, from.size(), to);
}

TEST(ResultJson, ErrorsNameFileLineColumnAndKey) {
  const std::string good = bench_result_to_json(sample_result(0, 20));
  EXPECT_EQ(read_error(with(good, "\"completed\": 18", "\"completed\": \"18\"")),
            "h100.json:" + line_column(good, good.find("\"completed\": 18") + 13) +
                ": expected a number for 'completed'");
  EXPECT_EQ(read_error("{\"schema_version\": 1,\n  \"config\": [}"),
            "h100.json:2:14: expected a value");
  EXPECT_EQ(read_error("[1]"), "h100.json:1:1: expected a JSON object (a gpuport bench result)");
  EXPECT_EQ(read_error("{\"schema_version\": 2}"),
            "h100.json:1:20: schema_version 2 is newer than this gpuport reads (1)");
  EXPECT_EQ(read_error("{}"), "h100.json:1:1: missing 'schema_version'");
  EXPECT_EQ(read_error(""), "h100.json:1:1: unexpected end of the document");
  EXPECT_NE(read_error(with(good, "\"failed\": 2,", "\"failed\": -2,"))
                .find("expected a non-negative integer for 'failed'"),
            std::string::npos);
  EXPECT_NE(read_error(with(good, "\"api\": \"completions\"", "\"api\": \"grpc\""))
                .find("unknown api 'grpc' (use completions, chat or generic)"),
            std::string::npos);
  // 1e308 is finite, but its sums and products were not: a merged or compared result came out
  // as null or 0 with exit 0 (issue 27, item 8).
  const std::string throughput = "\"request_throughput\": ";
  const std::size_t at = good.find(throughput) + throughput.size();
  const std::string huge =
      good.substr(0, at) + "1e308" + good.substr(good.find_first_of(",\n", at));
  EXPECT_EQ(read_error(huge), "h100.json:" + line_column(huge, at) +
                                  ": 'request_throughput' must be between 0 and 1e+15");
  const std::string negative =
      good.substr(0, at) + "-3.5" + good.substr(good.find_first_of(",\n", at));
  EXPECT_EQ(read_error(negative), "h100.json:" + line_column(negative, at) +
                                      ": 'request_throughput' must be between 0 and 1e+15");
  EXPECT_NE(read_error(with(good, "\"failed\": 2,", "\"failed\": 18446744073709551615,"))
                .find("'failed' must be at most 1e+15 in size"),
            std::string::npos);
  // A histogram whose count disagrees with its buckets is refused, not trusted.
  const std::string ttft = "\"ttft\": {\n      \"count\": 18";
  EXPECT_NE(read_error(with(good, ttft, "\"ttft\": {\n      \"count\": 19"))
                .find("histogram 'ttft': count 19 but the buckets add up to 18"),
            std::string::npos);
}

TEST(ResultJson, MergedHistogramsEqualTheHistogramOfTheUnion) {
  const BenchResult a = sample_result(0, 100);
  const BenchResult b = sample_result(100, 150);
  const BenchResult both = sample_result(0, 250);
  const auto merged = merge_bench_results({a, b}, {"a.json", "b.json"});
  ASSERT_TRUE(merged.has_value()) << merged.error();
  const BenchHistograms& m = merged->measurement.histograms;
  const BenchHistograms& u = both.measurement.histograms;
  EXPECT_EQ(m.ttft.nonzero_buckets(), u.ttft.nonzero_buckets());
  EXPECT_EQ(m.tpot.nonzero_buckets(), u.tpot.nonzero_buckets());
  EXPECT_EQ(m.itl.nonzero_buckets(), u.itl.nonzero_buckets());
  EXPECT_EQ(m.e2el.nonzero_buckets(), u.e2el.nonzero_buckets());
  EXPECT_EQ(m.e2el_intended.nonzero_buckets(), u.e2el_intended.nonzero_buckets());
  EXPECT_EQ(m.schedule_lag.nonzero_buckets(), u.schedule_lag.nonzero_buckets());
  EXPECT_EQ(m.ttft.sum_us(), u.ttft.sum_us());
  EXPECT_EQ(m.ttft.percentile_us(99), u.ttft.percentile_us(99));
  EXPECT_EQ(merged->measurement.completed, 225u);
  EXPECT_EQ(merged->measurement.failed, 25u);
  EXPECT_EQ(merged->measurement.errors.at("http_status"), 25u);
  EXPECT_DOUBLE_EQ(merged->measurement.request_throughput, 22.5);  // over the 10 s window
  EXPECT_EQ(merged->measurement.max_concurrent_requests, 64u);
  EXPECT_EQ(merged->config.clients, 2);
  // Merging what was saved gives the same bytes as merging in memory.
  const auto a_back = bench_result_from_json(bench_result_to_json(a), "a.json");
  const auto b_back = bench_result_from_json(bench_result_to_json(b), "b.json");
  EXPECT_EQ(bench_result_to_json(*merge_bench_results({*a_back, *b_back}, {"a.json", "b.json"})),
            bench_result_to_json(*merged));
}

TEST(ResultJson, MergeRejudgesTheSlo) {
  const auto merged = merge_bench_results(
      {sample_result(0, 100, "p90_ttft=200ms"), sample_result(100, 100, "p90_ttft=200ms")},
      {"a.json", "b.json"});
  ASSERT_TRUE(merged.has_value());
  EXPECT_EQ(merged->measurement.request_goodput, 18.0);
  EXPECT_EQ(merged->throughput_at_slo, 18.0);
  // 10 % of the requests failed: a p95 term cannot be met whatever the others' latency.
  const auto strict = merge_bench_results(
      {sample_result(0, 100, "p95_ttft=200ms"), sample_result(100, 100, "p95_ttft=200ms")},
      {"a.json", "b.json"});
  EXPECT_FALSE(strict->throughput_at_slo.has_value());
}

TEST(ResultJson, MergeRefusesDifferentExperiments) {
  BenchResult a = sample_result(0, 10);
  BenchResult b = sample_result(0, 10);
  b.config.concurrency = 64;
  EXPECT_EQ(merge_bench_results({a, b}, {"a.json", "b.json"}).error(),
            "cannot merge: a.json ran at concurrency 32, b.json at concurrency 64");
  b = a;
  b.config.model = "other";
  EXPECT_EQ(merge_bench_results({a, b}, {"a.json", "b.json"}).error(),
            "cannot merge: a.json ran model 'meta-llama/Llama-3.1-8B-Instruct', b.json model "
            "'other'");
  b = a;
  b.config.mode = LoadMode::rate;
  b.config.rate = 4;
  EXPECT_EQ(merge_bench_results({a, b}, {"a.json", "b.json"}).error(),
            "cannot merge: a.json ran at concurrency 32, b.json at rate 4 req/s");
  b = a;
  b.sweep.push_back(SweepPoint{});
  EXPECT_EQ(merge_bench_results({a, b}, {"a.json", "b.json"}).error(),
            "cannot merge: a.json has 0 sweep levels, b.json has 1");
  EXPECT_EQ(merge_bench_results({}, {}).error(), "cannot merge: no results");
}

// A result written by `gpuport bench` against the mock (12 streamed requests, concurrency 2,
// --slo p95_ttft=100ms); also a seed of bench_inputs_fuzzer.
TEST(ResultJson, ReadsAResultTheCommandWrote) {
  std::ifstream in(std::string(GPUPORT_SOURCE_DIR) + "/tests/fixtures/bench/result_mock_12.json");
  std::stringstream text;
  text << in.rdbuf();
  const auto result = bench_result_from_json(text.str(), "result_mock_12.json");
  ASSERT_TRUE(result.has_value()) << result.error();
  EXPECT_EQ(result->config.requests, 12);
  EXPECT_EQ(result->config.concurrency, 2);
  EXPECT_EQ(result->config.slo, "p95_ttft=100ms");
  EXPECT_EQ(result->measurement.completed, 12u);
  EXPECT_EQ(result->measurement.total_input_tokens, 192);
  EXPECT_EQ(result->measurement.histograms.ttft.count(), 12u);
  EXPECT_EQ(result->measurement.histograms.itl.count(), 36u);  // 4 tokens: 3 gaps per request
  EXPECT_EQ(bench_result_to_json(*result), text.str());
}

// Found by bench_inputs_fuzzer: a result whose SLO text does not parse was read, and only
// `bench merge` (which applies the SLO again) refused it.
TEST(ResultJson, AnSloThatDoesNotParseIsRefusedWhereItIs) {
  std::ifstream in(std::string(GPUPORT_SOURCE_DIR) + "/tests/fixtures/bench/result_mock_12.json");
  std::stringstream text;
  text << in.rdbuf();
  std::string bad = text.str();
  bad.replace(bad.find("p95_ttft=100ms"), 14, "p95_ttf!=100ms");
  EXPECT_EQ(bench_result_from_json(bad, "r.json").error(),
            "r.json:24:12: bad 'slo': SLO term 'p95_ttf!=100ms': unknown metric 'ttf!' (use ttft, "
            "tpot, itl or e2el)");
}

}  // namespace
}  // namespace gpuport
