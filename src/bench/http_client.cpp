// The asio side of `gpuport bench`: connections, TLS, timers and signals on one io_context.
#include "bench/http_client.h"

#include <sys/resource.h>

#include <asio.hpp>
#include <asio/ssl.hpp>

#include <charconv>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <optional>
#include <unordered_map>

#include "version.h"

namespace gpuport {

namespace {

using tcp = asio::ip::tcp;
using Clock = std::chrono::steady_clock;

// Each connection reads into its own buffer: asio may read a socket before the handler of an
// earlier read has run, so one shared buffer would be overwritten. 8 KiB is wrk's size; ten
// thousand streams then hold 80 MB. TLS records are up to 16 KiB.
constexpr std::size_t k_plain_read_buffer_bytes = 8 * 1024;
constexpr std::size_t k_tls_read_buffer_bytes = 16 * 1024;

struct Exchange;

struct Connection {
  explicit Connection(asio::io_context& io) : connect_timer(io) {}
  std::optional<tcp::socket> plain;
  std::optional<asio::ssl::stream<tcp::socket>> tls;
  std::vector<char> read_buffer;
  asio::steady_timer connect_timer;
  HttpResponseParser parser;
  bool closed = false;

  tcp::socket& socket() { return tls ? tls->next_layer() : *plain; }
};

struct Exchange {
  std::uint64_t id = 0;
  std::string request;
  ExchangeObserver* observer = nullptr;
  // Place in the client's list of deadlines, oldest first.
  std::int64_t deadline_ns = 0;
  std::int64_t timeout_ns = 0;
  Exchange* earlier = nullptr;
  Exchange* later = nullptr;
  bool watched = false;
  std::shared_ptr<Connection> connection;
  bool reused = false;  // on a pooled keep-alive connection
  bool retried = false;
  bool finished = false;
  bool head_reported = false;
  bool response_started = false;
};

using ExchangePtr = std::shared_ptr<Exchange>;
using ConnectionPtr = std::shared_ptr<Connection>;

std::string seconds_text(std::int64_t ns) {
  const double seconds = static_cast<double>(ns) / 1e9;
  char text[32];
  std::snprintf(text, sizeof text, "%g s", seconds);
  return text;
}

bool is_ip_literal(const std::string& host) {
  asio::error_code ec;
  asio::ip::make_address(host, ec);
  return !ec;
}

}  // namespace

struct HttpClient::Impl {
  explicit Impl(HttpClientOptions opts)
      : options(std::move(opts)),
        ssl_context(asio::ssl::context::tls_client),
        start(Clock::now()) {}

  HttpClientOptions options;
  asio::ssl::context ssl_context;  // before io: the streams in io's handlers refer to it
  asio::io_context io{1};
  // One timer for every response deadline, armed at the earliest: an asio timer per request
  // cost a heap insert, a cancel and an aborted handler for each response.
  asio::steady_timer deadline_timer{io};
  std::int64_t deadline_armed_ns = -1;  // -1: not armed
  Exchange* first_deadline = nullptr;
  Exchange* last_deadline = nullptr;
  Clock::time_point start;
  tcp::resolver::results_type endpoints;
  std::string resolve_error;
  std::string request_prefix;
  std::vector<ConnectionPtr> idle;
  std::unordered_map<std::uint64_t, ExchangePtr> exchanges;
  std::uint64_t next_id = 0;
  std::size_t open = 0;
  std::optional<asio::signal_set> signals;
  std::function<void()> interrupt_callback;
  bool interrupted = false;

  std::int64_t now_ns() const {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - start).count();
  }
  Clock::time_point at(std::int64_t t_ns) const { return start + std::chrono::nanoseconds(t_ns); }

  void begin(const ExchangePtr& ex) {
    if (ex->finished) {
      return;
    }
    while (!idle.empty()) {
      ConnectionPtr connection = std::move(idle.back());
      idle.pop_back();
      if (connection->closed) {
        continue;
      }
      ex->reused = true;
      attach(ex, connection);
      write(ex);
      return;
    }
    open_connection(ex);
  }

  void attach(const ExchangePtr& ex, const ConnectionPtr& connection) {
    ex->connection = connection;
    connection->parser.reset();
    ex->head_reported = false;
    ex->response_started = false;
  }

