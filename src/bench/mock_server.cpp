// The mock server's listener and event loops: one acceptor hands connections to the loops in
// turn; stop() closes everything and joins the threads.
#include "bench/mock_server.h"

#include <asio/executor_work_guard.hpp>
#include <asio/ip/address.hpp>
#include <asio/steady_timer.hpp>

#include <fmt/format.h>

#include <ctime>
#include <vector>

#include "bench/mock_responses.h"
#include "bench/mock_server_state.h"

namespace gpuport {

using asio::ip::tcp;

bool MockSlotQueue::acquire_or_wait(std::function<void()> on_granted) {
  std::lock_guard lock(m_mutex);
  if (m_in_use < m_capacity) {
    ++m_in_use;
    return true;
  }
  m_waiters.push_back(std::move(on_granted));
  return false;
}

void MockSlotQueue::release() {
  std::function<void()> next;
  {
    std::lock_guard lock(m_mutex);
    if (m_waiters.empty()) {
      --m_in_use;
      return;
    }
    next = std::move(m_waiters.front());  // the slot passes straight to the first waiter
    m_waiters.pop_front();
  }
  next();
}

void MockSlotQueue::clear() {
  std::deque<std::function<void()>> waiters;
  {
    std::lock_guard lock(m_mutex);
    waiters.swap(m_waiters);
    m_in_use = 0;
  }
}

class MockServer::Impl {
 public:
  explicit Impl(MockServerOptions options) { m_state.options = std::move(options); }
  ~Impl() { stop(); }

  tl::expected<std::uint16_t, std::string> start() {
    if (m_running) {
      return m_port;
    }
    const MockServerOptions& options = m_state.options;
    m_state.model_json = mock_json_quoted(options.model);
    m_state.created = static_cast<std::int64_t>(std::time(nullptr));
    m_state.slots.set_capacity(options.capacity.max_batch);
    const int threads = std::max(1, options.threads);
    for (int i = 0; i < threads; ++i) {
      m_loops.push_back(std::make_unique<MockLoop>(options.seed + 0x9e3779b97f4a7c15ULL * i));
    }
    const std::string where = fmt::format("{}:{}", options.host, options.port);
    asio::error_code ec;
    const asio::ip::address address = asio::ip::make_address(options.host, ec);
    if (ec) {
      m_loops.clear();
      return tl::unexpected(fmt::format("cannot listen on {}: not an IP address", where));
    }
    m_acceptor = std::make_unique<tcp::acceptor>(m_loops.front()->io);
    const tcp::endpoint endpoint(address, options.port);
    m_acceptor->open(endpoint.protocol(), ec);
    if (!ec) {
      m_acceptor->set_option(tcp::acceptor::reuse_address(true), ec);
    }
    if (!ec) {
      m_acceptor->bind(endpoint, ec);
    }
    if (!ec) {
      m_acceptor->listen(65535, ec);  // the kernel caps it at net.core.somaxconn
    }
    if (!ec) {
      m_port = m_acceptor->local_endpoint(ec).port();
    }
    if (ec) {
      m_acceptor.reset();
      m_loops.clear();
      return tl::unexpected(fmt::format("cannot listen on {}: {}", where, ec.message()));
    }
    m_accept_retry = std::make_unique<asio::steady_timer>(m_loops.front()->io);
    m_state.start = std::chrono::steady_clock::now();
    accept_next();
    for (auto& loop : m_loops) {
      MockLoop* raw = loop.get();
      raw->thread = std::thread([raw] {
        auto guard = asio::make_work_guard(raw->io);
        raw->io.run();
      });
    }
    m_running = true;
    return m_port;
  }

  void stop() {
    if (!m_running) {
      return;
    }
    m_running = false;
    for (auto& loop : m_loops) {
      loop->io.stop();
    }
    for (auto& loop : m_loops) {
      loop->thread.join();
    }
    // No loop runs now. Waiters hold connections; the loops' destruction drops every pending
    // handler, and with it the last reference to each connection, which closes its socket.
    m_state.slots.clear();
    m_accept_retry.reset();
    m_acceptor.reset();
    m_loops.clear();
  }

  std::uint16_t port() const { return m_port; }
  MockServerState& state() { return m_state; }

 private:
  void accept_next() {
    MockLoop& target = *m_loops[m_next_loop];
    m_next_loop = (m_next_loop + 1) % m_loops.size();
    m_acceptor->async_accept(target.io, [this, &target](asio::error_code ec, tcp::socket socket) {
      if (ec == asio::error::operation_aborted || !m_acceptor->is_open()) {
        return;
      }
      if (ec) {
        // Out of file descriptors and the like: wait a little instead of spinning.
        m_accept_retry->expires_after(std::chrono::milliseconds(20));
        m_accept_retry->async_wait([this](asio::error_code wait_ec) {
          if (!wait_ec) {
            accept_next();
          }
        });
        return;
      }
      m_state.connections.fetch_add(1, std::memory_order_relaxed);
      serve_mock_connection(std::move(socket), target, m_state);
      accept_next();
    });
  }

  MockServerState m_state;
  std::vector<std::unique_ptr<MockLoop>> m_loops;
  std::unique_ptr<tcp::acceptor> m_acceptor;
  std::unique_ptr<asio::steady_timer> m_accept_retry;
  std::size_t m_next_loop = 0;
  std::uint16_t m_port = 0;
  bool m_running = false;
};

MockServer::MockServer(MockServerOptions options)
    : m_impl(std::make_unique<Impl>(std::move(options))) {}

MockServer::~MockServer() = default;

tl::expected<std::uint16_t, std::string> MockServer::start() {
  return m_impl->start();
}

void MockServer::stop() {
  m_impl->stop();
}

std::uint16_t MockServer::port() const {
  return m_impl->port();
}

std::chrono::steady_clock::time_point MockServer::started_at() const {
  return m_impl->state().start;
}

MockServerStats MockServer::stats() const {
  MockServerState& state = m_impl->state();
  MockServerStats stats;
  stats.connections = state.connections.load();
  stats.requests = state.requests.load();
  stats.generation_requests = state.generation_requests.load();
  stats.completed = state.completed.load();
  stats.bad_requests = state.bad_requests.load();
  for (int i = 0; i < 5; ++i) {
    stats.faults[i] = state.faults[i].load();
  }
  stats.active = state.active.load();
  stats.max_active = state.max_active.load();
  return stats;
}

const MockServerOptions& MockServer::options() const {
  return m_impl->state().options;
}

}  // namespace gpuport
