// Flattening cpptoml's tree into dotted keys, and placing each key on a line of the text.
#include "audit/toml_flat.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <sstream>
#include <stdexcept>
#include <vector>

#include <cpptoml.h>
#include <fmt/format.h>

namespace gpuport {

namespace {

// cpptoml recurses once per nested array or inline table, so a hostile file could exhaust the
// stack. Counting nesting outside strings is not safe (a quote cpptoml reads differently from us
// would hide brackets), so the bound is on every '[' and '{' of the file: depth can never exceed
// it, and a gpuport config has a few dozen at most.
constexpr int k_max_brackets = 256;
constexpr int k_max_key_parts = 64;  // a config's keys have four at most

std::string one_line(std::string text) {
  for (char& c : text) {
    if (c == '\n' || c == '\r') {
      c = ' ';
    }
  }
  return text;
}

// The line of the first '[' or '{' past the limit; 0 when the file stays within it.
std::uint32_t line_over_bracket_limit(std::string_view text) {
  int brackets = 0;
  std::uint32_t line = 1;
  for (const char c : text) {
    if (c == '\n') {
      ++line;
    } else if ((c == '[' || c == '{') && ++brackets > k_max_brackets) {
      return line;
    }
  }
  return 0;
}

// The line of the first key with more than k_max_key_parts dotted parts (`a.b.c = 1`, `[a.b.c]`):
// each part is a level of tables, which the parse and flatten() walk recursively. 0 when none.
std::uint32_t line_over_key_depth(std::string_view text) {
  std::uint32_t line = 0;
  while (!text.empty()) {
    ++line;
    const std::size_t end = text.find('\n');
    std::string_view row = text.substr(0, end);
    text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
    const std::size_t first = row.find_first_not_of(" \t");
    if (first == std::string_view::npos || row[first] == '#') {
      continue;
    }
    row.remove_prefix(first);
    // The key: a table header's name, or what stands before the '=' of a key/value line.
    const std::size_t key_end = row.front() == '[' ? row.find(']') : row.find('=');
    if (key_end == std::string_view::npos) {
      continue;  // a line inside a multi-line value
    }
    int dots = 0;
    char quote = 0;
    for (const char c : row.substr(0, key_end)) {
      if (quote != 0) {
        quote = c == quote ? 0 : quote;
      } else if (c == '"' || c == '\'') {
        quote = c;
      } else if (c == '.' && ++dots >= k_max_key_parts) {
        return line;
      }
    }
  }
  return 0;
}

std::string format_double(double value) {
  if (value == std::floor(value) && std::abs(value) < 1e15) {
    return fmt::format("{:.1f}", value);  // 100000000.0, not 1e+08
  }
  char buffer[64];
  auto [end, error] = std::to_chars(buffer, buffer + sizeof(buffer), value);
  return std::string(buffer, error == std::errc() ? end : buffer);
}

// What a value that may not stand in an array is, for the error that names it.
std::string_view element_kind_name(const cpptoml::base& node) {
  if (node.is_table()) {
    return "a table";
  }
  if (node.is_array() || node.is_table_array()) {
    return "an array";
  }
  if (node.as<std::int64_t>()) {
    return "an integer";
  }
  if (node.as<double>()) {
    return "a number";
  }
  if (node.as<bool>()) {
    return "true or false";
  }
  return "a date or a time";
}

// The strings of an array; when an element is not a string, `bad` says which and what it is.
std::vector<std::string> array_strings(const cpptoml::array& array, std::string& bad) {
  std::vector<std::string> strings;
  const auto& elements = array.get();
  for (std::size_t i = 0; i < elements.size(); ++i) {
    auto text = elements[i]->as<std::string>();
    if (!text) {
      bad = fmt::format("element {} is {}", i + 1, element_kind_name(*elements[i]));
      return {};
    }
    strings.push_back(text->get());
  }
  return strings;
}

// `bad_arrays`: key -> what is wrong with an array that holds something other than strings.
void flatten(const cpptoml::table& table, const std::string& prefix, FlatToml& out,
             std::map<std::string, std::string>& bad_arrays) {
  if (table.empty() && !prefix.empty()) {
    out[prefix] = FlatValue{FlatKind::Table, {}, 0};
  }
  for (const auto& [key, node] : table) {
    const std::string name = prefix.empty() ? key : prefix + "." + key;
    FlatValue value;
    if (node->is_table()) {
      flatten(*node->as_table(), name, out, bad_arrays);
      continue;
    }
    if (node->is_table_array()) {
      bad_arrays[name] = "it is an array of tables";
    } else if (auto array = node->as_array()) {
      std::string bad;
      std::vector<std::string> strings = array_strings(*array, bad);
      if (!bad.empty()) {
        bad_arrays[name] = bad;
      }
      value = {FlatKind::StringArray, std::move(strings), 0};
    } else if (auto integer = node->as<std::int64_t>()) {
      value = {FlatKind::Integer, integer->get(), 0};
    } else if (auto real = node->as<double>()) {
      value = {FlatKind::Float, real->get(), 0};
    } else if (auto boolean = node->as<bool>()) {
      value = {FlatKind::Boolean, boolean->get(), 0};
    } else if (auto text = node->as<std::string>()) {
      value = {FlatKind::String, text->get(), 0};
    }
    out[name] = std::move(value);
  }
}

// A TOML basic string: quotes, backslashes and control characters escaped.
std::string toml_string(std::string_view text) {
  std::string out = "\"";
  for (const char c : text) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\r':
        out += "\\r";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
          out += fmt::format("\\u{:04X}", static_cast<unsigned char>(c));
        } else {
          out += c;
        }
    }
  }
  return out + "\"";
}

