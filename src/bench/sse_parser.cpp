// WHATWG "event stream interpretation": lines split at CRLF, LF or CR; a blank line dispatches
// the event when any data line was seen; "data" values join with LF; one space after the colon
// is dropped; "id" persists across events and ignores values containing NUL.
#include "bench/sse_parser.h"

namespace gpuport {

namespace {
constexpr std::string_view k_bom = "\xEF\xBB\xBF";
}  // namespace

void SseParser::reset() {
  *this = SseParser();
}

void SseParser::fail(std::string why) {
  failed_ = true;
  error_ = std::move(why);
  line_.clear();
  pending_ = SseEvent{};
}

void SseParser::feed(std::string_view bytes, const EventSink& on_event) {
  if (failed_) {
    return;
  }
  if (!started_) {
    // The byte-order mark may itself arrive split; hold back a prefix of it.
    const std::size_t have = std::min(line_.size() + bytes.size(), k_bom.size());
    const std::string joined = line_ + std::string(bytes.substr(0, have - line_.size()));
    if (k_bom.starts_with(joined) && joined.size() < k_bom.size()) {
      line_ = joined;
      return;
    }
    started_ = true;
    if (joined == k_bom) {
      bytes.remove_prefix(k_bom.size() - line_.size());
      line_.clear();
    }
  }
  if (bytes.empty()) {
    return;  // keeps a pending CR's pairing with the LF that may come next
  }
  if (last_was_cr_ && bytes.front() == '\n') {
    bytes.remove_prefix(1);
  }
  last_was_cr_ = false;
  while (!bytes.empty()) {
    const std::size_t end = bytes.find_first_of("\r\n");
    if (end == std::string_view::npos) {
      if (line_.size() + bytes.size() > k_max_line_bytes) {
        fail("SSE line longer than 16 MiB");
        return;
      }
      line_.append(bytes);
      return;
    }
    if (line_.size() + end > k_max_line_bytes) {
      fail("SSE line longer than 16 MiB");
      return;
    }
    if (line_.empty()) {
      process_line(bytes.substr(0, end), on_event);
    } else {
      line_.append(bytes.substr(0, end));
      const std::string line = std::move(line_);
      line_.clear();
      process_line(line, on_event);
    }
    if (failed_) {
      return;
    }
    std::size_t next = end + 1;
    if (bytes[end] == '\r') {
      if (next == bytes.size()) {
        last_was_cr_ = true;
      } else if (bytes[next] == '\n') {
        ++next;
      }
    }
    bytes.remove_prefix(next);
  }
}

void SseParser::process_line(std::string_view line, const EventSink& on_event) {
  if (line.empty()) {
    if (has_data_ && on_event) {
      on_event(pending_);
    }
    has_data_ = false;
    pending_.data.clear();
    pending_.event.clear();
    return;
  }
  if (line.front() == ':') {
    ++comments_;
    return;
  }
  const std::size_t colon = line.find(':');
  const std::string_view field = line.substr(0, colon);
  std::string_view value = colon == std::string_view::npos ? "" : line.substr(colon + 1);
  if (!value.empty() && value.front() == ' ') {
    value.remove_prefix(1);
  }
  if (field == "data") {
    if (pending_.data.size() + value.size() + 1 > k_max_line_bytes) {
      fail("SSE event longer than 16 MiB");
      return;
    }
    if (has_data_) {
      pending_.data += '\n';
    }
    pending_.data.append(value);
    has_data_ = true;
  } else if (field == "event") {
    pending_.event = std::string(value);
  } else if (field == "id") {
    if (value.find('\0') == std::string_view::npos) {
      pending_.id = std::string(value);
    }
  }
  // "retry" and unknown fields are ignored.
}

bool SseParser::finish() {
  const bool partial = !failed_ && (!line_.empty() || has_data_ || !pending_.event.empty());
  line_.clear();
  pending_.data.clear();
  pending_.event.clear();
  has_data_ = false;
  last_was_cr_ = false;
  return partial;
}

}  // namespace gpuport
