// A TOML document as a flat map of dotted keys to scalar values and arrays of strings, with the
// line each key is set on. cpptoml parses; it keeps no positions, so lines come from a light pass
// over the text.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include <tl/expected.hpp>

namespace gpuport {

enum class FlatKind : std::uint8_t { Integer, Float, Boolean, String, StringArray, Table, Other };
// "an integer", "a number", "an array of strings", "a table", ... ("a date or a time": Other)
std::string_view flat_kind_name(FlatKind kind);

struct FlatValue {
  FlatKind kind = FlatKind::Other;
  std::variant<std::monostate, std::int64_t, double, bool, std::string, std::vector<std::string>>
      value;
  std::uint32_t line = 0;  // 0 when the pass over the text could not place it

  double number() const;     // Integer or Float
  std::string toml() const;  // as TOML writes it: 2.0, 8, true, "H100", ["a/", "b"]
};

// Leaves are scalars and arrays of strings; an empty table is one entry of kind Table, a date or a
// time one of kind Other.
using FlatToml = std::map<std::string, FlatValue, std::less<>>;

// Errors are one line: "PATH:LINE: what cpptoml said". An array of anything but strings (numbers,
// tables, arrays) is an error naming its key and line.
tl::expected<FlatToml, std::string> parse_flat_toml(std::string_view text, const std::string& path);

// Dotted key -> the line that sets it (or opens its table), from table headers and `key =` lines.
std::map<std::string, std::uint32_t, std::less<>> toml_key_lines(std::string_view text);

}  // namespace gpuport
