#include "bench/mock_http_request.h"

#include <algorithm>
#include <charconv>
#include <optional>

namespace gpuport {

namespace {

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return (x | 0x20) == (y | 0x20);
         });
}

bool contains_token(std::string_view value, std::string_view token) {
  while (!value.empty()) {
    const std::size_t comma = value.find(',');
    std::string_view item = value.substr(0, comma);
    while (!item.empty() && (item.front() == ' ' || item.front() == '\t')) {
      item.remove_prefix(1);
    }
    while (!item.empty() && (item.back() == ' ' || item.back() == '\t')) {
      item.remove_suffix(1);
    }
    if (iequals(item, token)) {
      return true;
    }
    if (comma == std::string_view::npos) {
      break;
    }
    value.remove_prefix(comma + 1);
  }
  return false;
}

MockRequestParse fail(int status, std::string message) {
  MockRequestParse result;
  result.status = MockRequestParse::Status::error;
  result.error_status = status;
  result.error = std::move(message);
  return result;
}

// The next line of the head starting at `pos`, without its CRLF (or bare LF); nullopt when
// the buffer holds no complete line yet.
std::optional<std::string_view> next_line(std::string_view buffer, std::size_t& pos) {
  const std::size_t lf = buffer.find('\n', pos);
  if (lf == std::string_view::npos) {
    return std::nullopt;
  }
  std::string_view line = buffer.substr(pos, lf - pos);
  if (!line.empty() && line.back() == '\r') {
    line.remove_suffix(1);
  }
  pos = lf + 1;
  return line;
}

bool parse_request_line(std::string_view line, MockHttpRequest& request) {
  const std::size_t first_space = line.find(' ');
  const std::size_t last_space = line.rfind(' ');
  if (first_space == std::string_view::npos || first_space == last_space || first_space == 0) {
    return false;
  }
  request.method = std::string(line.substr(0, first_space));
  request.target = std::string(line.substr(first_space + 1, last_space - first_space - 1));
  const std::string_view version = line.substr(last_space + 1);
  if (request.target.empty() || request.target.find(' ') != std::string::npos ||
      !version.starts_with("HTTP/")) {
    return false;
  }
  if (version == "HTTP/1.1") {
    request.minor_version = 1;
  } else if (version == "HTTP/1.0") {
    request.minor_version = 0;
  } else {
    request.minor_version = -1;
  }
  return true;
}

}  // namespace

std::string MockHttpRequest::path() const {
  return target.substr(0, target.find('?'));
}

MockRequestParse parse_mock_request(std::string_view buffer) {
  // Blank lines before a request are allowed (RFC 9112 section 2.2).
  std::size_t pos = 0;
  while (pos < buffer.size() && (buffer[pos] == '\r' || buffer[pos] == '\n')) {
    ++pos;
  }
  const std::size_t head_start = pos;
  MockRequestParse result;
  std::optional<std::string_view> line = next_line(buffer, pos);
  if (!line) {
    if (buffer.size() - head_start > k_mock_max_head_bytes) {
      return fail(431, "request head larger than 64 KiB");
    }
    return result;
  }
  MockHttpRequest& request = result.request;
  if (!parse_request_line(*line, request)) {
    return fail(400, "bad request line");
  }
  if (request.minor_version < 0) {
    return fail(505, "only HTTP/1.0 and HTTP/1.1 are served");
  }
  request.keep_alive = request.minor_version == 1;
  std::optional<std::uint64_t> content_length;
  while (true) {
    line = next_line(buffer, pos);
    if (pos - head_start > k_mock_max_head_bytes) {
      return fail(431, "request head larger than 64 KiB");
    }
    if (!line) {
      return result;  // incomplete
    }
    if (line->empty()) {
      break;
    }
    const std::size_t colon = line->find(':');
    if (colon == std::string_view::npos || colon == 0) {
      return fail(400, "bad header line");
    }
    const std::string_view name = line->substr(0, colon);
    std::string_view value = line->substr(colon + 1);
    while (!value.empty() && (value.front() == ' ' || value.front() == '\t')) {
      value.remove_prefix(1);
    }
    while (!value.empty() && (value.back() == ' ' || value.back() == '\t')) {
      value.remove_suffix(1);
    }
    if (iequals(name, "Content-Length")) {
      std::uint64_t length = 0;
      const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), length);
      if (ec != std::errc() || end != value.data() + value.size() || value.empty()) {
        return fail(400, "bad Content-Length");
      }
      if (content_length && *content_length != length) {
        return fail(400, "two different Content-Length headers");
      }
      content_length = length;
    } else if (iequals(name, "Transfer-Encoding")) {
      return fail(501, "chunked request bodies are not supported; send Content-Length");
    } else if (iequals(name, "Connection")) {
      if (contains_token(value, "close")) {
        request.keep_alive = false;
      } else if (contains_token(value, "keep-alive")) {
        request.keep_alive = true;
      }
    }
  }
  const std::uint64_t body_length = content_length.value_or(0);
  if (body_length > k_mock_max_body_bytes) {
    return fail(413, "request body larger than 16 MiB");
  }
  if (buffer.size() - pos < body_length) {
    return result;  // incomplete
  }
  request.body = std::string(buffer.substr(pos, body_length));
  result.status = MockRequestParse::Status::complete;
  result.consumed = pos + body_length;
  return result;
}

}  // namespace gpuport
