// `gpuport bench` end to end: the built binary against the in-process mock server (127.0.0.1,
// ephemeral port): help, the text summary and the JSON result, -o, --requests-jsonl, secrets
// from the environment never echoed, connection refused, Ctrl-C, one-line usage errors,
// compare and merge.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <signal.h>

#include <nlohmann/json.hpp>

#include <chrono>
#include <thread>

#include "bench/mock_server.h"
#include "cli/bench_options.h"
#include "cli_runner.h"

namespace gpuport {
namespace {

using testing::CliFixture;
using testing::CliRun;
using ::testing::HasSubstr;
using ::testing::Not;
using testing::read_text;
using testing::shell_quoted;
using ::testing::StartsWith;
namespace fs = std::filesystem;

class BenchCli : public CliFixture {
 protected:
  void start_mock(std::int64_t ttft_ms = 2, std::int64_t itl_ms = 1) {
    MockServerOptions options;
    options.ttft = LatencyDistribution{LatencyDistribution::Kind::constant, ttft_ms * 1'000'000, 0};
    options.itl = LatencyDistribution{LatencyDistribution::Kind::constant, itl_ms * 1'000'000, 0};
    m_mock = std::make_unique<MockServer>(options);
    auto port = m_mock->start();
    ASSERT_TRUE(port) << port.error();
    m_url = "http://127.0.0.1:" + std::to_string(*port);
  }
  std::string path(const std::string& name) const { return shell_quoted((m_dir / name).string()); }

