// The text forms of the mock server's options: durations, distributions and fault rules.
#include "bench/mock_options.h"

#include <gtest/gtest.h>

namespace gpuport {
namespace {

TEST(MockDuration, ParsesUnitsAndBareMilliseconds) {
  EXPECT_EQ(parse_mock_duration_ns("250us").value(), 250'000);
  EXPECT_EQ(parse_mock_duration_ns("50ms").value(), 50'000'000);
  EXPECT_EQ(parse_mock_duration_ns("2s").value(), 2'000'000'000);
  EXPECT_EQ(parse_mock_duration_ns("1.5s").value(), 1'500'000'000);
  EXPECT_EQ(parse_mock_duration_ns("20").value(), 20'000'000);
  EXPECT_EQ(parse_mock_duration_ns("0").value(), 0);
}

TEST(MockDuration, RefusesNegativeAndGarbage) {
  EXPECT_EQ(parse_mock_duration_ns("-5ms").error(), "duration '-5ms' is negative");
  EXPECT_EQ(parse_mock_duration_ns("ms").error(),
            "duration 'ms' has no number (e.g. 50ms, 2s, 250us)");
  EXPECT_EQ(parse_mock_duration_ns("5xs").error(),
            "duration '5xs': '5x' is not a number (e.g. 50ms, 2s, 250us)");
}

TEST(MockDuration, FormatsBackReadably) {
  EXPECT_EQ(format_mock_duration(50'000'000), "50ms");
  EXPECT_EQ(format_mock_duration(2'000'000'000), "2s");
  EXPECT_EQ(format_mock_duration(1'500'000'000), "1.5s");
  EXPECT_EQ(format_mock_duration(250'000), "250us");
  EXPECT_EQ(format_mock_duration(0), "0ms");
}

TEST(MockDistribution, ParsesEachKind) {
  auto constant = parse_latency_distribution("50ms").value();
  EXPECT_EQ(constant.kind, LatencyDistribution::Kind::constant);
  EXPECT_EQ(constant.mean_ns, 50'000'000);
  EXPECT_EQ(parse_latency_distribution("constant:2s").value().mean_ns, 2'000'000'000);

  auto normal = parse_latency_distribution("normal:50ms,10ms").value();
  EXPECT_EQ(normal.kind, LatencyDistribution::Kind::normal);
  EXPECT_EQ(normal.mean_ns, 50'000'000);
  EXPECT_EQ(normal.stddev_ns, 10'000'000);
  EXPECT_EQ(normal.to_string(), "normal:50ms,10ms");

  auto lognormal = parse_latency_distribution("lognormal:200ms,100ms").value();
  EXPECT_EQ(lognormal.kind, LatencyDistribution::Kind::lognormal);
  EXPECT_EQ(lognormal.to_string(), "lognormal:200ms,100ms");
}

TEST(MockDistribution, ErrorsSayWhatIsWrong) {
  EXPECT_EQ(parse_latency_distribution("gauss:5ms,1ms").error(),
            "distribution 'gauss:5ms,1ms': unknown kind 'gauss' (use constant, normal or "
            "lognormal)");
  EXPECT_EQ(parse_latency_distribution("normal:50ms").error(),
            "distribution 'normal:50ms': give the mean and the standard deviation, e.g. "
            "normal:50ms,10ms");
  EXPECT_EQ(parse_latency_distribution("constant:5ms,1ms").error(),
            "distribution 'constant:5ms,1ms': constant takes one value");
  EXPECT_EQ(parse_latency_distribution("lognormal:0,1ms").error(),
            "distribution 'lognormal:0,1ms': a lognormal mean must be > 0");
  EXPECT_EQ(parse_latency_distribution("normal:5ms,-1ms").error(),
            "distribution 'normal:5ms,-1ms': duration '-1ms' is negative");
}

TEST(MockFaultRule, ParsesShortAndLongNames) {
  auto every = parse_fault_rule("500:every=10").value();
  EXPECT_EQ(every.kind, FaultKind::http_500);
  EXPECT_EQ(every.every, 10u);
  auto probability = parse_fault_rule("close-mid-stream:p=0.25").value();
  EXPECT_EQ(probability.kind, FaultKind::close_mid_stream);
  EXPECT_DOUBLE_EQ(probability.probability, 0.25);
  EXPECT_EQ(parse_fault_rule("hang:every=3").value().kind, FaultKind::never_answer);
  EXPECT_EQ(parse_fault_rule("malformed-sse:p=1").value().kind, FaultKind::malformed_sse);
  EXPECT_EQ(parse_fault_rule("http-429:every=1").value().kind, FaultKind::http_429);
  EXPECT_EQ(parse_fault_rule("close:p=0.05").value().to_string(), "close:p=0.05");
  EXPECT_EQ(parse_fault_rule("http-500:every=7").value().to_string(), "500:every=7");
}

TEST(MockFaultRule, ErrorsSayWhatIsWrong) {
  EXPECT_EQ(parse_fault_rule("503:every=2").error(),
            "fault '503:every=2': unknown kind '503' (use close, malformed, 500, 429 or hang)");
  EXPECT_EQ(parse_fault_rule("500").error(),
            "fault '500': say when, e.g. 500:every=10 or 500:p=0.05");
  EXPECT_EQ(parse_fault_rule("500:every=0").error(),
            "fault '500:every=0': every= needs a whole number of requests >= 1");
  EXPECT_EQ(parse_fault_rule("500:p=1.5").error(),
            "fault '500:p=1.5': p= needs a probability from 0 to 1");
  EXPECT_EQ(parse_fault_rule("500:often").error(),
            "fault '500:often': expected every=N or p=P after ':', got 'often'");
}

}  // namespace
}  // namespace gpuport
