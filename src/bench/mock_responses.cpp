#include "bench/mock_responses.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cctype>
#include <iterator>

namespace gpuport {

namespace {

using nlohmann::json;

std::int64_t count_words(std::string_view text) {
  std::int64_t words = 0;
  bool in_word = false;
  for (const char c : text) {
    const bool space = std::isspace(static_cast<unsigned char>(c)) != 0;
    if (!space && !in_word) {
      ++words;
    }
    in_word = !space;
  }
  return words;
}

// A prompt: a string, a list of strings, a list of token ids, or a list of such lists.
std::int64_t prompt_words(const json& prompt) {
  if (prompt.is_string()) {
    return count_words(prompt.get_ref<const std::string&>());
  }
  if (prompt.is_number_integer()) {
    return 1;
  }
  std::int64_t total = 0;
  if (prompt.is_array()) {
    for (const json& item : prompt) {
      total += prompt_words(item);
    }
  }
  return total;
}

// A chat message's content: a string or a list of {type: "text", text: ...} parts.
std::int64_t content_words(const json& content) {
  if (content.is_string()) {
    return count_words(content.get_ref<const std::string&>());
  }
  std::int64_t total = 0;
  if (content.is_array()) {
    for (const json& part : content) {
      if (part.is_object()) {
        if (auto text = part.find("text"); text != part.end() && text->is_string()) {
          total += count_words(text->get_ref<const std::string&>());
        }
      }
    }
  }
  return total;
}

std::string_view object_name(const MockResponseIdentity& id, bool chunk) {
  if (id.endpoint == MockEndpoint::chat) {
    return chunk ? "chat.completion.chunk" : "chat.completion";
  }
  return "text_completion";
}

std::string_view id_prefix(const MockResponseIdentity& id) {
  return id.endpoint == MockEndpoint::chat ? "chatcmpl-mock-" : "cmpl-mock-";
}

void append_chunk_prefix(std::string& json_text, const MockResponseIdentity& id) {
  fmt::format_to(std::back_inserter(json_text),
                 R"({{"id":"{}{}","object":"{}","created":{},"model":{},"choices":[)",
                 id_prefix(id), id.number, object_name(id, true), id.created, id.model_json);
}

void append_tokens(std::string& out, std::int64_t tokens) {
  for (std::int64_t i = 0; i < tokens; ++i) {
    out += k_mock_token_text;
  }
}

void append_sse_event(std::string& out, std::string_view payload) {
  // "data: " + payload + "\n\n" as one HTTP chunk.
  fmt::format_to(std::back_inserter(out), "{:x}\r\ndata: ", payload.size() + 8);
  out += payload;
  out += "\n\n\r\n";
}

}  // namespace

tl::expected<MockGenerationRequest, std::string> read_generation_request(std::string_view body,
                                                                         MockEndpoint endpoint) {
  json request = json::parse(body, nullptr, false);
  if (request.is_discarded()) {
    return tl::unexpected(std::string("body is not valid JSON"));
  }
  if (!request.is_object()) {
    return tl::unexpected(std::string("body is not a JSON object"));
  }
  MockGenerationRequest result;
  if (auto stream = request.find("stream"); stream != request.end() && !stream->is_null()) {
    if (!stream->is_boolean()) {
      return tl::unexpected(std::string("'stream' must be true or false"));
    }
    result.stream = stream->get<bool>();
  }
  if (auto options = request.find("stream_options");
      options != request.end() && options->is_object()) {
    if (auto usage = options->find("include_usage"); usage != options->end()) {
      result.include_usage = usage->is_boolean() && usage->get<bool>();
    }
  }
  for (const char* key : {"max_completion_tokens", "max_tokens"}) {
    auto value = request.find(key);
    if (value == request.end() || value->is_null()) {
      continue;
    }
    if (!value->is_number_integer() || value->get<std::int64_t>() < 1 ||
        value->get<std::int64_t>() > k_mock_max_output_tokens) {
      return tl::unexpected(
          fmt::format("'{}' must be a whole number from 1 to {}", key, k_mock_max_output_tokens));
    }
    result.max_tokens = value->get<std::int64_t>();
    break;
  }
  if (endpoint == MockEndpoint::completions) {
    auto prompt = request.find("prompt");
    if (prompt == request.end()) {
      return tl::unexpected(std::string("'prompt' is missing"));
    }
    result.prompt_tokens = prompt_words(*prompt);
  } else {
    auto messages = request.find("messages");
    if (messages == request.end() || !messages->is_array()) {
      return tl::unexpected(std::string("'messages' must be a list"));
    }
    for (const json& message : *messages) {
      if (message.is_object()) {
        if (auto content = message.find("content"); content != message.end()) {
          result.prompt_tokens += content_words(*content);
        }
      }
    }
  }
  return result;
}

std::string_view reason_phrase(int status) {
  switch (status) {
    case 200:
      return "OK";
    case 400:
      return "Bad Request";
    case 404:
      return "Not Found";
    case 405:
      return "Method Not Allowed";
    case 413:
      return "Content Too Large";
    case 429:
      return "Too Many Requests";
    case 431:
      return "Request Header Fields Too Large";
    case 500:
      return "Internal Server Error";
    case 501:
      return "Not Implemented";
    case 505:
      return "HTTP Version Not Supported";
    default:
      return "Unknown";
  }
}

void append_http_head(std::string& out, int status, std::string_view content_type,
                      std::optional<std::size_t> content_length, bool keep_alive,
                      std::string_view extra_headers) {
  auto it = std::back_inserter(out);
  fmt::format_to(it, "HTTP/1.1 {} {}\r\nServer: gpuport-mock\r\n", status, reason_phrase(status));
  if (!content_type.empty()) {
    fmt::format_to(it, "Content-Type: {}\r\n", content_type);
  }
  if (content_length) {
    fmt::format_to(it, "Content-Length: {}\r\n", *content_length);
  } else {
    out += "Transfer-Encoding: chunked\r\nCache-Control: no-cache\r\n";
  }
  out += keep_alive ? "Connection: keep-alive\r\n" : "Connection: close\r\n";
  out += extra_headers;
  out += "\r\n";
}

void append_http_chunk(std::string& out, std::string_view data) {
  fmt::format_to(std::back_inserter(out), "{:x}\r\n", data.size());
  out += data;
  out += "\r\n";
}

void append_http_last_chunk(std::string& out) {
  out += "0\r\n\r\n";
}

std::string mock_json_quoted(std::string_view text) {
  return json(std::string(text)).dump(-1, ' ', false, json::error_handler_t::replace);
}

void append_sse_role_chunk(std::string& out, const MockResponseIdentity& id) {
  std::string payload;
  append_chunk_prefix(payload, id);
  payload += R"({"index":0,"delta":{"role":"assistant","content":""},"logprobs":null,)"
             R"("finish_reason":null}])";
  payload += id.usage_field ? R"(,"usage":null})" : "}";
  append_sse_event(out, payload);
}

void append_sse_content_chunk(std::string& out, const MockResponseIdentity& id, std::int64_t tokens,
                              bool last, bool malformed) {
  std::string payload;
  payload.reserve(200 + static_cast<std::size_t>(tokens) * k_mock_token_text.size());
  append_chunk_prefix(payload, id);
  payload += id.endpoint == MockEndpoint::chat ? R"({"index":0,"delta":{"content":")"
                                               : R"({"index":0,"text":")";
  append_tokens(payload, tokens);
  if (malformed) {
    append_sse_event(out, payload);  // the string, the choice and the object never close
    return;
  }
  payload += id.endpoint == MockEndpoint::chat ? "\"}," : "\",";
  payload += last ? R"("logprobs":null,"finish_reason":"length"}])"
                  : R"("logprobs":null,"finish_reason":null}])";
  payload += id.usage_field ? R"(,"usage":null})" : "}";
  append_sse_event(out, payload);
}

