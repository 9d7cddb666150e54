// Exact number parsing for profiler CSV fields: integers, decimal durations in a named unit
// converted to integer nanoseconds without floating point, and labelled ids ("Agent 4").
#pragma once

#include <cstdint>
#include <string_view>

#include <tl/expected.hpp>

namespace gpuport {

enum class NumberProblem : std::uint8_t { NotANumber, OutOfRange };

// "123", " -4 ", "+7": an optionally signed decimal integer; spaces and tabs around it are allowed.
tl::expected<std::int64_t, NumberProblem> parse_integer(std::string_view text);

// "1234.5678" in units of `unit_ns` nanoseconds (1, 1000, 1000000 or 1000000000), converted
// exactly to nanoseconds; digits below one nanosecond round half away from zero.
tl::expected<std::int64_t, NumberProblem> parse_decimal_ns(std::string_view text,
                                                           std::int64_t unit_ns);

// "Agent 4", "4": the integer after an optional word label (rocprofv3 prints ids both ways).
tl::expected<std::int64_t, NumberProblem> parse_labelled_integer(std::string_view text);

// Nanoseconds per unit for a unit spelled in a header ("ns", "us", "μs", "ms", "s", "nsec",
// "usec", "msec", "sec"); 0 when the spelling is unknown.
std::int64_t unit_nanoseconds(std::string_view unit);

}  // namespace gpuport
