#include "profile/csv/csv_numbers.h"

namespace gpuport {
namespace {

std::string_view trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t'))
    text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t'))
    text.remove_suffix(1);
  return text;
}

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

// Accumulates decimal digits into a non-negative value; false on overflow.
bool append_digit(std::int64_t& value, char digit) {
  return !__builtin_mul_overflow(value, 10, &value) &&
         !__builtin_add_overflow(value, digit - '0', &value);
}

}  // namespace

tl::expected<std::int64_t, NumberProblem> parse_integer(std::string_view text) {
  text = trim(text);
  bool negative = false;
  if (!text.empty() && (text.front() == '-' || text.front() == '+')) {
    negative = text.front() == '-';
    text.remove_prefix(1);
  }
  if (text.empty())
    return tl::unexpected(NumberProblem::NotANumber);
  std::int64_t value = 0;
  bool overflow = false;
  for (char c : text) {
    if (!is_digit(c))
      return tl::unexpected(NumberProblem::NotANumber);
    overflow = overflow || !append_digit(value, c);
  }
  if (overflow)
    return tl::unexpected(NumberProblem::OutOfRange);
  return negative ? -value : value;
}

tl::expected<std::int64_t, NumberProblem> parse_decimal_ns(std::string_view text,
                                                           std::int64_t unit_ns) {
  int exact_digits = 0;  // fraction digits that are whole nanoseconds
  for (std::int64_t unit = unit_ns; unit > 1; unit /= 10)
    ++exact_digits;
  text = trim(text);
  bool negative = false;
  if (!text.empty() && (text.front() == '-' || text.front() == '+')) {
    negative = text.front() == '-';
    text.remove_prefix(1);
  }
  const std::size_t dot = text.find('.');
  const std::string_view whole = text.substr(0, dot);
  const std::string_view fraction =
      dot == std::string_view::npos ? std::string_view{} : text.substr(dot + 1);
  if (whole.empty() && fraction.empty())
    return tl::unexpected(NumberProblem::NotANumber);
  std::int64_t value = 0;
  bool overflow = false;
  for (char c : whole) {
    if (!is_digit(c))
      return tl::unexpected(NumberProblem::NotANumber);
    overflow = overflow || !append_digit(value, c);
  }
  for (int i = 0; i < static_cast<int>(fraction.size()) || i < exact_digits; ++i) {
    const char c = i < static_cast<int>(fraction.size()) ? fraction[i] : '0';
    if (!is_digit(c))
      return tl::unexpected(NumberProblem::NotANumber);
    if (i < exact_digits) {
      overflow = overflow || !append_digit(value, c);
    } else if (i == exact_digits && c >= '5') {
      overflow = overflow || __builtin_add_overflow(value, 1, &value);
    }
  }
  if (overflow)
    return tl::unexpected(NumberProblem::OutOfRange);
  return negative ? -value : value;
}

tl::expected<std::int64_t, NumberProblem> parse_labelled_integer(std::string_view text) {
  text = trim(text);
  const std::size_t space = text.find_last_of(" \t");
  if (space != std::string_view::npos) {
    const std::string_view label = text.substr(0, space);
    for (char c : label) {
      const bool letter = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
      if (!letter && c != ' ' && c != '\t')
        return tl::unexpected(NumberProblem::NotANumber);
    }
    text = text.substr(space + 1);
  }
  return parse_integer(text);
}

std::int64_t unit_nanoseconds(std::string_view unit) {
  if (unit == "ns" || unit == "nsec")
    return 1;
  if (unit == "us" || unit == "usec" || unit == "\xC2\xB5s" || unit == "\xCE\xBCs")
    return 1000;
  if (unit == "ms" || unit == "msec")
    return 1000000;
  if (unit == "s" || unit == "sec")
    return 1000000000;
  return 0;
}

}  // namespace gpuport