bool is_bare_key_char(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '-';
}

void skip_blanks(std::string_view line, std::size_t& i) {
  while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) {
    ++i;
  }
}

// Reads `a."b c".d` from line[i]; stops at the first character that cannot continue a key.
std::string read_key(std::string_view line, std::size_t& i) {
  std::string key;
  while (true) {
    skip_blanks(line, i);
    std::string part;
    if (i < line.size() && (line[i] == '"' || line[i] == '\'')) {
      const char quote = line[i++];
      while (i < line.size() && line[i] != quote) {
        if (quote == '"' && line[i] == '\\' && i + 1 < line.size()) {
          ++i;
        }
        part += line[i++];
      }
      ++i;
    } else {
      while (i < line.size() && is_bare_key_char(line[i])) {
        part += line[i++];
      }
    }
    if (part.empty()) {
      return {};
    }
    key += key.empty() ? part : "." + part;
    skip_blanks(line, i);
    if (i < line.size() && line[i] == '.') {
      ++i;
      continue;
    }
    return key;
  }
}

// Net [ / { nesting a value opens on its line, outside strings and comments; `in_string` tracks
// an open multi-line string across lines.
int value_nesting(std::string_view rest, std::string& in_string) {
  int depth = 0;
  std::size_t i = 0;
  while (i < rest.size()) {
    if (!in_string.empty()) {
      const std::size_t close = rest.find(in_string, i);
      if (close == std::string_view::npos) {
        return depth;
      }
      i = close + in_string.size();
      in_string.clear();
      continue;
    }
    const char c = rest[i];
    if (c == '#') {
      break;
    }
    if (c == '"' || c == '\'') {
      if (rest.substr(i, 3) == std::string(3, c)) {
        in_string = std::string(3, c);
        i += 3;
        continue;
      }
      ++i;
      while (i < rest.size() && rest[i] != c) {
        i += (c == '"' && rest[i] == '\\') ? 2 : 1;
      }
      ++i;
      continue;
    }
    if (c == '[' || c == '{') {
      ++depth;
    } else if (c == ']' || c == '}') {
      --depth;
    }
    ++i;
  }
  return depth;
}

}  // namespace

std::string_view flat_kind_name(FlatKind kind) {
  switch (kind) {
    case FlatKind::Integer:
      return "an integer";
    case FlatKind::Float:
      return "a number";
    case FlatKind::Boolean:
      return "true or false";
    case FlatKind::String:
      return "a string";
    case FlatKind::StringArray:
      return "an array of strings";
    case FlatKind::Table:
      return "a table";
    case FlatKind::Other:
      break;
  }
  return "a date or a time";
}

double FlatValue::number() const {
  if (const auto* integer = std::get_if<std::int64_t>(&value)) {
    return static_cast<double>(*integer);
  }
  if (const auto* real = std::get_if<double>(&value)) {
    return *real;
  }
  return 0;
}

std::string FlatValue::toml() const {
  switch (kind) {
    case FlatKind::Integer:
      return std::to_string(std::get<std::int64_t>(value));
    case FlatKind::Float:
      return format_double(std::get<double>(value));
    case FlatKind::Boolean:
      return std::get<bool>(value) ? "true" : "false";
    case FlatKind::String:
      return toml_string(std::get<std::string>(value));
    case FlatKind::StringArray: {
      std::string out = "[";
      for (const std::string& text : std::get<std::vector<std::string>>(value)) {
        out += (out.size() > 1 ? ", " : "") + toml_string(text);
      }
      return out + "]";
    }
    case FlatKind::Table:
      return "{}";
    case FlatKind::Other:
      break;
  }
  return "(a date or a time)";
}

