// Numbers as profilers write them: a JSON number, or a string holding one ("769537350099" in
// rocprof's Chrome JSON), converted exactly to a scaled integer.
#pragma once

#include <cstdint>
#include <optional>

#include "profile/json/json_reader.h"

namespace gpuport::json {

// Reads the next value. Its scaled integer (see scaled_decimal) when it is a number or a string
// holding one; empty, with the value consumed, for anything else. Syntax errors still fail the
// reader.
std::optional<std::int64_t> read_scaled_number(JsonReader& json, int scale);

// The same, narrowed to an int32 id (a device, a stream); -1 when absent or out of range.
std::int32_t read_small_id(JsonReader& json);

}  // namespace gpuport::json
