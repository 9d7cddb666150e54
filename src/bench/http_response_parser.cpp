// The HTTP/1.1 response framing of RFC 9112: status line and headers up to the blank line, then
// Content-Length, chunked (size line, data, CRLF, ..., 0, trailers) or read-until-close.
// Bare LF line ends are accepted as well as CRLF, as most clients do.
#include "bench/http_response_parser.h"

#include <algorithm>
#include <cctype>
#include <charconv>

namespace gpuport {

namespace {

// ASCII only, without the C library's locale lookup: header names are ASCII.
char ascii_lower(char c) {
  return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

constexpr std::size_t k_max_chunk_line_bytes = 4096;

bool equals_ignoring_case(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return ascii_lower(x) == ascii_lower(y);
         });
}

std::string_view trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) {
    text.remove_prefix(1);
  }
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r')) {
    text.remove_suffix(1);
  }
  return text;
}

bool is_token_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
         std::string_view("!#$%&'*+-.^_`|~").find(c) != std::string_view::npos;
}

// Calls `on_item` for each comma-separated, trimmed, non-empty item of a header value.
template <typename F>
void for_each_item(std::string_view value, F on_item) {
  while (!value.empty()) {
    const std::size_t comma = value.find(',');
    const std::string_view item = trim(value.substr(0, comma));
    if (!item.empty()) {
      on_item(item);
    }
    if (comma == std::string_view::npos) {
      break;
    }
    value.remove_prefix(comma + 1);
  }
}

std::string_view strip_cr(std::string_view line) {
  if (!line.empty() && line.back() == '\r') {
    line.remove_suffix(1);
  }
  return line;
}

}  // namespace

const std::string* HttpResponseHead::header(std::string_view name) const {
  for (const auto& [key, value] : headers) {
    if (equals_ignoring_case(key, name)) {
      return &value;
    }
  }
  return nullptr;
}

void HttpResponseParser::reset() {
  state_ = State::head;
  reset_head();
  line_.clear();
  remaining_ = 0;
  body_bytes_ = 0;
  error_.clear();
}

