#include "profile/json/exact_decimal.h"

#include <limits>

namespace gpuport::json {
namespace {

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

// More significant digits than this cannot make a result that fits in 64 bits.
constexpr int k_kept_digits = 40;
constexpr int k_exponent_cap = 100000;

}  // namespace

std::optional<std::int64_t> scaled_decimal(std::string_view text, int scale) {
  std::size_t i = 0;
  const std::size_t n = text.size();
  const bool negative = i < n && text[i] == '-';
  if (negative)
    ++i;
  if (i == n || !is_digit(text[i]))
    return std::nullopt;
  if (text[i] == '0' && i + 1 < n && is_digit(text[i + 1]))
    return std::nullopt;  // a leading zero

  // value = digits * 10^exponent, with leading zeros dropped from `digits`.
  char digits[k_kept_digits];
  int count = 0;
  long exponent = 0;
  const auto take = [&](char c, bool fraction) {
    if (count == 0 && c == '0') {
      if (fraction)
        --exponent;
      return;
    }
    if (count < k_kept_digits) {
      digits[count++] = c;
      if (fraction)
        --exponent;
    } else if (!fraction) {
      ++exponent;  // an integer digit beyond those kept still scales the value
    }
  };
  while (i < n && is_digit(text[i]))
    take(text[i++], false);
  if (i < n && text[i] == '.') {
    ++i;
    if (i == n || !is_digit(text[i]))
      return std::nullopt;
    while (i < n && is_digit(text[i]))
      take(text[i++], true);
  }
  if (i < n && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    bool exponent_negative = false;
    if (i < n && (text[i] == '+' || text[i] == '-'))
      exponent_negative = text[i++] == '-';
    if (i == n || !is_digit(text[i]))
      return std::nullopt;
    long written = 0;
    while (i < n && is_digit(text[i])) {
      if (written < k_exponent_cap)
        written = written * 10 + (text[i] - '0');
      ++i;
    }
    exponent += exponent_negative ? -written : written;
  }
  if (i != n)
    return std::nullopt;
  exponent += scale;

  if (count == 0)
    return 0;
  // Keep the digits above the decimal point; the first one below it decides the rounding.
  long kept = count + exponent;
  if (kept > 19)
    return std::nullopt;  // at least 10^19: beyond int64
  bool round_up = false;
  if (kept < count) {
    if (kept < 0)
      return 0;
    round_up = digits[kept] >= '5';
  }
  unsigned __int128 value = 0;
  for (long d = 0; d < kept; ++d)
    value = value * 10 + static_cast<unsigned>(d < count ? digits[d] - '0' : 0);
  if (round_up)
    ++value;
  const auto limit =
      static_cast<unsigned __int128>(std::numeric_limits<std::int64_t>::max()) + (negative ? 1 : 0);
  if (value > limit)
    return std::nullopt;
  if (negative)
    return static_cast<std::int64_t>(-static_cast<__int128>(value));
  return static_cast<std::int64_t>(value);
}

}  // namespace gpuport::json
