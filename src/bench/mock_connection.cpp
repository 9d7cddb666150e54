// One connection of the mock server: reads requests (pipelined ones wait their turn), answers
// each, and for a generation request walks its timeline: head at once (streaming), a batch slot,
// the TTFT, one chunk per ITL, the usage chunk and [DONE]. All writes pass the stall windows.
#include <asio/post.hpp>
#include <asio/steady_timer.hpp>
#include <asio/write.hpp>

#include <algorithm>
#include <array>
#include <memory>
#include <optional>
#include <string>

#include "bench/mock_http_request.h"
#include "bench/mock_latency.h"
#include "bench/mock_responses.h"
#include "bench/mock_server_state.h"

namespace gpuport {

namespace {

using asio::ip::tcp;

constexpr std::size_t k_max_buffered_input = k_mock_max_head_bytes + k_mock_max_body_bytes;

class MockConnection : public std::enable_shared_from_this<MockConnection> {
 public:
  MockConnection(tcp::socket socket, MockLoop& loop, MockServerState& state)
      : m_socket(std::move(socket)),
        m_timer(loop.io),
        m_hold_timer(loop.io),
        m_loop(loop),
        m_state(state) {}

  void start() {
    asio::error_code ignored;
    m_socket.set_option(tcp::no_delay(true), ignored);
    read_more();
  }

 private:
  // The generation request being answered.
  struct Generation {
    std::optional<MockEndpoint> endpoint;  // nullopt: the generic POST
    bool stream = false;
    bool include_usage = false;
    std::optional<FaultKind> fault;
    std::int64_t prompt_tokens = 0;
    std::int64_t output_tokens = 0;
    std::int64_t tokens_sent = 0;
    std::int64_t chunks_total = 0;
    std::int64_t chunks_sent = 0;
    std::int64_t next_due_ns = 0;
    std::int64_t admitted_ns = 0;
    std::int64_t next_active = 0;  // the generating requests that scaled the next delay
    std::uint64_t number = 0;
    bool admitted = false;
    bool released = false;
  };

  const MockServerOptions& options() const { return m_state.options; }

  MockResponseIdentity identity() const {
    MockResponseIdentity id;
    id.endpoint = m_gen.endpoint.value_or(MockEndpoint::completions);
    id.number = m_gen.number;
    id.created = m_state.created;
    id.model_json = m_state.model_json;
    id.usage_field = m_gen.include_usage;
    return id;
  }

  // --- reading -------------------------------------------------------------------------------

  void read_more() {
    if (m_reading || m_closed || m_peer_eof || m_in.size() > k_max_buffered_input) {
      return;
    }
    m_reading = true;
    m_socket.async_read_some(
        asio::buffer(m_read_buffer),
        [self = shared_from_this()](asio::error_code ec, std::size_t n) { self->on_read(ec, n); });
  }

  void on_read(asio::error_code ec, std::size_t n) {
    m_reading = false;
    if (m_closed) {
      return;
    }
    if (ec) {
      // The client went away. A response in progress (not a hang) is finished first, in case
      // the client only shut down its sending side.
      if (ec == asio::error::eof && m_in_exchange && !m_hanging) {
        m_peer_eof = true;
        return;
      }
      close();
      return;
    }
    m_in.append(m_read_buffer.data(), n);
    serve_buffered();
    read_more();
  }

  void serve_buffered() {
    if (m_in_exchange || m_closed) {
      return;
    }
    MockRequestParse parsed = parse_mock_request(m_in);
    if (parsed.status == MockRequestParse::Status::incomplete) {
      return;
    }
    m_in_exchange = true;
    m_state.requests.fetch_add(1, std::memory_order_relaxed);
    if (parsed.status == MockRequestParse::Status::error) {
      m_state.bad_requests.fetch_add(1, std::memory_order_relaxed);
      m_in.clear();
      m_keep_alive = false;  // the framing of what follows is unknown
      answer(parsed.error_status, "application/json",
             error_body(parsed.error_status, parsed.error));
      return;
    }
    m_in.erase(0, parsed.consumed);
    handle(parsed.request);
  }