std::size_t HttpResponseParser::feed(std::string_view data, const BodySink& on_body) {
  std::size_t used = 0;
  const auto fail = [&](std::string why) {
    state_ = State::failed;
    error_ = std::move(why);
    line_.clear();
    return used;
  };
  const auto deliver = [&](std::size_t n) {
    if (n > 0 && on_body) {
      on_body(data.substr(used, n));
    }
    body_bytes_ += n;
    used += n;
  };
  // Takes bytes up to and including the next LF into line_; true when the line is complete.
  const auto take_line = [&](std::size_t limit) {
    const std::size_t newline = data.find('\n', used);
    const std::size_t end = newline == std::string_view::npos ? data.size() : newline + 1;
    line_.append(data.substr(used, end - used));
    used = end;
    return line_.size() <= limit && newline != std::string_view::npos;
  };

  // A Content-Length of 0 completes without another byte.
  while (used < data.size() || (state_ == State::body_length && remaining_ == 0)) {
    switch (state_) {
      case State::head: {
        // The head ends at the first empty line; search only the new bytes (and 3 before them).
        const std::size_t old_size = line_.size();
        const std::size_t room = k_max_head_bytes + 1 - std::min(old_size, k_max_head_bytes + 1);
        line_.append(data.substr(used, room));
        const std::size_t from = old_size < 3 ? 0 : old_size - 3;
        std::size_t end = std::string::npos;
        for (std::size_t i = line_.find('\n', from); i != std::string::npos;
             i = line_.find('\n', i + 1)) {
          if (i + 1 < line_.size() && line_[i + 1] == '\n') {
            end = i + 2;
            break;
          }
          if (i + 2 < line_.size() && line_[i + 1] == '\r' && line_[i + 2] == '\n') {
            end = i + 3;
            break;
          }
        }
        if (end == std::string::npos) {
          if (line_.size() > k_max_head_bytes) {
            return fail("response head longer than 64 KiB");
          }
          used = data.size();
          break;
        }
        used += end - old_size;
        line_.resize(end);
        if (!parse_head()) {
          return used;
        }
        break;
      }
      case State::body_length: {
        const auto n =
            static_cast<std::size_t>(std::min<std::uint64_t>(remaining_, data.size() - used));
        deliver(n);
        remaining_ -= n;
        if (remaining_ == 0) {
          state_ = State::done;
          return used;
        }
        break;
      }
      case State::body_chunk_size: {
        if (!take_line(k_max_chunk_line_bytes)) {
          if (line_.size() > k_max_chunk_line_bytes) {
            return fail("chunk size line longer than 4 KiB");
          }
          break;
        }
        std::string_view line = strip_cr(std::string_view(line_).substr(0, line_.size() - 1));
        const std::size_t digits =
            std::min(line.find_first_not_of("0123456789abcdefABCDEF"), line.size());
        if (digits == 0) {
          return fail("chunk size is not hexadecimal");
        }
        if (digits > 15) {
          return fail("chunk size too large");
        }
        std::uint64_t size = 0;
        std::from_chars(line.data(), line.data() + digits, size, 16);
        const std::string_view rest = trim(line.substr(digits));
        if (!rest.empty() && rest.front() != ';') {
          return fail("chunk size is not hexadecimal");
        }
        line_.clear();
        remaining_ = size;
        state_ = size == 0 ? State::trailers : State::body_chunk_data;
        break;
      }
      case State::body_chunk_data: {
        const auto n =
            static_cast<std::size_t>(std::min<std::uint64_t>(remaining_, data.size() - used));
        deliver(n);
        remaining_ -= n;
        if (remaining_ == 0) {
          state_ = State::body_chunk_crlf;
        }
        break;
      }
      case State::body_chunk_crlf: {
        const char c = data[used];
        if (c == '\r' && line_.empty()) {
          line_ = "\r";
          ++used;
        } else if (c == '\n') {
          line_.clear();
          ++used;
          state_ = State::body_chunk_size;
        } else {
          return fail("missing CRLF after chunk data");
        }
        break;
      }
      case State::trailers: {
        if (!take_line(k_max_head_bytes)) {
          if (line_.size() > k_max_head_bytes) {
            return fail("trailer line longer than 64 KiB");
          }
          break;
        }
        const bool blank = line_ == "\n" || line_ == "\r\n";
        line_.clear();
        if (blank) {
          state_ = State::done;
          return used;
        }
        break;
      }
      case State::body_until_close:
        deliver(data.size() - used);
        break;
      case State::done:
      case State::failed:
        return used;
    }
    if (state_ == State::failed) {
      return used;
    }
  }
  return used;
}

// Everything but the headers' storage, which the next head reuses.
void HttpResponseParser::reset_head() {
  head_.status = 0;
  head_.reason.clear();
  head_.minor_version = 1;
  head_.content_length.reset();
  head_.chunked = false;
  head_.keep_alive = true;
}

