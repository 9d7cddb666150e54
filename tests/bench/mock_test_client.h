// A raw POSIX-socket HTTP/1.1 client for the mock server's tests: independent of gpuport's own
// client and parsers, so a bug in those cannot hide one in the mock. It decodes Content-Length
// and chunked bodies, splits SSE events and stamps each with the time its last byte arrived.
#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace gpuport::testing {

using Clock = std::chrono::steady_clock;

inline double ms_between(Clock::time_point from, Clock::time_point to) {
  return std::chrono::duration<double, std::milli>(to - from).count();
}

struct SseData {
  std::string data;
  double at_ms = 0;  // since the request was sent
};

struct RawResponse {
  bool head_complete = false;
  bool body_complete = false;
  bool peer_closed = false;  // EOF seen while reading this response
  int status = 0;
  std::map<std::string, std::string> headers;  // names lower-cased
  std::string body;                            // decoded (chunked framing removed)
  bool chunked = false;
  bool chunk_framing_ok = true;   // every chunk size line parsed and ended in CRLF
  std::vector<SseData> events;    // data: payloads, in order
  std::vector<SseData> comments;  // ": ..." blocks (the mock's schedule stamps), in order
  double head_ms = -1;
  double done_ms = -1;
  std::string header(const std::string& name) const {
    auto it = headers.find(name);
    return it == headers.end() ? "" : it->second;
  }
};

inline std::string http_post(const std::string& path, const std::string& body,
                             bool keep_alive = true) {
  return "POST " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n" +
         (keep_alive ? "" : "Connection: close\r\n") +
         "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
}

inline std::string http_get(const std::string& path) {
  return "GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
}

inline std::string completion_body(int max_tokens, bool stream, bool include_usage = true,
                                   const std::string& prompt = "one two three four five") {
  std::string body = R"({"model":"mock-model","prompt":")" + prompt + R"(","max_tokens":)" +
                     std::to_string(max_tokens) + R"(,"stream":)" + (stream ? "true" : "false");
  if (stream && include_usage) {
    body += R"(,"stream_options":{"include_usage":true})";
  }
  return body + "}";
}

inline std::string chat_body(int max_tokens, bool stream) {
  return R"({"model":"mock-model","messages":[{"role":"user","content":"hello there mock"}],)"
         R"("max_completion_tokens":)" +
         std::to_string(max_tokens) + R"(,"stream":)" + (stream ? "true" : "false") +
         R"(,"stream_options":{"include_usage":true}})";
}

