// The mock server's HTTP/1.1 request parser: request line, headers, a Content-Length body.
// Stateless: it looks at the front of the connection's buffer each time bytes arrive, so a
// request split anywhere, or several pipelined in one read, parse the same way.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace gpuport {

struct MockHttpRequest {
  std::string method;
  std::string target;  // path and query as sent
  int minor_version = 1;
  bool keep_alive = true;  // HTTP/1.1 unless `Connection: close`; HTTP/1.0 only with keep-alive
  std::string body;
  std::string path() const;  // target without the query
};

struct MockRequestParse {
  enum class Status { incomplete, complete, error };
  Status status = Status::incomplete;
  MockHttpRequest request;   // when complete
  std::size_t consumed = 0;  // bytes of the buffer the request took, when complete
  int error_status = 0;      // when error: 400, 413, 431, 501, 505
  std::string error;         // one line
};

inline constexpr std::size_t k_mock_max_head_bytes = 64 * 1024;
inline constexpr std::size_t k_mock_max_body_bytes = 16 * 1024 * 1024;

MockRequestParse parse_mock_request(std::string_view buffer);

}  // namespace gpuport
