// Credentials never leave gpuport in its output: not in error messages, results, request logs,
// nor in what a server echoes back (an error body that repeats the Authorization header).
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gpuport {

inline constexpr std::string_view k_redacted = "[redacted]";

// A header or query parameter whose value is a credential: Authorization, Cookie, X-Api-Key,
// api_key, access_token, ... (by name, case-insensitive).
bool is_credential_name(std::string_view name);

// The strings to hide from anything a server sends back: every --header-env value (the
// environment is where secrets are passed) and the values of credential headers, each whole and
// each of its words of 6 characters or more ("Bearer sk-..." is echoed as "sk-..." too).
std::vector<std::string> secrets_of(std::span<const std::pair<std::string, std::string>> headers,
                                    std::span<const std::string> header_env_names);

// `text` with every occurrence of every secret replaced by "[redacted]".
std::string redact_secrets(std::string text, std::span<const std::string> secrets);

// A URL as the user typed it, for error messages: "user:password@" becomes "[redacted]@" and
// credential query values become "[redacted]".
std::string redact_url_text(std::string_view url);

// The query of a path with credential values replaced: "/v1?api_key=x&n=1" ->
// "/v1?api_key=[redacted]&n=1".
std::string redact_query(std::string_view path);

}  // namespace gpuport