  void open_connection(const ExchangePtr& ex) {
    if (!resolve_error.empty()) {
      fail(ex, RequestError::connect, resolve_error);
      return;
    }
    auto connection = std::make_shared<Connection>(io);
    if (options.url.tls) {
      connection->tls.emplace(io, ssl_context);
      connection->read_buffer.resize(k_tls_read_buffer_bytes);
    } else {
      connection->plain.emplace(io);
      connection->read_buffer.resize(k_plain_read_buffer_bytes);
    }
    ++open;
    ex->reused = false;
    attach(ex, connection);
    connection->connect_timer.expires_after(std::chrono::nanoseconds(options.connect_timeout_ns));
    connection->connect_timer.async_wait([this, ex, connection](asio::error_code ec) {
      if (!ec && !ex->finished && ex->connection == connection) {
        fail(ex, RequestError::connect,
             "connect to " + options.url.host_header() + " timed out after " +
                 seconds_text(options.connect_timeout_ns));
      }
    });
    asio::async_connect(connection->socket(), endpoints,
                        [this, ex, connection](asio::error_code ec, const tcp::endpoint&) {
                          connection->connect_timer.cancel();
                          if (ex->finished || connection->closed) {
                            return;
                          }
                          if (ec) {
                            fail(ex, RequestError::connect,
                                 "connect to " + options.url.host_header() + ": " + ec.message());
                            return;
                          }
                          asio::error_code ignored;
                          connection->socket().set_option(tcp::no_delay(true), ignored);
                          if (connection->tls) {
                            handshake(ex, connection);
                          } else {
                            connection->plain->non_blocking(true, ignored);
                            write(ex);
                          }
                        });
  }

  void handshake(const ExchangePtr& ex, const ConnectionPtr& connection) {
    auto& stream = *connection->tls;
    const std::string& host = options.url.host;
    if (!is_ip_literal(host)) {
      SSL_set_tlsext_host_name(stream.native_handle(), host.c_str());
    }
    stream.set_verify_mode(asio::ssl::verify_peer);
    stream.set_verify_callback(asio::ssl::host_name_verification(host));
    stream.async_handshake(
        asio::ssl::stream_base::client, [this, ex, connection](asio::error_code ec) {
          if (ex->finished || connection->closed) {
            return;
          }
          if (ec) {
            fail(ex, RequestError::connect,
                 "TLS handshake with " + options.url.host_header() + ": " + ec.message());
            return;
          }
          write(ex);
        });
  }

  void write(const ExchangePtr& ex) {
    ex->observer->on_sent(now_ns());
    if (ex->finished) {
      return;
    }
    auto handler = [this, ex, connection = ex->connection](asio::error_code ec, std::size_t) {
      if (ex->finished || connection->closed) {
        return;
      }
      if (ec) {
        on_read_error(ex, ec, "sending the request");
        return;
      }
      read(ex);
    };
    if (ex->connection->tls) {
      asio::async_write(*ex->connection->tls, asio::buffer(ex->request), handler);
    } else {
      asio::async_write(*ex->connection->plain, asio::buffer(ex->request), handler);
    }
  }

  void read(const ExchangePtr& ex) {
    ConnectionPtr connection = ex->connection;
    auto handler = [this, ex, connection](asio::error_code ec, std::size_t size) {
      const std::int64_t t = now_ns();
      if (ex->finished || connection->closed) {
        return;
      }
      if (ec) {
        on_read_error(ex, ec, "reading the response");
        return;
      }
      on_bytes(ex, std::string_view(connection->read_buffer.data(), size), t);
    };
    // async_read_some, not async_wait and a read: a wait costs an epoll_ctl per response.
    if (connection->tls) {
      connection->tls->async_read_some(asio::buffer(connection->read_buffer), std::move(handler));
    } else {
      connection->plain->async_read_some(asio::buffer(connection->read_buffer), std::move(handler));
    }
  }

  void report_head(const ExchangePtr& ex, std::int64_t t) {
    if (!ex->head_reported && ex->connection->parser.head_complete()) {
      ex->head_reported = true;
      ex->observer->on_head(ex->connection->parser.head(), t);
    }
  }

  void on_bytes(const ExchangePtr& ex, std::string_view data, std::int64_t t) {
    ConnectionPtr connection = ex->connection;
    HttpResponseParser& parser = connection->parser;
    ex->response_started = true;
    const std::size_t used = parser.feed(data, [&](std::string_view body) {
      if (ex->finished) {
        return;
      }
      report_head(ex, t);
      if (!ex->finished) {
        ex->observer->on_body(body, t);
      }
    });
    if (ex->finished) {
      return;
    }
    report_head(ex, t);
    if (ex->finished) {
      return;
    }
    if (parser.failed()) {
      fail(ex, RequestError::protocol, "bad HTTP response: " + parser.error(), t);
      return;
    }
    if (parser.done()) {
      const bool reusable = parser.head().keep_alive && used == data.size();
      complete(ex, reusable, t);
      return;
    }
    read(ex);
  }

