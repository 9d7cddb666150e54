#include "bench/response_interpreter.h"

#include <algorithm>
#include <cctype>

namespace gpuport {

namespace {

// ASCII only, without the C library's locale lookup: header names are ASCII.
char ascii_lower(char c) {
  return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

constexpr std::size_t k_max_body_bytes = 64 * 1024 * 1024;
constexpr std::size_t k_error_body_bytes = 512;
constexpr std::size_t k_detail_bytes = 200;

bool contains_case_insensitive(std::string_view text, std::string_view needle) {
  return std::search(text.begin(), text.end(), needle.begin(), needle.end(),
                     [](char a, char b) { return ascii_lower(a) == ascii_lower(b); }) != text.end();
}

// The first line of an error body, short and printable, for error details.
std::string one_line(std::string_view text) {
  std::string line;
  for (char c : text) {
    if (c == '\n' || c == '\r') {
      if (!line.empty()) {
        break;
      }
      continue;
    }
    if (line.size() >= k_detail_bytes) {
      line += "...";
      break;
    }
    const auto byte = static_cast<unsigned char>(c);
    line += byte < 0x20 || byte == 0x7f ? '?' : c;
  }
  return line;
}

}  // namespace

void ResponseInterpreter::on_head(const HttpResponseHead& head, std::int64_t t_ns,
                                  RequestRecord& record) {
  record.first_byte_ns = t_ns;
  record.http_status = head.status;
  ok_status_ = head.status >= 200 && head.status < 300;
  const std::string* content_type = head.header("Content-Type");
  // A streaming request is read as SSE unless the server plainly answered with something else
  // (a JSON error object, or a server that ignores "stream": true).
  event_stream_ = stream_ && (content_type == nullptr ||
                              contains_case_insensitive(*content_type, "text/event-stream"));
}

void ResponseInterpreter::on_body(std::string_view bytes, std::int64_t t_ns,
                                  RequestRecord& record) {
  if (!ok_status_) {
    const std::size_t room = k_error_body_bytes - std::min(body_.size(), k_error_body_bytes);
    body_.append(bytes.substr(0, room));
    return;
  }
  if (event_stream_) {
    sse_.feed(bytes, [&](const SseEvent& event) { on_event(event, t_ns, record); });
    return;
  }
  if (body_.size() + bytes.size() > k_max_body_bytes) {
    note_protocol_error("response body over 64 MiB");
    return;
  }
  body_.append(bytes);
}

void ResponseInterpreter::on_event(const SseEvent& event, std::int64_t t_ns,
                                   RequestRecord& record) {
  if (event.data.empty() || event.data == "[DONE]") {
    return;
  }
  auto chunk = parse_stream_chunk(event.data, api_);
  if (!chunk) {
    note_protocol_error("bad stream chunk: " + chunk.error());
    return;
  }
  if (chunk->error && stream_error_.empty()) {
    stream_error_ = one_line(*chunk->error);
  }
  if (chunk->usage) {
    if (chunk->usage->prompt_tokens >= 0) {
      usage_.prompt_tokens = chunk->usage->prompt_tokens;
    }
    if (chunk->usage->completion_tokens >= 0) {
      usage_.completion_tokens = chunk->usage->completion_tokens;
    }
  }
  if (chunk->has_content) {
    on_content(chunk->content_bytes, t_ns, record);
  }
}

void ResponseInterpreter::on_content(std::size_t bytes, std::int64_t t_ns, RequestRecord& record) {
  if (record.first_token_ns < 0) {
    record.first_token_ns = t_ns;
  } else {
    record.itl_ns.push_back(t_ns - record.last_token_ns);
  }
  record.last_token_ns = t_ns;
  ++record.content_chunks;
  content_bytes_ += bytes;
}

void ResponseInterpreter::note_protocol_error(std::string detail) {
  if (protocol_error_.empty()) {
    protocol_error_ = one_line(detail);
  }
}

void ResponseInterpreter::on_done(RequestError error, std::string_view detail, std::int64_t t_ns,
                                  std::int64_t prompt_tokens_estimate, RequestRecord& record) {
  record.done_ns = t_ns;
  const bool head_seen = record.http_status != 0;
  if (head_seen && !ok_status_ && error != RequestError::cancelled) {
    record.error = RequestError::http_status;
    record.error_detail = "HTTP " + std::to_string(record.http_status);
    if (const std::string line = one_line(body_); !line.empty()) {
      record.error_detail += ": " + line;
    }
    return;
  }
  if (error != RequestError::none) {
    record.error = error;
    record.error_detail = one_line(detail);
    return;
  }
  if (event_stream_) {
    if (sse_.failed()) {
      note_protocol_error("bad event stream: " + sse_.error());
    } else if (sse_.finish()) {
      note_protocol_error("the event stream ended inside an event");
    }
  } else {
    auto whole = parse_full_response(body_, api_);
    if (!whole) {
      note_protocol_error("bad JSON response: " + whole.error());
    } else {
      if (whole->error && stream_error_.empty()) {
        stream_error_ = one_line(*whole->error);
      }
      if (whole->usage) {
        usage_ = *whole->usage;
      }
      // A generic endpoint's answer is its content, whatever its shape.
      if (whole->has_content || (api_ == ApiKind::generic && !body_.empty())) {
        on_content(whole->has_content ? whole->content_bytes : body_.size(), t_ns, record);
      }
    }
  }
  if (!stream_error_.empty()) {
    note_protocol_error("error from the server: " + stream_error_);
  }
  if (protocol_error_.empty() && record.content_chunks == 0) {
    note_protocol_error("no content in the response");
  }
  if (!protocol_error_.empty()) {
    record.error = RequestError::protocol;
    record.error_detail = protocol_error_;
    return;
  }
  record.output_tokens_from_usage = usage_.completion_tokens >= 0;
  record.output_tokens =
      record.output_tokens_from_usage ? usage_.completion_tokens : estimate_tokens(content_bytes_);
  record.prompt_tokens_from_usage = usage_.prompt_tokens >= 0;
  record.prompt_tokens =
      record.prompt_tokens_from_usage ? usage_.prompt_tokens : prompt_tokens_estimate;
}

}  // namespace gpuport
