// Request bodies and the facts read back from responses of OpenAI-compatible servers (vLLM,
// SGLang, TGI's /v1 routes, llama.cpp, TensorRT-LLM's openai server).
#include "bench/openai_protocol.h"

#include <nlohmann/json.hpp>

namespace gpuport {

namespace {

using nlohmann::json;

// A JSON string's contents without the quotes; invalid UTF-8 is replaced, never an exception.
std::string escaped(std::string_view text) {
  const std::string quoted =
      json(std::string(text)).dump(-1, ' ', false, json::error_handler_t::replace);
  return quoted.substr(1, quoted.size() - 2);
}

void replace_all(std::string& text, std::string_view placeholder, std::string_view value) {
  for (std::size_t at = text.find(placeholder); at != std::string::npos;
       at = text.find(placeholder, at + value.size())) {
    text.replace(at, placeholder.size(), value);
  }
}

std::size_t string_bytes(const json& object, const char* key) {
  const auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get_ref<const std::string&>().size() : 0;
}

std::optional<TokenUsage> read_usage(const json& body) {
  const auto it = body.find("usage");
  if (it == body.end() || !it->is_object()) {
    return std::nullopt;
  }
  TokenUsage usage;
  const auto count = [&](const char* key) -> std::int64_t {
    const auto value = it->find(key);
    return value != it->end() && value->is_number_integer() && value->get<std::int64_t>() >= 0
               ? value->get<std::int64_t>()
               : -1;
  };
  usage.prompt_tokens = count("prompt_tokens");
  usage.completion_tokens = count("completion_tokens");
  return usage;
}

std::optional<std::string> read_error(const json& body) {
  const auto it = body.find("error");
  if (it == body.end() || it->is_null()) {
    return std::nullopt;
  }
  if (it->is_string()) {
    return it->get<std::string>();
  }
  if (it->is_object()) {
    const auto message = it->find("message");
    if (message != it->end() && message->is_string()) {
      return message->get<std::string>();
    }
  }
  return it->dump(-1, ' ', false, json::error_handler_t::replace);
}

// Text of a generic (non-OpenAI) response: Triton's text_output, TGI's generated_text or
// token.text, a plain "text"; 0 when none of them is there.
std::size_t generic_text_bytes(const json& body) {
  std::size_t bytes = string_bytes(body, "text_output") + string_bytes(body, "generated_text") +
                      string_bytes(body, "text");
  if (const auto token = body.find("token"); token != body.end() && token->is_object()) {
    bytes += string_bytes(*token, "text");
  }
  return bytes;
}

tl::expected<StreamChunk, std::string> read_body(std::string_view text, ApiKind kind,
                                                 const char* chat_field) {
  const json body = json::parse(text.begin(), text.end(), nullptr, false);
  if (body.is_discarded()) {
    return tl::unexpected(std::string("malformed JSON"));
  }
  if (!body.is_object()) {
    return tl::unexpected(std::string("JSON is not an object"));
  }
  StreamChunk chunk;
  chunk.usage = read_usage(body);
  chunk.error = read_error(body);
  if (kind == ApiKind::generic) {
    chunk.content_bytes = generic_text_bytes(body);
    chunk.has_content = !chunk.error;
    if (chunk.has_content && chunk.content_bytes == 0) {
      chunk.content_bytes = text.size();
    }
    return chunk;
  }
  const auto choices = body.find("choices");
  if (choices == body.end() || !choices->is_array()) {
    return chunk;
  }
  chunk.has_choices = !choices->empty();
  for (const json& choice : *choices) {
    if (!choice.is_object()) {
      continue;
    }
    if (kind == ApiKind::completions) {
      chunk.content_bytes += string_bytes(choice, "text");
    } else if (const auto part = choice.find(chat_field);
               part != choice.end() && part->is_object()) {
      chunk.content_bytes += string_bytes(*part, "content") +
                             string_bytes(*part, "reasoning_content") +
                             string_bytes(*part, "reasoning");
    }
  }
  chunk.has_content = chunk.content_bytes > 0;
  return chunk;
}

}  // namespace

std::string_view default_path(ApiKind kind) {
  switch (kind) {
    case ApiKind::completions:
      return "/v1/completions";
    case ApiKind::chat:
      return "/v1/chat/completions";
    case ApiKind::generic:
      return "/";
  }
  return "/";
}

std::string build_request_body(const GenerationRequest& request, std::string_view template_body) {
  if (request.kind == ApiKind::generic) {
    std::string body(template_body);
    replace_all(body, "{prompt}", escaped(request.prompt));
    replace_all(body, "{max_tokens}", std::to_string(request.max_tokens));
    replace_all(body, "{model}", escaped(request.model));
    return body;
  }
  // Written by hand rather than through a JSON tree: one copy of a long prompt, fixed key order.
  std::string body = "{\"model\":\"" + escaped(request.model) + "\",";
  if (request.kind == ApiKind::chat) {
    body += "\"messages\":[{\"role\":\"user\",\"content\":\"" + escaped(request.prompt) + "\"}],";
  } else {
    body += "\"prompt\":\"" + escaped(request.prompt) + "\",";
  }
  body += "\"max_tokens\":" + std::to_string(request.max_tokens);
  if (request.stream) {
    body += ",\"stream\":true,\"stream_options\":{\"include_usage\":true}";
  } else {
    body += ",\"stream\":false";
  }
  if (request.ignore_eos) {
    body += ",\"ignore_eos\":true";
  }
  body += "}";
  return body;
}

tl::expected<StreamChunk, std::string> parse_stream_chunk(std::string_view json, ApiKind kind) {
  return read_body(json, kind, "delta");
}

tl::expected<StreamChunk, std::string> parse_full_response(std::string_view json, ApiKind kind) {
  return read_body(json, kind, "message");
}

std::int64_t estimate_tokens(std::size_t text_bytes) {
  return static_cast<std::int64_t>((text_bytes + 3) / 4);
}

}  // namespace gpuport