  void on_read_error(const ExchangePtr& ex, const asio::error_code& ec, std::string_view doing) {
    const std::int64_t t = now_ns();
    const bool closed_by_peer = ec == asio::error::eof || ec == asio::ssl::error::stream_truncated;
    if (closed_by_peer && ex->response_started) {
      HttpResponseParser& parser = ex->connection->parser;
      parser.on_eof();
      if (parser.done()) {
        report_head(ex, t);
        if (!ex->finished) {
          complete(ex, false, t);
        }
        return;
      }
      fail(ex, RequestError::protocol,
           parser.failed() ? parser.error() : "connection closed before the end of the response",
           t);
      return;
    }
    // A pooled keep-alive connection the server has since closed: one more try on a new one,
    // as browsers and HTTP libraries do, because nothing of the response was seen.
    if (ex->reused && !ex->retried && !ex->response_started) {
      ex->retried = true;
      close(ex->connection);
      ex->connection.reset();
      open_connection(ex);
      return;
    }
    if (closed_by_peer) {
      fail(ex, RequestError::protocol, "connection closed before the response", t);
      return;
    }
    fail(ex, RequestError::protocol, std::string(doing) + ": " + ec.message(), t);
  }

  void close(const ConnectionPtr& connection) {
    if (!connection || connection->closed) {
      return;
    }
    connection->closed = true;
    connection->connect_timer.cancel();
    asio::error_code ignored;
    connection->socket().close(ignored);
    --open;
  }

  // Requests share a timeout, so a new deadline is nearly always the latest: the walk from the
  // end of the list stops at once.
  void watch_deadline(Exchange* ex) {
    Exchange* before = last_deadline;
    while (before != nullptr && before->deadline_ns > ex->deadline_ns) {
      before = before->earlier;
    }
    ex->earlier = before;
    ex->later = before != nullptr ? before->later : first_deadline;
    (ex->later != nullptr ? ex->later->earlier : last_deadline) = ex;
    (before != nullptr ? before->later : first_deadline) = ex;
    ex->watched = true;
    if (deadline_armed_ns < 0 || ex->deadline_ns < deadline_armed_ns) {
      arm_deadline_timer(ex->deadline_ns);
    }
  }

  void unwatch_deadline(Exchange* ex) {
    if (!ex->watched) {
      return;
    }
    (ex->earlier != nullptr ? ex->earlier->later : first_deadline) = ex->later;
    (ex->later != nullptr ? ex->later->earlier : last_deadline) = ex->earlier;
    ex->earlier = ex->later = nullptr;
    ex->watched = false;
  }

  // A timer that fires for a request that has finished meanwhile finds a later deadline at the
  // front and is armed again for it.
  void arm_deadline_timer(std::int64_t at_ns) {
    deadline_armed_ns = at_ns;
    deadline_timer.expires_at(at(at_ns));
    deadline_timer.async_wait([this](asio::error_code ec) {
      if (ec) {
        return;  // re-armed for an earlier deadline, or shut down
      }
      deadline_armed_ns = -1;
      const std::int64_t now = now_ns();
      while (first_deadline != nullptr && first_deadline->deadline_ns <= now) {
        const ExchangePtr ex = exchanges.at(first_deadline->id);
        fail(ex, RequestError::timeout,
             "no complete response within " + seconds_text(ex->timeout_ns));
      }
      if (first_deadline != nullptr) {
        arm_deadline_timer(first_deadline->deadline_ns);
      }
    });
  }

  void finish(const ExchangePtr& ex, RequestError error, std::string_view detail, std::int64_t t) {
    ex->finished = true;
    unwatch_deadline(ex.get());
    exchanges.erase(ex->id);
    ex->observer->on_done(error, detail, t);
  }

  void complete(const ExchangePtr& ex, bool reusable, std::int64_t t) {
    ConnectionPtr connection = std::move(ex->connection);
    if (reusable) {
      idle.push_back(connection);
    } else {
      close(connection);
    }
    finish(ex, RequestError::none, {}, t);
  }

  void fail(const ExchangePtr& ex, RequestError error, std::string_view detail,
            std::int64_t t = -1) {
    if (ex->finished) {
      return;
    }
    close(ex->connection);
    ex->connection.reset();
    finish(ex, error, detail, t < 0 ? now_ns() : t);
  }

  void arm_signals() {
    signals->async_wait([this](asio::error_code ec, int) {
      if (ec) {
        return;
      }
      if (interrupted) {
        std::_Exit(130);
      }
      interrupted = true;
      if (interrupt_callback) {
        interrupt_callback();
      }
      arm_signals();
    });
  }
};

