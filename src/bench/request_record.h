// What the client measured for one request. Times are nanoseconds on the steady clock, relative
// to the start of the run; -1 where the event did not happen.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace gpuport {

enum class RequestError {
  none,
  connect,      // DNS, TCP connect or TLS handshake failed
  timeout,      // no complete response within --timeout
  http_status,  // a status other than 2xx
  protocol,     // malformed HTTP, SSE or JSON; closed mid-response; no content at all
  cancelled,    // the run was interrupted (Ctrl-C) before the response completed
};

std::string_view request_error_name(RequestError error);  // "connect", "timeout", ...

struct RequestRecord {
  std::uint64_t index = 0;
  bool warmup = false;           // sent during warm-up: excluded from results
  std::int64_t intended_ns = 0;  // the schedule's send time (closed loop: when a slot freed)
  std::int64_t sent_ns = 0;      // when the request's first byte was written
  std::int64_t first_byte_ns = -1;
  std::int64_t first_token_ns = -1;  // first chunk with content
  std::int64_t last_token_ns = -1;   // last chunk with content
  std::int64_t done_ns = -1;         // response complete (or the error happened)
  std::vector<std::int64_t> itl_ns;  // gaps between successive content chunks
  int http_status = 0;
  RequestError error = RequestError::none;
  std::string error_detail;  // one line, e.g. "HTTP 429", "connection reset by peer"
  std::int64_t prompt_tokens = 0;
  bool prompt_tokens_from_usage = false;
  std::int64_t output_tokens = 0;
  bool output_tokens_from_usage = false;
  std::uint32_t content_chunks = 0;
};

}  // namespace gpuport
