#include "profile/json/json_numbers.h"

#include <limits>

#include "profile/json/exact_decimal.h"

namespace gpuport::json {

std::optional<std::int64_t> read_scaled_number(JsonReader& json, int scale) {
  switch (json.peek()) {
    case ValueKind::Number:
      return scaled_decimal(json.read_number(), scale);
    case ValueKind::String:
      return scaled_decimal(json.read_string(), scale);
    default:
      json.skip_value();
      return std::nullopt;
  }
}

std::int32_t read_small_id(JsonReader& json) {
  const std::optional<std::int64_t> value = read_scaled_number(json, 0);
  if (!value || *value < std::numeric_limits<std::int32_t>::min() ||
      *value > std::numeric_limits<std::int32_t>::max()) {
    return -1;
  }
  return static_cast<std::int32_t>(*value);
}

}  // namespace gpuport::json
