// `gpuport bench --serve-mock`: flags into MockServerOptions, one-line errors, a timed run.
#include "cli/bench_serve_mock.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "bench/mock_server.h"

namespace gpuport {
namespace {

std::string error_of(const CommandArgs& args) {
  std::string help;
  auto config = parse_serve_mock_args(args, &help);
  EXPECT_FALSE(config);
  return config ? "" : config.error().message;
}

TEST(ServeMockArgs, DefaultsServeOnLoopback8000) {
  std::string help;
  auto config = parse_serve_mock_args({"--serve-mock"}, &help);
  ASSERT_TRUE(config);
  EXPECT_EQ(config->server.host, "127.0.0.1");
  EXPECT_EQ(config->server.port, 8000);
  EXPECT_EQ(config->server.threads, 1);
  EXPECT_EQ(config->server.ttft.to_string(), "constant:20ms");
  EXPECT_EQ(config->server.itl.to_string(), "constant:10ms");
  EXPECT_EQ(config->server.output_tokens, 0);
  EXPECT_EQ(config->duration_ns, 0);
}

TEST(ServeMockArgs, EveryOptionReachesTheServer) {
  std::string help;
  auto config = parse_serve_mock_args({"--port",
                                       "0",
                                       "--threads",
                                       "2",
                                       "--model",
                                       "llama",
                                       "--ttft",
                                       "normal:200ms,30ms",
                                       "--itl",
                                       "lognormal:20ms,5ms",
                                       "--output-tokens",
                                       "64",
                                       "--tokens-per-chunk",
                                       "2",
                                       "--knee",
                                       "32",
                                       "--max-batch",
                                       "256",
                                       "--stall-at",
                                       "10s",
                                       "--stall-for",
                                       "1s",
                                       "--stall-every",
                                       "30s",
                                       "--fault",
                                       "500:every=50",
                                       "--fault",
                                       "close:p=0.01",
                                       "--seed",
                                       "7",
                                       "--duration",
                                       "2s"},
                                      &help);
  ASSERT_TRUE(config) << config.error().message;
  const MockServerOptions& server = config->server;
  EXPECT_EQ(server.port, 0);
  EXPECT_EQ(server.threads, 2);
  EXPECT_EQ(server.model, "llama");
  EXPECT_EQ(server.ttft.to_string(), "normal:200ms,30ms");
  EXPECT_EQ(server.itl.to_string(), "lognormal:20ms,5ms");
  EXPECT_EQ(server.output_tokens, 64);
  EXPECT_EQ(server.tokens_per_chunk, 2);
  EXPECT_EQ(server.capacity.knee, 32);
  EXPECT_EQ(server.capacity.max_batch, 256);
  EXPECT_EQ(server.stall.at_ns, 10'000'000'000);
  EXPECT_EQ(server.stall.duration_ns, 1'000'000'000);
  EXPECT_EQ(server.stall.every_ns, 30'000'000'000);
  ASSERT_EQ(server.faults.size(), 2u);
  EXPECT_EQ(server.faults[0].to_string(), "500:every=50");
  EXPECT_EQ(server.faults[1].to_string(), "close:p=0.01");
  EXPECT_EQ(server.seed, 7u);
  EXPECT_EQ(config->duration_ns, 2'000'000'000);
}

TEST(ServeMockArgs, BadValuesAreOneLineErrors) {
  EXPECT_EQ(error_of({"--ttft", "gauss:1ms,1ms"}),
            "--ttft: distribution 'gauss:1ms,1ms': unknown kind 'gauss' (use constant, normal or "
            "lognormal)");
  EXPECT_EQ(error_of({"--itl", "-3ms"}), "--itl: distribution '-3ms': duration '-3ms' is negative");
  EXPECT_EQ(error_of({"--fault", "404:every=2"}),
            "--fault: fault '404:every=2': unknown kind '404' (use close, malformed, 500, 429 or "
            "hang)");
  EXPECT_EQ(error_of({"--port", "70000"}), "--port 70000: use 0 to 65535");
  EXPECT_EQ(error_of({"--threads", "0"}), "--threads 0: use 1 to 64");
  EXPECT_EQ(error_of({"--tokens-per-chunk", "0"}), "--tokens-per-chunk 0: use 1 to 4096");
  EXPECT_EQ(error_of({"--stall-at", "2s"}),
            "--stall-at/--stall-every need --stall-for (the length of the stall)");
  EXPECT_EQ(error_of({"--stall-for", "2s", "--stall-every", "1s"}),
            "--stall-every 1s must be longer than --stall-for 2s");
  EXPECT_EQ(error_of({"--duration", "soon"}),
            "--duration: duration 'soon': 'soon' is not a number (e.g. 50ms, 2s, 250us)");
  EXPECT_EQ(error_of({"--generic-response", "/nonexistent/x.json"}),
            "--generic-response: cannot read '/nonexistent/x.json': No such file or directory");
  EXPECT_NE(error_of({"--bogus"}).find("--bogus"), std::string::npos);
}

TEST(ServeMockArgs, GenericResponseMustBeJson) {
  const std::filesystem::path path =
      std::filesystem::temp_directory_path() / "gpuport-serve-mock-generic.json";
  std::ofstream(path) << "{\"ok\": tru}\n";
  EXPECT_EQ(error_of({"--generic-response", path.string()}),
            path.string() + ":1:11: not valid JSON");
  std::ofstream(path) << "{\n  \"ok\": 1,\n  x\n}\n";
  EXPECT_EQ(error_of({"--generic-response", path.string()}),
            path.string() + ":3:3: not valid JSON");
  std::ofstream(path) << "{\"ok\": 1e999}\n";
  EXPECT_EQ(error_of({"--generic-response", path.string()}),
            path.string() + ": number overflow parsing '1e999'");
  std::ofstream(path) << "{\"ok\": true}\n";
  std::string help;
  auto config = parse_serve_mock_args({"--generic-response", path.string()}, &help);
  ASSERT_TRUE(config);
  EXPECT_EQ(config->server.generic_response, "{\"ok\": true}");
  std::filesystem::remove(path);
}

TEST(ServeMockRun, HelpListsTheOptionsAndExitsZero) {
  ::testing::internal::CaptureStdout();
  EXPECT_EQ(run_serve_mock(CommandArgs{"--serve-mock", "--help"}), 0);
  const std::string out = ::testing::internal::GetCapturedStdout();
  for (const char* option : {"--ttft", "--itl", "--knee", "--max-batch", "--stall-at", "--fault"}) {
    EXPECT_NE(out.find(option), std::string::npos) << option;
  }
}

TEST(ServeMockRun, ServesForItsDurationThenSummarises) {
  ::testing::internal::CaptureStdout();
  ::testing::internal::CaptureStderr();
  const char* argv[] = {"bench", "--serve-mock", "--port", "0", "--duration", "100ms"};
  EXPECT_EQ(run_serve_mock(6, const_cast<char**>(argv)), 0);
  const std::string out = ::testing::internal::GetCapturedStdout();
  const std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_TRUE(out.starts_with("gpuport mock: listening on http://127.0.0.1:")) << out;
  EXPECT_NE(out.find("(model mock-model, ttft constant:20ms, itl constant:10ms)"),
            std::string::npos);
  EXPECT_TRUE(err.starts_with("gpuport mock: 0 connections, 0 requests")) << err;
}

TEST(ServeMockRun, BusyPortAndBadFlagsExitTwo) {
  MockServer holder(MockServerOptions{});
  const std::uint16_t port = holder.start().value();
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(run_serve_mock(CommandArgs{"--port", std::to_string(port), "--duration", "1s"}), 2);
  EXPECT_EQ(::testing::internal::GetCapturedStderr(),
            "gpuport: error: cannot listen on 127.0.0.1:" + std::to_string(port) +
                ": Address already in use\n");
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(run_serve_mock(CommandArgs{"--knee", "-1"}), 2);
  EXPECT_EQ(::testing::internal::GetCapturedStderr(),
            "gpuport: error: --knee -1: must be 0 or more\n");
}

}  // namespace
}  // namespace gpuport
