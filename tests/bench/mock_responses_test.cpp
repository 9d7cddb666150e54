// The bytes the mock writes: every SSE payload is the JSON an OpenAI-compatible client expects,
// framed as one HTTP chunk; usage numbers; what is read from a generation request.
#include "bench/mock_responses.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <string>

namespace gpuport {
namespace {

using nlohmann::json;

// Strips one HTTP chunk's framing and the SSE "data: ...\n\n" around a payload.
std::string sse_payload(const std::string& framed) {
  const std::size_t crlf = framed.find("\r\n");
  const std::size_t size = std::stoul(framed.substr(0, crlf), nullptr, 16);
  EXPECT_EQ(framed.size(), crlf + 2 + size + 2);
  EXPECT_TRUE(framed.ends_with("\n\n\r\n"));
  const std::string event = framed.substr(crlf + 2, size);
  EXPECT_TRUE(event.starts_with("data: "));
  return event.substr(6, event.size() - 8);
}

MockResponseIdentity identity(MockEndpoint endpoint, const std::string& model_json) {
  MockResponseIdentity id;
  id.endpoint = endpoint;
  id.number = 7;
  id.created = 1700000000;
  id.model_json = model_json;
  id.usage_field = true;
  return id;
}

TEST(MockResponses, CompletionChunksAreOpenAiJson) {
  const std::string model = mock_json_quoted("m\"x");
  std::string out;
  append_sse_content_chunk(out, identity(MockEndpoint::completions, model), 3, false, false);
  const json chunk = json::parse(sse_payload(out));
  EXPECT_EQ(chunk["id"], "cmpl-mock-7");
  EXPECT_EQ(chunk["object"], "text_completion");
  EXPECT_EQ(chunk["model"], "m\"x");
  EXPECT_EQ(chunk["choices"][0]["text"], " tok tok tok");
  EXPECT_TRUE(chunk["choices"][0]["finish_reason"].is_null());
  EXPECT_TRUE(chunk.contains("usage") && chunk["usage"].is_null());

  out.clear();
  append_sse_content_chunk(out, identity(MockEndpoint::completions, model), 1, true, false);
  EXPECT_EQ(json::parse(sse_payload(out))["choices"][0]["finish_reason"], "length");
}

TEST(MockResponses, ChatChunksCarryDeltas) {
  const std::string model = mock_json_quoted("m");
  std::string out;
  append_sse_role_chunk(out, identity(MockEndpoint::chat, model));
  const json role = json::parse(sse_payload(out));
  EXPECT_EQ(role["object"], "chat.completion.chunk");
  EXPECT_EQ(role["choices"][0]["delta"]["role"], "assistant");
  EXPECT_EQ(role["choices"][0]["delta"]["content"], "");
  out.clear();
  append_sse_content_chunk(out, identity(MockEndpoint::chat, model), 1, false, false);
  EXPECT_EQ(json::parse(sse_payload(out))["choices"][0]["delta"]["content"], " tok");
}

TEST(MockResponses, UsageChunkHasEmptyChoicesAndTotals) {
  std::string out;
  append_sse_usage_chunk(out, identity(MockEndpoint::completions, mock_json_quoted("m")), 12, 30);
  const json usage = json::parse(sse_payload(out));
  EXPECT_TRUE(usage["choices"].empty());
  EXPECT_EQ(usage["usage"]["prompt_tokens"], 12);
  EXPECT_EQ(usage["usage"]["completion_tokens"], 30);
  EXPECT_EQ(usage["usage"]["total_tokens"], 42);
}

TEST(MockResponses, MalformedChunkIsFramedButNotJson) {
  std::string out;
  append_sse_content_chunk(out, identity(MockEndpoint::completions, mock_json_quoted("m")), 1,
                           false, true);
  EXPECT_TRUE(json::parse(sse_payload(out), nullptr, false).is_discarded());
}

TEST(MockResponses, DoneEndsTheChunkedBody) {
  std::string out;
  append_sse_done(out);
  EXPECT_EQ(out, "e\r\ndata: [DONE]\n\n\r\n0\r\n\r\n");
}

TEST(MockResponses, FullBodiesCarryTextAndUsage) {
  const json completion = json::parse(
      full_response_body(identity(MockEndpoint::completions, mock_json_quoted("m")), 5, 4));
  EXPECT_EQ(completion["choices"][0]["text"], " tok tok tok tok");
  EXPECT_EQ(completion["usage"]["completion_tokens"], 4);
  EXPECT_EQ(completion["usage"]["total_tokens"], 9);
  const json chat =
      json::parse(full_response_body(identity(MockEndpoint::chat, mock_json_quoted("m")), 5, 2));
  EXPECT_EQ(chat["object"], "chat.completion");
  EXPECT_EQ(chat["choices"][0]["message"]["content"], " tok tok");
}

TEST(MockResponses, HeadsSayLengthOrChunked) {
  std::string head;
  append_http_head(head, 429, "application/json", 10, true, "Retry-After: 1\r\n");
  EXPECT_EQ(head,
            "HTTP/1.1 429 Too Many Requests\r\nServer: gpuport-mock\r\nContent-Type: "
            "application/json\r\nContent-Length: 10\r\nConnection: keep-alive\r\nRetry-After: "
            "1\r\n\r\n");
  head.clear();
  append_http_head(head, 200, "text/event-stream", std::nullopt, false);
  EXPECT_NE(head.find("Transfer-Encoding: chunked\r\n"), std::string::npos);
  EXPECT_NE(head.find("Connection: close\r\n"), std::string::npos);
}

TEST(MockResponses, ErrorAndModelBodies) {
  const json error = json::parse(error_body(429, "slow \"down\""));
  EXPECT_EQ(error["error"]["message"], "slow \"down\"");
  EXPECT_EQ(error["error"]["type"], "RateLimitError");
  EXPECT_EQ(error["error"]["code"], 429);
  const json models = json::parse(models_body(mock_json_quoted("llama"), 1));
  EXPECT_EQ(models["data"][0]["id"], "llama");
}

TEST(MockGenerationRequest, ReadsStreamUsageLengthAndPromptWords) {
  auto completion = read_generation_request(
      R"({"prompt":"a b  c\nd","max_tokens":64,"stream":true,"stream_options":{"include_usage":true}})",
      MockEndpoint::completions);
  ASSERT_TRUE(completion);
  EXPECT_TRUE(completion->stream);
  EXPECT_TRUE(completion->include_usage);
  EXPECT_EQ(completion->max_tokens, 64);
  EXPECT_EQ(completion->prompt_tokens, 4);

  auto chat = read_generation_request(
      R"({"messages":[{"role":"system","content":"be brief"},)"
      R"({"role":"user","content":[{"type":"text","text":"one two three"}]}],"max_completion_tokens":5})",
      MockEndpoint::chat);
  ASSERT_TRUE(chat);
  EXPECT_FALSE(chat->stream);
  EXPECT_EQ(chat->max_tokens, 5);
  EXPECT_EQ(chat->prompt_tokens, 5);

  auto ids = read_generation_request(R"({"prompt":[1,2,3]})", MockEndpoint::completions);
  ASSERT_TRUE(ids);
  EXPECT_EQ(ids->prompt_tokens, 3);
  EXPECT_EQ(ids->max_tokens, std::nullopt);
}

TEST(MockGenerationRequest, BadBodiesSayWhy) {
  EXPECT_EQ(read_generation_request("{", MockEndpoint::completions).error(),
            "body is not valid JSON");
  EXPECT_EQ(read_generation_request("[]", MockEndpoint::completions).error(),
            "body is not a JSON object");
  EXPECT_EQ(read_generation_request(R"({"max_tokens":1})", MockEndpoint::completions).error(),
            "'prompt' is missing");
  EXPECT_EQ(read_generation_request(R"({"prompt":"x","max_tokens":0})", MockEndpoint::completions)
                .error(),
            "'max_tokens' must be a whole number from 1 to 1048576");
  EXPECT_EQ(read_generation_request(R"({"prompt":"x","stream":"yes"})", MockEndpoint::completions)
                .error(),
            "'stream' must be true or false");
  EXPECT_EQ(read_generation_request(R"({"messages":"hi"})", MockEndpoint::chat).error(),
            "'messages' must be a list");
}

}  // namespace
}  // namespace gpuport
