// A recursive-descent JSON reader (depth-bounded) that records offsets, and string quoting.
#include "bench/json_value.h"

#include <charconv>

#include "source/utf8_encoding.h"

namespace gpuport {

namespace {

constexpr int k_max_depth = 64;

class Reader {
 public:
  explicit Reader(std::string_view text) : text_(text) {}

  tl::expected<JsonValue, JsonError> document() {
    JsonValue value;
    if (!parse_value(value, 0)) {
      return tl::unexpected(error_);
    }
    skip_space();
    if (at_ < text_.size()) {
      fail("unexpected text after the JSON value");
      return tl::unexpected(error_);
    }
    return value;
  }

 private:
  bool fail(std::string message) {
    error_ = JsonError{at_, std::move(message)};
    return false;
  }
  void skip_space() {
    while (at_ < text_.size() &&
           (text_[at_] == ' ' || text_[at_] == '\t' || text_[at_] == '\n' || text_[at_] == '\r')) {
      ++at_;
    }
  }
  bool literal(std::string_view word) {
    if (text_.substr(at_, word.size()) != word) {
      return fail("invalid literal");
    }
    at_ += word.size();
    return true;
  }

  bool parse_value(JsonValue& value, int depth) {
    skip_space();
    value.offset = at_;
    if (at_ >= text_.size()) {
      return fail("unexpected end of the document");
    }
    switch (text_[at_]) {
      case '{':
        return parse_object(value, depth);
      case '[':
        return parse_array(value, depth);
      case '"':
        value.kind = JsonValue::Kind::string;
        return parse_string(value.text);
      case 't':
        value.kind = JsonValue::Kind::boolean;
        value.boolean = true;
        return literal("true");
      case 'f':
        value.kind = JsonValue::Kind::boolean;
        return literal("false");
      case 'n':
        return literal("null");
      default:
        return parse_number(value);
    }
  }

  bool parse_object(JsonValue& value, int depth) {
    if (depth >= k_max_depth) {
      return fail("nesting deeper than 64");
    }
    value.kind = JsonValue::Kind::object;
    ++at_;
    skip_space();
    if (at_ < text_.size() && text_[at_] == '}') {
      ++at_;
      return true;
    }
    while (true) {
      skip_space();
      if (at_ >= text_.size() || text_[at_] != '"') {
        return fail("expected a string key");
      }
      std::string key;
      if (!parse_string(key)) {
        return false;
      }
      skip_space();
      if (at_ >= text_.size() || text_[at_] != ':') {
        return fail("expected ':'");
      }
      ++at_;
      JsonValue member;
      if (!parse_value(member, depth + 1)) {
        return false;
      }
      value.members.push_back(JsonMember{std::move(key), std::move(member)});
      skip_space();
      if (at_ < text_.size() && text_[at_] == ',') {
        ++at_;
        continue;
      }
      if (at_ < text_.size() && text_[at_] == '}') {
        ++at_;
        return true;
      }
      return fail("expected ',' or '}'");
    }
  }

  bool parse_array(JsonValue& value, int depth) {
    if (depth >= k_max_depth) {
      return fail("nesting deeper than 64");
    }
    value.kind = JsonValue::Kind::array;
    ++at_;
    skip_space();
    if (at_ < text_.size() && text_[at_] == ']') {
      ++at_;
      return true;
    }
    while (true) {
      JsonValue item;
      if (!parse_value(item, depth + 1)) {
        return false;
      }
      value.items.push_back(std::move(item));
      skip_space();
      if (at_ < text_.size() && text_[at_] == ',') {
        ++at_;
        continue;
      }
      if (at_ < text_.size() && text_[at_] == ']') {
        ++at_;
        return true;
      }
      return fail("expected ',' or ']'");
    }
  }

  bool parse_number(JsonValue& value) {
    const std::size_t start = at_;
    const auto digits = [&] {
      const std::size_t from = at_;
      while (at_ < text_.size() && text_[at_] >= '0' && text_[at_] <= '9') {
        ++at_;
      }
      return at_ > from;
    };
    if (at_ < text_.size() && text_[at_] == '-') {
      ++at_;
    }
    if (at_ < text_.size() && text_[at_] == '0') {
      ++at_;
    } else if (!digits()) {
      at_ = start;
      return fail("expected a value");
    }
    if (at_ < text_.size() && text_[at_] == '.') {
      ++at_;
      if (!digits()) {
        return fail("expected digits after '.'");
      }
    }
    if (at_ < text_.size() && (text_[at_] == 'e' || text_[at_] == 'E')) {
      ++at_;
      if (at_ < text_.size() && (text_[at_] == '+' || text_[at_] == '-')) {
        ++at_;
      }
      if (!digits()) {
        return fail("expected digits in the exponent");
      }
    }
    value.kind = JsonValue::Kind::number;
    value.text = std::string(text_.substr(start, at_ - start));
    return true;
  }