std::map<std::string, std::uint32_t, std::less<>> toml_key_lines(std::string_view text) {
  std::map<std::string, std::uint32_t, std::less<>> lines;
  std::string prefix;
  std::string in_string;  // the closing quotes of an open multi-line string
  int nesting = 0;        // of a multi-line array or inline table
  std::uint32_t number = 0;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) {
      end = text.size();
    }
    const std::string_view line = text.substr(start, end - start);
    start = end + 1;
    ++number;
    if (!in_string.empty() || nesting > 0) {
      nesting += value_nesting(line, in_string);
      continue;
    }
    std::size_t i = 0;
    skip_blanks(line, i);
    if (i >= line.size() || line[i] == '#') {
      continue;
    }
    if (line[i] == '[') {
      i += (i + 1 < line.size() && line[i + 1] == '[') ? 2 : 1;
      prefix = read_key(line, i);
      lines.emplace(prefix, number);
      continue;
    }
    const std::string key = read_key(line, i);
    if (key.empty() || i >= line.size() || line[i] != '=') {
      continue;
    }
    lines.emplace(prefix.empty() ? key : prefix + "." + key, number);
    nesting = value_nesting(line.substr(i + 1), in_string);
  }
  return lines;
}

tl::expected<FlatToml, std::string> parse_flat_toml(std::string_view text,
                                                    const std::string& path) {
  // A NUL byte is no TOML (the format is UTF-8 text) and would cut the parser's message short
  // and drop its position; inside a string it would pass into a glob. Refused here, with where.
  if (const std::size_t nul = text.find('\0'); nul != std::string_view::npos) {
    const std::string_view before = text.substr(0, nul);
    const std::size_t line_start = before.rfind('\n');
    const std::size_t line =
        1 + static_cast<std::size_t>(std::count(before.begin(), before.end(), '\n'));
    const std::size_t column =
        nul - (line_start == std::string_view::npos ? 0 : line_start + 1) + 1;
    return tl::unexpected(path + ":" + std::to_string(line) + ":" + std::to_string(column) +
                          ": a NUL byte: a TOML config is text");
  }
  if (const std::uint32_t line = line_over_bracket_limit(text); line != 0) {
    return tl::unexpected(path + ":" + std::to_string(line) + ": more than " +
                          std::to_string(k_max_brackets) +
                          " '[' and '{' in one config (tables, arrays, inline tables)");
  }
  if (const std::uint32_t line = line_over_key_depth(text); line != 0) {
    return tl::unexpected(path + ":" + std::to_string(line) + ": a key of more than " +
                          std::to_string(k_max_key_parts) + " dotted parts");
  }
  std::shared_ptr<cpptoml::table> root;
  try {
    std::istringstream in{std::string(text)};
    cpptoml::parser parser{in};
    root = parser.parse();
  } catch (const cpptoml::parse_exception& error) {
    std::string message = one_line(error.what());
    const std::string marker = " at line ";
    const std::size_t at = message.rfind(marker);
    if (at != std::string::npos) {
      return tl::unexpected(path + ":" + message.substr(at + marker.size()) + ": " +
                            message.substr(0, at));
    }
    return tl::unexpected(path + ": " + message);
  } catch (const std::out_of_range&) {
    return tl::unexpected(path + ": a number is out of range");
  } catch (const std::exception& error) {
    return tl::unexpected(path + ": " + one_line(error.what()));
  }
  FlatToml flat;
  std::map<std::string, std::string> bad_arrays;
  flatten(*root, "", flat, bad_arrays);
  const auto lines = toml_key_lines(text);
  for (auto& [key, value] : flat) {
    // An inline table's keys are not on lines of their own: take the nearest enclosing key.
    std::string_view probe = key;
    while (true) {
      if (auto it = lines.find(probe); it != lines.end()) {
        value.line = it->second;
        break;
      }
      const std::size_t dot = probe.rfind('.');
      if (dot == std::string_view::npos) {
        break;
      }
      probe = probe.substr(0, dot);
    }
  }
  // The first array of the file that holds something other than strings is the error.
  const FlatToml::value_type* first_bad = nullptr;
  std::string_view why;
  for (const auto& [key, problem] : bad_arrays) {
    const auto& entry = *flat.find(key);
    if (first_bad == nullptr || entry.second.line < first_bad->second.line) {
      first_bad = &entry;
      why = problem;
    }
  }
  if (first_bad != nullptr) {
    const std::string where =
        first_bad->second.line > 0 ? path + ":" + std::to_string(first_bad->second.line) : path;
    return tl::unexpected(one_line(fmt::format("{}: '{}': an array may hold only strings ({})",
                                               where, first_bad->first, why)));
  }
  return flat;
}

}  // namespace gpuport