  // --- routing -------------------------------------------------------------------------------

  void handle(const MockHttpRequest& request) {
    m_keep_alive = request.keep_alive;
    const std::string path = request.path();
    const bool get = request.method == "GET";
    const bool post = request.method == "POST";
    if (path == "/health" || path == "/v1/models") {
      if (!get) {
        bad_method("GET");
      } else if (path == "/health") {
        answer(200, "", "");
      } else {
        answer(200, "application/json", models_body(m_state.model_json, m_state.created));
      }
      return;
    }
    if (path == "/v1/completions" || path == "/v1/chat/completions") {
      if (!post) {
        bad_method("POST");
        return;
      }
      begin_generation(request,
                       path == "/v1/completions" ? MockEndpoint::completions : MockEndpoint::chat);
      return;
    }
    if (post) {
      begin_generation(request, std::nullopt);
      return;
    }
    m_state.bad_requests.fetch_add(1, std::memory_order_relaxed);
    answer(404, "application/json",
           error_body(404, "no route for " + request.method + " " + path +
                               " (GET /health, GET /v1/models, POST anything)"));
  }

  void bad_method(std::string_view allowed) {
    m_state.bad_requests.fetch_add(1, std::memory_order_relaxed);
    answer(405, "application/json", error_body(405, "use " + std::string(allowed)),
           "Allow: " + std::string(allowed) + "\r\n");
  }

  // A whole response written at once; the exchange ends when it is on the wire.
  void answer(int status, std::string_view content_type, const std::string& body,
              std::string_view extra_headers = {}) {
    append_http_head(m_out, status, content_type, body.size(), m_keep_alive, extra_headers);
    m_out += body;
    m_exchange_done = true;
    flush();
  }

  // --- generation ----------------------------------------------------------------------------

  void begin_generation(const MockHttpRequest& request, std::optional<MockEndpoint> endpoint) {
    m_gen = Generation{};
    m_gen.endpoint = endpoint;
    if (endpoint) {
      auto facts = read_generation_request(request.body, *endpoint);
      if (!facts) {
        m_state.bad_requests.fetch_add(1, std::memory_order_relaxed);
        answer(400, "application/json", error_body(400, facts.error()));
        return;
      }
      m_gen.stream = facts->stream;
      m_gen.include_usage = facts->stream && facts->include_usage;
      m_gen.prompt_tokens = facts->prompt_tokens;
      m_gen.output_tokens = options().output_tokens > 0
                                ? options().output_tokens
                                : facts->max_tokens.value_or(options().default_max_tokens);
      const std::int64_t per_chunk = std::max<std::int64_t>(1, options().tokens_per_chunk);
      m_gen.chunks_total = (m_gen.output_tokens + per_chunk - 1) / per_chunk;
    }
    m_gen.number = m_state.generation_requests.fetch_add(1, std::memory_order_relaxed) + 1;
    m_gen.fault = choose_fault(options().faults, m_gen.number, m_loop.random);
    if (m_gen.fault) {
      m_state.faults[static_cast<int>(*m_gen.fault)].fetch_add(1, std::memory_order_relaxed);
      switch (*m_gen.fault) {
        case FaultKind::http_500:
          answer(500, "application/json", error_body(500, "mock fault: internal server error"));
          return;
        case FaultKind::http_429:
          answer(429, "application/json", error_body(429, "mock fault: too many requests"),
                 "Retry-After: 1\r\n");
          return;
        case FaultKind::never_answer:
          m_hanging = true;  // read on, answer never; the client's timeout or close ends it
          return;
        case FaultKind::close_mid_stream:
        case FaultKind::malformed_sse:
          break;
      }
    }
    if (m_gen.stream) {
      append_http_head(m_out, 200, "text/event-stream", std::nullopt, m_keep_alive);
      if (m_gen.endpoint == MockEndpoint::chat) {
        append_sse_role_chunk(m_out, identity());
      }
      flush();
    }
    if (options().capacity.max_batch > 0) {
      auto self = shared_from_this();
      const bool granted = m_state.slots.acquire_or_wait(
          [self] { asio::post(self->m_loop.io, [self] { self->admit(); }); });
      if (!granted) {
        return;
      }
    }
    admit();
  }

