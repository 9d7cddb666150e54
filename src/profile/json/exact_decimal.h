// Exact conversion of decimal text to a scaled integer: Kineto's microseconds ("18.112",
// "1428625731622.25", "769537350099", "1.5e3") become integer nanoseconds without going through
// a binary floating-point value, so sums of thousands of durations are exact.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace gpuport::json {

// `text` (JSON number syntax) times 10^`scale`, rounded to the nearest integer (halves away from
// zero). Empty when `text` is not a JSON number or the result does not fit in 64 bits.
std::optional<std::int64_t> scaled_decimal(std::string_view text, int scale);

}  // namespace gpuport::json
