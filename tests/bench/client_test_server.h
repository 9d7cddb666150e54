// A scripted loopback HTTP server for the client tests: one blocking thread per connection,
// each request answered by a script of (delay, bytes) steps, so a test states exactly when
// which byte arrives. 127.0.0.1 on an ephemeral port only.
#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace gpuport::client_testing {

struct Step {
  std::chrono::microseconds delay{0};  // before these bytes, from the previous step
  std::string bytes;
};

struct Reply {
  std::vector<Step> steps;
  bool close_after = false;  // close the connection after the last step
  bool hang = false;         // after the steps, never answer more (until the server stops)
};

// `index` counts requests over the server's life, from 0.
using Script = std::function<Reply(std::uint64_t index, const std::string& request)>;

class TestServer {
 public:
  explicit TestServer(Script script) : script_(std::move(script)) {
    listener_ = ::socket(AF_INET, SOCK_STREAM, 0);
    int one = 1;
    ::setsockopt(listener_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ::bind(listener_, reinterpret_cast<sockaddr*>(&address), sizeof address);
    ::listen(listener_, 1024);
    socklen_t length = sizeof address;
    ::getsockname(listener_, reinterpret_cast<sockaddr*>(&address), &length);
    port_ = ntohs(address.sin_port);
    acceptor_ = std::thread([this] { accept_loop(); });
  }
  TestServer(const TestServer&) = delete;
  TestServer& operator=(const TestServer&) = delete;
  ~TestServer() { stop(); }

  void stop() {
    if (stopping_.exchange(true)) {
      return;
    }
    wake_.notify_all();
    ::shutdown(listener_, SHUT_RDWR);
    ::close(listener_);
    acceptor_.join();
    std::vector<std::thread> threads;
    {
      std::lock_guard lock(mutex_);
      for (int fd : open_fds_) {
        ::shutdown(fd, SHUT_RDWR);
      }
      threads.swap(threads_);
    }
    for (std::thread& thread : threads) {
      thread.join();
    }
  }

  std::uint16_t port() const { return port_; }
  std::string url(const std::string& path = "") const {
    return "http://127.0.0.1:" + std::to_string(port_) + path;
  }
  std::uint64_t connections() const { return connections_; }
  std::uint64_t requests() const { return next_index_; }
  std::vector<std::string> received() {
    std::lock_guard lock(mutex_);
    return received_;
  }

 private:
  void accept_loop() {
    while (!stopping_) {
      const int fd = ::accept(listener_, nullptr, nullptr);
      if (fd < 0) {
        if (stopping_) {
          return;
        }
        continue;
      }
      int one = 1;
      ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
      ++connections_;
      std::lock_guard lock(mutex_);
      open_fds_.push_back(fd);
      threads_.emplace_back([this, fd] { serve(fd); });
    }
  }

  // Reads one request (head and Content-Length body); false when the peer closed.
  static bool read_request(int fd, std::string& pending, std::string& request) {
    char buffer[16384];
    while (true) {
      const std::size_t end = pending.find("\r\n\r\n");
      if (end != std::string::npos) {
        std::size_t length = 0;
        const std::size_t at = pending.find("Content-Length: ");
        if (at != std::string::npos && at < end) {
          length = std::stoul(pending.substr(at + 16));
        }
        if (pending.size() >= end + 4 + length) {
          request = pending.substr(0, end + 4 + length);
          pending.erase(0, end + 4 + length);
          return true;
        }
      }
      const ssize_t got = ::recv(fd, buffer, sizeof buffer, 0);
      if (got <= 0) {
        return false;
      }
      pending.append(buffer, static_cast<std::size_t>(got));
    }
  }

  void serve(int fd) {
    std::string pending;
    std::string request;
    bool open = true;
    while (open && !stopping_ && read_request(fd, pending, request)) {
      const std::uint64_t index = next_index_++;
      {
        std::lock_guard lock(mutex_);
        received_.push_back(request);
      }
      const Reply reply = script_(index, request);
      for (const Step& step : reply.steps) {
        if (step.delay.count() > 0) {
          std::unique_lock lock(mutex_);
          if (wake_.wait_for(lock, step.delay, [this] { return stopping_.load(); })) {
            open = false;
            break;
          }
        }
        if (!step.bytes.empty() &&
            ::send(fd, step.bytes.data(), step.bytes.size(), MSG_NOSIGNAL) < 0) {
          open = false;
          break;
        }
      }
      if (reply.hang) {
        std::unique_lock lock(mutex_);
        wake_.wait(lock, [this] { return stopping_.load(); });
        open = false;
      }
      if (reply.close_after) {
        open = false;
      }
    }
    ::shutdown(fd, SHUT_RDWR);
    std::lock_guard lock(mutex_);
    ::close(fd);
    std::erase(open_fds_, fd);
  }

  Script script_;
  int listener_ = -1;
  std::uint16_t port_ = 0;
  std::atomic<bool> stopping_{false};
  std::atomic<std::uint64_t> connections_{0};
  std::atomic<std::uint64_t> next_index_{0};
  std::mutex mutex_;
  std::condition_variable wake_;
  std::vector<int> open_fds_;
  std::vector<std::thread> threads_;
  std::vector<std::string> received_;
  std::thread acceptor_;
};

// An OpenAI-style streamed completion in chunked transfer coding: the head, then after `ttft`
// the first token, then one token every `itl`, a usage chunk and [DONE].
inline std::string chunk(const std::string& data) {
  char size[16];
  std::snprintf(size, sizeof size, "%zx", data.size());
  return std::string(size) + "\r\n" + data + "\r\n";
}

inline std::string sse_token(const std::string& text = "tok") {
  return chunk(
      "data: {\"id\":\"c\",\"object\":\"text_completion\",\"choices\":[{\"index\":0,"
      "\"text\":\"" +
      text + "\",\"finish_reason\":null}]}\n\n");
}

inline const char* k_sse_head =
    "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n";

inline Reply streamed_reply(int tokens, std::chrono::microseconds ttft,
                            std::chrono::microseconds itl, int prompt_tokens = 7) {
  Reply reply;
  reply.steps.push_back({std::chrono::microseconds(0), k_sse_head});
  for (int i = 0; i < tokens; ++i) {
    reply.steps.push_back({i == 0 ? ttft : itl, sse_token()});
  }
  reply.steps.push_back(
      {std::chrono::microseconds(0),
       chunk("data: {\"id\":\"c\",\"choices\":[],\"usage\":{\"prompt_tokens\":" +
             std::to_string(prompt_tokens) + ",\"completion_tokens\":" + std::to_string(tokens) +
             ",\"total_tokens\":" + std::to_string(prompt_tokens + tokens) + "}}\n\n") +
           chunk("data: [DONE]\n\n") + "0\r\n\r\n"});
  return reply;
}

inline Reply status_reply(int status, const std::string& body) {
  Reply reply;
  reply.steps.push_back(
      {std::chrono::microseconds(0), "HTTP/1.1 " + std::to_string(status) +
                                         " Oops\r\nContent-Type: application/json\r\n"
                                         "Content-Length: " +
                                         std::to_string(body.size()) + "\r\n\r\n" + body});
  return reply;
}

}  // namespace gpuport::client_testing
