// A mock OpenAI-compatible inference server for testing and calibrating `gpuport bench`:
// /v1/completions and /v1/chat/completions (SSE with the include_usage chunk and [DONE], or one
// JSON body), /v1/models, /health, and a fixed JSON answer to a POST on any other path. Latency
// follows MockServerOptions (TTFT/ITL distributions, capacity model, stalls, faults).
//
// Event-driven (asio): `threads` event loops, each owning the connections it was handed; no
// thread per connection. Tests start it in-process on 127.0.0.1:0 and read the port back:
//
//   MockServer server(options);
//   auto port = server.start();   // tl::expected<std::uint16_t, std::string>
//   ... talk to 127.0.0.1:*port ...
//   server.stop();                // also done by the destructor
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

#include <tl/expected.hpp>

#include "bench/mock_options.h"

namespace gpuport {

struct MockServerStats {
  std::uint64_t connections = 0;          // accepted
  std::uint64_t requests = 0;             // every parsed request, any path
  std::uint64_t generation_requests = 0;  // POSTs to the OpenAI or generic paths (fault numbering)
  std::uint64_t completed = 0;            // generation responses written in full without a fault
  std::uint64_t faults[5] = {};           // by FaultKind
  std::int64_t active = 0;                // requests generating now
  std::int64_t max_active = 0;            // the most that generated at once
  std::uint64_t bad_requests = 0;         // answered 4xx/5xx for a bad request
};

class MockServer {
 public:
  explicit MockServer(MockServerOptions options);
  ~MockServer();
  MockServer(const MockServer&) = delete;
  MockServer& operator=(const MockServer&) = delete;

  // Binds, listens and starts the event loops; returns the port. Errors are one line:
  // "cannot listen on 127.0.0.1:8000: Address already in use".
  tl::expected<std::uint16_t, std::string> start();
  // Closes the listener and every connection, and joins the threads. Idempotent.
  void stop();

  std::uint16_t port() const;
  // The instant stall windows count from (set by start()).
  std::chrono::steady_clock::time_point started_at() const;
  MockServerStats stats() const;
  const MockServerOptions& options() const;

 private:
  class Impl;
  std::unique_ptr<Impl> m_impl;
};

}  // namespace gpuport