bool HttpResponseParser::parse_head() {
  const auto fail = [&](std::string why) {
    state_ = State::failed;
    error_ = std::move(why);
    line_.clear();
    return false;
  };
  // line_ ends with the blank line, so every line, the last included, has its LF.
  std::string_view rest(line_);
  const auto next_line = [&rest] {
    const std::size_t newline = rest.find('\n');
    const std::string_view line = strip_cr(rest.substr(0, newline));
    rest.remove_prefix(newline + 1);
    return line;
  };
  // Parsed in place, into storage kept from the previous response on this connection: no
  // allocation per response once a connection has seen one.
  HttpResponseHead& parsed = head_;
  reset_head();
  // "HTTP/1.1 200 OK": the reason phrase may be empty or absent.
  const std::string_view status_line = next_line();
  if (status_line.size() < 12 || !status_line.starts_with("HTTP/1.") ||
      !std::isdigit(static_cast<unsigned char>(status_line[7])) || status_line[8] != ' ' ||
      !std::all_of(status_line.begin() + 9, status_line.begin() + 12,
                   [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }) ||
      (status_line.size() > 12 && status_line[12] != ' ')) {
    return fail("bad status line");
  }
  parsed.minor_version = status_line[7] - '0';
  parsed.status =
      (status_line[9] - '0') * 100 + (status_line[10] - '0') * 10 + (status_line[11] - '0');
  if (parsed.status < 100) {
    return fail("bad status line");
  }
  parsed.reason.assign(status_line.size() > 13 ? status_line.substr(13) : "");
  parsed.keep_alive = parsed.minor_version >= 1;
  bool transfer_encoding = false;
  std::size_t count = 0;
  for (std::size_t number = 2;; ++number) {
    const std::string_view line = next_line();
    if (rest.empty()) {
      break;  // the blank line
    }
    const std::size_t colon = line.find(':');
    if (colon == 0 || colon == std::string_view::npos ||
        !std::all_of(line.begin(), line.begin() + static_cast<std::ptrdiff_t>(colon),
                     is_token_char)) {
      return fail("bad header line " + std::to_string(number));
    }
    const std::string_view name = line.substr(0, colon);
    const std::string_view value = trim(line.substr(colon + 1));
    if (equals_ignoring_case(name, "content-length")) {
      std::uint64_t length = 0;
      const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), length);
      if (value.empty() || ec != std::errc() || end != value.data() + value.size()) {
        return fail("bad Content-Length");
      }
      if (parsed.content_length && *parsed.content_length != length) {
        return fail("conflicting Content-Length headers");
      }
      parsed.content_length = length;
    } else if (equals_ignoring_case(name, "transfer-encoding")) {
      transfer_encoding = true;
      parsed.chunked = false;
      for_each_item(value, [&](std::string_view coding) {
        parsed.chunked = equals_ignoring_case(coding, "chunked");
      });
    } else if (equals_ignoring_case(name, "connection")) {
      for_each_item(value, [&](std::string_view option) {
        if (equals_ignoring_case(option, "close")) {
          parsed.keep_alive = false;
        } else if (equals_ignoring_case(option, "keep-alive") && parsed.minor_version == 0) {
          parsed.keep_alive = true;
        }
      });
    }
    if (count < parsed.headers.size()) {
      parsed.headers[count].first.assign(name);
      parsed.headers[count].second.assign(value);
    } else {
      parsed.headers.emplace_back(name, value);
    }
    ++count;
  }
  parsed.headers.resize(count);
  line_.clear();
  // Interim responses (100 Continue, 103 Early Hints) precede the real one.
  if (parsed.status < 200 && parsed.status != 101) {
    reset_head();
    parsed.headers.clear();
    return true;
  }
  if (transfer_encoding) {
    head_.content_length.reset();  // Transfer-Encoding overrides Content-Length
  }
  if (head_.status == 204 || head_.status == 304 || head_.status == 101) {
    state_ = State::done;
  } else if (head_.chunked) {
    state_ = State::body_chunk_size;
  } else if (!transfer_encoding && head_.content_length) {
    remaining_ = *head_.content_length;
    state_ = State::body_length;
  } else {
    head_.keep_alive = false;  // the body ends only when the connection does
    state_ = State::body_until_close;
  }
  return true;
}

void HttpResponseParser::on_eof() {
  if (state_ == State::body_until_close) {
    state_ = State::done;
    return;
  }
  if (state_ == State::done || state_ == State::failed) {
    return;
  }
  error_ = state_ == State::head && line_.empty()
               ? "connection closed before any response"
               : "connection closed before the end of the response";
  state_ = State::failed;
}

}  // namespace gpuport
