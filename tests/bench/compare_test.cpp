// bench compare: ratios B/A, which side is better per metric, notes when the runs differ, and
// the exact text and JSON a user reads.
#include "bench/compare.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "bench/metrics.h"

namespace gpuport {
namespace {

// `count` requests with TTFT `ttft_ms`, 9 gaps of `itl_ms`, over a 10 s window.
BenchResult result_with(std::int64_t ttft_ms, std::int64_t itl_ms, std::uint64_t count,
                        std::uint64_t failures = 0) {
  MetricsRecorder recorder;
  for (std::uint64_t i = 0; i < count; ++i) {
    RequestRecord r;
    r.first_token_ns = ttft_ms * 1'000'000;
    r.last_token_ns = r.first_token_ns;
    for (int g = 0; g < 9; ++g) {
      r.itl_ns.push_back(itl_ms * 1'000'000);
      r.last_token_ns += itl_ms * 1'000'000;
    }
    r.done_ns = r.last_token_ns;
    r.output_tokens = 10;
    r.prompt_tokens = 100;
    r.output_tokens_from_usage = r.prompt_tokens_from_usage = true;
    recorder.record(r);
  }
  for (std::uint64_t i = 0; i < failures; ++i) {
    RequestRecord r;
    r.error = RequestError::timeout;
    recorder.record(r);
  }
  BenchResult result;
  result.config.model = "llama";
  result.config.concurrency = 8;
  result.config.input_tokens = 100;
  result.config.output_tokens = 10;
  result.measurement = recorder.finish(10, 8);
  return result;
}

const CompareRow& find(const BenchComparison& c, const std::string& metric) {
  for (const auto& row : c.rows) {
    if (row.metric == metric) {
      return row;
    }
  }
  ADD_FAILURE() << "no row " << metric;
  return c.rows.front();
}

TEST(BenchCompare, RatiosAndWinners) {
  const auto c = compare_bench_results(result_with(100, 20, 100), result_with(150, 10, 80),
                                       "h100.json", "mi300x.json");
  const CompareRow& throughput = find(c, "request_throughput");
  EXPECT_EQ(throughput.a, 10.0);
  EXPECT_EQ(throughput.b, 8.0);
  EXPECT_DOUBLE_EQ(*throughput.ratio, 0.8);
  EXPECT_EQ(throughput.winner, "a");  // higher is better
  const CompareRow& ttft = find(c, "p99_ttft_ms");
  EXPECT_EQ(ttft.a, 100.0);
  EXPECT_EQ(ttft.b, 150.0);
  EXPECT_DOUBLE_EQ(*ttft.ratio, 1.5);
  EXPECT_EQ(ttft.winner, "a");  // lower is better
  EXPECT_EQ(find(c, "p50_itl_ms").winner, "b");
  EXPECT_EQ(find(c, "p99_tpot_ms").unit, "ms");
  EXPECT_EQ(find(c, "error_rate").winner, "same");
  EXPECT_TRUE(c.notes.empty());
  for (const auto& row : c.rows) {
    EXPECT_NE(row.metric, "throughput_at_slo");  // neither run had an SLO
  }
}

TEST(BenchCompare, NotesSayWhenRunsAreNotLikeForLike) {
  BenchResult b = result_with(100, 20, 90, 10);
  b.config.input_tokens = 1024;
  b.config.model = "llama-fp8";
  b.measurement.tokens_estimated = true;
  const auto c = compare_bench_results(result_with(100, 20, 100), b, "a.json", "b.json");
  EXPECT_EQ(c.notes, (std::vector<std::string>{
                         "not like for like: input_tokens is 100 in A, 1024 in B",
                         "models differ: 'llama' in A, 'llama-fp8' in B",
                         "B: 10 of 100 requests failed (10 timeout)",
                         "B: token counts are estimated (the server reported no usage for some "
                         "requests)"}));
  EXPECT_DOUBLE_EQ(*find(c, "error_rate").b, 10.0);
}

TEST(BenchCompare, TextTable) {
  const auto c = compare_bench_results(result_with(100, 20, 100), result_with(150, 10, 80),
                                       "h100.json", "mi300x.json");
  const std::string text = render_comparison_text(c);
  EXPECT_EQ(text.substr(0, text.find("\n\n")), "A: h100.json (llama)\nB: mi300x.json (llama)");
  for (const char* line : {"metric                             A            B    B/A  better\n",
                           "request_throughput       10.00 req/s   8.00 req/s  0.80x  A\n",
                           "output_throughput        100.0 tok/s   80.0 tok/s  0.80x  A\n",
                           "completed                        100           80  0.80x  A\n",
                           "error_rate                    0.00 %       0.00 %      -  same\n",
                           "p99_ttft_ms                100.00 ms    150.00 ms  1.50x  A\n",
                           "p99.9_itl_ms                20.00 ms     10.00 ms  0.50x  B\n",
                           "mean_e2el_ms               280.00 ms    240.00 ms  0.86x  B\n"}) {
    EXPECT_NE(text.find(line), std::string::npos) << line << text;
  }
}

TEST(BenchCompare, JsonRows) {
  BenchResult a = result_with(100, 20, 100);
  a.config.slo = "p99_ttft=120ms";
  a.throughput_at_slo = 10.0;
  BenchResult b = result_with(150, 10, 80);
  b.config.slo = "p99_ttft=120ms";
  const auto json = nlohmann::json::parse(
      render_comparison_json(compare_bench_results(a, b, "h100.json", "mi300x.json")));
  EXPECT_EQ(json["schema_version"], 1);
  EXPECT_EQ(json["a"]["name"], "h100.json");
  const auto& slo_row = json["rows"][1];
  EXPECT_EQ(slo_row["metric"], "throughput_at_slo");
  EXPECT_EQ(slo_row["a"], 10.0);
  EXPECT_TRUE(slo_row["b"].is_null());
  EXPECT_TRUE(slo_row["ratio"].is_null());
  EXPECT_TRUE(slo_row["winner"].is_null());
  EXPECT_EQ(json["rows"][0]["better"], "higher");
  EXPECT_EQ(json["rows"][0]["ratio"], 0.8);
  EXPECT_TRUE(json["notes"].empty());
}

}  // namespace
}  // namespace gpuport
