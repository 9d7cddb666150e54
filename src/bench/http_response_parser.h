// An incremental HTTP/1.1 response parser: status line, headers, then a body delimited by
// Content-Length, chunked transfer coding (with trailers) or the connection's close. Bytes arrive
// in any split; body bytes go to a callback as they are decoded, so a streaming (SSE) response is
// seen chunk by chunk. No allocation per body byte.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gpuport {

struct HttpResponseHead {
  int status = 0;
  std::string reason;
  int minor_version = 1;  // HTTP/1.minor
  // Names as received. A parser keeps them across reset() until the next head replaces them,
  // so their storage is reused from one response to the next on a connection.
  std::vector<std::pair<std::string, std::string>> headers;
  std::optional<std::uint64_t> content_length;
  bool chunked = false;
  bool keep_alive = true;  // HTTP/1.1 default; `Connection: close` or HTTP/1.0 without keep-alive
  // Case-insensitive lookup; nullptr when absent.
  const std::string* header(std::string_view name) const;
};

class HttpResponseParser {
 public:
  using BodySink = std::function<void(std::string_view)>;

  // Limits that turn a hostile or broken peer into an error instead of unbounded memory.
  static constexpr std::size_t k_max_head_bytes = 64 * 1024;

  // Consumes bytes of `data` and returns how many were used: fewer than data.size() only when the
  // response completed (done()) inside `data`; the rest belongs to the next response. Once
  // failed(), returns 0 and does nothing.
  std::size_t feed(std::string_view data, const BodySink& on_body);
  // The peer closed the connection: completes a close-delimited body; otherwise, if a response
  // was in progress, fails with "connection closed before the end of the response", and if no
  // byte of a response had arrived, with "connection closed before any response".
  void on_eof();

  bool head_complete() const { return state_ > State::head; }
  bool done() const { return state_ == State::done; }
  bool failed() const { return state_ == State::failed; }
  // A one-line reason, e.g. "bad status line", "chunk size is not hexadecimal".
  const std::string& error() const { return error_; }
  const HttpResponseHead& head() const { return head_; }
  std::uint64_t body_bytes() const { return body_bytes_; }
  // Ready for the next response on a keep-alive connection.
  void reset();

 private:
  bool parse_head();  // line_ holds the whole head; false when it failed
  void reset_head();

  enum class State {
    head,
    body_length,
    body_chunk_size,
    body_chunk_data,
    body_chunk_crlf,
    trailers,
    body_until_close,
    done,
    failed
  };
  State state_ = State::head;
  HttpResponseHead head_;
  std::string line_;  // the partial head or chunk-size line
  std::uint64_t remaining_ = 0;
  std::uint64_t body_bytes_ = 0;
  std::string error_;
};

}  // namespace gpuport
