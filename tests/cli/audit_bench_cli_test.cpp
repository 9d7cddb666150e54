// gpuport audit --bench-nvidia/--bench-amd end to end: the bench results' throughputs replace the
// config's, every report format says where they came from and at which SLO, and a result with
// no usable throughput is a one-line error with exit 2 and no report.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "bench/metrics.h"
#include "bench/result_json.h"
#include "cli_runner.h"

namespace gpuport {
namespace {

using testing::CliFixture;
using testing::CliRun;
using ::testing::HasSubstr;
using testing::read_text;
using testing::shell_quoted;
namespace fs = std::filesystem;

std::string source(const std::string& relative) {
  return shell_quoted(std::string(GPUPORT_SOURCE_DIR) + "/" + relative);
}

std::string example_args() {
  return source("examples/serving-repo") + " --trace " +
         source("examples/traces/serving-h100.json.gz") + " --config " +
         source("examples/gpuport.toml") + " -q";
}

// `completed` requests in 10 s at TTFT `ttft_ms`, judged against `slo` (none when empty).
std::string bench_json(std::uint64_t completed, std::int64_t ttft_ms, const std::string& slo) {
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
  return bench_result_to_json(result);
}

class AuditBenchCli : public CliFixture {
 protected:
  std::string save(const std::string& name, const std::string& text) {
    const fs::path path = m_dir / name;
    std::ofstream(path, std::ios::binary) << text;
    return path.string();
  }
};

TEST_F(AuditBenchCli, BenchThroughputsReplaceTheConfigsAndTheReportsSaySo) {
  const std::string h100 = save("h100.json", bench_json(240, 80, "p95_ttft=500ms"));
  const std::string mi300x = save("mi300x.json", bench_json(180, 90, ""));
  const std::string args = "audit " + example_args() + " --bench-nvidia " + shell_quoted(h100) +
                           " --bench-amd " + shell_quoted(mi300x);
  const CliRun run = gpuport(args + " --format json -o -");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto json = nlohmann::json::parse(run.out);
  const auto& nvidia = json["cost"]["nvidia"];
  EXPECT_EQ(nvidia["throughput_rps"], 24.0);
  EXPECT_EQ(nvidia["throughput_assumed"], false);
  EXPECT_EQ(nvidia["throughput_source"]["file"], h100);
  EXPECT_EQ(nvidia["throughput_source"]["slo_qualified"], true);
  EXPECT_EQ(nvidia["throughput_source"]["slo"], "p95_ttft=500ms");
  EXPECT_EQ(nvidia["throughput_source"]["load"], "concurrency 32");
  const auto& amd = json["cost"]["amd"];
  EXPECT_EQ(amd["throughput_rps"], 18.0);
  EXPECT_EQ(amd["throughput_source"]["slo_qualified"], false);
  // $/1M requests follows the measured throughput: price × GPUs / (rps × 3600) × 1e6.
  const double price =
      nvidia["gpu_price_per_hour"].get<double>() * nvidia["gpus_per_replica"].get<double>();
  EXPECT_NEAR(nvidia["cost_per_million"].get<double>(), price / (24.0 * 3600) * 1e6, 0.01);
  EXPECT_THAT(json["warnings"].dump(),
              HasSubstr("the bench results were judged against different SLOs"));

  const CliRun md = gpuport(args + " --format md");
  ASSERT_EQ(md.exit_code, 0) << md.err;
  EXPECT_THAT(md.out, HasSubstr("throughput: 24.00 req/s from the bench result " + h100 +
                                ": the highest throughput that met the SLO p95\\_ttft=500ms (at "
                                "concurrency 32, model 'llama-70b')."));
  EXPECT_THAT(md.out, HasSubstr("**Note:** "));
  EXPECT_THAT(md.out, HasSubstr("18.00 req/s from the bench result " + mi300x +
                                " is its request throughput at concurrency 32 (model "
                                "'llama-70b'), measured without an SLO"));
  const CliRun html = gpuport(args + " -o -");
  ASSERT_EQ(html.exit_code, 0) << html.err;
  EXPECT_THAT(html.out, HasSubstr("the highest throughput that met the SLO p95_ttft=500ms"));
  EXPECT_THAT(html.out, HasSubstr("<p class=\"warn\">"));
}

TEST_F(AuditBenchCli, ResultWithoutAThroughputAtItsSloIsRefused) {
  const std::string missed = save("mi300x.json", bench_json(100, 900, "p95_ttft=500ms"));
  const fs::path out = m_dir / "report.html";
  const CliRun run = gpuport("audit " + example_args() + " --bench-amd " + shell_quoted(missed) +
                             " -o " + shell_quoted(out.string()));
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_EQ(run.err, "gpuport: error: " + missed +
                         ": no load met its SLO p95_ttft=500ms, so it has no throughput at the "
                         "SLO (rerun gpuport bench at a lower load, or with --sweep)\n");
  EXPECT_EQ(run.out, "");
  EXPECT_FALSE(fs::exists(out));
}

TEST_F(AuditBenchCli, UnreadableOrMalformedBenchResultIsOneLine) {
  const std::string broken = save("h100.json", "{\"schema_version\": 1, \"completed\": }");
  CliRun run =
      gpuport("audit " + example_args() + " --bench-nvidia " + shell_quoted(broken) + " -o -");
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_EQ(run.err, "gpuport: error: " + broken + ":1:36: expected a value\n");
  run = gpuport("audit " + example_args() + " --bench-nvidia " +
                shell_quoted((m_dir / "none.json").string()) + " -o -");
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_EQ(run.err, "gpuport: error: " + (m_dir / "none.json").string() +
                         ": cannot read: No such file or directory\n");
}

TEST_F(AuditBenchCli, HelpNamesTheBenchFlags) {
  const CliRun run = gpuport("audit --help");
  EXPECT_THAT(run.out, HasSubstr("--bench-nvidia FILE"));
  EXPECT_THAT(run.out, HasSubstr("--bench-amd FILE"));
  EXPECT_THAT(run.out, HasSubstr("throughput at the SLO"));
}

}  // namespace
}  // namespace gpuport
