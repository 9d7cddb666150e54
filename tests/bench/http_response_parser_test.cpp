// HttpResponseParser: framing by Content-Length, chunked coding and close, in every byte split;
// keep-alive; and the one-line errors a broken server gets.
#include "bench/http_response_parser.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace gpuport {
namespace {

struct Parsed {
  std::string body;
  std::size_t used = 0;
  std::vector<std::string> pieces;
};

Parsed feed_all(HttpResponseParser& parser, std::string_view bytes) {
  Parsed parsed;
  parsed.used = parser.feed(bytes, [&](std::string_view piece) {
    parsed.body.append(piece);
    parsed.pieces.emplace_back(piece);
  });
  return parsed;
}

// Feeds `bytes` split at every position into two parts and returns the bodies (all equal).
void expect_every_split_gives(std::string_view bytes, std::string_view body, int status) {
  for (std::size_t split = 0; split <= bytes.size(); ++split) {
    HttpResponseParser parser;
    std::string seen;
    const auto sink = [&](std::string_view piece) { seen.append(piece); };
    std::size_t used = parser.feed(bytes.substr(0, split), sink);
    if (!parser.done()) {
      used += parser.feed(bytes.substr(split), sink);
    }
    ASSERT_TRUE(parser.done()) << "split " << split << ": " << parser.error();
    EXPECT_EQ(used, bytes.size()) << "split " << split;
    EXPECT_EQ(seen, body) << "split " << split;
    EXPECT_EQ(parser.head().status, status);
  }
}

TEST(HttpResponseParser, ContentLengthBodyInEverySplit) {
  expect_every_split_gives(
      "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: "
      "11\r\n\r\n{\"a\":\"bcd\"}",
      "{\"a\":\"bcd\"}", 200);
}

TEST(HttpResponseParser, ChunkedBodyWithExtensionsAndTrailersInEverySplit) {
  expect_every_split_gives(
      "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
      "5;name=value\r\nhello\r\n1A\r\nabcdefghijklmnopqrstuvwxyz\r\n0\r\nX-Trailer: 1\r\n\r\n",
      "helloabcdefghijklmnopqrstuvwxyz", 200);
}

TEST(HttpResponseParser, BareLineFeedsAreAccepted) {
  expect_every_split_gives("HTTP/1.1 404 Not Found\nContent-Length: 3\n\nnop", "nop", 404);
  expect_every_split_gives("HTTP/1.1 200 OK\nTransfer-Encoding: chunked\n\n2\nab\n0\n\n", "ab",
                           200);
}

TEST(HttpResponseParser, HeadFieldsAreReadAndLookedUpIgnoringCase) {
  HttpResponseParser parser;
  feed_all(parser,
           "HTTP/1.1 429 Too Many Requests\r\nRetry-After:  3 \r\ncontent-length: 0\r\n\r\n");
  ASSERT_TRUE(parser.done());
  const HttpResponseHead& head = parser.head();
  EXPECT_EQ(head.status, 429);
  EXPECT_EQ(head.reason, "Too Many Requests");
  EXPECT_EQ(head.minor_version, 1);
  ASSERT_NE(head.header("retry-after"), nullptr);
  EXPECT_EQ(*head.header("RETRY-AFTER"), "3");
  EXPECT_EQ(head.header("x-missing"), nullptr);
  EXPECT_EQ(head.content_length, 0u);
  EXPECT_TRUE(head.keep_alive);
  EXPECT_EQ(head.headers.front().first, "Retry-After");
}

TEST(HttpResponseParser, StreamedChunksReachTheSinkAsTheyArrive) {
  HttpResponseParser parser;
  auto first = feed_all(parser,
                        "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"
                        "Transfer-Encoding: chunked\r\n\r\n6\r\ndata: ");
  EXPECT_EQ(first.body, "data: ");
  EXPECT_TRUE(parser.head_complete());
  EXPECT_FALSE(parser.done());
  auto second = feed_all(parser, "\r\n1\r\n1\r\n");
  EXPECT_EQ(second.body, "1");
  EXPECT_EQ(parser.body_bytes(), 7u);
}

TEST(HttpResponseParser, KeepAliveLeavesTheNextResponsesBytes) {
  const std::string two =
      "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nabHTTP/1.1 201 Created\r\nContent-Length: "
      "1\r\n\r\nc";
  HttpResponseParser parser;
  auto first = feed_all(parser, two);
  ASSERT_TRUE(parser.done());
  EXPECT_EQ(first.body, "ab");
  EXPECT_EQ(first.used, 40u);
  EXPECT_EQ(parser.feed("more", nullptr), 0u);  // done: nothing more is taken
  parser.reset();
  auto second = feed_all(parser, std::string_view(two).substr(first.used));
  ASSERT_TRUE(parser.done());
  EXPECT_EQ(parser.head().status, 201);
  EXPECT_EQ(second.body, "c");
}

TEST(HttpResponseParser, ConnectionCloseAndHttp10EndKeepAlive) {
  HttpResponseParser a;
  feed_all(a, "HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 0\r\n\r\n");
  EXPECT_FALSE(a.head().keep_alive);
  HttpResponseParser b;
  feed_all(b, "HTTP/1.0 200 OK\r\nContent-Length: 0\r\n\r\n");
  EXPECT_FALSE(b.head().keep_alive);
  EXPECT_EQ(b.head().minor_version, 0);
  HttpResponseParser c;
  feed_all(c, "HTTP/1.0 200 OK\r\nConnection: Keep-Alive\r\nContent-Length: 0\r\n\r\n");
  EXPECT_TRUE(c.head().keep_alive);
}

TEST(HttpResponseParser, BodyWithoutLengthEndsAtClose) {
  HttpResponseParser parser;
  auto parsed = feed_all(parser, "HTTP/1.1 200 OK\r\n\r\nuntil the end");
  EXPECT_FALSE(parser.done());
  EXPECT_FALSE(parser.head().keep_alive);
  parser.on_eof();
  EXPECT_TRUE(parser.done());
  EXPECT_EQ(parsed.body, "until the end");
}

TEST(HttpResponseParser, NoBodyFor204And304AndInterimResponsesAreSkipped) {
  HttpResponseParser a;
  feed_all(a, "HTTP/1.1 204 No Content\r\n\r\n");
  EXPECT_TRUE(a.done());
  HttpResponseParser b;
  auto parsed =
      feed_all(b, "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\nx");
  EXPECT_TRUE(b.done());
  EXPECT_EQ(b.head().status, 200);
  EXPECT_EQ(parsed.body, "x");
}

TEST(HttpResponseParser, TransferEncodingOverridesContentLength) {
  HttpResponseParser parser;
  auto parsed =
      feed_all(parser,
               "HTTP/1.1 200 OK\r\nContent-Length: 100\r\nTransfer-Encoding: chunked\r\n\r\n"
               "1\r\nz\r\n0\r\n\r\n");
  EXPECT_TRUE(parser.done());
  EXPECT_EQ(parsed.body, "z");
  EXPECT_FALSE(parser.head().content_length.has_value());
}

std::string error_of(std::string_view bytes, bool eof = false) {
  HttpResponseParser parser;
  parser.feed(bytes, nullptr);
  if (eof) {
    parser.on_eof();
  }
  EXPECT_TRUE(parser.failed()) << bytes;
  EXPECT_EQ(parser.feed("HTTP/1.1 200 OK\r\n\r\n", nullptr), 0u);
  return parser.error();
}

TEST(HttpResponseParser, BrokenResponsesFailWithOneLineReasons) {
  EXPECT_EQ(error_of("HTTP/2 200 OK\r\n\r\n"), "bad status line");
  EXPECT_EQ(error_of("HTTP/1.1 2x0 OK\r\n\r\n"), "bad status line");
  EXPECT_EQ(error_of("SSH-2.0-OpenSSH_9.2\r\n\r\n"), "bad status line");
  EXPECT_EQ(error_of("HTTP/1.1 200 OK\r\nno colon here\r\n\r\n"), "bad header line 2");
  EXPECT_EQ(error_of("HTTP/1.1 200 OK\r\nContent-Length: 12a\r\n\r\n"), "bad Content-Length");
  EXPECT_EQ(error_of("HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n"),
            "conflicting Content-Length headers");
  EXPECT_EQ(error_of("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n"),
            "chunk size is not hexadecimal");
  EXPECT_EQ(error_of("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1 x\r\n"),
            "chunk size is not hexadecimal");
  EXPECT_EQ(error_of("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nFFFFFFFFFFFFFFFF\r\n"),
            "chunk size too large");
  EXPECT_EQ(error_of("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nabc"),
            "missing CRLF after chunk data");
  EXPECT_EQ(
      error_of("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n" + std::string(5000, '1')),
      "chunk size line longer than 4 KiB");
  EXPECT_EQ(error_of("HTTP/1.1 200 OK\r\nX: " + std::string(70'000, 'a')),
            "response head longer than 64 KiB");
  EXPECT_EQ(error_of("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc", true),
            "connection closed before the end of the response");
  EXPECT_EQ(error_of("HTTP/1.1 200", true), "connection closed before the end of the response");
  EXPECT_EQ(error_of("", true), "connection closed before any response");
}

TEST(HttpResponseParser, ByteAtATimeChunkedStream) {
  const std::string bytes =
      "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
      "f\r\ndata: {\"a\":1}\n\n\r\ne\r\ndata: [DONE]\n\n\r\n0\r\n\r\n";
  HttpResponseParser parser;
  std::string body;
  std::size_t used = 0;
  for (char c : bytes) {
    used += parser.feed(std::string_view(&c, 1), [&](std::string_view p) { body.append(p); });
  }
  EXPECT_TRUE(parser.done());
  EXPECT_EQ(used, bytes.size());
  EXPECT_EQ(body, "data: {\"a\":1}\n\ndata: [DONE]\n\n");
}

}  // namespace
}  // namespace gpuport
