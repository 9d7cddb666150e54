// Injected faults as a client sees them on the wire: HTTP 500 and 429, a connection closed
// mid-response, malformed SSE and JSON, a request never answered; counted in the stats.
#include "bench/mock_server.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "mock_test_client.h"

namespace gpuport {
namespace {

using nlohmann::json;
using testing::RawResponse;
using testing::TestConnection;

MockServerOptions with_fault(const std::string& fault) {
  MockServerOptions options;
  options.ttft = LatencyDistribution{LatencyDistribution::Kind::constant, 1'000'000, 0};
  options.itl = LatencyDistribution{LatencyDistribution::Kind::constant, 500'000, 0};
  options.faults.push_back(parse_fault_rule(fault).value());
  return options;
}

std::size_t fault_count(const MockServer& server, FaultKind kind) {
  return server.stats().faults[static_cast<int>(kind)];
}

TEST(MockFaultsOnTheWire, Http500OnEveryThirdRequestKeepsTheConnection) {
  MockServer server(with_fault("500:every=3"));
  TestConnection connection(server.start().value());
  std::vector<int> statuses;
  for (int i = 0; i < 6; ++i) {
    connection.send(testing::http_post("/v1/completions", testing::completion_body(2, false)));
    const RawResponse response = connection.read_response();
    statuses.push_back(response.status);
    if (response.status == 500) {
      EXPECT_EQ(json::parse(response.body)["error"]["code"], 500);
    }
  }
  EXPECT_EQ(statuses, (std::vector<int>{200, 200, 500, 200, 200, 500}));
  EXPECT_EQ(fault_count(server, FaultKind::http_500), 2u);
  EXPECT_EQ(server.stats().completed, 4u);
}

TEST(MockFaultsOnTheWire, Http429CarriesRetryAfter) {
  MockServer server(with_fault("429:every=1"));
  TestConnection connection(server.start().value());
  connection.send(testing::http_post("/v1/chat/completions", testing::chat_body(4, true)));
  const RawResponse response = connection.read_response();
  EXPECT_EQ(response.status, 429);
  EXPECT_EQ(response.header("retry-after"), "1");
  EXPECT_EQ(json::parse(response.body)["error"]["type"], "RateLimitError");
}

TEST(MockFaultsOnTheWire, CloseMidStreamAfterHalfTheChunks) {
  MockServer server(with_fault("close:every=1"));
  TestConnection connection(server.start().value());
  connection.send(testing::http_post("/v1/completions", testing::completion_body(10, true)));
  const RawResponse response = connection.read_response();
  EXPECT_EQ(response.status, 200);
  EXPECT_TRUE(response.peer_closed);
  EXPECT_FALSE(response.body_complete);  // no last chunk
  ASSERT_EQ(response.events.size(), 5u);
  for (const auto& event : response.events) {
    EXPECT_NE(event.data, "[DONE]");
  }
  EXPECT_EQ(server.stats().completed, 0u);
  EXPECT_EQ(server.stats().active, 0);
}

TEST(MockFaultsOnTheWire, CloseMidBodyWhenNotStreaming) {
  MockServer server(with_fault("close:p=1"));
  TestConnection connection(server.start().value());
  connection.send(testing::http_post("/v1/completions", testing::completion_body(10, false)));
  const RawResponse response = connection.read_response();
  EXPECT_EQ(response.status, 200);
  EXPECT_TRUE(response.peer_closed);
  EXPECT_FALSE(response.body_complete);
}

TEST(MockFaultsOnTheWire, MalformedSseEventInTheMiddle) {
  MockServer server(with_fault("malformed:every=1"));
  TestConnection connection(server.start().value());
  connection.send(testing::http_post("/v1/completions", testing::completion_body(9, true)));
  const RawResponse response = connection.read_response();
  EXPECT_TRUE(response.body_complete);
  EXPECT_TRUE(response.chunk_framing_ok);
  ASSERT_EQ(response.events.size(), 11u);
  std::vector<std::size_t> bad;
  for (std::size_t i = 0; i + 1 < response.events.size(); ++i) {
    if (json::parse(response.events[i].data, nullptr, false).is_discarded()) {
      bad.push_back(i);
    }
  }
  EXPECT_EQ(bad, std::vector<std::size_t>{4});  // the 5th of 9 chunks
  EXPECT_EQ(response.events.back().data, "[DONE]");
}

TEST(MockFaultsOnTheWire, MalformedJsonBodyWhenNotStreaming) {
  MockServer server(with_fault("malformed:every=1"));
  TestConnection connection(server.start().value());
  connection.send(testing::http_post("/v1/completions", testing::completion_body(4, false)));
  const RawResponse response = connection.read_response();
  EXPECT_EQ(response.status, 200);
  EXPECT_TRUE(response.body_complete);
  EXPECT_TRUE(json::parse(response.body, nullptr, false).is_discarded());
}

TEST(MockFaultsOnTheWire, NeverAnswerKeepsSilentUntilStopped) {
  MockServer server(with_fault("hang:every=2"));
  const std::uint16_t port = server.start().value();
  TestConnection first(port);
  first.send(testing::http_post("/v1/completions", testing::completion_body(1, false)));
  EXPECT_EQ(first.read_response().status, 200);
  TestConnection second(port);
  second.send(testing::http_post("/v1/completions", testing::completion_body(1, false)));
  EXPECT_TRUE(second.silent_for(300));
  EXPECT_EQ(fault_count(server, FaultKind::never_answer), 1u);
  server.stop();
  EXPECT_TRUE(second.closed_within(1000));
}

TEST(MockFaultsOnTheWire, ClientLeavingMidStreamFreesItsBatchSlot) {
  MockServerOptions options = with_fault("500:p=0");
  options.capacity.max_batch = 1;
  MockServer server(options);
  const std::uint16_t port = server.start().value();
  {
    TestConnection leaver(port);
    leaver.send(testing::http_post("/v1/completions", testing::completion_body(100000, true)));
    EXPECT_EQ(leaver.read_response(30).status, 200);
  }  // closed mid-stream
  TestConnection next(port);
  next.send(testing::http_post("/v1/completions", testing::completion_body(2, false)));
  const RawResponse response = next.read_response(2000);
  EXPECT_EQ(response.status, 200);
  EXPECT_TRUE(response.body_complete);
  EXPECT_EQ(server.stats().active, 0);
}

TEST(MockFaultsOnTheWire, HealthAndModelsAreNeverFaulted) {
  MockServer server(with_fault("500:every=1"));
  TestConnection connection(server.start().value());
  connection.send(testing::http_get("/health"));
  EXPECT_EQ(connection.read_response().status, 200);
  connection.send(testing::http_get("/v1/models"));
  EXPECT_EQ(connection.read_response().status, 200);
  EXPECT_EQ(server.stats().generation_requests, 0u);
}

}  // namespace
}  // namespace gpuport
