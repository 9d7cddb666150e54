// gpuport audit --bench-nvidia/--bench-amd: which number of a bench result becomes the
// platform's throughput, the note the report prints about it, and the results it refuses.
#include "audit/bench_throughput.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "audit/cost.h"
#include "bench/metrics.h"
#include "bench/result_json.h"

namespace gpuport {
namespace {

namespace fs = std::filesystem;

// A result of `completed` requests over 10 s with TTFT `ttft_ms`, judged against `slo`.
BenchResult bench(std::uint64_t completed, std::int64_t ttft_ms, const std::string& slo) {
  MetricsRecorder recorder;
  for (std::uint64_t i = 0; i < completed; ++i) {
    RequestRecord r;
    r.first_token_ns = r.last_token_ns = r.done_ns = ttft_ms * 1'000'000;
    r.output_tokens = 1;
    recorder.record(r);
  }
  BenchResult result;
  result.config.model = "llama-70b";
  result.config.concurrency = 32;
  result.config.slo = slo;
  result.measurement = recorder.finish(10, 32);
  apply_slo(result, slo.empty() ? Slo{} : *parse_slo(slo));
  return result;
}

class BenchThroughputTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("gpuport-bench-throughput-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string save(const std::string& name, const std::string& text) {
    const std::string path = (dir_ / name).string();
    std::ofstream(path, std::ios::binary) << text;
    return path;
  }
  std::string save(const std::string& name, const BenchResult& result) {
    return save(name, bench_result_to_json(result));
  }
  fs::path dir_;
};

TEST_F(BenchThroughputTest, ThroughputAtTheSloIsUsedAndSaysWhichSlo) {
  const std::string path = save("h100.json", bench(120, 80, "p95_ttft=500ms"));
  const auto read = read_bench_throughput(path);
  ASSERT_TRUE(read.has_value()) << read.error();
  EXPECT_DOUBLE_EQ(read->throughput_rps, 12.0);
  EXPECT_TRUE(read->source.slo_qualified);
  EXPECT_EQ(read->source.slo, "p95_ttft=500ms");
  EXPECT_EQ(read->source.load, "concurrency 32");
  EXPECT_EQ(read->source.note,
            "12.00 req/s from the bench result " + path +
                ": the highest throughput that met the SLO p95_ttft=500ms (at concurrency 32, "
                "model 'llama-70b').");
}

TEST_F(BenchThroughputTest, SweepGivesTheLoadOfTheBestLevel) {
  BenchResult result = bench(0, 0, "p95_ttft=500ms");
  result.config.mode = LoadMode::rate;
  for (const auto& [rate, completed, ttft] :
       std::vector<std::tuple<double, std::uint64_t, std::int64_t>>{
           {4, 40, 100}, {8, 80, 300}, {16, 100, 900}}) {
    SweepPoint point;
    point.load = rate;
    point.measurement = bench(completed, ttft, "").measurement;
    result.sweep.push_back(point);
  }
  apply_slo(result, *parse_slo("p95_ttft=500ms"));
  const auto read = read_bench_throughput(save("mi300x.json", result));
  ASSERT_TRUE(read.has_value()) << read.error();
  EXPECT_DOUBLE_EQ(read->throughput_rps, 8.0);
  EXPECT_EQ(read->source.load, "rate 8 req/s");
}

TEST_F(BenchThroughputTest, RunWithoutAnSloFallsBackToRequestThroughputWithANote) {
  const std::string path = save("mi300x.json", bench(90, 80, ""));
  const auto read = read_bench_throughput(path);
  ASSERT_TRUE(read.has_value()) << read.error();
  EXPECT_DOUBLE_EQ(read->throughput_rps, 9.0);
  EXPECT_FALSE(read->source.slo_qualified);
  EXPECT_EQ(read->source.note,
            "9.00 req/s from the bench result " + path +
                " is its request throughput at concurrency 32 (model 'llama-70b'), measured "
                "without an SLO: not a throughput at your latency target. Rerun gpuport bench "
                "with --slo (and --sweep) for one.");
}

TEST_F(BenchThroughputTest, ResultsWithoutAUsableThroughputAreRefused) {
  const std::string missed = save("missed.json", bench(100, 900, "p95_ttft=500ms"));
  EXPECT_EQ(read_bench_throughput(missed).error(),
            missed +
                ": no load met its SLO p95_ttft=500ms, so it has no throughput at the SLO "
                "(rerun gpuport bench at a lower load, or with --sweep)");
  const std::string empty = save("empty.json", bench(0, 0, ""));
  EXPECT_EQ(read_bench_throughput(empty).error(),
            empty + ": no request completed, so it has no throughput");
  const std::string broken = save("broken.json", "{\"schema_version\": 1,\n \"config\": 5}");
  EXPECT_EQ(read_bench_throughput(broken).error(),
            broken + ":2:12: expected an object for 'config'");
  EXPECT_EQ(read_bench_throughput((dir_ / "none.json").string()).error(),
            (dir_ / "none.json").string() + ": cannot read: No such file or directory");
}

TEST_F(BenchThroughputTest, BenchThroughputDrivesTheCostPerRequest) {
  PlatformConfig platform{"MI300X", 3.6, 1, 10.0, true, std::nullopt};
  const auto read = read_bench_throughput(save("mi300x.json", bench(200, 80, "p99_ttft=1s")));
  ASSERT_TRUE(read.has_value());
  use_bench_throughput(platform, *read);
  EXPECT_DOUBLE_EQ(platform.throughput_rps, 20.0);
  EXPECT_FALSE(platform.throughput_assumed);
  ASSERT_TRUE(platform.throughput_source.has_value());
  // $3.60/h at 20 req/s: 72,000 requests an hour, $50 per million.
  EXPECT_DOUBLE_EQ(cost_per_million(platform.gpu_price_per_hour, 1, platform.throughput_rps), 50.0);
}

}  // namespace
}  // namespace gpuport
