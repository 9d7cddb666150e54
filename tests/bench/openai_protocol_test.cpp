// OpenAI-compatible bodies and chunk facts: what counts as content (TTFT/ITL depend on it),
// usage token counts, in-stream errors, generic templates.
#include "bench/openai_protocol.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace gpuport {
namespace {

using nlohmann::json;

TEST(OpenAiProtocol, DefaultPaths) {
  EXPECT_EQ(default_path(ApiKind::completions), "/v1/completions");
  EXPECT_EQ(default_path(ApiKind::chat), "/v1/chat/completions");
  EXPECT_EQ(default_path(ApiKind::generic), "/");
}

TEST(OpenAiProtocol, StreamingCompletionsBodyAsksForUsage) {
  GenerationRequest request;
  request.model = "meta-llama/Llama-3.1-8B";
  request.prompt = "say \"hi\"\n\ttab";
  request.max_tokens = 64;
  request.ignore_eos = true;
  const std::string body = build_request_body(request);
  EXPECT_EQ(body,
            "{\"model\":\"meta-llama/Llama-3.1-8B\",\"prompt\":\"say \\\"hi\\\"\\n\\ttab\","
            "\"max_tokens\":64,\"stream\":true,\"stream_options\":{\"include_usage\":true},"
            "\"ignore_eos\":true}");
  EXPECT_EQ(json::parse(body)["prompt"], "say \"hi\"\n\ttab");
}

TEST(OpenAiProtocol, NonStreamingChatBodyHasOneUserMessage) {
  GenerationRequest request;
  request.kind = ApiKind::chat;
  request.model = "m";
  request.prompt = "hello";
  request.stream = false;
  EXPECT_EQ(build_request_body(request),
            "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"hello\"}],"
            "\"max_tokens\":128,\"stream\":false}");
}

TEST(OpenAiProtocol, InvalidUtf8InAPromptStillGivesValidJson) {
  GenerationRequest request;
  request.prompt = "bad \xff byte";
  EXPECT_FALSE(json::parse(build_request_body(request), nullptr, false).is_discarded());
}

TEST(OpenAiProtocol, GenericTemplateFillsEveryPlaceholder) {
  GenerationRequest request;
  request.kind = ApiKind::generic;
  request.model = "ensemble";
  request.prompt = "a \"quoted\" prompt";
  request.max_tokens = 32;
  const std::string body = build_request_body(
      request,
      "{\"text_input\":\"{prompt}\",\"max_tokens\":{max_tokens},\"m\":\"{model}\","
      "\"again\":\"{prompt}\"}");
  EXPECT_EQ(body,
            "{\"text_input\":\"a \\\"quoted\\\" prompt\",\"max_tokens\":32,\"m\":\"ensemble\","
            "\"again\":\"a \\\"quoted\\\" prompt\"}");
}

TEST(OpenAiProtocol, ChatRoleOnlyDeltaIsNotContent) {
  const auto role = parse_stream_chunk(
      R"({"id":"c","choices":[{"index":0,"delta":{"role":"assistant","content":""}}]})",
      ApiKind::chat);
  ASSERT_TRUE(role.has_value());
  EXPECT_TRUE(role->has_choices);
  EXPECT_FALSE(role->has_content);
  const auto text = parse_stream_chunk(
      R"({"choices":[{"index":0,"delta":{"content":"Hello"},"finish_reason":null}],"usage":null})",
      ApiKind::chat);
  ASSERT_TRUE(text.has_value());
  EXPECT_TRUE(text->has_content);
  EXPECT_EQ(text->content_bytes, 5u);
  EXPECT_FALSE(text->usage.has_value());
}

TEST(OpenAiProtocol, ReasoningContentCountsAsContent) {
  const auto chunk =
      parse_stream_chunk(R"({"choices":[{"delta":{"reasoning_content":"think"}}]})", ApiKind::chat);
  ASSERT_TRUE(chunk.has_value());
  EXPECT_TRUE(chunk->has_content);
  EXPECT_EQ(chunk->content_bytes, 5u);
}

TEST(OpenAiProtocol, CompletionsTextAndTheFinalUsageChunk) {
  const auto text = parse_stream_chunk(
      R"({"object":"text_completion","choices":[{"index":0,"text":" world","finish_reason":null}]})",
      ApiKind::completions);
  ASSERT_TRUE(text.has_value());
  EXPECT_TRUE(text->has_content);
  EXPECT_EQ(text->content_bytes, 6u);
  const auto usage = parse_stream_chunk(
      R"({"choices":[],"usage":{"prompt_tokens":12,"completion_tokens":2,"total_tokens":14}})",
      ApiKind::completions);
  ASSERT_TRUE(usage.has_value());
  EXPECT_FALSE(usage->has_choices);
  EXPECT_FALSE(usage->has_content);
  ASSERT_TRUE(usage->usage.has_value());
  EXPECT_EQ(usage->usage->prompt_tokens, 12);
  EXPECT_EQ(usage->usage->completion_tokens, 2);
}

TEST(OpenAiProtocol, UsageFieldsThatAreNotCountsAreUnreported) {
  const auto chunk = parse_stream_chunk(
      R"({"usage":{"prompt_tokens":"12","completion_tokens":-3}})", ApiKind::completions);
  ASSERT_TRUE(chunk.has_value());
  ASSERT_TRUE(chunk->usage.has_value());
  EXPECT_EQ(chunk->usage->prompt_tokens, -1);
  EXPECT_EQ(chunk->usage->completion_tokens, -1);
}

TEST(OpenAiProtocol, ErrorObjectInTheStream) {
  const auto chunk = parse_stream_chunk(
      R"({"error":{"message":"KV cache full","type":"server_error","code":500}})", ApiKind::chat);
  ASSERT_TRUE(chunk.has_value());
  EXPECT_EQ(chunk->error, "KV cache full");
  EXPECT_FALSE(chunk->has_content);
  EXPECT_EQ(parse_stream_chunk(R"({"error":"overloaded"})", ApiKind::chat)->error, "overloaded");
}

TEST(OpenAiProtocol, MalformedChunksAreErrors) {
  EXPECT_EQ(parse_stream_chunk("{\"choices\":[", ApiKind::chat).error(), "malformed JSON");
  EXPECT_EQ(parse_stream_chunk("[1,2]", ApiKind::chat).error(), "JSON is not an object");
  EXPECT_EQ(parse_stream_chunk("", ApiKind::completions).error(), "malformed JSON");
  EXPECT_EQ(parse_stream_chunk("{\"a\":\"\xff\"}", ApiKind::completions).error(), "malformed JSON");
  // Odd but well-formed shapes are not errors, just no content.
  const auto odd = parse_stream_chunk(R"({"choices":[1,null,{"delta":5}]})", ApiKind::chat);
  ASSERT_TRUE(odd.has_value());
  EXPECT_FALSE(odd->has_content);
}

TEST(OpenAiProtocol, FullResponses) {
  const auto chat = parse_full_response(
      R"({"choices":[{"message":{"role":"assistant","content":"Hi there"}}],"usage":{"prompt_tokens":5,"completion_tokens":3}})",
      ApiKind::chat);
  ASSERT_TRUE(chat.has_value());
  EXPECT_TRUE(chat->has_content);
  EXPECT_EQ(chat->content_bytes, 8u);
  EXPECT_EQ(chat->usage->completion_tokens, 3);
  const auto kserve = parse_full_response(
      R"({"model_name":"m","outputs":[{"name":"OUT","shape":[1],"datatype":"FP32","data":[0.5]}]})",
      ApiKind::generic);
  ASSERT_TRUE(kserve.has_value());
  EXPECT_TRUE(kserve->has_content);
  EXPECT_FALSE(kserve->usage.has_value());
  const auto triton = parse_full_response(R"({"text_output":"abcdefgh"})", ApiKind::generic);
  EXPECT_EQ(triton->content_bytes, 8u);
}

TEST(OpenAiProtocol, OnlyTheTopLevelKeysCount) {
  // "usage", "error" and "choices" nested in other objects are not the response's own.
  const auto nested = parse_stream_chunk(
      R"({"meta":{"usage":{"prompt_tokens":9},"error":"x","choices":[{"text":"abc"}]},)"
      R"("choices":[{"text":"hello","logprobs":{"text":"ignored"}}]})",
      ApiKind::completions);
  ASSERT_TRUE(nested.has_value());
  EXPECT_FALSE(nested->usage.has_value());
  EXPECT_FALSE(nested->error.has_value());
  EXPECT_EQ(nested->content_bytes, 5u);
  // A repeated key keeps its last value, as a JSON object does.
  const auto repeated = parse_stream_chunk(
      R"({"choices":[{"text":"first"}],"usage":null,"choices":[{"text":"ab"}],"error":null})",
      ApiKind::completions);
  ASSERT_TRUE(repeated.has_value());
  EXPECT_EQ(repeated->content_bytes, 2u);
  EXPECT_FALSE(repeated->usage.has_value());
  EXPECT_FALSE(repeated->error.has_value());
  // Large or fractional counts are not counts.
  const auto counts = parse_stream_chunk(
      R"({"usage":{"prompt_tokens":18446744073709551615,"completion_tokens":2.5}})", ApiKind::chat);
  ASSERT_TRUE(counts.has_value());
  EXPECT_EQ(counts->usage->prompt_tokens, -1);
  EXPECT_EQ(counts->usage->completion_tokens, -1);
}

TEST(OpenAiProtocol, ErrorsWithoutAMessageStringAreShownAsJson) {
  EXPECT_EQ(parse_stream_chunk(R"({"error":{"code":503}})", ApiKind::chat)->error,
            R"({"code":503})");
  EXPECT_EQ(parse_stream_chunk(R"({"error":{"message":7}})", ApiKind::chat)->error,
            R"({"message":7})");
  EXPECT_EQ(parse_stream_chunk(R"({"error":true})", ApiKind::chat)->error, "true");
  const auto generic = parse_full_response(R"({"error":[1,2]})", ApiKind::generic);
  ASSERT_TRUE(generic.has_value());
  EXPECT_EQ(generic->error, "[1,2]");
  EXPECT_FALSE(generic->has_content);
}

TEST(OpenAiProtocol, GenericTextFieldsAddUp) {
  const auto tgi =
      parse_full_response(R"({"generated_text":"abcd","token":{"text":"xy"}})", ApiKind::generic);
  ASSERT_TRUE(tgi.has_value());
  EXPECT_EQ(tgi->content_bytes, 6u);
  EXPECT_TRUE(tgi->has_content);
}

TEST(OpenAiProtocol, PlainPromptsAndEscapedOnesGiveTheSameJsonText) {
  GenerationRequest request;
  request.model = "m";
  request.prompt = "plain words";
  EXPECT_NE(build_request_body(request).find(R"("prompt":"plain words")"), std::string::npos);
  request.prompt = "say \"hi\"\n\tand \\ then\x01";
  EXPECT_NE(build_request_body(request).find(R"("prompt":"say \"hi\"\n\tand \\ then\u0001")"),
            std::string::npos);
}

TEST(OpenAiProtocol, TokenEstimateIsOnePer4BytesRoundedUp) {
  EXPECT_EQ(estimate_tokens(0), 0);
  EXPECT_EQ(estimate_tokens(1), 1);
  EXPECT_EQ(estimate_tokens(4), 1);
  EXPECT_EQ(estimate_tokens(5), 2);
  EXPECT_EQ(estimate_tokens(400), 100);
}

}  // namespace
}  // namespace gpuport