HttpClient::HttpClient(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

HttpClient::~HttpClient() {
  for (auto& [id, ex] : impl_->exchanges) {
    ex->finished = true;
    impl_->close(ex->connection);
  }
  for (const ConnectionPtr& connection : impl_->idle) {
    impl_->close(connection);
  }
}

tl::expected<std::unique_ptr<HttpClient>, std::string> HttpClient::create(
    HttpClientOptions options) {
  auto impl = std::make_unique<Impl>(std::move(options));
  const Url& url = impl->options.url;
  if (url.tls) {
    asio::error_code ec;
    impl->ssl_context.set_default_verify_paths(ec);
    if (!impl->options.ca_file.empty()) {
      impl->ssl_context.load_verify_file(impl->options.ca_file, ec);
      if (ec) {
        return tl::unexpected("cannot read --ca-file '" + impl->options.ca_file +
                              "': " + ec.message());
      }
    }
    impl->ssl_context.set_verify_mode(asio::ssl::verify_peer);
  }
  asio::error_code ec;
  tcp::resolver resolver(impl->io);
  impl->endpoints = resolver.resolve(url.host, std::to_string(url.port), ec);
  if (ec) {
    impl->resolve_error = "cannot resolve host '" + url.host + "': " + ec.message();
  }
  std::string prefix = "POST " + url.path + " HTTP/1.1\r\nHost: " + url.host_header() +
                       "\r\nUser-Agent: gpuport-bench/" + k_version +
                       "\r\nContent-Type: application/json\r\nAccept: */*\r\n";
  for (const auto& [name, value] : impl->options.headers) {
    prefix += name + ": " + value + "\r\n";
  }
  impl->request_prefix = std::move(prefix);
  return std::unique_ptr<HttpClient>(new HttpClient(std::move(impl)));
}

std::int64_t HttpClient::now_ns() const {
  return impl_->now_ns();
}

std::uint64_t HttpClient::post(std::string_view body, std::int64_t timeout_ns,
                               ExchangeObserver* observer) {
  auto ex = std::make_shared<Exchange>();
  ex->id = ++impl_->next_id;
  ex->observer = observer;
  char length[24];
  const auto length_end = std::to_chars(length, length + sizeof length, body.size()).ptr;
  ex->request.reserve(impl_->request_prefix.size() + body.size() + 48);
  ex->request += impl_->request_prefix;
  ex->request += "Content-Length: ";
  ex->request.append(length, length_end);
  ex->request += "\r\n\r\n";
  ex->request += body;
  impl_->exchanges.emplace(ex->id, ex);
  Impl* impl = impl_.get();
  ex->timeout_ns = timeout_ns;
  // Capped (at about three years) so that the deadline cannot overflow the clock.
  ex->deadline_ns = impl->now_ns() + std::min<std::int64_t>(timeout_ns, 100'000'000'000'000'000);
  impl->watch_deadline(ex.get());
  asio::post(impl->io, [impl, ex] { impl->begin(ex); });
  return ex->id;
}

void HttpClient::cancel(std::uint64_t exchange_id) {
  const auto found = impl_->exchanges.find(exchange_id);
  if (found != impl_->exchanges.end()) {
    ExchangePtr ex = found->second;
    impl_->fail(ex, RequestError::cancelled, "cancelled: the run was interrupted");
  }
}

void HttpClient::cancel_all() {
  std::vector<std::uint64_t> ids;
  ids.reserve(impl_->exchanges.size());
  for (const auto& [id, ex] : impl_->exchanges) {
    ids.push_back(id);
  }
  for (std::uint64_t id : ids) {
    cancel(id);
  }
}

void HttpClient::call_at(std::int64_t t_ns, std::function<void()> callback) {
  auto timer = std::make_shared<asio::steady_timer>(impl_->io, impl_->at(t_ns));
  timer->async_wait([timer, callback = std::move(callback)](asio::error_code ec) {
    if (!ec) {
      callback();
    }
  });
}

void HttpClient::on_interrupt(std::function<void()> callback) {
  impl_->interrupt_callback = std::move(callback);
  if (!impl_->signals) {
    impl_->signals.emplace(impl_->io, SIGINT, SIGTERM);
    impl_->arm_signals();
  }
}

void HttpClient::run() {
  impl_->io.restart();
  auto guard = asio::make_work_guard(impl_->io);
  impl_->io.run();
}

void HttpClient::stop() {
  impl_->io.stop();
}

std::size_t HttpClient::open_connections() const {
  return impl_->open;
}

std::size_t HttpClient::exchanges_in_flight() const {
  return impl_->exchanges.size();
}

std::uint64_t raise_open_file_limit() {
  rlimit limit{};
  if (getrlimit(RLIMIT_NOFILE, &limit) != 0) {
    return 0;
  }
  if (limit.rlim_cur < limit.rlim_max) {
    rlimit raised = limit;
    raised.rlim_cur = limit.rlim_max;
    if (setrlimit(RLIMIT_NOFILE, &raised) == 0) {
      return raised.rlim_cur;
    }
  }
  return limit.rlim_cur;
}

}  // namespace gpuport
