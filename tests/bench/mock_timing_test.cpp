// The mock server's timing as a client on loopback measures it: TTFT and ITL against the
// configured distributions, the capacity model, the batch-slot queue and the stall window.
//
// Tolerance: a timer never fires early, so a measured latency is at least the configured one
// (less 0.5 ms for the client's own clock reads); it may be late by scheduling on a loaded
// machine (2 shared cores), allowed up to 25 ms per value and 15 ms for a median (medians of
// 1-11 ms were seen at a load average of 9). The strict lower bounds are what tell one
// distribution from another. Gaps are checked through spans whose ends are absolute deadlines,
// so lateness does not add up.
#include "bench/mock_server.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <thread>

#include "bench/mock_latency.h"
#include "mock_test_client.h"

namespace gpuport {
namespace {

using testing::RawResponse;
using testing::TestConnection;

constexpr double k_early_ms = 0.5;
constexpr double k_late_ms = 25.0;
constexpr double k_late_median_ms = 15.0;

LatencyDistribution constant_ms(double ms) {
  return {LatencyDistribution::Kind::constant, static_cast<std::int64_t>(ms * 1e6), 0};
}

std::vector<double> content_times(const RawResponse& response) {
  std::vector<double> times;
  for (const auto& event : response.events) {
    const auto chunk = nlohmann::json::parse(event.data, nullptr, false);
    if (chunk.is_object() && chunk.contains("choices") && !chunk["choices"].empty()) {
      times.push_back(event.at_ms);
    }
  }
  return times;
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

std::vector<double> gaps(const std::vector<double>& times) {
  std::vector<double> result;
  for (std::size_t i = 1; i < times.size(); ++i) {
    result.push_back(times[i] - times[i - 1]);
  }
  return result;
}

// Sends one request on each of `count` connections at once and reads every response.
std::vector<RawResponse> concurrent(const MockServer& server, int count,
                                    const std::string& request) {
  std::vector<std::unique_ptr<TestConnection>> connections;
  for (int i = 0; i < count; ++i) {
    connections.push_back(std::make_unique<TestConnection>(server.port()));
  }
  // Accepted first, so the sends below reach a server that reads them at once.
  const auto deadline = testing::Clock::now() + std::chrono::seconds(2);
  while (server.stats().connections < static_cast<std::uint64_t>(count) &&
         testing::Clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  for (auto& connection : connections) {
    connection->send(request);
  }
  // One reader per connection, so each event is stamped when it arrives.
  std::vector<RawResponse> responses(connections.size());
  std::vector<std::thread> readers;
  for (std::size_t i = 0; i < connections.size(); ++i) {
    readers.emplace_back([&, i] { responses[i] = connections[i]->read_response(); });
  }
  for (std::thread& reader : readers) {
    reader.join();
  }
  return responses;
}

TEST(MockTiming, ConstantTtftAndItl) {
  MockServerOptions options;
  options.ttft = constant_ms(40);
  options.itl = constant_ms(10);
  MockServer server(options);
  const std::uint16_t port = server.start().value();
  TestConnection connection(port);
  connection.send(testing::http_post("/v1/completions", testing::completion_body(10, true)));
  const RawResponse response = connection.read_response();
  const std::vector<double> times = content_times(response);
  ASSERT_EQ(times.size(), 10u);
  EXPECT_GE(times.front(), 40 - k_early_ms);
  EXPECT_LE(times.front(), 40 + k_late_ms);
  EXPECT_GE(response.head_ms, 0);
  EXPECT_LT(response.head_ms, 20);  // the head goes out at once, before the first token
  // The last token is due exactly 9 ITLs after the first one's deadline.
  EXPECT_GE(times.back() - times.front(), 90 - k_late_ms);
  EXPECT_LE(times.back() - times.front(), 90 + k_late_ms);
  EXPECT_NEAR(median(gaps(times)), 10, k_late_median_ms);
}

// With one event loop and a fixed seed the TTFT draws are MockRandom(seed)'s first samples,
// in whatever order the connections were admitted: sorted, they must match the measured ones.
void expect_ttfts_follow(const LatencyDistribution& ttft, int count) {
  MockServerOptions options;
  options.ttft = ttft;
  options.itl = constant_ms(1);
  options.seed = 42;
  MockServer server(options);
  ASSERT_TRUE(server.start());
  const auto responses = concurrent(
      server, count, testing::http_post("/v1/completions", testing::completion_body(1, true)));
  std::vector<double> measured;
  for (const RawResponse& response : responses) {
    const auto times = content_times(response);
    ASSERT_EQ(times.size(), 1u);
    measured.push_back(times.front());
  }
  MockRandom random(42);
  std::vector<double> expected;
  for (int i = 0; i < count; ++i) {
    expected.push_back(static_cast<double>(sample_latency_ns(ttft, random)) / 1e6);
  }
  std::sort(measured.begin(), measured.end());
  std::sort(expected.begin(), expected.end());
  std::vector<double> lateness;
  for (int i = 0; i < count; ++i) {
    EXPECT_GE(measured[i], expected[i] - k_early_ms) << "rank " << i;
    // The requests reach the server over a few ms; allow that on top of scheduling.
    EXPECT_LE(measured[i], expected[i] + k_late_ms + 5) << "rank " << i;
    lateness.push_back(measured[i] - expected[i]);
  }
  EXPECT_LE(median(lateness), k_late_median_ms);
  // And the draws themselves spread as configured (loosely: 30 samples).
  double mean = 0;
  for (double value : expected) {
    mean += value;
  }
  mean /= count;
  EXPECT_NEAR(mean, static_cast<double>(ttft.mean_ns) / 1e6,
              3.5 * static_cast<double>(ttft.stddev_ns) / 1e6 / std::sqrt(count));
}

TEST(MockTiming, NormalTtftPerRequestMatchesTheSeededDraws) {
  expect_ttfts_follow({LatencyDistribution::Kind::normal, 80'000'000, 20'000'000}, 30);
}

TEST(MockTiming, LognormalTtftPerRequestMatchesTheSeededDraws) {
  expect_ttfts_follow({LatencyDistribution::Kind::lognormal, 60'000'000, 30'000'000}, 30);
}

TEST(MockTiming, CapacityKneeStretchesItlWithActiveRequests) {
  // knee 2, 4 streams generating: factor 1 + (4 - 2) / 2 = 2, so 10 ms gaps become 20 ms.
  for (const std::int64_t knee : {0, 2}) {
    MockServerOptions options;
    options.ttft = constant_ms(5);
    options.itl = constant_ms(10);
    options.capacity.knee = knee;
    MockServer server(options);
    ASSERT_TRUE(server.start());
    const auto responses = concurrent(
        server, 4, testing::http_post("/v1/completions", testing::completion_body(16, true)));
    for (const RawResponse& response : responses) {
      auto times = content_times(response);
      ASSERT_EQ(times.size(), 16u);
      // The middle of the stream, when all four are generating: 8 gaps between deadlines, so
      // the lateness of the two ends is divided by 8.
      const double expected = knee == 0 ? 10 : 20;
      EXPECT_NEAR((times[12] - times[4]) / 8, expected, k_late_ms / 8 + 0.5) << "knee " << knee;
    }
    EXPECT_EQ(server.stats().max_active, 4);
  }
}

TEST(MockTiming, BatchSlotsQueueTheRest) {
  MockServerOptions options;
  options.ttft = constant_ms(60);
  options.capacity.max_batch = 2;
  MockServer server(options);
  ASSERT_TRUE(server.start());
  const auto responses = concurrent(
      server, 4, testing::http_post("/v1/completions", testing::completion_body(1, false)));
  std::vector<double> done;
  for (const RawResponse& response : responses) {
    EXPECT_EQ(response.status, 200);
    done.push_back(response.done_ms);
  }
  std::sort(done.begin(), done.end());
  EXPECT_GE(done[0], 60 - k_early_ms);
  EXPECT_LE(done[1], 60 + k_late_ms + 5);
  EXPECT_GE(done[2], 120 - k_early_ms);  // waited for a slot, then its own TTFT
  EXPECT_LE(done[3], 120 + k_late_ms + 5);
  EXPECT_EQ(server.stats().max_active, 2);
}

TEST(MockTiming, StallHoldsEveryByteInTheWindow) {
  // Stall from 150 ms to 450 ms after the start; a stream of 20 ms gaps runs across it.
  MockServerOptions options;
  options.ttft = constant_ms(10);
  options.itl = constant_ms(20);
  options.stall = StallWindow{150'000'000, 300'000'000, 0};
  MockServer server(options);
  const std::uint16_t port = server.start().value();
  TestConnection streaming(port);
  streaming.send(testing::http_post("/v1/completions", testing::completion_body(30, true)));
  const double sent = testing::ms_between(server.started_at(), streaming.sent_at());
  // A second request arrives in the middle of the stall: even its head waits.
  double late_sent = 0;
  RawResponse late_response;
  std::thread late_client([&] {
    std::this_thread::sleep_until(server.started_at() + std::chrono::milliseconds(250));
    TestConnection late(port);
    late.send(testing::http_post("/v1/completions", testing::completion_body(1, true)));
    late_sent = testing::ms_between(server.started_at(), late.sent_at());
    late_response = late.read_response();
  });
  const RawResponse response = streaming.read_response();
  std::vector<double> times = content_times(response);
  ASSERT_EQ(times.size(), 30u);
  for (double& time : times) {
    time += sent;  // from the server's start
  }
  for (const double time : times) {
    EXPECT_TRUE(time < 150 + k_late_ms || time >= 450 - k_early_ms) << time;
  }
  const std::vector<double> gap = gaps(times);
  EXPECT_GE(*std::max_element(gap.begin(), gap.end()), 280);
  // After the stall the stream resumes at its own pace, from the end of the window.
  const auto first_after =
      std::find_if(times.begin(), times.end(), [](double t) { return t >= 440; });
  ASSERT_NE(first_after, times.end());
  ASSERT_LT(first_after + 3, times.end());
  EXPECT_NEAR(*(first_after + 3) - *first_after, 60, k_late_ms);

  late_client.join();
  EXPECT_EQ(late_response.status, 200);
  EXPECT_GE(late_sent + late_response.head_ms, 450 - k_early_ms);
  EXPECT_LE(late_sent + late_response.head_ms, 450 + k_late_ms);
}

}  // namespace
}  // namespace gpuport