void append_sse_usage_chunk(std::string& out, const MockResponseIdentity& id,
                            std::int64_t prompt_tokens, std::int64_t completion_tokens) {
  std::string payload;
  append_chunk_prefix(payload, id);
  fmt::format_to(std::back_inserter(payload),
                 R"(],"usage":{{"prompt_tokens":{},"completion_tokens":{},"total_tokens":{}}}}})",
                 prompt_tokens, completion_tokens, prompt_tokens + completion_tokens);
  append_sse_event(out, payload);
}

void append_sse_done(std::string& out) {
  append_sse_event(out, "[DONE]");
  append_http_last_chunk(out);
}

std::string full_response_body(const MockResponseIdentity& id, std::int64_t prompt_tokens,
                               std::int64_t completion_tokens) {
  std::string body;
  body.reserve(300 + static_cast<std::size_t>(completion_tokens) * k_mock_token_text.size());
  auto it = std::back_inserter(body);
  fmt::format_to(it, R"({{"id":"{}{}","object":"{}","created":{},"model":{},"choices":[)",
                 id_prefix(id), id.number, object_name(id, false), id.created, id.model_json);
  body += id.endpoint == MockEndpoint::chat
              ? R"({"index":0,"message":{"role":"assistant","content":")"
              : R"({"index":0,"text":")";
  append_tokens(body, completion_tokens);
  body += id.endpoint == MockEndpoint::chat ? "\"}," : "\",";
  fmt::format_to(it,
                 R"("logprobs":null,"finish_reason":"length"}}],"usage":{{"prompt_tokens":{},)"
                 R"("completion_tokens":{},"total_tokens":{}}}}})",
                 prompt_tokens, completion_tokens, prompt_tokens + completion_tokens);
  return body;
}

std::string error_body(int status, std::string_view message) {
  std::string_view type = "BadRequestError";
  if (status == 404) {
    type = "NotFoundError";
  } else if (status == 429) {
    type = "RateLimitError";
  } else if (status >= 500) {
    type = "InternalServerError";
  }
  return fmt::format(R"({{"error":{{"message":{},"type":"{}","code":{}}}}})",
                     mock_json_quoted(message), type, status);
}

std::string models_body(std::string_view model_json, std::int64_t created) {
  return fmt::format(R"({{"object":"list","data":[{{"id":{},"object":"model","created":{},)"
                     R"("owned_by":"gpuport-mock","max_model_len":{}}}]}})",
                     model_json, created, k_mock_max_output_tokens);
}

}  // namespace gpuport
