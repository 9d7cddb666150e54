// libFuzzer target: the bench client's wire parsers on arbitrary bytes. The input is read as an
// HTTP response (status line, headers, Content-Length / chunked / close-delimited body, and
// further keep-alive responses), the decoded bodies as an SSE stream, and each event's data as
// an OpenAI chunk of every API kind. Each parser runs twice, once on the whole input and once
// in splits drawn from a hash of the input; it aborts unless both see the same thing, so a
// token, a CRLF or a chunk-size line split across two reads is never read differently.
// The bench's own JSON reader is checked against the JSON library on the input and every event:
// the same verdict and, for valid JSON, the same values in the same order.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/http_response_parser.h"
#include "bench/json_reader.h"
#include "bench/openai_protocol.h"
#include "bench/sse_parser.h"

namespace {

using gpuport::ApiKind;
using gpuport::HttpResponseParser;
using gpuport::JsonString;
using gpuport::SseEvent;
using gpuport::SseParser;

// Split sizes from a small linear congruential stream.
class Splits {
 public:
  explicit Splits(std::uint32_t seed) : state_(seed | 1) {}
  // 0 (an empty read) one time in 16, 1 byte three times in 16, else 1..64 bytes.
  std::size_t next() {
    state_ = state_ * 1664525u + 1013904223u;
    const std::uint32_t kind = state_ >> 28;
    return kind == 0 ? 0 : kind < 4 ? 1 : 1 + ((state_ >> 16) % 64);
  }

 private:
  std::uint32_t state_;
};

// The values read_json() reports, as text; aborts if a string's decoded size is wrong.
struct ReaderRecord {
  std::string seen;
  void text(char kind, const JsonString& s) {
    const std::string decoded = s.decode();
    if (decoded.size() != s.decoded_bytes) {
      std::abort();
    }
    seen += kind + decoded + "\x1f";
  }
  bool start_object() { return seen += '{', true; }
  bool end_object() { return seen += '}', true; }
  bool start_array() { return seen += '[', true; }
  bool end_array() { return seen += ']', true; }
  bool key(const JsonString& s) { return text('k', s), true; }
  bool string(const JsonString& s) { return text('s', s), true; }
  bool count(std::int64_t n) { return seen += "n" + std::to_string(n), true; }
  bool other_scalar(bool is_null) { return seen += is_null ? 'z' : 'o', true; }
};

// The same record from the JSON library's SAX events.
struct LibraryRecord {
  using json = nlohmann::json;
  std::string seen;
  bool null() { return seen += 'z', true; }
  bool boolean(bool) { return seen += 'o', true; }
  bool number_integer(json::number_integer_t n) {
    return n >= 0 ? count(static_cast<std::uint64_t>(n)) : (seen += 'o', true);
  }
  bool number_unsigned(json::number_unsigned_t n) {
    return n <= static_cast<std::uint64_t>(INT64_MAX) ? count(n) : (seen += 'o', true);
  }
  bool count(std::uint64_t n) { return seen += "n" + std::to_string(n), true; }
  bool number_float(json::number_float_t, const json::string_t&) { return seen += 'o', true; }
  bool string(json::string_t& s) { return seen += 's' + s + "\x1f", true; }
  bool binary(json::binary_t&) { return seen += 'o', true; }
  bool key(json::string_t& s) { return seen += 'k' + s + "\x1f", true; }
  bool start_object(std::size_t) { return seen += '{', true; }
  bool end_object() { return seen += '}', true; }
  bool start_array(std::size_t) { return seen += '[', true; }
  bool end_array() { return seen += ']', true; }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) {
    return false;
  }
};

// The library ends its input at a NUL byte outside a string; read_json rejects such a byte (RFC
// 8259 allows none), so it is given the text up to the first NUL: inside a string the NUL is an
// error for the library and the cut an unterminated string for read_json.
void check_json_reader(std::string_view text) {
  ReaderRecord ours;
  LibraryRecord library;
  const bool ours_ok = gpuport::read_json(text.substr(0, text.find('\0')), ours);
  const bool library_ok = nlohmann::json::sax_parse(text.begin(), text.end(), &library);
  if (ours_ok != library_ok || (ours_ok && ours.seen != library.seen)) {
    std::abort();
  }
}

