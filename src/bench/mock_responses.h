// The bytes the mock server writes: HTTP heads, chunked framing, the OpenAI-compatible SSE chunks
// and whole JSON bodies, error bodies, /v1/models; and what it reads from a generation request.
// Built by hand rather than through a JSON library: one chunk per token must stay cheap.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <tl/expected.hpp>

namespace gpuport {

enum class MockEndpoint { completions, chat };

// Each generated token is this 4-byte text, so estimate_tokens() (4 bytes per token) of the
// output matches the token count exactly.
inline constexpr std::string_view k_mock_token_text = " tok";

struct MockGenerationRequest {
  bool stream = false;
  bool include_usage = false;              // stream_options.include_usage
  std::optional<std::int64_t> max_tokens;  // max_tokens, or max_completion_tokens (chat)
  std::int64_t prompt_tokens = 0;          // whitespace-separated words of the prompt/messages
};

inline constexpr std::int64_t k_mock_max_output_tokens = 1 << 20;

// Errors are the message of a 400 answer, e.g. "body is not valid JSON".
tl::expected<MockGenerationRequest, std::string> read_generation_request(std::string_view body,
                                                                         MockEndpoint endpoint);

std::string_view reason_phrase(int status);

// `content_length` nullopt: `Transfer-Encoding: chunked`. `extra_headers` are complete lines,
// each ending in CRLF.
void append_http_head(std::string& out, int status, std::string_view content_type,
                      std::optional<std::size_t> content_length, bool keep_alive,
                      std::string_view extra_headers = {});
// One chunk of the chunked transfer coding; and the last chunk that ends the body.
void append_http_chunk(std::string& out, std::string_view data);
void append_http_last_chunk(std::string& out);

// A JSON string literal, quotes included.
std::string mock_json_quoted(std::string_view text);

// What every chunk of one response repeats.
struct MockResponseIdentity {
  MockEndpoint endpoint = MockEndpoint::completions;
  std::uint64_t number = 0;     // the request number: "cmpl-mock-7"
  std::int64_t created = 0;     // Unix time
  std::string_view model_json;  // the model name as a JSON string literal
  bool usage_field = false;     // include_usage asked: content chunks carry "usage":null
};

// SSE events, each already framed as one HTTP chunk.
// The first chat event: the assistant role and empty content (no generated text yet).
void append_sse_role_chunk(std::string& out, const MockResponseIdentity& id);
// `tokens` tokens of text; `last` sets finish_reason "length". `malformed` cuts the JSON short.
void append_sse_content_chunk(std::string& out, const MockResponseIdentity& id, std::int64_t tokens,
                              bool last, bool malformed);
void append_sse_usage_chunk(std::string& out, const MockResponseIdentity& id,
                            std::int64_t prompt_tokens, std::int64_t completion_tokens);
// `data: [DONE]` and the end of the chunked body.
void append_sse_done(std::string& out);

// A whole (non-streaming) completion or chat completion with its usage.
std::string full_response_body(const MockResponseIdentity& id, std::int64_t prompt_tokens,
                               std::int64_t completion_tokens);
// {"error":{"message":...,"type":...,"code":status}} as OpenAI-compatible servers answer.
std::string error_body(int status, std::string_view message);
std::string models_body(std::string_view model_json, std::int64_t created);

}  // namespace gpuport
