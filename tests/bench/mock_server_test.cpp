// The mock server over a real loopback socket: routes, status codes, SSE framing, usage numbers,
// keep-alive and Connection: close, pipelining, start/stop.
#include "bench/mock_server.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "mock_test_client.h"

namespace gpuport {
namespace {

using nlohmann::json;
using testing::RawResponse;
using testing::TestConnection;

MockServerOptions quick_options() {
  MockServerOptions options;
  options.ttft = LatencyDistribution{LatencyDistribution::Kind::constant, 1'000'000, 0};
  options.itl = LatencyDistribution{LatencyDistribution::Kind::constant, 200'000, 0};
  return options;
}

class MockServerTest : public ::testing::Test {
 protected:
  void start(MockServerOptions options = quick_options()) {
    m_server = std::make_unique<MockServer>(options);
    auto port = m_server->start();
    ASSERT_TRUE(port) << port.error();
    m_port = *port;
  }
  RawResponse exchange(const std::string& request) {
    TestConnection connection(m_port);
    EXPECT_TRUE(connection.connected());
    connection.send(request);
    return connection.read_response();
  }
  std::unique_ptr<MockServer> m_server;
  std::uint16_t m_port = 0;
};

TEST_F(MockServerTest, StartsOnAnEphemeralPortAndStopsCleanly) {
  start();
  EXPECT_NE(m_port, 0);
  EXPECT_EQ(m_server->port(), m_port);
  m_server->stop();
  m_server->stop();  // idempotent
  TestConnection refused(m_port);
  EXPECT_FALSE(refused.connected());
}

TEST_F(MockServerTest, StopClosesOpenConnections) {
  start();
  TestConnection connection(m_port);
  ASSERT_TRUE(connection.connected());
  connection.send(testing::http_post("/v1/completions", testing::completion_body(100000, true)));
  const RawResponse head = connection.read_response(50);  // the head and a few chunks
  EXPECT_EQ(head.status, 200);
  m_server->stop();
  EXPECT_TRUE(connection.closed_within(1000));
}

TEST_F(MockServerTest, BusyPortIsAOneLineError) {
  start();
  MockServerOptions options = quick_options();
  options.port = m_port;
  MockServer second(options);
  auto port = second.start();
  ASSERT_FALSE(port);
  EXPECT_EQ(port.error(),
            "cannot listen on 127.0.0.1:" + std::to_string(m_port) + ": Address already in use");
  MockServerOptions bad_host = quick_options();
  bad_host.host = "localhostx";
  EXPECT_EQ(MockServer(bad_host).start().error(),
            "cannot listen on localhostx:0: not an IP address");
}

TEST_F(MockServerTest, HealthAndModels) {
  MockServerOptions options = quick_options();
  options.model = "llama-3-8b";
  start(options);
  const RawResponse health = exchange(testing::http_get("/health"));
  EXPECT_EQ(health.status, 200);
  EXPECT_EQ(health.header("content-length"), "0");
  const RawResponse models = exchange(testing::http_get("/v1/models"));
  EXPECT_EQ(models.status, 200);
  EXPECT_EQ(json::parse(models.body)["data"][0]["id"], "llama-3-8b");
}

TEST_F(MockServerTest, StreamedCompletionIsChunkedSseWithUsageAndDone) {
  start();
  const RawResponse response =
      exchange(testing::http_post("/v1/completions", testing::completion_body(5, true)));
  EXPECT_EQ(response.status, 200);
  EXPECT_EQ(response.header("content-type"), "text/event-stream");
  EXPECT_TRUE(response.chunked);
  EXPECT_TRUE(response.chunk_framing_ok);
  EXPECT_TRUE(response.body_complete);
  ASSERT_EQ(response.events.size(), 7u);  // 5 tokens, usage, [DONE]
  for (int i = 0; i < 5; ++i) {
    const json chunk = json::parse(response.events[i].data);
    EXPECT_EQ(chunk["choices"][0]["text"], " tok");
    EXPECT_EQ(chunk["choices"][0]["finish_reason"].is_null(), i < 4);
  }
  const json usage = json::parse(response.events[5].data);
  EXPECT_TRUE(usage["choices"].empty());
  EXPECT_EQ(usage["usage"]["prompt_tokens"], 5);  // "one two three four five"
  EXPECT_EQ(usage["usage"]["completion_tokens"], 5);
  EXPECT_EQ(usage["usage"]["total_tokens"], 10);
  EXPECT_EQ(response.events[6].data, "[DONE]");
  // Every byte of the body is one of the events.
  EXPECT_TRUE(response.body.ends_with("data: [DONE]\n\n"));
}

TEST_F(MockServerTest, StreamWithoutIncludeUsageHasNoUsageChunk) {
  start();
  const RawResponse response =
      exchange(testing::http_post("/v1/completions", testing::completion_body(3, true, false)));
  ASSERT_EQ(response.events.size(), 4u);
  EXPECT_FALSE(json::parse(response.events[2].data).contains("usage"));
  EXPECT_EQ(response.events[3].data, "[DONE]");
}

TEST_F(MockServerTest, StreamedChatStartsWithTheRoleChunk) {
  start();
  const RawResponse response =
      exchange(testing::http_post("/v1/chat/completions", testing::chat_body(2, true)));
  EXPECT_EQ(response.status, 200);
  ASSERT_EQ(response.events.size(), 5u);  // role, 2 tokens, usage, [DONE]
  EXPECT_EQ(json::parse(response.events[0].data)["choices"][0]["delta"]["role"], "assistant");
  EXPECT_EQ(json::parse(response.events[1].data)["choices"][0]["delta"]["content"], " tok");
  EXPECT_EQ(json::parse(response.events[3].data)["usage"]["prompt_tokens"], 3);
}

TEST_F(MockServerTest, NonStreamingAnswersOneJsonBodyWithUsage) {
  start();
  const RawResponse response =
      exchange(testing::http_post("/v1/completions", testing::completion_body(4, false)));
  EXPECT_EQ(response.status, 200);
  EXPECT_FALSE(response.chunked);
  EXPECT_EQ(response.header("content-length"), std::to_string(response.body.size()));
  const json body = json::parse(response.body);
  EXPECT_EQ(body["choices"][0]["text"], " tok tok tok tok");
  EXPECT_EQ(body["usage"]["completion_tokens"], 4);
  EXPECT_EQ(body["usage"]["prompt_tokens"], 5);

  const RawResponse chat =
      exchange(testing::http_post("/v1/chat/completions", testing::chat_body(3, false)));
  EXPECT_EQ(json::parse(chat.body)["choices"][0]["message"]["content"], " tok tok tok");
}

TEST_F(MockServerTest, FixedOutputLengthOverridesMaxTokensAndChunksCarrySeveralTokens) {
  MockServerOptions options = quick_options();
  options.output_tokens = 7;
  options.tokens_per_chunk = 3;
  start(options);
  const RawResponse response =
      exchange(testing::http_post("/v1/completions", testing::completion_body(100, true)));
  ASSERT_EQ(response.events.size(), 5u);  // 3 + 3 + 1 tokens, usage, [DONE]
  EXPECT_EQ(json::parse(response.events[1].data)["choices"][0]["text"], " tok tok tok");
  EXPECT_EQ(json::parse(response.events[2].data)["choices"][0]["text"], " tok");
  EXPECT_EQ(json::parse(response.events[3].data)["usage"]["completion_tokens"], 7);
}

TEST_F(MockServerTest, MissingMaxTokensUsesTheDefault) {
  MockServerOptions options = quick_options();
  options.default_max_tokens = 2;
  start(options);
  const RawResponse response = exchange(testing::http_post(
      "/v1/completions",
      R"({"prompt":"hi","stream":true,"stream_options":{"include_usage":true}})"));
  ASSERT_EQ(response.events.size(), 4u);
  EXPECT_EQ(json::parse(response.events[2].data)["usage"]["completion_tokens"], 2);
}

TEST_F(MockServerTest, GenericPostAnswersTheFixedJson) {
  MockServerOptions options = quick_options();
  options.generic_response = R"({"outputs":[1,2,3]})";
  start(options);
  const RawResponse response =
      exchange(testing::http_post("/v2/models/m/infer", R"({"inputs":[]})"));
  EXPECT_EQ(response.status, 200);
  EXPECT_EQ(response.body, R"({"outputs":[1,2,3]})");
  EXPECT_EQ(m_server->stats().generation_requests, 1u);
  EXPECT_EQ(m_server->stats().completed, 1u);
}

TEST_F(MockServerTest, BadRequestsGetTheirStatus) {
  start();
  const RawResponse bad_json = exchange(testing::http_post("/v1/completions", "{nope"));
  EXPECT_EQ(bad_json.status, 400);
  EXPECT_EQ(json::parse(bad_json.body)["error"]["message"], "body is not valid JSON");
  const RawResponse not_found = exchange(testing::http_get("/v2/health"));
  EXPECT_EQ(not_found.status, 404);
  const RawResponse wrong_method = exchange(testing::http_get("/v1/completions"));
  EXPECT_EQ(wrong_method.status, 405);
  EXPECT_EQ(wrong_method.header("allow"), "POST");
  const RawResponse garbage = exchange("NONSENSE\r\n\r\n");
  EXPECT_EQ(garbage.status, 400);
  EXPECT_EQ(garbage.header("connection"), "close");
  EXPECT_EQ(m_server->stats().bad_requests, 4u);
  EXPECT_EQ(m_server->stats().generation_requests, 0u);
}

TEST_F(MockServerTest, KeepAliveServesSeveralRequestsOnOneConnection) {
  start();
  TestConnection connection(m_port);
  for (int i = 0; i < 3; ++i) {
    connection.send(testing::http_post("/v1/completions", testing::completion_body(2, i % 2 == 0)));
    const RawResponse response = connection.read_response();
    EXPECT_EQ(response.status, 200);
    EXPECT_TRUE(response.body_complete);
    EXPECT_EQ(response.header("connection"), "keep-alive");
  }
  EXPECT_EQ(m_server->stats().connections, 1u);
  EXPECT_EQ(m_server->stats().completed, 3u);
}

TEST_F(MockServerTest, PipelinedRequestsAreAnsweredInOrder) {
  start();
  TestConnection connection(m_port);
  connection.send(testing::http_post("/v1/completions", testing::completion_body(3, true)) +
                  testing::http_post("/v1/completions", testing::completion_body(1, false)));
  const RawResponse first = connection.read_response();
  const RawResponse second = connection.read_response();
  EXPECT_EQ(first.events.size(), 5u);
  EXPECT_EQ(json::parse(second.body)["usage"]["completion_tokens"], 1);
}

TEST_F(MockServerTest, ConnectionCloseIsHonoured) {
  start();
  TestConnection connection(m_port);
  connection.send(testing::http_post("/v1/completions", testing::completion_body(2, true), false));
  const RawResponse response = connection.read_response();
  EXPECT_TRUE(response.body_complete);
  EXPECT_EQ(response.header("connection"), "close");
  EXPECT_TRUE(connection.closed_within(1000));
}

TEST_F(MockServerTest, HalfClosedClientStillGetsItsResponse) {
  start();
  TestConnection connection(m_port);
  connection.send(testing::http_post("/v1/completions", testing::completion_body(3, true)));
  connection.shutdown_write();
  const RawResponse response = connection.read_response();
  EXPECT_TRUE(response.body_complete);
  EXPECT_EQ(response.events.size(), 5u);
  EXPECT_TRUE(connection.closed_within(1000));
}

TEST_F(MockServerTest, ManyConcurrentStreamsOnSeveralThreads) {
  MockServerOptions options = quick_options();
  options.threads = 3;
  start(options);
  std::vector<std::unique_ptr<TestConnection>> connections;
  for (int i = 0; i < 50; ++i) {
    connections.push_back(std::make_unique<TestConnection>(m_port));
    connections.back()->send(
        testing::http_post("/v1/completions", testing::completion_body(20, true)));
  }
  for (auto& connection : connections) {
    const RawResponse response = connection->read_response();
    EXPECT_EQ(response.events.size(), 22u);
  }
  const MockServerStats stats = m_server->stats();
  EXPECT_EQ(stats.completed, 50u);
  EXPECT_EQ(stats.active, 0);
  EXPECT_GT(stats.max_active, 1);
}

}  // namespace
}  // namespace gpuport
