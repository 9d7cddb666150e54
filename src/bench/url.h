// http:// and https:// URLs as `gpuport bench` takes them.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include <tl/expected.hpp>

namespace gpuport {

struct Url {
  bool tls = false;
  std::string host;                 // without brackets for IPv6 literals
  std::uint16_t port = 0;           // 80 / 443 when not given
  std::string path;                 // "/" when empty; keeps the query
  std::string host_header() const;  // "host" or "host:port" when not the scheme's default
  std::string redacted() const;     // scheme://host[:port]/path, never credentials (api_key=...)
};

// Errors are one line: "bad URL 'htp://x': scheme must be http or https".
tl::expected<Url, std::string> parse_url(std::string_view text);

}  // namespace gpuport