  std::unique_ptr<MockServer> m_mock;
  std::string m_url;
};

std::size_t lines(const std::string& text) {
  return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
}

TEST_F(BenchCli, HelpTeachesTheOptionsWithExamplesAndExitCodes) {
  const CliRun run = gpuport("bench --help");
  EXPECT_EQ(run.exit_code, 0);
  for (const char* text : {"URL",
                           "--api",
                           "--path",
                           "--model",
                           "--input-tokens",
                           "--output-tokens",
                           "--dataset",
                           "--body-template",
                           "--no-stream",
                           "--ignore-eos",
                           "--concurrency",
                           "--rate",
                           "--arrival",
                           "--burstiness",
                           "--seed",
                           "--duration",
                           "--requests",
                           "--warmup",
                           "--timeout",
                           "--sweep",
                           "--slo",
                           "--header",
                           "--header-env",
                           "--ca-file",
                           "-o,--output",
                           "--requests-jsonl",
                           "--format",
                           "--quiet",
                           "Examples:",
                           "gpuport bench compare h100.json mi300x.json",
                           "gpuport bench merge",
                           "--serve-mock",
                           "Exit codes:",
                           "coordinated omission"}) {
    EXPECT_THAT(run.out, HasSubstr(text)) << text;
  }
  EXPECT_EQ(run.out, bench_help());
  EXPECT_THAT(gpuport("--help").out, HasSubstr("  bench    Load-test an inference server"));
}

TEST_F(BenchCli, RunsAgainstTheMockAndWritesTheSummaryAndTheJsonResult) {
  start_mock();
  const CliRun run = gpuport("bench " + m_url +
                             " --model mock-model --input-tokens 32 --output-tokens 5 "
                             "--concurrency 4 --requests 40 --warmup 4 -o " +
                             path("r.json") + " --requests-jsonl " + path("r.jsonl"));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.err, "");  // not a terminal: no progress line
  EXPECT_THAT(run.out, StartsWith("gpuport bench: " + m_url +
                                  "/v1/completions (completions, "
                                  "streaming)\n"));
  EXPECT_THAT(run.out, HasSubstr("Successful requests:              40\n"));
  EXPECT_THAT(run.out, HasSubstr("Failed requests:                  0\n"));
  EXPECT_THAT(run.out, HasSubstr("Total generated tokens:           200\n"));
  EXPECT_THAT(run.out, HasSubstr("TTFT from intended send"));
  EXPECT_THAT(run.out, HasSubstr("Result: " + (m_dir / "r.json").string() + "\n"));
  const auto json = nlohmann::json::parse(read_text(m_dir / "r.json"));
  EXPECT_EQ(json["schema_version"], 1);
  EXPECT_EQ(json["completed"], 40);
  EXPECT_EQ(json["failed"], 0);
  EXPECT_EQ(json["total_output_tokens"], 200);
  EXPECT_EQ(json["max_concurrent_requests"], 4);
  EXPECT_EQ(json["interrupted"], false);
  EXPECT_EQ(json["config"]["concurrency"], 4);
  EXPECT_EQ(json["config"]["model"], "mock-model");
  EXPECT_TRUE(json.contains("p99_ttft_ms"));
  EXPECT_TRUE(json.contains("histograms"));
  const std::string jsonl = read_text(m_dir / "r.jsonl");
  EXPECT_EQ(lines(jsonl), 44u);  // warm-up included, marked
  const auto first = nlohmann::json::parse(jsonl.substr(0, jsonl.find('\n')));
  EXPECT_EQ(first["warmup"], true);
  EXPECT_EQ(m_mock->stats().generation_requests, 44u);
}

TEST_F(BenchCli, JsonFormatPrintsTheResultAndSecretsAreNeverEchoed) {
  start_mock();
  const CliRun run = gpuport("bench " + m_url +
                                 " --api chat --model m --requests 3 --format json "
                                 "--header-env 'Authorization=BENCH_TEST_TOKEN' "
                                 "--header 'X-Team: infra'",
                             "BENCH_TEST_TOKEN='Bearer sk-very-secret'");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto json = nlohmann::json::parse(run.out);
  EXPECT_EQ(json["completed"], 3);
  EXPECT_EQ(json["config"]["api"], "chat");
  EXPECT_THAT(run.out, Not(HasSubstr("sk-very-secret")));
  EXPECT_THAT(run.err, Not(HasSubstr("sk-very-secret")));
}

TEST_F(BenchCli, ARefusedConnectionIsCountedAsConnectErrorsAndExitsOne) {
  start_mock();
  const std::string url = m_url;
  m_mock->stop();  // nothing listens there now
  const CliRun run = gpuport("bench " + url + " --requests 3 -o " + path("r.json"));
  EXPECT_EQ(run.exit_code, 1) << run.err;
  EXPECT_THAT(run.out, HasSubstr("Errors: connect 3\n"));
  EXPECT_THAT(run.out, HasSubstr(": Connection refused\n"));
  const auto json = nlohmann::json::parse(read_text(m_dir / "r.json"));
  EXPECT_EQ(json["failed"], 3);
  EXPECT_EQ(json["errors"]["connect"], 3);
}

TEST_F(BenchCli, CtrlCWritesThePartialResultMarkedInterrupted) {
  start_mock(1, 200);  // each request streams slowly: some are in flight at the interrupt
  const fs::path out = m_dir / "partial.json";
  const std::string command = shell_quoted(GPUPORT_BINARY) + " bench " + m_url +
                              " --output-tokens 50 --concurrency 4 --duration 60s -o " +
                              shell_quoted(out.string()) + " >" + path("out.txt") + " 2>&1 & " +
                              "pid=$!; sleep 1.5; kill -INT $pid; wait $pid; echo $? >" +
                              path("status.txt");
  ASSERT_EQ(std::system(command.c_str()), 0);
  EXPECT_EQ(read_text(m_dir / "status.txt"), "130\n");
  const std::string text = read_text(m_dir / "out.txt");
  EXPECT_THAT(text, HasSubstr("INTERRUPTED (Ctrl-C): partial results"));
  const auto json = nlohmann::json::parse(read_text(out));
  EXPECT_EQ(json["interrupted"], true);
  EXPECT_EQ(json["errors"]["cancelled"], 4);
}

TEST_F(BenchCli, BadUsageIsOneLineAndExitTwo) {
  const struct {
    std::string args;
    std::string message;
  } cases[] = {
      {"bench htp://x", "gpuport: error: bad URL 'htp://x': scheme must be http or https\n"},
      {"bench http://127.0.0.1:99999",
       "gpuport: error: bad URL 'http://127.0.0.1:99999': port "
       "must be a number from 1 to 65535\n"},
      {"bench",
       "gpuport: error: give the server's URL: gpuport bench http://host:8000 --model M\n"},
      {"bench http://h --api grpc",
       "gpuport: error: invalid --api 'grpc' (valid: completions, chat, generic)\n"},
      {"bench http://h --duration 5parsecs",
       "gpuport: error: --duration '5parsecs': unknown unit 'parsecs' (use ms, s, m or h)\n"},
      {"bench http://h --concurrency 0", "gpuport: error: --concurrency must be at least 1\n"},
      {"bench http://h --rate 0",
       "gpuport: error: --rate 0: must be above 0 and at most 1e+06 requests/s\n"},
      // Absurd finite numbers: a schedule of 1e308 req/s or a 1e14-token prompt in memory.
      {"bench http://h --rate 1e308",
       "gpuport: error: --rate 1e+308: must be above 0 and at most 1e+06 requests/s\n"},
      {"bench http://h --arrival gamma --burstiness 1e308 --rate 5",
       "gpuport: error: --burstiness must be above 0 and at most 1e+06\n"},
      {"bench http://h --input-tokens 99999999999999",
       "gpuport: error: --input-tokens must be from 1 to 10000000\n"},
      {"bench http://h --sweep rate=1,1e300",
       "gpuport: error: --sweep '1,1e300': level 2 ('1e300') must be a positive rate of at most "
       "1e+06\n"},
      {"bench http://h -c 99999999", "gpuport: error: --concurrency must be at most 1000000\n"},
      {"bench http://h --sweep 1,4,2",
       "gpuport: error: --sweep '1,4,2': levels must increase ('2' after 4)\n"},
      {"bench http://h --rate 5 --sweep 1,2",
       "gpuport: error: --sweep lists concurrencies; to sweep rates write --sweep rate=5,10,20\n"},
      {"bench http://h --header 'NoColon'",
       "gpuport: error: --header 'NoColon': expected 'Name: value'\n"},
      // Framing headers are the client's: a second Host or Content-Length is refused.
      {"bench http://h --header 'Host: evil.example'",
       "gpuport: error: --header 'Host': gpuport writes the request's framing headers itself "
       "(Host, Content-Length, Transfer-Encoding, Connection); leave it out\n"},
      {"bench http://h --header 'content-length: 0'",
       "gpuport: error: --header 'content-length': gpuport writes the request's framing headers "
       "itself (Host, Content-Length, Transfer-Encoding, Connection); leave it out\n"},
      {"bench http://h --header-env 'Transfer-Encoding=HOME'",
       "gpuport: error: --header-env 'Transfer-Encoding': gpuport writes the request's framing "
       "headers itself (Host, Content-Length, Transfer-Encoding, Connection); leave it out\n"},
      {"bench http://h --header-env 'Authorization=GPUPORT_UNSET_VARIABLE'",
       "gpuport: error: --header-env 'Authorization=GPUPORT_UNSET_VARIABLE': environment "
       "variable GPUPORT_UNSET_VARIABLE is not set\n"},
      {"bench http://h --ca-file x.pem", "gpuport: error: --ca-file is for https:// URLs\n"},
      {"bench http://h --api generic",
       "gpuport: error: --api generic needs --body-template FILE (a JSON body with {prompt})\n"},
      {"bench http://h --format yaml",
       "gpuport: error: invalid --format 'yaml' (valid: text, "
       "json)\n"},
      {"bench compare only-one.json",
       "gpuport: error: give two results: gpuport bench compare A.json B.json\n"},
  };
  for (const auto& c : cases) {
    const CliRun run = gpuport(c.args);
    EXPECT_EQ(run.exit_code, 2) << c.args;
    EXPECT_EQ(run.err, c.message) << c.args;
    EXPECT_EQ(run.out, "") << c.args;
  }
  const CliRun unknown = gpuport("bench http://h --concurency 4");
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_EQ(lines(unknown.err), 1u);
}

TEST_F(BenchCli, MergeAddsTheCountsOfTwoResultsAndCompareShowsThemSideBySide) {
  start_mock();
  for (const char* name : {"a.json", "b.json"}) {
    const CliRun run =
        gpuport("bench " + m_url + " --concurrency 2 --requests 6 -q -o " + path(name));
    ASSERT_EQ(run.exit_code, 0) << run.err;
  }
  const CliRun merged =
      gpuport("bench merge " + path("a.json") + " " + path("b.json") + " -o " + path("ab.json"));
  ASSERT_EQ(merged.exit_code, 0) << merged.err;
  const auto json = nlohmann::json::parse(read_text(m_dir / "ab.json"));
  EXPECT_EQ(json["completed"], 12);
  EXPECT_EQ(json["config"]["clients"], 2);
  const CliRun compared = gpuport("bench compare " + path("a.json") + " " + path("b.json"));
  EXPECT_EQ(compared.exit_code, 0) << compared.err;
  EXPECT_THAT(compared.out, StartsWith("A: " + (m_dir / "a.json").string()));
  EXPECT_THAT(compared.out, HasSubstr("request_throughput"));
  const CliRun markdown =
      gpuport("bench compare " + path("a.json") + " " + path("b.json") + " --format md");
  EXPECT_EQ(markdown.exit_code, 0) << markdown.err;
  EXPECT_THAT(markdown.out, StartsWith("**A:** `" + (m_dir / "a.json").string() + "`"));
  EXPECT_THAT(markdown.out,
              HasSubstr("| metric | A | B | B/A | better |\n|---|---:|---:|---:|---|\n"));
  EXPECT_THAT(markdown.out, HasSubstr("| request_throughput | "));
}

}  // namespace
}  // namespace gpuport