  void admit() {
    if (m_closed) {
      if (options().capacity.max_batch > 0) {
        m_state.slots.release();  // the slot came to a connection that is gone: pass it on
      }
      return;
    }
    m_gen.admitted = true;
    const std::int64_t active = m_state.active.fetch_add(1, std::memory_order_relaxed) + 1;
    std::int64_t seen = m_state.max_active.load(std::memory_order_relaxed);
    while (active > seen &&
           !m_state.max_active.compare_exchange_weak(seen, active, std::memory_order_relaxed)) {
    }
    const std::int64_t ttft = scaled_latency_ns(sample_latency_ns(options().ttft, m_loop.random),
                                                options().capacity, active);
    m_gen.admitted_ns = m_state.now_ns();
    m_gen.next_due_ns = m_gen.admitted_ns + ttft;
    m_gen.next_active = active;
    schedule_step();
  }

  void schedule_step() {
    const std::int64_t due = stall_release_ns(options().stall, m_gen.next_due_ns);
    if (due <= m_state.now_ns()) {
      step();
      return;
    }
    m_timer.expires_at(m_state.at(due));
    m_timer.async_wait([self = shared_from_this()](asio::error_code ec) {
      if (!ec && !self->m_closed) {
        self->step();
      }
    });
  }

  // Emits every event that is due by now (several when the loop ran late), then waits for the
  // next one.
  void step() {
    const std::int64_t now = m_state.now_ns();
    while (true) {
      const std::int64_t due = stall_release_ns(options().stall, m_gen.next_due_ns);
      if (due > now) {
        break;
      }
      if (!m_gen.endpoint || m_gen.tokens_sent == m_gen.output_tokens) {
        complete_generation();
        return;
      }
      const std::int64_t tokens = std::min(std::max<std::int64_t>(1, options().tokens_per_chunk),
                                           m_gen.output_tokens - m_gen.tokens_sent);
      m_gen.tokens_sent += tokens;
      ++m_gen.chunks_sent;
      const bool last = m_gen.tokens_sent == m_gen.output_tokens;
      if (m_gen.stream) {
        if (options().stamp_schedule) {
          append_http_chunk(m_out, ": schedule admitted=" + std::to_string(m_gen.admitted_ns) +
                                       " due=" + std::to_string(due) +
                                       " active=" + std::to_string(m_gen.next_active) + "\n\n");
        }
        const bool malformed = m_gen.fault == FaultKind::malformed_sse &&
                               m_gen.chunks_sent == (m_gen.chunks_total + 1) / 2;
        append_sse_content_chunk(m_out, identity(), tokens, last, malformed);
        if (m_gen.fault == FaultKind::close_mid_stream &&
            m_gen.chunks_sent == std::max<std::int64_t>(1, m_gen.chunks_total / 2)) {
          m_close_after_write = true;
          release_generation();
          flush();
          return;
        }
      }
      if (last) {
        complete_generation();
        return;
      }
      const std::int64_t active = m_state.active.load(std::memory_order_relaxed);
      m_gen.next_due_ns = due + scaled_latency_ns(sample_latency_ns(options().itl, m_loop.random),
                                                  options().capacity, active);
      m_gen.next_active = active;
    }
    flush();
    schedule_step();
  }

