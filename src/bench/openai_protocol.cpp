// Request bodies and the facts read back from responses of OpenAI-compatible servers (vLLM,
// SGLang, TGI's /v1 routes, llama.cpp, TensorRT-LLM's openai server).
#include "bench/openai_protocol.h"

#include <algorithm>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/json_reader.h"

namespace gpuport {

namespace {

using nlohmann::json;

// Appends a JSON string's contents without the quotes; invalid UTF-8 is replaced, never an
// exception. Printable ASCII without quotes or backslashes (synthetic prompts, model names) is
// copied as it is; anything else goes through the JSON library's escaper.
void append_escaped(std::string& out, std::string_view text) {
  const bool plain = std::all_of(text.begin(), text.end(), [](char c) {
    return c >= 0x20 && c < 0x7f && c != '"' && c != '\\';
  });
  if (plain) {
    out += text;
    return;
  }
  const std::string quoted =
      json(std::string(text)).dump(-1, ' ', false, json::error_handler_t::replace);
  out.append(quoted, 1, quoted.size() - 2);
}

std::string escaped(std::string_view text) {
  std::string out;
  append_escaped(out, text);
  return out;
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

// The facts of a body, read as events by read_json(): no tree and, for ordinary bodies, no
// allocation, since this runs for every response and every streamed chunk. Rare shapes (an
// "error" that is neither a string nor an object with a string "message") set `needs_tree`, and
// the caller reads the body again as a tree.
class ChunkFacts {
 public:
  ChunkFacts(ApiKind kind, std::string_view chat_field) : kind_(kind), chat_field_(chat_field) {}

  bool other_scalar(bool is_null) { return scalar(is_null ? Value::null : Value::other, 0, 0); }
  bool count(std::int64_t value) { return scalar(Value::count, value, 0); }
  bool string(const JsonString& value) {
    if (depth_ == 1 && key_is("error")) {
      error_ = value.decode();
      error_pending_ = false;
    } else if (role() == Role::error && key_is("message") && error_pending_) {
      error_ = value.decode();
      error_pending_ = false;
    }
    return scalar(Value::string, 0, value.decoded_bytes);
  }
  bool start_object() { return open(false); }
  bool start_array() { return open(true); }
  bool end_object() { return close(); }
  bool end_array() { return close(); }
  bool key(const JsonString& name) {
    if (depth_ <= k_tracked_depth) {
      Frame& frame = frames_[depth_ - 1];
      if (name.has_escapes) {
        frame.decoded_key = name.decode();
        frame.key = frame.decoded_key;
      } else {
        frame.key = name.raw;
      }
    }
    return true;
  }

  bool needs_tree() const { return needs_tree_ || error_pending_; }
  bool root_is_object() const { return root_is_object_; }

  StreamChunk facts(std::size_t body_bytes) const {
    StreamChunk chunk;
    chunk.usage = usage_;
    chunk.error = error_;
    if (kind_ == ApiKind::generic) {
      chunk.content_bytes = generic_bytes_[0] + generic_bytes_[1] + generic_bytes_[2] + token_text_;
      chunk.has_content = !chunk.error;
      if (chunk.has_content && chunk.content_bytes == 0) {
        chunk.content_bytes = body_bytes;
      }
      return chunk;
    }
    if (!choices_array_) {
      return chunk;
    }
    chunk.has_choices = choices_ > 0;
    chunk.content_bytes = content_bytes_;
    chunk.has_content = content_bytes_ > 0;
    return chunk;
  }

 private:
  enum class Role { root, usage, error, choices, choice, part, token, other };
  enum class Value { null, count, string, other, object, array };
  struct Frame {
    Role role = Role::other;
    std::string_view key;
    std::string decoded_key;  // the key's text when it had escapes
  };
  // Every fact sits within four levels (root, choices, choice, delta); deeper containers are
  // counted but not tracked.
  static constexpr std::size_t k_tracked_depth = 6;

  Role role() const {
    return depth_ == 0 || depth_ > k_tracked_depth ? Role::other : frames_[depth_ - 1].role;
  }
  bool key_is(std::string_view k) const {
    return depth_ > 0 && depth_ <= k_tracked_depth && frames_[depth_ - 1].key == k;
  }

  // A value (scalar or the start of a container) in the current frame: records what it means
  // and returns the role of a container it opens.
  Role place(Value value, std::int64_t count, std::size_t bytes) {
    if (depth_ == 0) {
      root_is_object_ = value == Value::object;
      return Role::root;
    }
    if (depth_ > k_tracked_depth) {
      return Role::other;
    }
    const std::string_view k = frames_[depth_ - 1].key;
    switch (frames_[depth_ - 1].role) {
      case Role::root:
        if (k == "usage") {
          usage_.reset();
          if (value == Value::object) {
            usage_.emplace();
            return Role::usage;
          }
        } else if (k == "error") {
          if (value == Value::null) {
            error_.reset();
            error_pending_ = false;
          } else if (value == Value::object) {
            error_.reset();
            error_pending_ = true;
            return Role::error;
          } else if (value != Value::string) {
            needs_tree_ = true;
          }
        } else if (k == "choices") {
          choices_array_ = value == Value::array;
          choices_ = 0;
          content_bytes_ = 0;
          if (choices_array_) {
            return Role::choices;
          }
        } else if (kind_ == ApiKind::generic) {
          const std::size_t text = value == Value::string ? bytes : 0;
          if (k == "text_output") {
            generic_bytes_[0] = text;
          } else if (k == "generated_text") {
            generic_bytes_[1] = text;
          } else if (k == "text") {
            generic_bytes_[2] = text;
          } else if (k == "token") {
            token_text_ = 0;
            if (value == Value::object) {
              return Role::token;
            }
          }
        }
        return Role::other;
      case Role::usage:
        if (k == "prompt_tokens" || k == "completion_tokens") {
          (k == "prompt_tokens" ? usage_->prompt_tokens : usage_->completion_tokens) =
              value == Value::count ? count : -1;
        }
        return Role::other;
      case Role::choices:
        ++choices_;
        return value == Value::object ? Role::choice : Role::other;
      case Role::choice:
        if (kind_ == ApiKind::completions && k == "text") {
          content_bytes_ += bytes;
        } else if (kind_ == ApiKind::chat && k == chat_field_ && value == Value::object) {
          return Role::part;
        }
        return Role::other;
      case Role::part:
        if (k == "content" || k == "reasoning_content" || k == "reasoning") {
          content_bytes_ += bytes;
        }
        return Role::other;
      case Role::token:
        if (k == "text") {
          token_text_ = bytes;
        }
        return Role::other;
      case Role::error:
      case Role::other:
        return Role::other;
    }
    return Role::other;
  }

  bool scalar(Value value, std::int64_t count, std::size_t bytes) {
    place(value, count, bytes);
    return true;
  }
  bool open(bool array) {
    const Role role = place(array ? Value::array : Value::object, 0, 0);
    ++depth_;
    if (depth_ <= k_tracked_depth) {
      frames_[depth_ - 1].role = role;
      frames_[depth_ - 1].key = {};
    }
    return true;
  }
  bool close() {
    --depth_;
    return true;
  }

  ApiKind kind_;
  std::string_view chat_field_;
  Frame frames_[k_tracked_depth];
  std::size_t depth_ = 0;
  bool root_is_object_ = false;
  bool needs_tree_ = false;
  bool error_pending_ = false;  // an "error" object whose string "message" has not been seen
  std::optional<TokenUsage> usage_;
  std::optional<std::string> error_;
  bool choices_array_ = false;
  std::size_t choices_ = 0;
  std::size_t content_bytes_ = 0;
  std::size_t generic_bytes_[3] = {0, 0, 0};  // text_output, generated_text, text
  std::size_t token_text_ = 0;
};

tl::expected<StreamChunk, std::string> read_tree(std::string_view text, ApiKind kind,
                                                 const char* chat_field);

tl::expected<StreamChunk, std::string> read_body(std::string_view text, ApiKind kind,
                                                 const char* chat_field) {
  ChunkFacts facts(kind, chat_field);
  if (!read_json(text, facts)) {
    return tl::unexpected(std::string("malformed JSON"));
  }
  if (!facts.root_is_object()) {
    return tl::unexpected(std::string("JSON is not an object"));
  }
  if (facts.needs_tree()) {
    return read_tree(text, kind, chat_field);
  }
  return facts.facts(text.size());
}

tl::expected<StreamChunk, std::string> read_tree(std::string_view text, ApiKind kind,
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
    // One pass over the template, appending: this runs for every request.
    std::string body;
    body.reserve(template_body.size() + request.prompt.size() + request.model.size() + 32);
    std::size_t at = 0;
    for (std::size_t open = template_body.find('{'); open != std::string_view::npos;
         open = template_body.find('{', at)) {
      body.append(template_body.substr(at, open - at));
      const std::string_view rest = template_body.substr(open);
      if (rest.starts_with("{prompt}")) {
        append_escaped(body, request.prompt);
        at = open + 8;
      } else if (rest.starts_with("{max_tokens}")) {
        body += std::to_string(request.max_tokens);
        at = open + 12;
      } else if (rest.starts_with("{model}")) {
        append_escaped(body, request.model);
        at = open + 7;
      } else {
        body += '{';
        at = open + 1;
      }
    }
    body.append(template_body.substr(at));
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
