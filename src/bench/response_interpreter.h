// Reads one HTTP exchange as an OpenAI-style (or generic JSON) generation: the status, the SSE
// chunks or the whole body, when content arrived, and the token counts. Fills a RequestRecord.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "bench/http_response_parser.h"
#include "bench/openai_protocol.h"
#include "bench/request_record.h"
#include "bench/sse_parser.h"

namespace gpuport {

class ResponseInterpreter {
 public:
  ResponseInterpreter(ApiKind api, bool stream) : api_(api), stream_(stream) {}

  void on_head(const HttpResponseHead& head, std::int64_t t_ns, RequestRecord& record);
  void on_body(std::string_view bytes, std::int64_t t_ns, RequestRecord& record);
  // Completes `record` (done time, error and detail, token counts) from the transport's outcome.
  void on_done(RequestError error, std::string_view detail, std::int64_t t_ns,
               std::int64_t prompt_tokens_estimate, RequestRecord& record);

 private:
  void on_event(const SseEvent& event, std::int64_t t_ns, RequestRecord& record);
  void on_content(std::size_t bytes, std::int64_t t_ns, RequestRecord& record);
  void note_protocol_error(std::string detail);

  ApiKind api_;
  bool stream_;
  bool ok_status_ = false;
  bool event_stream_ = false;   // Content-Type: text/event-stream
  std::string protocol_error_;  // the first problem seen in the body
  std::string body_;            // a non-streaming body, or the start of an error body
  std::size_t content_bytes_ = 0;
  TokenUsage usage_;
  std::string stream_error_;  // an {"error": ...} object sent in the stream
  SseParser sse_;
};

}  // namespace gpuport