// What a parser run saw: every response's status, framing facts, body and outcome.
std::string read_responses(std::string_view input, bool split, std::uint32_t seed,
                           std::vector<std::string>& bodies) {
  std::string seen;
  HttpResponseParser parser;
  std::string body;
  Splits splits(seed);
  std::size_t at = 0;
  int responses = 0;
  const auto finish_response = [&] {
    const auto& head = parser.head();
    seen += std::to_string(head.status) + (head.chunked ? "c" : "") + (head.keep_alive ? "k" : "") +
            std::to_string(parser.body_bytes()) + ";";
    if (body.size() != parser.body_bytes()) {
      std::abort();
    }
    bodies.push_back(body);
    body.clear();
  };
  while (at < input.size() && responses < 64) {
    const std::size_t size = split ? std::min(splits.next(), input.size() - at) : input.size() - at;
    const std::size_t used =
        parser.feed(input.substr(at, size), [&](std::string_view piece) { body.append(piece); });
    if (used > size) {
      std::abort();
    }
    at += used;
    if (parser.failed()) {
      seen += "error:" + parser.error();
      return seen;
    }
    if (parser.done()) {
      finish_response();
      ++responses;
      parser.reset();
    } else if (used < size) {
      std::abort();  // bytes left over without a finished response
    }
  }
  parser.on_eof();
  if (parser.done()) {
    finish_response();
  } else if (parser.failed()) {
    seen += "eof:" + parser.error();
  }
  return seen;
}

std::string read_events(std::string_view stream, bool split, std::uint32_t seed) {
  std::string seen;
  SseParser parser;
  Splits splits(seed);
  const auto on_event = [&](const SseEvent& event) {
    seen += event.event + "|" + event.id + "|" + event.data + "\x1e";
    if (event.data == "[DONE]") {
      return;
    }
    check_json_reader(event.data);
    for (const ApiKind kind : {ApiKind::completions, ApiKind::chat, ApiKind::generic}) {
      const auto chunk = gpuport::parse_stream_chunk(event.data, kind);
      if (chunk && chunk->has_content && chunk->content_bytes == 0) {
        std::abort();
      }
    }
  };
  for (std::size_t at = 0; at < stream.size();) {
    const std::size_t size =
        split ? std::min(splits.next(), stream.size() - at) : stream.size() - at;
    parser.feed(stream.substr(at, size), on_event);
    at += size;
  }
  seen += parser.finish() ? "partial" : "whole";
  seen += parser.failed() ? "failed:" + parser.error() : "";
  seen += std::to_string(parser.comments());
  return seen;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  // The splits come from a hash of the input, so every byte is response text (seeds are plain
  // HTTP responses) and a mutation also moves the split points.
  std::uint32_t seed = 2166136261u;
  for (std::size_t i = 0; i < size; ++i) {
    seed = (seed ^ data[i]) * 16777619u;
  }
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  check_json_reader(input);

  std::vector<std::string> whole_bodies;
  std::vector<std::string> split_bodies;
  if (read_responses(input, false, seed, whole_bodies) !=
          read_responses(input, true, seed, split_bodies) ||
      whole_bodies != split_bodies) {
    std::abort();
  }
  // The raw bytes and every decoded body as an event stream.
  if (read_events(input, false, seed) != read_events(input, true, seed)) {
    std::abort();
  }
  for (const std::string& body : whole_bodies) {
    if (read_events(body, false, seed) != read_events(body, true, seed)) {
      std::abort();
    }
    for (const ApiKind kind : {ApiKind::completions, ApiKind::chat, ApiKind::generic}) {
      (void)gpuport::parse_full_response(body, kind);
    }
  }
  return 0;
}
