#include "bench/secrets.h"

#include <algorithm>

#include "source/ascii_text.h"

namespace gpuport {

namespace {

constexpr std::size_t k_min_secret = 4;

bool all_letters(std::string_view word) {
  return std::all_of(word.begin(), word.end(),
                     [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); });
}

// The value, and its words when it has several ("Bearer sk-..." is echoed as "sk-..."); an
// authentication scheme ("Bearer", "Basic") is not secret, and a value too short to be a
// credential would only mangle the text around it.
void add_secret(std::vector<std::string>& secrets, std::string_view value) {
  if (value.size() < k_min_secret) {
    return;
  }
  secrets.emplace_back(value);
  std::size_t start = 0;
  bool first = true;
  while (start < value.size()) {
    const std::size_t space = value.find_first_of(" \t", start);
    const std::size_t end = space == std::string_view::npos ? value.size() : space;
    const std::string_view word = value.substr(start, end - start);
    const bool scheme = first && all_letters(word);
    if (word.size() >= k_min_secret && word.size() != value.size() && !scheme) {
      secrets.emplace_back(word);
    }
    first = false;
    start = end + 1;
  }
}

}  // namespace

bool is_credential_name(std::string_view name) {
  const std::string lower = to_lower_ascii(name);
  if (lower == "authorization" || lower == "proxy-authorization" || lower == "cookie") {
    return true;
  }
  for (std::string_view part : {"key", "token", "secret", "password", "passwd", "auth", "session",
                                "credential", "signature"}) {
    if (lower.find(part) != std::string::npos) {
      return true;
    }
  }
  return false;
}

std::vector<std::string> secrets_of(std::span<const std::pair<std::string, std::string>> headers,
                                    std::span<const std::string> header_env_names) {
  std::vector<std::string> secrets;
  for (const auto& [name, value] : headers) {
    const bool from_environment =
        std::find(header_env_names.begin(), header_env_names.end(), name) != header_env_names.end();
    if (from_environment || is_credential_name(name)) {
      add_secret(secrets, value);
    }
  }
  // Longest first, so that a whole value is replaced before one of its words.
  std::sort(secrets.begin(), secrets.end(),
            [](const std::string& a, const std::string& b) { return a.size() > b.size(); });
  secrets.erase(std::unique(secrets.begin(), secrets.end()), secrets.end());
  return secrets;
}

std::string redact_secrets(std::string text, std::span<const std::string> secrets) {
  for (const std::string& secret : secrets) {
    if (secret.empty()) {
      continue;
    }
    for (std::size_t at = text.find(secret); at != std::string::npos;
         at = text.find(secret, at + k_redacted.size())) {
      text.replace(at, secret.size(), k_redacted);
    }
  }
  return text;
}

std::string redact_query(std::string_view path) {
  const std::size_t question = path.find('?');
  if (question == std::string_view::npos) {
    return std::string(path);
  }
  std::string out(path.substr(0, question + 1));
  std::string_view query = path.substr(question + 1);
  bool first = true;
  while (true) {
    const std::size_t amp = query.find('&');
    const std::string_view pair = query.substr(0, amp);
    if (!first) {
      out += '&';
    }
    first = false;
    const std::size_t equals = pair.find('=');
    if (equals != std::string_view::npos && is_credential_name(pair.substr(0, equals))) {
      out += pair.substr(0, equals + 1);
      out += k_redacted;
    } else {
      out += pair;
    }
    if (amp == std::string_view::npos) {
      break;
    }
    query.remove_prefix(amp + 1);
  }
  return out;
}

std::string redact_url_text(std::string_view url) {
  const std::size_t scheme = url.find("://");
  const std::size_t authority_start = scheme == std::string_view::npos ? 0 : scheme + 3;
  const std::size_t path_start = url.find_first_of("/?#", authority_start);
  const std::string_view authority = url.substr(
      authority_start,
      path_start == std::string_view::npos ? std::string_view::npos : path_start - authority_start);
  std::string out(url.substr(0, authority_start));
  if (const std::size_t at = authority.rfind('@'); at != std::string_view::npos) {
    out += k_redacted;
    out += authority.substr(at);
  } else {
    out += authority;
  }
  if (path_start != std::string_view::npos) {
    out += redact_query(url.substr(path_start));
  }
  return out;
}

}  // namespace gpuport
