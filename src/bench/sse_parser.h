// An incremental parser for Server-Sent Events (the WHATWG event-stream format) as OpenAI-style
// servers stream them: `data:` lines (several join with "\n"), `event:`, `id:`, comment lines
// starting with ':', events ended by a blank line, LF, CRLF or CR line ends, in any byte split.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

namespace gpuport {

struct SseEvent {
  std::string event;  // empty means "message"
  std::string data;
  std::string id;
};

class SseParser {
 public:
  using EventSink = std::function<void(const SseEvent&)>;

  static constexpr std::size_t k_max_line_bytes = 16 * 1024 * 1024;

  // Calls on_event for each event completed inside `bytes`. A line longer than the limit makes
  // the parser fail (failed(), error()) and ignore further input.
  void feed(std::string_view bytes, const EventSink& on_event);
  // End of the body: per the standard, an event without its blank line is discarded; returns
  // true when such a partial event (or partial line) was pending, which callers count as a
  // truncated stream.
  bool finish();

  std::size_t comments() const { return comments_; }
  bool failed() const { return failed_; }
  const std::string& error() const { return error_; }
  void reset();

 private:
  void process_line(std::string_view line, const EventSink& on_event);
  void fail(std::string why);

  std::string line_;
  SseEvent pending_;
  bool started_ = false;  // a leading byte-order mark is skipped
  bool has_data_ = false;
  bool last_was_cr_ = false;
  std::size_t comments_ = 0;
  bool failed_ = false;
  std::string error_;
};

}  // namespace gpuport
