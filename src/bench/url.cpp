#include "bench/url.h"

#include <charconv>

#include "bench/secrets.h"

namespace gpuport {

namespace {

tl::unexpected<std::string> bad_url(std::string_view text, std::string_view why) {
  return tl::unexpected("bad URL '" + redact_url_text(text) + "': " + std::string(why));
}

}  // namespace

std::string Url::host_header() const {
  const bool ipv6 = host.find(':') != std::string::npos;
  std::string name = ipv6 ? "[" + host + "]" : host;
  if (port != (tls ? 443 : 80)) {
    name += ":" + std::to_string(port);
  }
  return name;
}

std::string Url::redacted() const {
  return std::string(tls ? "https://" : "http://") + host_header() + redact_query(path);
}

tl::expected<Url, std::string> parse_url(std::string_view text) {
  Url url;
  std::string_view rest = text;
  if (rest.starts_with("http://")) {
    rest.remove_prefix(7);
  } else if (rest.starts_with("https://")) {
    url.tls = true;
    rest.remove_prefix(8);
  } else {
    return bad_url(text, "scheme must be http or https");
  }
  const std::size_t path_start = rest.find_first_of("/?#");
  std::string_view authority = rest.substr(0, path_start);
  std::string_view path = path_start == std::string_view::npos ? "" : rest.substr(path_start);
  if (const std::size_t fragment = path.find('#'); fragment != std::string_view::npos) {
    path = path.substr(0, fragment);
  }
  // user:password@ is accepted and dropped: credentials belong in --header, never in results.
  if (const std::size_t at = authority.rfind('@'); at != std::string_view::npos) {
    authority.remove_prefix(at + 1);
  }
  std::string_view port_text;
  if (authority.starts_with("[")) {
    const std::size_t close = authority.find(']');
    if (close == std::string_view::npos) {
      return bad_url(text, "unclosed '[' in an IPv6 address");
    }
    url.host = std::string(authority.substr(1, close - 1));
    std::string_view after = authority.substr(close + 1);
    if (!after.empty()) {
      if (after.front() != ':') {
        return bad_url(text, "expected ':' and a port after ']'");
      }
      port_text = after.substr(1);
    }
  } else {
    const std::size_t colon = authority.find(':');
    url.host = std::string(authority.substr(0, colon));
    if (colon != std::string_view::npos) {
      port_text = authority.substr(colon + 1);
    }
  }
  if (url.host.empty()) {
    return bad_url(text, "no host");
  }
  url.port = url.tls ? 443 : 80;
  if (!port_text.empty()) {
    unsigned value = 0;
    const auto [end, ec] =
        std::from_chars(port_text.data(), port_text.data() + port_text.size(), value);
    if (ec != std::errc() || end != port_text.data() + port_text.size() || value == 0 ||
        value > 65535) {
      return bad_url(text, "port must be a number from 1 to 65535");
    }
    url.port = static_cast<std::uint16_t>(value);
  }
  url.path = path.empty() ? "/" : std::string(path);
  if (url.path.front() == '?') {
    url.path.insert(url.path.begin(), '/');
  }
  return url;
}

}  // namespace gpuport
