// ResponseInterpreter: how one exchange's bytes become a request record (no network).
#include <gtest/gtest.h>

#include "bench/response_interpreter.h"

namespace gpuport {
namespace {

HttpResponseHead head(int status, const std::string& content_type) {
  HttpResponseHead h;
  h.status = status;
  if (!content_type.empty()) {
    h.headers.emplace_back("content-type", content_type);
  }
  return h;
}

const char* k_token = "data: {\"choices\":[{\"index\":0,\"text\":\"abcd\"}]}\n\n";

TEST(ClientResponse, StreamedContentTimesGapsAndUsage) {
  ResponseInterpreter interpreter(ApiKind::completions, true);
  RequestRecord record;
  record.sent_ns = 100;
  interpreter.on_head(head(200, "text/event-stream; charset=utf-8"), 150, record);
  interpreter.on_body(": keep-alive comment\n\n", 160, record);
  interpreter.on_body(k_token, 1000, record);
  // Two events in one read share the read's time: the second gap is 0.
  interpreter.on_body(std::string(k_token) + k_token, 3000, record);
  interpreter.on_body(
      "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":11,"
      "\"completion_tokens\":3}}\n\ndata: [DONE]\n\n",
      3100, record);
  interpreter.on_done(RequestError::none, "", 3200, 99, record);
  EXPECT_EQ(record.error, RequestError::none) << record.error_detail;
  EXPECT_EQ(record.first_byte_ns, 150);
  EXPECT_EQ(record.first_token_ns, 1000);
  EXPECT_EQ(record.last_token_ns, 3000);
  EXPECT_EQ(record.done_ns, 3200);
  EXPECT_EQ(record.itl_ns, (std::vector<std::int64_t>{2000, 0}));
  EXPECT_EQ(record.content_chunks, 3u);
  EXPECT_EQ(record.output_tokens, 3);
  EXPECT_TRUE(record.output_tokens_from_usage);
  EXPECT_EQ(record.prompt_tokens, 11);
}

TEST(ClientResponse, WithoutUsageTokensAreEstimatedFromTheText) {
  ResponseInterpreter interpreter(ApiKind::completions, true);
  RequestRecord record;
  interpreter.on_head(head(200, "text/event-stream"), 1, record);
  interpreter.on_body(std::string(k_token) + k_token, 2, record);
  interpreter.on_done(RequestError::none, "", 3, 42, record);
  EXPECT_EQ(record.error, RequestError::none) << record.error_detail;
  EXPECT_EQ(record.output_tokens, estimate_tokens(8));
  EXPECT_FALSE(record.output_tokens_from_usage);
  EXPECT_EQ(record.prompt_tokens, 42);
  EXPECT_FALSE(record.prompt_tokens_from_usage);
}

TEST(ClientResponse, AnErrorStatusKeepsTheFirstLineOfTheBody) {
  ResponseInterpreter interpreter(ApiKind::chat, true);
  RequestRecord record;
  interpreter.on_head(head(429, "application/json"), 1, record);
  interpreter.on_body("{\"error\":\"rate limited\"}\nmore", 2, record);
  interpreter.on_done(RequestError::none, "", 3, 0, record);
  EXPECT_EQ(record.error, RequestError::http_status);
  EXPECT_EQ(record.http_status, 429);
  EXPECT_EQ(record.error_detail, "HTTP 429: {\"error\":\"rate limited\"}");
}

TEST(ClientResponse, AStreamWithoutContentIsAProtocolError) {
  ResponseInterpreter interpreter(ApiKind::completions, true);
  RequestRecord record;
  interpreter.on_head(head(200, "text/event-stream"), 1, record);
  interpreter.on_body("data: [DONE]\n\n", 2, record);
  interpreter.on_done(RequestError::none, "", 3, 0, record);
  EXPECT_EQ(record.error, RequestError::protocol);
  EXPECT_EQ(record.error_detail, "no content in the response");
}

TEST(ClientResponse, AnErrorObjectInTheStreamIsAProtocolError) {
  ResponseInterpreter interpreter(ApiKind::completions, true);
  RequestRecord record;
  interpreter.on_head(head(200, "text/event-stream"), 1, record);
  interpreter.on_body(k_token, 2, record);
  interpreter.on_body("data: {\"error\":{\"message\":\"out of memory\"}}\n\n", 3, record);
  interpreter.on_done(RequestError::none, "", 4, 0, record);
  EXPECT_EQ(record.error, RequestError::protocol);
  EXPECT_EQ(record.error_detail, "error from the server: out of memory");
}

TEST(ClientResponse, AWholeResponseHasItsContentAtTheEnd) {
  ResponseInterpreter interpreter(ApiKind::chat, false);
  RequestRecord record;
  interpreter.on_head(head(200, "application/json"), 10, record);
  interpreter.on_body("{\"choices\":[{\"message\":{\"role\":\"assistant\",", 20, record);
  interpreter.on_body(
      "\"content\":\"hi there\"}}],\"usage\":{\"prompt_tokens\":5,"
      "\"completion_tokens\":2}}",
      30, record);
  interpreter.on_done(RequestError::none, "", 40, 0, record);
  EXPECT_EQ(record.error, RequestError::none) << record.error_detail;
  EXPECT_EQ(record.first_token_ns, 40);  // TTFT equals E2EL without streaming
  EXPECT_EQ(record.last_token_ns, 40);
  EXPECT_EQ(record.output_tokens, 2);
}

TEST(ClientResponse, TransportErrorsKeepTheirKindAndDetail) {
  ResponseInterpreter interpreter(ApiKind::completions, true);
  RequestRecord record;
  interpreter.on_done(RequestError::connect, "connect to h:1: Connection refused", 5, 0, record);
  EXPECT_EQ(record.error, RequestError::connect);
  EXPECT_EQ(record.error_detail, "connect to h:1: Connection refused");
  EXPECT_EQ(record.done_ns, 5);
}

}  // namespace
}  // namespace gpuport
