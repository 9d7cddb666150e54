// The network side of a bench run: one single-threaded event loop, a keep-alive pool of HTTP/1.1
// connections to one server (http, or https with certificate verification), one-shot timers and
// Ctrl-C. asio lives only in http_client.cpp; callers see this interface, so the load runner and
// its tests compile without it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <tl/expected.hpp>

#include "bench/http_response_parser.h"
#include "bench/request_record.h"
#include "bench/url.h"

namespace gpuport {

struct HttpClientOptions {
  Url url;
  // Extra request headers, sent as given. Values may be secrets: never logged or reported.
  std::vector<std::pair<std::string, std::string>> headers;
  std::string ca_file;  // PEM file trusted in addition to the system's CAs (https only)
  std::int64_t connect_timeout_ns = 10'000'000'000;
};

// One request's view of its exchange, called in this order from the event loop: on_sent once
// the connection is ready and the request is written, on_head when the response head is
// complete, on_body for each piece of decoded body, then on_done exactly once (also after a
// failure at any step). `t_ns` is the steady-clock time at which the bytes were read, in ns
// since the client was created.
class ExchangeObserver {
 public:
  virtual ~ExchangeObserver() = default;
  virtual void on_sent(std::int64_t t_ns) = 0;
  virtual void on_head(const HttpResponseHead& head, std::int64_t t_ns) = 0;
  virtual void on_body(std::string_view bytes, std::int64_t t_ns) = 0;
  // `error` is none, connect, timeout, protocol or cancelled; HTTP statuses are the caller's
  // to judge. `detail` is one line.
  virtual void on_done(RequestError error, std::string_view detail, std::int64_t t_ns) = 0;
};

class HttpClient {
 public:
  // Resolves the host once; a failed resolution is not an error here: every request then fails
  // as a connect error that says so. Errors: an unreadable --ca-file.
  static tl::expected<std::unique_ptr<HttpClient>, std::string> create(HttpClientOptions options);
  ~HttpClient();
  HttpClient(const HttpClient&) = delete;
  HttpClient& operator=(const HttpClient&) = delete;

  // Nanoseconds on the steady clock since create().
  std::int64_t now_ns() const;

  // POSTs `body` (JSON) to the URL's path on an idle pooled connection or a new one. A request
  // that gets no complete response within `timeout_ns` (counted from this call) ends as a
  // timeout. The observer must live until its on_done. Returns an id for cancel().
  std::uint64_t post(std::string_view body, std::int64_t timeout_ns, ExchangeObserver* observer);
  // Ends one exchange (or every exchange in flight) as cancelled; on_done is called before this
  // returns.
  void cancel(std::uint64_t exchange_id);
  void cancel_all();

  // Calls `callback` from the loop at `t_ns` (at once, but not inline, when that has passed).
  void call_at(std::int64_t t_ns, std::function<void()> callback);
  // SIGINT and SIGTERM call `callback` from the loop while run() runs; a second signal ends
  // the process at once (exit status 130).
  void on_interrupt(std::function<void()> callback);

  // Runs the loop until stop().
  void run();
  void stop();

  std::size_t open_connections() const;
  std::size_t exchanges_in_flight() const;

 private:
  struct Impl;
  explicit HttpClient(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// Raises the soft limit on open files to the hard limit (many connections need many sockets).
// Returns the new soft limit.
std::uint64_t raise_open_file_limit();

}  // namespace gpuport