  void complete_generation() {
    release_generation();
    const std::optional<FaultKind> fault = m_gen.fault;
    if (m_gen.stream) {
      if (m_gen.include_usage) {
        append_sse_usage_chunk(m_out, identity(), m_gen.prompt_tokens, m_gen.tokens_sent);
      }
      append_sse_done(m_out);
    } else {
      std::string body =
          m_gen.endpoint ? full_response_body(identity(), m_gen.prompt_tokens, m_gen.output_tokens)
                         : options().generic_response;
      std::size_t content_length = body.size();
      if (fault == FaultKind::malformed_sse) {
        body.resize(body.size() / 2);  // well-framed, but not JSON
        content_length = body.size();
      } else if (fault == FaultKind::close_mid_stream) {
        body.resize(body.size() / 2);  // Content-Length promises the whole body
        m_close_after_write = true;
      }
      const std::string schedule =
          options().stamp_schedule
              ? "X-Mock-Schedule: admitted=" + std::to_string(m_gen.admitted_ns) +
                    " due=" + std::to_string(stall_release_ns(options().stall, m_gen.next_due_ns)) +
                    "\r\n"
              : std::string();
      append_http_head(m_out, 200, "application/json", content_length, m_keep_alive, schedule);
      m_out += body;
    }
    if (!fault) {
      m_state.completed.fetch_add(1, std::memory_order_relaxed);
    }
    m_exchange_done = true;
    flush();
  }

  // The request stops counting as generating and gives back its batch slot.
  void release_generation() {
    if (!m_gen.admitted || m_gen.released) {
      return;
    }
    m_gen.released = true;
    m_state.active.fetch_sub(1, std::memory_order_relaxed);
    if (options().capacity.max_batch > 0) {
      m_state.slots.release();
    }
  }

  // --- writing -------------------------------------------------------------------------------

  void flush() {
    if (m_writing || m_out.empty() || m_closed) {
      return;
    }
    const std::int64_t now = m_state.now_ns();
    const std::int64_t release = stall_release_ns(options().stall, now);
    if (release > now) {
      m_writing = true;  // held: nothing goes out until the window closes
      m_hold_timer.expires_at(m_state.at(release));
      m_hold_timer.async_wait([self = shared_from_this()](asio::error_code ec) {
        self->m_writing = false;
        if (!ec && !self->m_closed) {
          self->flush();
        }
      });
      return;
    }
    m_writing = true;
    m_wire.swap(m_out);
    m_out.clear();
    asio::async_write(
        m_socket, asio::buffer(m_wire),
        [self = shared_from_this()](asio::error_code ec, std::size_t) { self->on_written(ec); });
  }

  void on_written(asio::error_code ec) {
    m_writing = false;
    m_wire.clear();
    if (m_closed) {
      return;
    }
    if (ec) {
      close();
      return;
    }
    if (!m_out.empty()) {
      flush();
      return;
    }
    if (m_close_after_write) {
      close();
      return;
    }
    if (!m_exchange_done) {
      return;  // more of this response is coming
    }
    m_in_exchange = false;
    m_exchange_done = false;
    if (!m_keep_alive || m_peer_eof) {
      asio::error_code ignored;
      m_socket.shutdown(tcp::socket::shutdown_send, ignored);
      close();
      return;
    }
    serve_buffered();
    read_more();
  }

  void close() {
    if (m_closed) {
      return;
    }
    m_closed = true;
    m_timer.cancel();
    m_hold_timer.cancel();
    asio::error_code ignored;
    m_socket.close(ignored);
    release_generation();
  }

  tcp::socket m_socket;
  asio::steady_timer m_timer;       // the next event of the response
  asio::steady_timer m_hold_timer;  // a write held back by a stall window
  MockLoop& m_loop;
  MockServerState& m_state;
  std::array<char, 16 * 1024> m_read_buffer{};
  std::string m_in;    // received, not yet parsed
  std::string m_out;   // to write
  std::string m_wire;  // being written
  Generation m_gen;
  bool m_keep_alive = true;
  bool m_reading = false;
  bool m_writing = false;
  bool m_closed = false;
  bool m_peer_eof = false;
  bool m_in_exchange = false;
  bool m_exchange_done = false;
  bool m_close_after_write = false;
  bool m_hanging = false;
};

}  // namespace

void serve_mock_connection(asio::ip::tcp::socket socket, MockLoop& loop, MockServerState& state) {
  std::make_shared<MockConnection>(std::move(socket), loop, state)->start();
}

}  // namespace gpuport
