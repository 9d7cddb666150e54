// What the mock inference server is told to do: its latency distributions, output length,
// capacity model, stall windows and injected faults, and the text forms the command line and
// tests write them in ("normal:50ms,10ms", "http-500:every=10", "2s"). docs/bench-mock.md
// documents every option and formula.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <tl/expected.hpp>

namespace gpuport {

// A latency distribution in nanoseconds. Samples are never negative (normal is cut at 0).
struct LatencyDistribution {
  enum class Kind { constant, normal, lognormal };
  Kind kind = Kind::constant;
  std::int64_t mean_ns = 0;       // constant: the value; normal, lognormal: the mean
  std::int64_t stddev_ns = 0;     // normal, lognormal: the standard deviation of the samples
  std::string to_string() const;  // "constant:50ms", "normal:50ms,10ms"
};

// Latency grows with the requests in generation, as a batching server's does:
//   factor(active) = 1 + max(0, active - knee) / knee      (knee 0: always 1)
// multiplies the TTFT drawn when a request is admitted and every ITL drawn at each step, with
// `active` counted at that moment (including the request itself). With max_batch > 0, at most
// max_batch requests generate at once; the rest wait in FIFO order for a slot, and that wait is
// part of their TTFT.
struct CapacityModel {
  std::int64_t knee = 0;
  std::int64_t max_batch = 0;
};

// While a stall window is open no response byte is written, as in a GC pause or a CUDA-graph
// recapture: whatever falls due inside [at, at + duration) goes out at its end and the rest of
// the response follows from there. Times are from the server's start; every > 0 repeats the
// window at at + k * every.
struct StallWindow {
  std::int64_t at_ns = 0;
  std::int64_t duration_ns = 0;  // 0: no stall
  std::int64_t every_ns = 0;
};

enum class FaultKind {
  close_mid_stream,  // half the response, then the connection is closed
  malformed_sse,     // one data: event (the whole body when not streaming) is not valid JSON
  http_500,
  http_429,
  never_answer,  // the request is read and never answered; the connection stays open
};

std::string_view fault_kind_name(FaultKind kind);  // "close", "malformed", "500", ...

// A fault on every Nth generation request (the Nth, 2Nth, ...; counted from 1 over all
// connections) or on each with a probability.
struct FaultRule {
  FaultKind kind = FaultKind::http_500;
  std::uint64_t every = 0;        // > 0: every Nth request
  double probability = 0;         // used when every is 0
  std::string to_string() const;  // "500:every=10", "close:p=0.05"
};

struct MockServerOptions {
  std::string host = "127.0.0.1";
  std::uint16_t port = 0;  // 0: an ephemeral port (MockServer::port() says which)
  int threads = 1;         // event loops, each with its own connections
  std::string model = "mock-model";
  LatencyDistribution ttft;
  LatencyDistribution itl;
  // Output length: `output_tokens` when > 0, else the request's max_tokens (or
  // max_completion_tokens), else `default_max_tokens`.
  std::int64_t output_tokens = 0;
  std::int64_t default_max_tokens = 16;
  std::int64_t tokens_per_chunk = 1;  // tokens carried by each streamed content chunk
  CapacityModel capacity;
  StallWindow stall;
  std::vector<FaultRule> faults;  // the first rule that fires decides
  // The answer to a POST on any path other than the OpenAI ones, sent after a TTFT.
  std::string generic_response =
      R"({"model_name":"mock-model","outputs":[{"name":"OUTPUT0","shape":[1],"datatype":"FP32","data":[0.5]}]})";
  std::uint64_t seed = 0;
  // The server's own plan, written into each response, so that tests check the timing logic
  // exactly instead of measuring wall-clock time: before each streamed content event an SSE
  // comment `: schedule admitted=NS due=NS active=N` (nanoseconds from the start; `due` after
  // any stall; `active` the generating requests that scaled this delay), and on a whole response
  // the header `X-Mock-Schedule: admitted=NS due=NS`. Clients ignore both.
  bool stamp_schedule = false;
};

// "250us", "50ms", "2s", "1.5s"; a bare number is milliseconds. Negative values are refused.
tl::expected<std::int64_t, std::string> parse_mock_duration_ns(std::string_view text);
std::string format_mock_duration(std::int64_t ns);  // "50ms", "1.5s", "250us"

// "50ms" or "constant:50ms"; "normal:MEAN,STDDEV"; "lognormal:MEAN,STDDEV".
tl::expected<LatencyDistribution, std::string> parse_latency_distribution(std::string_view text);

// "KIND:every=N" or "KIND:p=P" with KIND one of close, malformed, 500, 429, hang (long names:
// close-mid-stream, malformed-sse, http-500, http-429, never-answer).
tl::expected<FaultRule, std::string> parse_fault_rule(std::string_view text);

}  // namespace gpuport
