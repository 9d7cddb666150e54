// Credentials are redacted wherever gpuport would show or save them (issue 27, item 4).
#include "bench/secrets.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "bench/url.h"

namespace gpuport {
namespace {

TEST(Secrets, AMalformedUrlIsEchoedWithoutItsPassword) {
  const auto url = parse_url("http://alice:hunter2@gpu-box:80x/v1");
  ASSERT_FALSE(url.has_value());
  EXPECT_EQ(url.error(),
            "bad URL 'http://[redacted]@gpu-box:80x/v1': port must be a number from 1 to 65535");
  const auto scheme = parse_url("htp://alice:hunter2@gpu-box/v1?api_key=sk-live-1&n=2");
  ASSERT_FALSE(scheme.has_value());
  EXPECT_EQ(scheme.error(),
            "bad URL 'htp://[redacted]@gpu-box/v1?api_key=[redacted]&n=2': scheme must be http or "
            "https");
}

TEST(Secrets, AResultNamesTheUrlWithoutCredentialQueryValues) {
  const auto url = parse_url("https://api.example.com/v1/completions?key=AIzaSy123&model=m");
  ASSERT_TRUE(url.has_value());
  EXPECT_EQ(url->path, "/v1/completions?key=AIzaSy123&model=m");  // sent as given
  EXPECT_EQ(url->redacted(), "https://api.example.com/v1/completions?key=[redacted]&model=m");
}

TEST(Secrets, CredentialHeadersAndEnvironmentValuesAreSecretsWholeAndByWord) {
  const std::vector<std::pair<std::string, std::string>> headers = {
      {"Authorization", "Bearer sk-abcdef123"},
      {"X-Team", "inference-platform"},
      {"X-Tenant", "tenant-42-private"},
      {"x-api-key", "k"},
  };
  const std::vector<std::string> from_environment = {"X-Tenant"};
  const std::vector<std::string> secrets = secrets_of(headers, from_environment);
  EXPECT_EQ(secrets,
            (std::vector<std::string>{"Bearer sk-abcdef123", "tenant-42-private", "sk-abcdef123"}));
  EXPECT_EQ(redact_secrets("invalid token sk-abcdef123 for tenant-42-private", secrets),
            "invalid token [redacted] for [redacted]");
  EXPECT_EQ(redact_secrets("team inference-platform", secrets), "team inference-platform");
  EXPECT_EQ(redact_secrets("missing Bearer token", secrets), "missing Bearer token");
}

TEST(Secrets, CredentialNames) {
  for (const char* name : {"Authorization", "Proxy-Authorization", "Cookie", "X-API-Key", "api_key",
                           "access_token", "X-Auth", "client_secret"}) {
    EXPECT_TRUE(is_credential_name(name)) << name;
  }
  for (const char* name : {"X-Team", "model", "Accept", "n", "X-Request-Id"}) {
    EXPECT_FALSE(is_credential_name(name)) << name;
  }
}

}  // namespace
}  // namespace gpuport
