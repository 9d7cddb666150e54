// The OpenAI-compatible wire format as a load generator needs it: request bodies for
// /v1/completions and /v1/chat/completions (streaming with `stream_options.include_usage`, or
// not), and the few facts read back from each streamed chunk or whole response: whether it
// carries generated content, and the `usage` token counts. Generic JSON POST bodies (KServe v2
// and the like) come from a template file with {prompt} / {max_tokens} placeholders.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <tl/expected.hpp>

namespace gpuport {

enum class ApiKind { completions, chat, generic };

// "completions" -> /v1/completions and so on; the default path for each kind.
std::string_view default_path(ApiKind kind);

struct GenerationRequest {
  ApiKind kind = ApiKind::completions;
  std::string model;
  std::string prompt;  // the text; JSON-escaped by the builder
  std::int64_t max_tokens = 128;
  bool stream = true;
  bool ignore_eos = false;  // vLLM/SGLang extension; sent only when true
};

// The JSON body. For `generic`, `template_body` is the file's text with {prompt} (inserted as a
// JSON string without quotes added: the template supplies them), {max_tokens} and {model}
// replaced; otherwise it is ignored.
std::string build_request_body(const GenerationRequest& request,
                               std::string_view template_body = {});

struct TokenUsage {
  std::int64_t prompt_tokens = -1;      // -1: not reported
  std::int64_t completion_tokens = -1;  // -1: not reported
};

// What one SSE `data:` payload (not "[DONE]") says.
struct StreamChunk {
  bool has_choices = false;
  // Generated text in this chunk: choices[].text (completions) or choices[].delta.content /
  // delta.reasoning_content (chat) non-empty. A role-only first delta has none.
  bool has_content = false;
  std::size_t content_bytes = 0;
  std::optional<TokenUsage> usage;
  // An `{"error": ...}` object sent in the stream; its message.
  std::optional<std::string> error;
};

// Parses one chunk; malformed JSON or a chunk that is not an object is an error (a protocol
// error for the request). Must be cheap: it runs for every streamed token.
tl::expected<StreamChunk, std::string> parse_stream_chunk(std::string_view json, ApiKind kind);

// A whole (non-streaming) response body: content presence and usage; for `generic` any JSON
// object is accepted and only `usage` is looked for.
tl::expected<StreamChunk, std::string> parse_full_response(std::string_view json, ApiKind kind);

// The documented approximation used when the server reports no usage: one token per 4 bytes of
// generated text, at least 1 when any text came back.
std::int64_t estimate_tokens(std::size_t text_bytes);

}  // namespace gpuport
