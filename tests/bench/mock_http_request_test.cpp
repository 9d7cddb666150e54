// The mock server's request parser: framing, keep-alive rules, limits, any byte split.
#include "bench/mock_http_request.h"

#include <gtest/gtest.h>

#include <string>

namespace gpuport {
namespace {

using Status = MockRequestParse::Status;

const std::string k_post =
    "POST /v1/completions?x=1 HTTP/1.1\r\nHost: a\r\nContent-Length: 7\r\n\r\n{\"a\":1}";

TEST(MockRequestParser, ParsesAPostWithItsBody) {
  const MockRequestParse parsed = parse_mock_request(k_post);
  ASSERT_EQ(parsed.status, Status::complete);
  EXPECT_EQ(parsed.request.method, "POST");
  EXPECT_EQ(parsed.request.target, "/v1/completions?x=1");
  EXPECT_EQ(parsed.request.path(), "/v1/completions");
  EXPECT_EQ(parsed.request.body, "{\"a\":1}");
  EXPECT_TRUE(parsed.request.keep_alive);
  EXPECT_EQ(parsed.consumed, k_post.size());
}

TEST(MockRequestParser, IncompleteAtEveryPrefix) {
  for (std::size_t cut = 0; cut < k_post.size(); ++cut) {
    EXPECT_EQ(parse_mock_request(k_post.substr(0, cut)).status, Status::incomplete) << cut;
  }
}

TEST(MockRequestParser, PipelinedRequestsParseOneAtATime) {
  const std::string two = k_post + "GET /health HTTP/1.1\r\n\r\n";
  const MockRequestParse first = parse_mock_request(two);
  ASSERT_EQ(first.status, Status::complete);
  const MockRequestParse second = parse_mock_request(std::string_view(two).substr(first.consumed));
  ASSERT_EQ(second.status, Status::complete);
  EXPECT_EQ(second.request.method, "GET");
  EXPECT_EQ(second.request.target, "/health");
  EXPECT_EQ(second.request.body, "");
}

TEST(MockRequestParser, KeepAliveFollowsVersionAndConnectionHeader) {
  EXPECT_FALSE(
      parse_mock_request("GET / HTTP/1.1\r\nConnection: close\r\n\r\n").request.keep_alive);
  EXPECT_FALSE(parse_mock_request("GET / HTTP/1.0\r\n\r\n").request.keep_alive);
  EXPECT_TRUE(
      parse_mock_request("GET / HTTP/1.0\r\nconnection: Keep-Alive\r\n\r\n").request.keep_alive);
  EXPECT_FALSE(parse_mock_request("GET / HTTP/1.1\r\nConnection: upgrade, close\r\n\r\n")
                   .request.keep_alive);
}

TEST(MockRequestParser, AcceptsBareLineFeeds) {
  const MockRequestParse parsed = parse_mock_request("GET /health HTTP/1.1\nHost: a\n\n");
  ASSERT_EQ(parsed.status, Status::complete);
  EXPECT_EQ(parsed.request.path(), "/health");
}

TEST(MockRequestParser, ErrorsCarryTheStatusToAnswer) {
  auto error = [](const std::string& text) {
    const MockRequestParse parsed = parse_mock_request(text);
    EXPECT_EQ(parsed.status, Status::error) << text;
    return std::to_string(parsed.error_status) + " " + parsed.error;
  };
  EXPECT_EQ(error("GARBAGE\r\n\r\n"), "400 bad request line");
  EXPECT_EQ(error("GET / HTTP/2.0\r\n\r\n"), "505 only HTTP/1.0 and HTTP/1.1 are served");
  EXPECT_EQ(error("GET / HTTP/1.1\r\nno colon here\r\n\r\n"), "400 bad header line");
  EXPECT_EQ(error("POST / HTTP/1.1\r\nContent-Length: 12x\r\n\r\n"), "400 bad Content-Length");
  EXPECT_EQ(error("POST / HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n"),
            "400 two different Content-Length headers");
  EXPECT_EQ(error("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"),
            "501 chunked request bodies are not supported; send Content-Length");
  EXPECT_EQ(error("POST / HTTP/1.1\r\nContent-Length: 99999999\r\n\r\n"),
            "413 request body larger than 16 MiB");
  EXPECT_EQ(error("GET / HTTP/1.1\r\nX: " + std::string(70'000, 'a') + "\r\n\r\n"),
            "431 request head larger than 64 KiB");
  EXPECT_EQ(error("GET /" + std::string(70'000, 'a')), "431 request head larger than 64 KiB");
}

}  // namespace
}  // namespace gpuport