  bool hex4(std::uint32_t& out) {
    if (at_ + 4 > text_.size()) {
      return fail("truncated \\u escape");
    }
    out = 0;
    for (int i = 0; i < 4; ++i) {
      const int digit = hex_digit_value(text_[at_]);
      if (digit < 0) {
        return fail("bad \\u escape");
      }
      ++at_;
      out = (out << 4) | static_cast<std::uint32_t>(digit);
    }
    return true;
  }

  bool parse_string(std::string& out) {
    ++at_;  // the opening quote
    while (true) {
      if (at_ >= text_.size()) {
        return fail("unterminated string");
      }
      const char c = text_[at_];
      if (c == '"') {
        ++at_;
        return true;
      }
      if (static_cast<unsigned char>(c) < 0x20) {
        return fail("control character in a string");
      }
      if (c != '\\') {
        out += c;
        ++at_;
        continue;
      }
      ++at_;
      if (at_ >= text_.size()) {
        return fail("unterminated string");
      }
      const char escape = text_[at_++];
      switch (escape) {
        case '"':
        case '\\':
        case '/':
          out += escape;
          break;
        case 'b':
          out += '\b';
          break;
        case 'f':
          out += '\f';
          break;
        case 'n':
          out += '\n';
          break;
        case 'r':
          out += '\r';
          break;
        case 't':
          out += '\t';
          break;
        case 'u': {
          std::uint32_t cp = 0;
          if (!hex4(cp)) {
            return false;
          }
          if (cp >= 0xD800 && cp <= 0xDBFF && text_.substr(at_, 2) == "\\u") {
            const std::size_t mark = at_;
            at_ += 2;
            std::uint32_t low = 0;
            if (!hex4(low)) {
              return false;
            }
            if (low >= 0xDC00 && low <= 0xDFFF) {
              cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
            } else {
              at_ = mark;
              cp = 0xFFFD;
            }
          } else if (cp >= 0xD800 && cp <= 0xDFFF) {
            cp = 0xFFFD;  // a lone surrogate
          }
          append_utf8(out, cp);
          break;
        }
        default:
          --at_;
          return fail("bad escape in a string");
      }
    }
  }

  std::string_view text_;
  std::size_t at_ = 0;
  JsonError error_;
};

// Length of the valid UTF-8 sequence at `at`, or 0.
std::size_t utf8_length(std::string_view text, std::size_t at) {
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
  const unsigned char lead = byte(at);
  std::size_t length = 0;
  std::uint32_t cp = 0;
  if (lead < 0x80) {
    return 1;
  } else if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
    cp = lead & 0x1F;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    cp = lead & 0x0F;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    cp = lead & 0x07;
  } else {
    return 0;
  }
  if (at + length > text.size()) {
    return 0;
  }
  for (std::size_t i = 1; i < length; ++i) {
    if ((byte(at + i) & 0xC0) != 0x80) {
      return 0;
    }
    cp = (cp << 6) | (byte(at + i) & 0x3F);
  }
  const bool overlong = (length == 3 && cp < 0x800) || (length == 4 && cp < 0x10000);
  if (overlong || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
    return 0;
  }
  return length;
}

}  // namespace

const JsonValue* JsonValue::find(std::string_view key) const {
  for (auto it = members.rbegin(); it != members.rend(); ++it) {
    if (it->key == key) {
      return &it->value;
    }
  }
  return nullptr;
}

tl::expected<JsonValue, JsonError> parse_json(std::string_view text) {
  return Reader(text).document();
}

std::string line_column(std::string_view text, std::size_t offset) {
  std::size_t line = 1;
  std::size_t line_start = 0;
  for (std::size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      line_start = i + 1;
    }
  }
  return std::to_string(line) + ":" + std::to_string(offset - line_start + 1);
}

std::string json_quoted(std::string_view text) {
  static constexpr char k_hex[] = "0123456789abcdef";
  std::string out = "\"";
  for (std::size_t i = 0; i < text.size();) {
    const char c = text[i];
    const auto byte = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\t') {
      out += "\\t";
    } else if (byte < 0x20 || byte == 0x7F) {
      out += "\\u00";
      out += k_hex[byte >> 4];
      out += k_hex[byte & 0xF];
    } else if (byte >= 0x80) {
      const std::size_t length = utf8_length(text, i);
      if (length == 0) {
        out += "\xEF\xBF\xBD";
        ++i;
        continue;
      }
      out.append(text.substr(i, length));
      i += length;
      continue;
    } else {
      out += c;
    }
    ++i;
  }
  out += '"';
  return out;
}

}  // namespace gpuport