class TestConnection {
 public:
  explicit TestConnection(std::uint16_t port) {
    m_fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(port);
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    m_connected = ::connect(m_fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0;
    int one = 1;
    ::setsockopt(m_fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  }
  ~TestConnection() {
    if (m_fd >= 0) {
      ::close(m_fd);
    }
  }
  TestConnection(const TestConnection&) = delete;
  TestConnection& operator=(const TestConnection&) = delete;

  bool connected() const { return m_connected; }

  bool send(const std::string& bytes) {
    m_sent_at = Clock::now();
    std::size_t done = 0;
    while (done < bytes.size()) {
      const ssize_t n = ::send(m_fd, bytes.data() + done, bytes.size() - done, MSG_NOSIGNAL);
      if (n <= 0) {
        return false;
      }
      done += static_cast<std::size_t>(n);
    }
    return true;
  }
  Clock::time_point sent_at() const { return m_sent_at; }

  // Reads one response (or what arrives of it within `timeout_ms`).
  RawResponse read_response(int timeout_ms = 5000) {
    RawResponse response;
    const Clock::time_point deadline = Clock::now() + std::chrono::milliseconds(timeout_ms);
    std::size_t body_start = 0;
    std::size_t content_length = 0;
    std::size_t chunk_pos = 0;  // parse position in m_buffer for chunked bodies
    std::string sse_pending;
    while (true) {
      if (!response.head_complete) {
        const std::size_t end = m_buffer.find("\r\n\r\n");
        if (end != std::string::npos) {
          parse_head(m_buffer.substr(0, end), response);
          response.head_ms = ms_between(m_sent_at, m_last_read_at);
          body_start = end + 4;
          chunk_pos = body_start;
          content_length = static_cast<std::size_t>(std::stoull(
              response.header("content-length").empty() ? "0" : response.header("content-length")));
        }
      }
      if (response.head_complete) {
        if (response.chunked) {
          decode_chunks(response, chunk_pos, sse_pending);
        } else if (m_buffer.size() - body_start >= content_length) {
          response.body = m_buffer.substr(body_start, content_length);
          m_buffer.erase(0, body_start + content_length);
          response.body_complete = true;
        }
        if (response.body_complete) {
          response.done_ms = ms_between(m_sent_at, m_last_read_at);
          if (response.chunked) {
            m_buffer.erase(0, chunk_pos);
          }
          return response;
        }
      }
      const int left = static_cast<int>(
          std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count());
      if (left <= 0) {
        return response;
      }
      const int got = read_some(left);
      if (got == 0) {
        response.peer_closed = true;
        return response;
      }
      if (got < 0) {
        return response;
      }
    }
  }

  // True when nothing arrives within `ms` (the connection stays open and silent).
  bool silent_for(int ms) {
    const std::size_t before = m_buffer.size();
    const int got = read_some(ms);
    return got < 0 && m_buffer.size() == before;
  }
  // True when the peer closes the connection within `ms` (after any remaining bytes).
  bool closed_within(int ms) {
    const Clock::time_point deadline = Clock::now() + std::chrono::milliseconds(ms);
    while (Clock::now() < deadline) {
      const int got = read_some(static_cast<int>(
          std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count() +
          1));
      if (got == 0) {
        return true;
      }
      if (got < 0) {
        return false;
      }
    }
    return false;
  }
  void shutdown_write() { ::shutdown(m_fd, SHUT_WR); }

 private:
  // >0 bytes read, 0 EOF or reset, -1 timeout.
  int read_some(int timeout_ms) {
    pollfd descriptor{m_fd, POLLIN, 0};
    if (::poll(&descriptor, 1, std::max(0, timeout_ms)) <= 0) {
      return -1;
    }
    char chunk[65536];
    const ssize_t n = ::recv(m_fd, chunk, sizeof chunk, 0);
    m_last_read_at = Clock::now();
    if (n <= 0) {
      return 0;
    }
    m_buffer.append(chunk, static_cast<std::size_t>(n));
    return static_cast<int>(n);
  }

  static std::string lower(std::string text) {
    for (char& c : text) {
      c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    return text;
  }

  static void parse_head(const std::string& head, RawResponse& response) {
    response.head_complete = true;
    std::size_t line_end = head.find("\r\n");
    const std::string status_line = head.substr(0, line_end);
    if (status_line.size() >= 12 && status_line.starts_with("HTTP/1.1 ")) {
      response.status = std::stoi(status_line.substr(9, 3));
    }
    while (line_end != std::string::npos) {
      const std::size_t start = line_end + 2;
      line_end = head.find("\r\n", start);
      const std::string line = head.substr(start, line_end - start);
      const std::size_t colon = line.find(':');
      if (colon != std::string::npos) {
        std::string value = line.substr(colon + 1);
        value.erase(0, value.find_first_not_of(' '));
        response.headers[lower(line.substr(0, colon))] = value;
      }
    }
    response.chunked = lower(response.header("transfer-encoding")) == "chunked";
  }

  void decode_chunks(RawResponse& response, std::size_t& pos, std::string& sse_pending) {
    const double now_ms = ms_between(m_sent_at, m_last_read_at);
    while (true) {
      const std::size_t line_end = m_buffer.find("\r\n", pos);
      if (line_end == std::string::npos) {
        return;
      }
      const std::string size_text = m_buffer.substr(pos, line_end - pos);
      std::size_t size = 0;
      try {
        size = std::stoul(size_text, nullptr, 16);
      } catch (...) {
        response.chunk_framing_ok = false;
        return;
      }
      if (m_buffer.size() < line_end + 2 + size + 2) {
        return;
      }
      if (m_buffer.compare(line_end + 2 + size, 2, "\r\n") != 0) {
        response.chunk_framing_ok = false;
      }
      const std::string data = m_buffer.substr(line_end + 2, size);
      pos = line_end + 2 + size + 2;
      if (size == 0) {
        response.body_complete = true;
        return;
      }
      response.body += data;
      sse_pending += data;
      std::size_t event_end;
      while ((event_end = sse_pending.find("\n\n")) != std::string::npos) {
        const std::string event = sse_pending.substr(0, event_end);
        sse_pending.erase(0, event_end + 2);
        if (event.starts_with("data: ")) {
          response.events.push_back(SseData{event.substr(6), now_ms});
        } else if (event.starts_with(": ")) {
          response.comments.push_back(SseData{event.substr(2), now_ms});
        }
      }
    }
  }

  int m_fd = -1;
  bool m_connected = false;
  std::string m_buffer;
  Clock::time_point m_sent_at = Clock::now();
  Clock::time_point m_last_read_at = Clock::now();
};

}  // namespace gpuport::testing
