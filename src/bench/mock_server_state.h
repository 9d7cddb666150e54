// What the mock server's connections share: the options, counters, the batch-slot queue and the
// event loops. Includes asio, so only the mock server's own .cpp files include it.
#pragma once

#include <asio/io_context.hpp>
#include <asio/ip/tcp.hpp>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

#include "bench/mock_options.h"
#include "bench/mock_random.h"

namespace gpuport {

// One event loop: an io_context run by one thread, with the connections it was handed and its
// own random numbers (no lock on the hot path).
struct MockLoop {
  explicit MockLoop(std::uint64_t seed) : random(seed) {}
  asio::io_context io{1};
  MockRandom random;
  std::thread thread;
};

// The batch slots of the capacity model: at most `capacity` requests generate at once; the
// others wait in arrival order. A waiter's callback runs when it gets a slot (it must post to
// its own loop).
class MockSlotQueue {
 public:
  void set_capacity(std::int64_t capacity) { m_capacity = capacity; }
  // True when a slot was free and is now taken; otherwise `on_granted` runs later.
  bool acquire_or_wait(std::function<void()> on_granted);
  void release();
  void clear();

 private:
  std::mutex m_mutex;
  std::int64_t m_capacity = 0;
  std::int64_t m_in_use = 0;
  std::deque<std::function<void()>> m_waiters;
};

struct MockServerState {
  MockServerOptions options;
  std::string model_json;    // the model name as a JSON string literal
  std::int64_t created = 0;  // Unix time of the start
  std::chrono::steady_clock::time_point start;

  std::atomic<std::uint64_t> connections{0};
  std::atomic<std::uint64_t> requests{0};
  std::atomic<std::uint64_t> generation_requests{0};
  std::atomic<std::uint64_t> completed{0};
  std::atomic<std::uint64_t> bad_requests{0};
  std::atomic<std::uint64_t> faults[5] = {};
  std::atomic<std::int64_t> active{0};
  std::atomic<std::int64_t> max_active{0};
  MockSlotQueue slots;

  std::int64_t now_ns() const {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() -
                                                                start)
        .count();
  }
  std::chrono::steady_clock::time_point at(std::int64_t ns) const {
    return start + std::chrono::nanoseconds(ns);
  }
};

// Serves one accepted connection on `loop` until either side closes it or the loop stops.
void serve_mock_connection(asio::ip::tcp::socket socket, MockLoop& loop, MockServerState& state);

}  // namespace gpuport
